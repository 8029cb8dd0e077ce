// FFT on a block of lines (see kernels/fft.h), for kernels/isa/fft_kernels.cpp only. A block
// holds kB = one vector's lanes of lines: element j of line l at [j * kB + l], real and
// imaginary parts in separate arrays, so every butterfly is whole-vector arithmetic (one line
// per lane) with no shuffles. Stockham passes ping-pong between two such blocks. The inverse
// transform is the forward one with real and imaginary parts swapped on the way in and out.
// Multiplies and adds only (no FMA): every ISA build rounds every lane identically.
#pragma once
#include <cstring>
#include <utility>

#include "kernels/fft.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::splat;
using vm::vec;

template <typename T> constexpr int64_t kB = kLanes<T>;

// A complex vector: kB values in split form.
template <typename T> struct CV {
  vec<T> re, im;
};

template <typename T> TZ_VINLINE CV<T> add(const CV<T>& a, const CV<T>& b) { return {a.re + b.re, a.im + b.im}; }
template <typename T> TZ_VINLINE CV<T> sub(const CV<T>& a, const CV<T>& b) { return {a.re - b.re, a.im - b.im}; }
template <typename T> TZ_VINLINE CV<T> mul(const CV<T>& a, const CV<T>& w) {
  return {a.re * w.re - a.im * w.im, a.re * w.im + a.im * w.re};
}
template <typename T> TZ_VINLINE CV<T> scaled(const CV<T>& a, const vec<T>& s) { return {a.re * s, a.im * s}; }
// -i * a.
template <typename T> TZ_VINLINE CV<T> mul_neg_i(const CV<T>& a) { return {a.im, -a.re}; }
template <typename T> TZ_VINLINE CV<T> conj(const CV<T>& a) { return {a.re, -a.im}; }
template <typename T> TZ_VINLINE CV<T> broadcast(T re, T im) { return {splat<vec<T>>(re), splat<vec<T>>(im)}; }

template <typename T> TZ_VINLINE CV<T> load_cv(const T* re, const T* im, int64_t at) {
  return {vm::load(re + at), vm::load(im + at)};
}
template <typename T> TZ_VINLINE void store_cv(T* re, T* im, int64_t at, const CV<T>& v) {
  vm::store(re + at, v.re);
  vm::store(im + at, v.im);
}

// A split-complex block of lines: row j at re + j * kB, im + j * kB.
template <typename T> struct Block {
  T* re;
  T* im;
  TZ_VINLINE CV<T> row(int64_t j) const { return load_cv(re, im, j * kB<T>); }
  TZ_VINLINE void set_row(int64_t j, const CV<T>& v) const { store_cv(re, im, j * kB<T>, v); }
};

template <typename T> Block<T> swapped(Block<T> b) { return {b.im, b.re}; }

// ------------------------------------------------------------------ butterflies (forward)

template <typename T> TZ_VINLINE void dft2(CV<T>* a) {
  const CV<T> t = a[0];
  a[0] = add(t, a[1]);
  a[1] = sub(t, a[1]);
}

template <typename T> TZ_VINLINE void dft3(CV<T>* a) {
  const T kSin = T(0.866025403784438646763723170752936183L);  // sin(2 pi / 3)
  const CV<T> s = add(a[1], a[2]);
  const CV<T> d = sub(a[1], a[2]);
  const CV<T> t = sub(a[0], scaled(s, splat<vec<T>>(T(0.5))));
  const CV<T> u = mul_neg_i(scaled(d, splat<vec<T>>(kSin)));
  a[0] = add(a[0], s);
  a[1] = add(t, u);
  a[2] = sub(t, u);
}

template <typename T> TZ_VINLINE void dft4(CV<T>* a) {
  const CV<T> s02 = add(a[0], a[2]), d02 = sub(a[0], a[2]);
  const CV<T> s13 = add(a[1], a[3]), d13 = mul_neg_i(sub(a[1], a[3]));
  a[0] = add(s02, s13);
  a[2] = sub(s02, s13);
  a[1] = add(d02, d13);
  a[3] = sub(d02, d13);
}

