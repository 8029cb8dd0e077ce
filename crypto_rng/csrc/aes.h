// AES-128 (FIPS-197): key expansion and block runs in three implementations chosen at run time:
// VAES + AVX-512 (16 blocks per step), AES-NI (8 blocks per step) and a constant-time
// portable one (bitsliced S-box, no table lookups). Every implementation processes runs of
// independent blocks, which is what ECB and CTR need.
//
// The implementation in use is the fastest the CPU supports, unless the environment says
// otherwise when it is first needed:
//   CRYPTO_RNG_AES=portable|aesni|vaes   (an unsupported choice falls back to the best below it)
//   CRYPTO_RNG_FORCE_PORTABLE=1          (the same as CRYPTO_RNG_AES=portable)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace crypto_rng::aes {

constexpr int kBlockBytes = 16;
constexpr int kKeyBytes = 16;
constexpr int kRounds = 10;

// The expanded key: round key r is bytes[16 r .. 16 r + 15], in FIPS-197 byte order.
struct RoundKeys {
  alignas(16) uint8_t bytes[(kRounds + 1) * kBlockBytes];
};

// One implementation. `in` and `out` hold `n` blocks and may be the same buffer.
struct Impl {
  const char* name;
  RoundKeys (*expand_key)(const uint8_t key[kKeyBytes]);
  void (*encrypt_ecb)(const RoundKeys& k, const uint8_t* in, uint8_t* out, int64_t n);
  void (*decrypt_ecb)(const RoundKeys& k, const uint8_t* in, uint8_t* out, int64_t n);
  // Block i of out = block i of in XOR AES_k(counter block of `first + i`), where the
  // counter block of c is the little-endian uint64 c followed by 8 zero bytes. A null `in`
  // writes the keystream itself.
  void (*ctr)(const RoundKeys& k, uint64_t first, const uint8_t* in, uint8_t* out, int64_t n);
};

// The implementations, one per file; null when the CPU (or the build) lacks the instructions.
const Impl& portable_impl();
const Impl* aesni_impl();
const Impl* vaes_impl();

// The implementation in use (see the environment variables above).
const Impl& active();
// Every implementation this CPU can run, slowest first.
std::vector<const Impl*> available();
// Switches the implementation in use (tests); throws for an unknown or unsupported name.
void set_active(const std::string& name);

// The 16-byte counter block of index c.
inline void counter_block(uint64_t c, uint8_t out[kBlockBytes]) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(c >> (8 * i));
  for (int i = 8; i < kBlockBytes; ++i) out[i] = 0;
}

}  // namespace crypto_rng::aes
