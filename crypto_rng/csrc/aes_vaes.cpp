// AES-128 with VAES on 512-bit registers (compiled with -mvaes -mavx512f -maes; used only
// when the CPU has all three): four blocks per instruction, eight registers (32 blocks)
// in flight per step. Fewer than 32 remaining blocks go to the AES-NI implementation.
#include <immintrin.h>

#include "aes_isa.h"

namespace crypto_rng::aes {

namespace {

constexpr int kRegs = 8;
constexpr int kBlocksPerReg = 4;
constexpr int64_t kStep = kRegs * kBlocksPerReg;  // 32 blocks

inline __m512i load(const uint8_t* p) { return _mm512_loadu_si512(p); }
inline void store(uint8_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
// A 16-byte round key in all four lanes.
inline __m512i broadcast(__m128i key) {
  alignas(64) __m128i lanes[kBlocksPerReg] = {key, key, key, key};
  return _mm512_load_si512(lanes);
}
inline __m512i broadcast_key(const uint8_t* p) {
  return broadcast(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

struct EncKeys {
  __m512i k[kRounds + 1];
  explicit EncKeys(const RoundKeys& rk) {
    for (int r = 0; r <= kRounds; ++r) k[r] = broadcast_key(rk.bytes + r * kBlockBytes);
  }
};

// The equivalent inverse cipher's keys (FIPS-197 5.3.5).
struct DecKeys {
  __m512i k[kRounds + 1];
  explicit DecKeys(const RoundKeys& rk) {
    auto key = [&](int r) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(rk.bytes + r * kBlockBytes)); };
    k[0] = broadcast(key(kRounds));
    for (int r = 1; r < kRounds; ++r) k[r] = broadcast(_mm_aesimc_si128(key(kRounds - r)));
    k[kRounds] = broadcast(key(0));
  }
};

inline void encrypt_regs(__m512i* x, const EncKeys& k) {
  for (int j = 0; j < kRegs; ++j) x[j] = _mm512_xor_si512(x[j], k.k[0]);
  for (int r = 1; r < kRounds; ++r)
    for (int j = 0; j < kRegs; ++j) x[j] = _mm512_aesenc_epi128(x[j], k.k[r]);
  for (int j = 0; j < kRegs; ++j) x[j] = _mm512_aesenclast_epi128(x[j], k.k[kRounds]);
}

inline void decrypt_regs(__m512i* x, const DecKeys& k) {
  for (int j = 0; j < kRegs; ++j) x[j] = _mm512_xor_si512(x[j], k.k[0]);
  for (int r = 1; r < kRounds; ++r)
    for (int j = 0; j < kRegs; ++j) x[j] = _mm512_aesdec_epi128(x[j], k.k[r]);
  for (int j = 0; j < kRegs; ++j) x[j] = _mm512_aesdeclast_epi128(x[j], k.k[kRounds]);
}

template <typename Keys, typename Regs>
int64_t ecb_steps(const Keys& k, const uint8_t* in, uint8_t* out, int64_t n, Regs regs) {
  int64_t i = 0;
  for (; i + kStep <= n; i += kStep) {
    __m512i x[kRegs];
    for (int j = 0; j < kRegs; ++j) x[j] = load(in + (i + j * kBlocksPerReg) * kBlockBytes);
    regs(x, k);
    for (int j = 0; j < kRegs; ++j) store(out + (i + j * kBlocksPerReg) * kBlockBytes, x[j]);
  }
  return i;
}

void ecb_encrypt(const RoundKeys& rk, const uint8_t* in, uint8_t* out, int64_t n) {
  const int64_t done = ecb_steps(EncKeys(rk), in, out, n, encrypt_regs);
  if (done < n) kAesniImpl.encrypt_ecb(rk, in + done * kBlockBytes, out + done * kBlockBytes, n - done);
}

void ecb_decrypt(const RoundKeys& rk, const uint8_t* in, uint8_t* out, int64_t n) {
  const int64_t done = ecb_steps(DecKeys(rk), in, out, n, decrypt_regs);
  if (done < n) kAesniImpl.decrypt_ecb(rk, in + done * kBlockBytes, out + done * kBlockBytes, n - done);
}

void ctr(const RoundKeys& rk, uint64_t first, const uint8_t* in, uint8_t* out, int64_t n) {
  const EncKeys k(rk);
  // Lane b of a register holds the counter block (c + b, 0).
  const long long c0 = static_cast<long long>(first);
  __m512i next = _mm512_set_epi64(0, c0 + 3, 0, c0 + 2, 0, c0 + 1, 0, c0);
  const __m512i four = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
  int64_t i = 0;
  for (; i + kStep <= n; i += kStep) {
    __m512i x[kRegs];
    for (int j = 0; j < kRegs; ++j) {
      x[j] = next;
      next = _mm512_add_epi64(next, four);
    }
    encrypt_regs(x, k);
    if (in)
      for (int j = 0; j < kRegs; ++j) x[j] = _mm512_xor_si512(x[j], load(in + (i + j * kBlocksPerReg) * kBlockBytes));
    for (int j = 0; j < kRegs; ++j) store(out + (i + j * kBlocksPerReg) * kBlockBytes, x[j]);
  }
  if (i < n) kAesniImpl.ctr(rk, first + i, in ? in + i * kBlockBytes : nullptr, out + i * kBlockBytes, n - i);
}

}  // namespace

const Impl kVaesImpl{"vaes", &aesni_expand_key, &ecb_encrypt, &ecb_decrypt, &ctr};

}  // namespace crypto_rng::aes