template <typename T> TZ_VINLINE void dft5(CV<T>* a) {
  const vec<T> c1 = splat<vec<T>>(T(0.309016994374947424102293417182819059L));   // cos(2 pi / 5)
  const vec<T> c2 = splat<vec<T>>(T(-0.809016994374947424102293417182819059L));  // cos(4 pi / 5)
  const vec<T> s1 = splat<vec<T>>(T(0.951056516295153572116439333379382143L));   // sin(2 pi / 5)
  const vec<T> s2 = splat<vec<T>>(T(0.587785252292473129168705954639072769L));   // sin(4 pi / 5)
  const CV<T> p1 = add(a[1], a[4]), m1 = sub(a[1], a[4]);
  const CV<T> p2 = add(a[2], a[3]), m2 = sub(a[2], a[3]);
  const CV<T> r1 = add(a[0], add(scaled(p1, c1), scaled(p2, c2)));
  const CV<T> r2 = add(a[0], add(scaled(p1, c2), scaled(p2, c1)));
  const CV<T> i1 = mul_neg_i(add(scaled(m1, s1), scaled(m2, s2)));
  const CV<T> i2 = mul_neg_i(sub(scaled(m1, s2), scaled(m2, s1)));
  a[0] = add(a[0], add(p1, p2));
  a[1] = add(r1, i1);
  a[4] = sub(r1, i1);
  a[2] = add(r2, i2);
  a[3] = sub(r2, i2);
}

// Radix 8 as radix 2 then two radix-4 DFTs: even outputs from the sums a_j + a_{j+4}, odd
// outputs from the differences twiddled by exp(-2 pi i j / 8).
template <typename T> TZ_VINLINE void dft8(CV<T>* a) {
  const vec<T> h = splat<vec<T>>(T(0.707106781186547524400844362104849039L));  // sqrt(1/2)
  CV<T> s[4], e[4];
  for (int j = 0; j < 4; ++j) s[j] = add(a[j], a[j + 4]), e[j] = sub(a[j], a[j + 4]);
  const vec<T> p1 = e[1].re + e[1].im, m1 = e[1].im - e[1].re;
  const vec<T> p3 = e[3].re + e[3].im, m3 = e[3].im - e[3].re;
  e[1] = {p1 * h, m1 * h};    // (1 - i) / sqrt 2
  e[2] = mul_neg_i(e[2]);     // -i
  e[3] = {m3 * h, -(p3 * h)};  // (-1 - i) / sqrt 2
  dft4(s);
  dft4(e);
  for (int k = 0; k < 4; ++k) a[2 * k] = s[k], a[2 * k + 1] = e[k];
}

// ------------------------------------------------------------------ Stockham passes

// One pass of radix R over a block of `len` = R * m elements per line with stride s:
// y[q + s (R p + k)] = w^(p k) * sum_j x[q + s (p + j m)] e^(-2 pi i j k / R), for q < s.
template <typename T, int R>
void pass_fixed(const FftStage<T>& st, int64_t s, const T* xr, const T* xi, T* yr, T* yi) {
  const int64_t m = st.m, sb = s * kB<T>;
  const T* twr = st.tw_re.data();
  const T* twi = st.tw_im.data();
  for (int64_t p = 0; p < m; ++p) {
    CV<T> w[R];
    for (int k = 1; k < R; ++k) w[k] = broadcast(twr[p * (R - 1) + k - 1], twi[p * (R - 1) + k - 1]);
    for (int64_t q = 0; q < sb; q += kB<T>) {
      CV<T> a[R];
      for (int j = 0; j < R; ++j) a[j] = load_cv(xr, xi, q + sb * (p + j * m));
      if constexpr (R == 2) dft2(a);
      else if constexpr (R == 3) dft3(a);
      else if constexpr (R == 4) dft4(a);
      else if constexpr (R == 5) dft5(a);
      else dft8(a);
      store_cv(yr, yi, q + sb * (R * p), a[0]);
      for (int k = 1; k < R; ++k) store_cv(yr, yi, q + sb * (R * p + k), p == 0 ? a[k] : mul(a[k], w[k]));
    }
  }
}

