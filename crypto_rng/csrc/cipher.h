// crypto_rng.encrypt / decrypt: AES-128 in ECB or CTR mode over the raw bytes of tensors
// of any dtype and shape (torchcsprng 0.2 semantics).
//
// Bytes are read and written element by element in memory order (a contiguous tensor's
// own byte order; for other layouts the order torchcsprng's TensorIterator visits them).
// encrypt: the input is zero-padded to whole 16-byte blocks and the output must hold
//   exactly that many bytes.
// decrypt: the input must be whole blocks; the output may be up to 15 bytes shorter (the
//   padding is dropped). input and output may be the same tensor.
// CTR: keystream block i = AES_key(i as a little-endian uint64, then 8 zero bytes); no
//   nonce, decrypt = encrypt. The key is any tensor of exactly 16 bytes (its elements'
//   bytes in logical order).
#pragma once
#include <string>

#include "tensor/tensor.h"

namespace crypto_rng {

tz::Tensor encrypt(const tz::Tensor& input, const tz::Tensor& output, const tz::Tensor& key,
                   const std::string& cipher, const std::string& mode);
tz::Tensor decrypt(const tz::Tensor& input, const tz::Tensor& output, const tz::Tensor& key,
                   const std::string& cipher, const std::string& mode);

}  // namespace crypto_rng
