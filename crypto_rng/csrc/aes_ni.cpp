// AES-128 with the AES-NI instructions (compiled with -maes; used only when the CPU has
// them). Eight independent blocks are in flight per step to cover aesenc's latency.
#include <immintrin.h>

#include "aes_isa.h"

namespace crypto_rng::aes {

namespace {

constexpr int kWidth = 8;

inline __m128i load(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store(uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }

// One step of the key schedule: w[i..i+3] from w[i-4..i-1]; `assist` holds
// SubWord(RotWord(w[i-1])) ^ rcon in its top word (aeskeygenassist).
inline __m128i schedule_step(__m128i key, __m128i assist) {
  assist = _mm_shuffle_epi32(assist, 0xff);
  key = _mm_xor_si128(key, _mm_slli_si128(key, 4));  // prefix XOR of the four words
  key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
  key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
  return _mm_xor_si128(key, assist);
}

}  // namespace

RoundKeys aesni_expand_key(const uint8_t key[kKeyBytes]) {
  __m128i k[kRounds + 1];
  k[0] = load(key);
  // aeskeygenassist takes rcon as an immediate: one line per round.
  k[1] = schedule_step(k[0], _mm_aeskeygenassist_si128(k[0], 0x01));
  k[2] = schedule_step(k[1], _mm_aeskeygenassist_si128(k[1], 0x02));
  k[3] = schedule_step(k[2], _mm_aeskeygenassist_si128(k[2], 0x04));
  k[4] = schedule_step(k[3], _mm_aeskeygenassist_si128(k[3], 0x08));
  k[5] = schedule_step(k[4], _mm_aeskeygenassist_si128(k[4], 0x10));
  k[6] = schedule_step(k[5], _mm_aeskeygenassist_si128(k[5], 0x20));
  k[7] = schedule_step(k[6], _mm_aeskeygenassist_si128(k[6], 0x40));
  k[8] = schedule_step(k[7], _mm_aeskeygenassist_si128(k[7], 0x80));
  k[9] = schedule_step(k[8], _mm_aeskeygenassist_si128(k[8], 0x1b));
  k[10] = schedule_step(k[9], _mm_aeskeygenassist_si128(k[9], 0x36));
  RoundKeys out;
  for (int r = 0; r <= kRounds; ++r) store(out.bytes + r * kBlockBytes, k[r]);
  return out;
}

namespace {

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

const Impl kAesniImpl{"aesni", &aesni_expand_key, &ecb_encrypt, &ecb_decrypt, &ctr};

}  // namespace crypto_rng::aes
