// AES-128 with the AES-NI instructions (compiled with -maes; used only when the CPU has
// them). Eight independent blocks are in flight per step to cover aesenc's latency.
#include <immintrin.h>

#include "aes_isa.h"

namespace crypto_rng::aes {

namespace {

constexpr int kWidth = 8;

inline __m128i load(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store(uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }

struct EncKeys {
  __m128i k[kRounds + 1];
  explicit EncKeys(const RoundKeys& rk) {
    for (int r = 0; r <= kRounds; ++r) k[r] = load(rk.bytes + r * kBlockBytes);
  }
};

// The equivalent inverse cipher's keys (FIPS-197 5.3.5): InvMixColumns of the middle keys.
struct DecKeys {
  __m128i k[kRounds + 1];
  explicit DecKeys(const RoundKeys& rk) {
    EncKeys e(rk);
    k[0] = e.k[kRounds];
    for (int r = 1; r < kRounds; ++r) k[r] = _mm_aesimc_si128(e.k[kRounds - r]);
    k[kRounds] = e.k[0];
  }
};

template <int W>
inline void encrypt_blocks(__m128i* x, const EncKeys& k) {
  for (int j = 0; j < W; ++j) x[j] = _mm_xor_si128(x[j], k.k[0]);
  for (int r = 1; r < kRounds; ++r)
    for (int j = 0; j < W; ++j) x[j] = _mm_aesenc_si128(x[j], k.k[r]);
  for (int j = 0; j < W; ++j) x[j] = _mm_aesenclast_si128(x[j], k.k[kRounds]);
}

template <int W>
inline void decrypt_blocks(__m128i* x, const DecKeys& k) {
  for (int j = 0; j < W; ++j) x[j] = _mm_xor_si128(x[j], k.k[0]);
  for (int r = 1; r < kRounds; ++r)
    for (int j = 0; j < W; ++j) x[j] = _mm_aesdec_si128(x[j], k.k[r]);
  for (int j = 0; j < W; ++j) x[j] = _mm_aesdeclast_si128(x[j], k.k[kRounds]);
}

// Loads, transforms and stores n blocks, kWidth at a time, then one at a time.
template <typename Fn8, typename Fn1>
void blockwise(const uint8_t* in, uint8_t* out, int64_t n, Fn8 fn8, Fn1 fn1) {
  int64_t i = 0;
  for (; i + kWidth <= n; i += kWidth) {
    __m128i x[kWidth];
    for (int j = 0; j < kWidth; ++j) x[j] = load(in + (i + j) * kBlockBytes);
    fn8(x);
    for (int j = 0; j < kWidth; ++j) store(out + (i + j) * kBlockBytes, x[j]);
  }
  for (; i < n; ++i) {
    __m128i x = load(in + i * kBlockBytes);
    fn1(&x);
    store(out + i * kBlockBytes, x);
  }
}

void ecb_encrypt(const RoundKeys& rk, const uint8_t* in, uint8_t* out, int64_t n) {
  const EncKeys k(rk);
  blockwise(in, out, n, [&](__m128i* x) { encrypt_blocks<kWidth>(x, k); },
            [&](__m128i* x) { encrypt_blocks<1>(x, k); });
}

void ecb_decrypt(const RoundKeys& rk, const uint8_t* in, uint8_t* out, int64_t n) {
  const DecKeys k(rk);
  blockwise(in, out, n, [&](__m128i* x) { decrypt_blocks<kWidth>(x, k); },
            [&](__m128i* x) { decrypt_blocks<1>(x, k); });
}

inline __m128i counter(uint64_t c) { return _mm_set_epi64x(0, static_cast<long long>(c)); }

template <int W>
inline void ctr_step(const EncKeys& k, uint64_t c, const uint8_t* in, uint8_t* out) {
  __m128i x[W];
  for (int j = 0; j < W; ++j) x[j] = counter(c + j);
  encrypt_blocks<W>(x, k);
  if (in)
    for (int j = 0; j < W; ++j) x[j] = _mm_xor_si128(x[j], load(in + j * kBlockBytes));
  for (int j = 0; j < W; ++j) store(out + j * kBlockBytes, x[j]);
}

void ctr(const RoundKeys& rk, uint64_t first, const uint8_t* in, uint8_t* out, int64_t n) {
  const EncKeys k(rk);
  int64_t i = 0;
  for (; i + kWidth <= n; i += kWidth)
    ctr_step<kWidth>(k, first + i, in ? in + i * kBlockBytes : nullptr, out + i * kBlockBytes);
  for (; i < n; ++i) ctr_step<1>(k, first + i, in ? in + i * kBlockBytes : nullptr, out + i * kBlockBytes);
}

}  // namespace

const Impl kAesniImpl{"aesni", &ecb_encrypt, &ecb_decrypt, &ctr};

}  // namespace crypto_rng::aes
