// Constant-time portable AES-128: no table lookups and no branches on secret data.
//
// Four blocks (64 bytes) are processed at once. SubBytes bitslices the 64 state bytes into
// eight 64-bit words (word k holds bit k of every byte) and computes the S-box as
// arithmetic in GF(2^8) on those words: the inverse is x^254 (four multiplications and
// seven squarings), followed by the affine map of FIPS-197 5.1.1. ShiftRows is a fixed
// byte permutation; MixColumns works on two columns per 64-bit word with a branch-free
// xtime. The key schedule uses the same S-box. Byte order is explicit, so the code does
// not depend on the machine's endianness.
#include <cstring>

#include "aes.h"

namespace crypto_rng::aes {

namespace {

using u64 = uint64_t;
constexpr int kLanes = 4;                              // blocks per step
constexpr int kStateBytes = kLanes * kBlockBytes;      // 64

inline u64 load_le(const uint8_t* p) {
  u64 v = 0;
  for (int i = 0; i < 8; ++i) v |= u64(p[i]) << (8 * i);
  return v;
}

inline void store_le(uint8_t* p, u64 v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// ------------------------------------------------------------------ bitslicing

// Transposes the 8x8 bit matrix whose row r is byte r: bit 8r + c <-> bit 8c + r.
inline u64 transpose_bits(u64 x) {
  u64 t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
  x ^= t ^ (t << 7);
  t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
  x ^= t ^ (t << 14);
  t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
  x ^= t ^ (t << 28);
  return x;
}

// Swaps the off-diagonal `width`-byte sub-blocks of word pairs (i, i + dist).
inline void swap_blocks(u64 x[8], int dist, int shift, u64 keep) {
  for (int i = 0; i < 8; ++i) {
    if (i & dist) continue;
    const u64 a = x[i], b = x[i + dist];
    x[i] = (a & keep) | ((b << shift) & ~keep);
    x[i + dist] = ((a >> shift) & keep) | (b & ~keep);
  }
}

// Byte k of word i <-> byte i of word k.
inline void transpose_bytes(u64 x[8]) {
  swap_blocks(x, 1, 8, 0x00FF00FF00FF00FFull);
  swap_blocks(x, 2, 16, 0x0000FFFF0000FFFFull);
  swap_blocks(x, 4, 32, 0x00000000FFFFFFFFull);
}

// 64 bytes -> 8 words, bit j of word k = bit k of byte j.
inline void bitslice(const uint8_t s[kStateBytes], u64 w[8]) {
  for (int i = 0; i < 8; ++i) w[i] = transpose_bits(load_le(s + 8 * i));
  transpose_bytes(w);
}

inline void unbitslice(u64 w[8], uint8_t s[kStateBytes]) {
  transpose_bytes(w);
  for (int i = 0; i < 8; ++i) store_le(s + 8 * i, transpose_bits(w[i]));
}

// ------------------------------------------------------------------ GF(2^8), bitsliced

// p holds a polynomial of degree <= 14; reduces it modulo x^8 + x^4 + x^3 + x + 1.
inline void reduce(u64 p[15], u64 r[8]) {
  for (int k = 14; k >= 8; --k) {
    p[k - 4] ^= p[k];
    p[k - 5] ^= p[k];
    p[k - 7] ^= p[k];
    p[k - 8] ^= p[k];
  }
  for (int i = 0; i < 8; ++i) r[i] = p[i];
}

inline void gf_mul(const u64 a[8], const u64 b[8], u64 r[8]) {
  u64 p[15] = {};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) p[i + j] ^= a[i] & b[j];
  reduce(p, r);
}

inline void gf_square(const u64 a[8], u64 r[8]) {
  u64 p[15] = {};
  for (int i = 0; i < 8; ++i) p[2 * i] = a[i];
  reduce(p, r);
}

// x^254, the multiplicative inverse (0 maps to 0).
inline void gf_invert(u64 x[8]) {
  u64 x2[8], x3[8], x12[8], x15[8], t[8];
  gf_square(x, x2);
  gf_mul(x2, x, x3);
  gf_square(x3, t);
  gf_square(t, x12);
  gf_mul(x12, x3, x15);
  gf_square(x15, t);  // x^30
  for (int i = 0; i < 3; ++i) gf_square(t, t);  // x^240
  gf_mul(t, x12, t);  // x^252
  gf_mul(t, x2, x);   // x^254
}

// b_i ^ b_{i+4} ^ b_{i+5} ^ b_{i+6} ^ b_{i+7} ^ c_i with c = 0x63 (FIPS-197 eq. 5.1).
inline void affine(u64 b[8]) {
  u64 s[8];
  for (int i = 0; i < 8; ++i)
    s[i] = b[i] ^ b[(i + 4) & 7] ^ b[(i + 5) & 7] ^ b[(i + 6) & 7] ^ b[(i + 7) & 7] ^ (((0x63 >> i) & 1) ? ~u64(0) : 0);
  for (int i = 0; i < 8; ++i) b[i] = s[i];
}

// The inverse map: s_{i+2} ^ s_{i+5} ^ s_{i+7} ^ d_i with d = 0x05.
inline void inverse_affine(u64 s[8]) {
  u64 b[8];
  for (int i = 0; i < 8; ++i)
    b[i] = s[(i + 2) & 7] ^ s[(i + 5) & 7] ^ s[(i + 7) & 7] ^ (((0x05 >> i) & 1) ? ~u64(0) : 0);
  for (int i = 0; i < 8; ++i) s[i] = b[i];
}

void sub_bytes(uint8_t s[kStateBytes]) {
  u64 w[8];
  bitslice(s, w);
  gf_invert(w);
  affine(w);
  unbitslice(w, s);
}

void inv_sub_bytes(uint8_t s[kStateBytes]) {
  u64 w[8];
  bitslice(s, w);
  inverse_affine(w);
  gf_invert(w);
  unbitslice(w, s);
}

// ------------------------------------------------------------------ round steps

// State byte 4c + r is row r of column c.
void shift_rows(uint8_t s[kStateBytes], bool inverse) {
  for (int b = 0; b < kLanes; ++b) {
    uint8_t* blk = s + b * kBlockBytes;
    uint8_t t[kBlockBytes];
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) {
        const int moved = 4 * ((c + r) & 3) + r;
        if (inverse) t[moved] = blk[4 * c + r];
        else t[4 * c + r] = blk[moved];
      }
    std::memcpy(blk, t, kBlockBytes);
  }
}

// Multiplication by x of each byte of a word, without branches.
inline u64 xtime(u64 w) { return ((w & 0x7F7F7F7F7F7F7F7Full) << 1) ^ (((w >> 7) & 0x0101010101010101ull) * 0x1B); }
// Rotations of each 32-bit column: byte r takes byte r + n (mod 4).
inline u64 rot1(u64 w) { return ((w >> 8) & 0x00FFFFFF00FFFFFFull) | ((w << 24) & 0xFF000000FF000000ull); }
inline u64 rot2(u64 w) { return ((w >> 16) & 0x0000FFFF0000FFFFull) | ((w << 16) & 0xFFFF0000FFFF0000ull); }

// b_r = 2 a_r ^ 3 a_{r+1} ^ a_{r+2} ^ a_{r+3}, two columns per word.
inline u64 mix_word(u64 w) {
  const u64 r1 = rot1(w), r2 = rot2(w);
  return xtime(w ^ r1) ^ r1 ^ r2 ^ rot1(r2);
}

void mix_columns(uint8_t s[kStateBytes], bool inverse) {
  for (int i = 0; i < kStateBytes / 8; ++i) {
    u64 w = load_le(s + 8 * i);
    // InvMixColumns = MixColumns after adding 4 (a_r ^ a_{r+2}) to each byte.
    if (inverse) w ^= xtime(xtime(w ^ rot2(w)));
    store_le(s + 8 * i, mix_word(w));
  }
}

void add_round_key(uint8_t s[kStateBytes], const uint8_t* rk) {
  for (int i = 0; i < kStateBytes; ++i) s[i] ^= rk[i % kBlockBytes];
}

void encrypt4(const RoundKeys& k, uint8_t s[kStateBytes]) {
  add_round_key(s, k.bytes);
  for (int r = 1; r < kRounds; ++r) {
    sub_bytes(s);
    shift_rows(s, false);
    mix_columns(s, false);
    add_round_key(s, k.bytes + r * kBlockBytes);
  }
  sub_bytes(s);
  shift_rows(s, false);
  add_round_key(s, k.bytes + kRounds * kBlockBytes);
}

void decrypt4(const RoundKeys& k, uint8_t s[kStateBytes]) {
  add_round_key(s, k.bytes + kRounds * kBlockBytes);
  for (int r = kRounds - 1; r > 0; --r) {
    shift_rows(s, true);
    inv_sub_bytes(s);
    add_round_key(s, k.bytes + r * kBlockBytes);
    mix_columns(s, true);
  }
  shift_rows(s, true);
  inv_sub_bytes(s);
  add_round_key(s, k.bytes);
}

// Runs `cipher` over n blocks four at a time; a short last group goes through a buffer.
template <typename Cipher>
void in_groups(const uint8_t* in, uint8_t* out, int64_t n, Cipher cipher) {
  uint8_t s[kStateBytes];
  for (int64_t i = 0; i < n; i += kLanes) {
    const int64_t bytes = (n - i < kLanes ? n - i : kLanes) * kBlockBytes;
    std::memset(s, 0, sizeof(s));
    std::memcpy(s, in + i * kBlockBytes, bytes);
    cipher(s);
    std::memcpy(out + i * kBlockBytes, s, bytes);
  }
}

void ecb_encrypt(const RoundKeys& k, const uint8_t* in, uint8_t* out, int64_t n) {
  in_groups(in, out, n, [&](uint8_t* s) { encrypt4(k, s); });
}

void ecb_decrypt(const RoundKeys& k, const uint8_t* in, uint8_t* out, int64_t n) {
  in_groups(in, out, n, [&](uint8_t* s) { decrypt4(k, s); });
}

void ctr(const RoundKeys& k, uint64_t first, const uint8_t* in, uint8_t* out, int64_t n) {
  uint8_t s[kStateBytes];
  for (int64_t i = 0; i < n; i += kLanes) {
    const int64_t count = n - i < kLanes ? n - i : kLanes;
    for (int b = 0; b < kLanes; ++b) counter_block(first + i + b, s + b * kBlockBytes);
    encrypt4(k, s);
    uint8_t* dst = out + i * kBlockBytes;
    if (in) {
      for (int64_t j = 0; j < count * kBlockBytes; ++j) dst[j] = static_cast<uint8_t>(in[i * kBlockBytes + j] ^ s[j]);
    } else {
      std::memcpy(dst, s, count * kBlockBytes);
    }
  }
}

RoundKeys expand_key(const uint8_t key[kKeyBytes]) {
  RoundKeys k;
  uint8_t* w = k.bytes;
  std::memcpy(w, key, kKeyBytes);
  uint8_t rcon = 1;
  uint8_t s[kStateBytes] = {};
  for (int i = 4; i < 4 * (kRounds + 1); ++i) {
    uint8_t t[4];
    std::memcpy(t, w + 4 * (i - 1), 4);
    if (i % 4 == 0) {  // RotWord, SubWord, Rcon
      for (int j = 0; j < 4; ++j) s[j] = t[(j + 1) & 3];
      sub_bytes(s);
      for (int j = 0; j < 4; ++j) t[j] = s[j];
      t[0] ^= rcon;
      rcon = static_cast<uint8_t>((rcon << 1) ^ ((rcon >> 7) * 0x1B));
    }
    for (int j = 0; j < 4; ++j) w[4 * i + j] = w[4 * (i - 4) + j] ^ t[j];
  }
  std::memset(s, 0, sizeof(s));
  return k;
}

}  // namespace

const Impl& portable_impl() {
  static const Impl impl{"portable", &expand_key, &ecb_encrypt, &ecb_decrypt, &ctr};
  return impl;
}

}  // namespace crypto_rng::aes
