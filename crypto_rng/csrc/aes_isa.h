// The instruction-set implementations, each defined in a file compiled with its own flags.
// Only aes_dispatch.cpp hands them out, after checking that the CPU can run them.
#pragma once
#include "aes.h"

namespace crypto_rng::aes {

extern const Impl kAesniImpl;  // aes_ni.cpp: -maes
RoundKeys aesni_expand_key(const uint8_t key[kKeyBytes]);  // aes_ni.cpp, for both
extern const Impl kVaesImpl;   // aes_vaes.cpp: -mvaes -mavx512f -maes

}  // namespace crypto_rng::aes