// The same pass for an odd prime radix r > 5, as a direct DFT.
template <typename T>
void pass_direct(const FftStage<T>& st, int64_t s, const T* xr, const T* xi, T* yr, T* yi) {
  const int64_t r = st.radix, m = st.m, sb = s * kB<T>;
  CV<T> a[kMaxDirectRadix], roots[kMaxDirectRadix];
  for (int64_t j = 0; j < r; ++j) roots[j] = broadcast(st.root_re[j], st.root_im[j]);
  for (int64_t p = 0; p < m; ++p) {
    for (int64_t q = 0; q < sb; q += kB<T>) {
      for (int64_t j = 0; j < r; ++j) a[j] = load_cv(xr, xi, q + sb * (p + j * m));
      for (int64_t k = 0; k < r; ++k) {
        CV<T> acc = a[0];
        int64_t jk = 0;
        for (int64_t j = 1; j < r; ++j) {
          jk += k;
          if (jk >= r) jk -= r;
          acc = add(acc, mul(a[j], roots[jk]));
        }
        if (k > 0 && p > 0) {
          const int64_t t = p * (r - 1) + k - 1;
          acc = mul(acc, broadcast(st.tw_re[t], st.tw_im[t]));
        }
        store_cv(yr, yi, q + sb * (r * p + k), acc);
      }
    }
  }
}

// Forward DFT of the kB lines of `x` ([n][kB]); `y` is scratch of the same size. Returns the
// block holding the result (x or y).
template <typename T> Block<T> run_stockham(const FftPlan<T>& plan, Block<T> x, Block<T> y) {
  int64_t s = 1;
  for (const FftStage<T>& st : plan.stages) {
    switch (st.radix) {
      case 2: pass_fixed<T, 2>(st, s, x.re, x.im, y.re, y.im); break;
      case 3: pass_fixed<T, 3>(st, s, x.re, x.im, y.re, y.im); break;
      case 4: pass_fixed<T, 4>(st, s, x.re, x.im, y.re, y.im); break;
      case 5: pass_fixed<T, 5>(st, s, x.re, x.im, y.re, y.im); break;
      case 8: pass_fixed<T, 8>(st, s, x.re, x.im, y.re, y.im); break;
      default: pass_direct<T>(st, s, x.re, x.im, y.re, y.im); break;
    }
    std::swap(x, y);
    s *= st.radix;
  }
  return x;
}

// Bluestein on a block (the inner plan is Stockham): x [n][kB] -> x. `work` holds 4 m kB values.
template <typename T> Block<T> run_bluestein_block(const FftPlan<T>& plan, Block<T> x, T* work) {
  const int64_t n = plan.n, m = plan.m;
  Block<T> a{work, work + m * kB<T>}, b{work + 2 * m * kB<T>, work + 3 * m * kB<T>};
  for (int64_t j = 0; j < n; ++j) a.set_row(j, mul(x.row(j), broadcast(plan.chirp_re[j], plan.chirp_im[j])));
  std::memset(a.re + n * kB<T>, 0, sizeof(T) * (m - n) * kB<T>);
  std::memset(a.im + n * kB<T>, 0, sizeof(T) * (m - n) * kB<T>);
  Block<T> f = run_stockham(*plan.inner, a, b);
  for (int64_t k = 0; k < m; ++k) f.set_row(k, mul(f.row(k), broadcast(plan.kernel_re[k], plan.kernel_im[k])));
  Block<T> other = f.re == a.re ? b : a;
  Block<T> g = swapped(run_stockham(*plan.inner, swapped(f), swapped(other)));
  for (int64_t k = 0; k < n; ++k) x.set_row(k, mul(g.row(k), broadcast(plan.chirp_re[k], plan.chirp_im[k])));
  return x;
}

// Scratch values for a blocked plan of `rows` >= n rows per block: x and y ([rows][kB] each,
// split) and Bluestein's work.
template <typename T> int64_t block_scratch_values(const FftPlan<T>& plan, int64_t rows) {
  return 4 * rows * kB<T> + (plan.kind == FftPlan<T>::Kind::Bluestein ? 4 * plan.m * kB<T> : 0);
}

// The two blocks x, y of `rows` rows at the start of a scratch area.
template <typename T> std::pair<Block<T>, Block<T>> scratch_blocks(T* scratch, int64_t rows) {
  const int64_t size = rows * kB<T>;
  return {Block<T>{scratch, scratch + size}, Block<T>{scratch + 2 * size, scratch + 3 * size}};
}

// Forward DFT of block x (y: the other block of the scratch, `work` after both). Returns x or y.
template <typename T> Block<T> run_block(const FftPlan<T>& plan, Block<T> x, Block<T> y, T* work) {
  if (plan.kind == FftPlan<T>::Kind::Bluestein) return run_bluestein_block(plan, x, work);
  return run_stockham(plan, x, y);
}

}  // namespace
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
