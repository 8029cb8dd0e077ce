#include "cipher.h"

#include <algorithm>
#include <cstring>

#include "aes.h"
#include "generators.h"
#include "iter/tensor_iter.h"
#include "ops/conversion.h"
#include "tensor/errors.h"

namespace crypto_rng {

namespace {

using tz::Tensor;
constexpr int64_t kBlock = aes::kBlockBytes;
constexpr int64_t kGrainBlocks = 4096;  // 64 KB per parallel task, at least

enum class Mode { kEcb, kCtr };

int64_t nbytes(const Tensor& t) { return t.numel() * t.itemsize(); }

// After the size checks, as torchcsprng orders them: the cipher and its key, then the mode.
Mode check_cipher(const Tensor& key, const std::string& cipher, const std::string& mode, const char* op) {
  TZ_CHECK(cipher == "aes128", Runtime, op, "(): supports the \"aes128\" cipher, \"", cipher,
           "\" is not supported");
  TZ_CHECK(nbytes(key) == aes::kKeyBytes, Runtime, op,
           "(): the key tensor must have 16 bytes (128 bits), but it has ", nbytes(key));
  if (mode == "ecb") return Mode::kEcb;
  if (mode == "ctr") return Mode::kCtr;
  tz::fail(tz::ErrorKind::Runtime, op, "(): supports the \"ecb\" and \"ctr\" modes, \"", mode, "\" is not supported");
}

// Elements of the output must not share memory (an expanded tensor cannot take the bytes).
void check_writable(const Tensor& t, const char* op) {
  for (int64_t d = 0; d < t.dim(); ++d)
    TZ_CHECK(t.sizes()[d] <= 1 || t.strides()[d] != 0, Runtime, op,
             "(): more than one element of the output tensor refers to a single memory location; "
             "clone() it first");
}

aes::RoundKeys key_schedule(const aes::Impl& impl, const Tensor& key) {
  const Tensor dense = tz::contiguous(key);
  uint8_t bytes[aes::kKeyBytes];
  std::memcpy(bytes, dense.raw_data(), sizeof(bytes));
  const aes::RoundKeys keys = impl.expand_key(bytes);
  secure_wipe(bytes, sizeof(bytes));
  return keys;
}

// Copies t's elements, in memory order, into (kGather) or out of a dense byte buffer.
template <bool kGather>
void move_elements(const Tensor& t, uint8_t* dense) {
  Tensor keep = t;
  const tz::TensorIter iter({keep}, keep.sizes());
  const int64_t size = t.itemsize();
  tz::parallel_for(0, t.numel(), tz::TensorIter::kGrain, [&](int64_t begin, int64_t end) {
    uint8_t* d = dense + begin * size;
    iter.run_range([&](char** data, const int64_t* strides, int64_t n) {
      char* p = data[0];
      for (int64_t i = 0; i < n; ++i, p += strides[0], d += size) {
        if (kGather) std::memcpy(d, p, size);
        else std::memcpy(p, d, size);
      }
    }, begin, end);
  });
}

bool overlaps(const uint8_t* a, int64_t na, const uint8_t* b, int64_t nb) { return a < b + nb && b < a + na; }

// Runs the cipher from src (in_bytes) to dst (out_bytes), in parallel over whole blocks;
// the one block that is in only one of the buffers (the input's zero-padded end, or the
// output's truncated end) goes through a local block.
void transform(const aes::Impl& impl, Mode mode, bool decrypting, const aes::RoundKeys& keys, const uint8_t* src,
               int64_t in_bytes, uint8_t* dst, int64_t out_bytes) {
  auto blocks = [&](const uint8_t* in, uint8_t* out, int64_t first, int64_t n) {
    if (mode == Mode::kCtr) impl.ctr(keys, static_cast<uint64_t>(first), in, out, n);
    else if (decrypting) impl.decrypt_ecb(keys, in, out, n);
    else impl.encrypt_ecb(keys, in, out, n);
  };
  const int64_t whole = std::min(in_bytes, out_bytes) / kBlock;
  tz::parallel_for(0, whole, kGrainBlocks,
                   [&](int64_t b, int64_t e) { blocks(src + b * kBlock, dst + b * kBlock, b, e - b); });
  if ((std::max(in_bytes, out_bytes) + kBlock - 1) / kBlock > whole) {
    uint8_t block[kBlock] = {};
    std::memcpy(block, src + whole * kBlock, in_bytes - whole * kBlock);
    blocks(block, block, whole, 1);
    std::memcpy(dst + whole * kBlock, block, out_bytes - whole * kBlock);
    secure_wipe(block, sizeof(block));
  }
}

Tensor run(const char* op, bool decrypting, const Tensor& input, const Tensor& output, const Tensor& key,
           const std::string& cipher, const std::string& mode) {
  const int64_t in_bytes = nbytes(input), out_bytes = nbytes(output);
  if (decrypting) {
    TZ_CHECK(out_bytes <= in_bytes && in_bytes - out_bytes < kBlock, Runtime, op, "(): the output has ", out_bytes,
             " bytes, but it must have as many bytes as the input (", in_bytes, ") or up to 15 fewer");
    TZ_CHECK(in_bytes % kBlock == 0, Runtime, op, "(): the input has ", in_bytes,
             " bytes, which is not a whole number of 16-byte blocks");
  } else {
    const int64_t padded = (in_bytes + kBlock - 1) / kBlock * kBlock;
    TZ_CHECK(out_bytes == padded, Runtime, op, "(): the output has ", out_bytes,
             " bytes, but it must have the input's size in bytes (", in_bytes,
             ") rounded up to whole 16-byte blocks (", padded, ")");
  }
  const Mode m = check_cipher(key, cipher, mode, op);
  check_writable(output, op);
  if (in_bytes == 0) return output;
  const aes::Impl& impl = aes::active();
  aes::RoundKeys keys = key_schedule(impl, key);

  Tensor in_dense, out_dense;  // dense copies, for layouts that are not contiguous
  const uint8_t* src = static_cast<const uint8_t*>(input.raw_data());
  uint8_t* dst = static_cast<uint8_t*>(output.raw_data());
  if (!output.is_contiguous()) {
    out_dense = Tensor::empty({out_bytes}, tz::DType::UInt8);
    dst = out_dense.data<uint8_t>();
  }
  // A non-contiguous input, or one the output partly overwrites before it is read.
  if (!input.is_contiguous() || (src != dst && overlaps(src, in_bytes, dst, out_bytes))) {
    in_dense = Tensor::empty({in_bytes}, tz::DType::UInt8);
    if (input.is_contiguous()) std::memcpy(in_dense.raw_data(), src, in_bytes);
    else move_elements<true>(input, in_dense.data<uint8_t>());
    src = in_dense.data<uint8_t>();
  }
  transform(impl, m, decrypting, keys, src, in_bytes, dst, out_bytes);
  if (out_dense.defined()) move_elements<false>(output, out_dense.data<uint8_t>());
  secure_wipe(&keys, sizeof(keys));
  output.bump_version();
  return output;
}

}  // namespace

Tensor encrypt(const Tensor& input, const Tensor& output, const Tensor& key, const std::string& cipher,
               const std::string& mode) {
  return run("encrypt", false, input, output, key, cipher, mode);
}

Tensor decrypt(const Tensor& input, const Tensor& output, const Tensor& key, const std::string& cipher,
               const std::string& mode) {
  return run("decrypt", true, input, output, key, cipher, mode);
}

}  // namespace crypto_rng
