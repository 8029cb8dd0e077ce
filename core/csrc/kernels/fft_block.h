// FFT on a block of lines (see kernels/fft.h), for kernels/isa/fft_kernels.cpp only. A block
// holds kB = one vector's lanes of lines: row j holds element j of every line, lane l for
// line l, as a vector of real parts and one of imaginary parts, so every butterfly is
// whole-vector arithmetic (one line per lane) with no shuffles. Stockham passes ping-pong
// between two such blocks. The inverse transform is the forward one with the real and
// imaginary parts swapped on the way in and out.
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

// A block of lines: row j (element j of each line) at data + 2 kB j, its real parts in the
// first kB values and its imaginary parts in the next kB.
template <typename T> struct Block {
  T* data;
  TZ_VINLINE T* at(int64_t j) const { return data + 2 * kB<T> * j; }
  TZ_VINLINE CV<T> row(int64_t j) const { return {vm::load(at(j)), vm::load(at(j) + kB<T>)}; }
  TZ_VINLINE void set_row(int64_t j, const CV<T>& v) const {
    vm::store(at(j), v.re);
    vm::store(at(j) + kB<T>, v.im);
  }
};

// (im, re): the inverse DFT is the forward DFT of the swapped parts, swapped back.
template <typename T> TZ_VINLINE CV<T> swap_parts(const CV<T>& a) { return {a.im, a.re}; }

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

// The R-point DFT for R = 2, 3, 4, 5 or 8.
template <typename T, int R> TZ_VINLINE void dft(CV<T>* a) {
  if constexpr (R == 2) dft2(a);
  else if constexpr (R == 3) dft3(a);
  else if constexpr (R == 4) dft4(a);
  else if constexpr (R == 5) dft5(a);
  else dft8(a);
}

// ------------------------------------------------------------------ Stockham passes

// base + j * step bytes (j < 8) from four registers (base, base + step, step, 3 step) through
// the addressing modes: the empty asm keeps the compiler from turning each of a pass's 16
// addresses into an induction variable of its own (more than the registers there are).
template <typename P> TZ_VINLINE P* strided(P* base, int64_t step, int j) {
  asm("" : "+r"(base), "+r"(step));
  switch (j) {
    case 0: return base;
    case 1: return base + step;
    case 2: return base + 2 * step;
    case 3: return base + 3 * step;
    case 4: return base + 4 * step;
    case 5: return base + step + 4 * step;
    case 6: return base + 6 * step;
    default: return base + step + 6 * step;
  }
}
template <typename T> TZ_VINLINE CV<T> load_row(const char* p) {
  return {vm::load(reinterpret_cast<const T*>(p)), vm::load(reinterpret_cast<const T*>(p) + kB<T>)};
}
template <typename T> TZ_VINLINE void store_row(char* p, const CV<T>& v) {
  vm::store(reinterpret_cast<T*>(p), v.re);
  vm::store(reinterpret_cast<T*>(p) + kB<T>, v.im);
}

// One pass of radix R over a block of `len` = R * m rows with stride s:
// y[q + s (R p + k)] = w^(p k) * sum_j x[q + s (p + j m)] e^(-2 pi i j k / R), for q < s.
template <typename T, int R> void pass_fixed(const FftStage<T>& st, int64_t s, const T* x, T* y) {
  constexpr int64_t B = kB<T>, row = 2 * B * sizeof(T);  // bytes per row
  const int64_t m = st.m, in_step = s * m * row, out_step = s * row;  // bytes between j, between k
  const T* twr = st.tw_re.data();
  const T* twi = st.tw_im.data();
  for (int64_t p = 0; p < m; ++p) {
    CV<T> w[R];
    for (int k = 1; k < R; ++k) w[k] = broadcast(twr[p * (R - 1) + k - 1], twi[p * (R - 1) + k - 1]);
    const char* src = reinterpret_cast<const char*>(x) + s * p * row;
    char* dst = reinterpret_cast<char*>(y) + s * R * p * row;
    for (int64_t q = 0; q < s; ++q, src += row, dst += row) {
      CV<T> a[R];
      for (int j = 0; j < R; ++j) a[j] = load_row<T>(strided(src, in_step, j));
      dft<T, R>(a);
      for (int k = 0; k < R; ++k) store_row(strided(dst, out_step, k), (k == 0 || p == 0) ? a[k] : mul(a[k], w[k]));
    }
  }
}

// The same pass for an odd prime radix r > 5, as a direct DFT.
template <typename T> void pass_direct(const FftStage<T>& st, int64_t s, const T* x, T* y) {
  const int64_t r = st.radix, m = st.m;
  const Block<T> in{const_cast<T*>(x)}, out{y};
  CV<T> a[kMaxDirectRadix], roots[kMaxDirectRadix];
  for (int64_t j = 0; j < r; ++j) roots[j] = broadcast(st.root_re[j], st.root_im[j]);
  for (int64_t p = 0; p < m; ++p) {
    for (int64_t q = 0; q < s; ++q) {
      for (int64_t j = 0; j < r; ++j) a[j] = in.row(q + s * (p + j * m));
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
        out.set_row(q + s * (r * p + k), acc);
      }
    }
  }
}

// The passes from stage `first` on, the first with row stride s, ping-ponging between x and y:
// the block holding the result.
template <typename T> Block<T> run_stages(const FftPlan<T>& plan, size_t first, int64_t s, Block<T> x, Block<T> y) {
  for (size_t i = first; i < plan.stages.size(); ++i) {
    const FftStage<T>& st = plan.stages[i];
    switch (st.radix) {
      case 2: pass_fixed<T, 2>(st, s, x.data, y.data); break;
      case 3: pass_fixed<T, 3>(st, s, x.data, y.data); break;
      case 4: pass_fixed<T, 4>(st, s, x.data, y.data); break;
      case 5: pass_fixed<T, 5>(st, s, x.data, y.data); break;
      case 8: pass_fixed<T, 8>(st, s, x.data, y.data); break;
      default: pass_direct<T>(st, s, x.data, y.data); break;
    }
    std::swap(x, y);
    s *= st.radix;
  }
  return x;
}

// Forward DFT of the kB lines of `x` ([n] rows); `y` is scratch of the same size. Returns the
// block holding the result (x or y).
template <typename T> Block<T> run_stockham(const FftPlan<T>& plan, Block<T> x, Block<T> y) {
  return run_stages(plan, 0, 1, x, y);
}

// Bluestein on a block (the inner plan is Stockham): x [n rows] -> x. `work` holds 4 m kB
// values. The inverse inner transform runs on swapped parts: swapped by the kernel product,
// swapped back by the last chirp product.
template <typename T> Block<T> run_bluestein_block(const FftPlan<T>& plan, Block<T> x, T* work) {
  const int64_t n = plan.n, m = plan.m;
  Block<T> a{work}, b{work + 2 * m * kB<T>};
  for (int64_t j = 0; j < n; ++j) a.set_row(j, mul(x.row(j), broadcast(plan.chirp_re[j], plan.chirp_im[j])));
  std::memset(a.at(n), 0, sizeof(T) * 2 * (m - n) * kB<T>);
  const Block<T> f = run_stockham(*plan.inner, a, b);
  for (int64_t k = 0; k < m; ++k) f.set_row(k, swap_parts(mul(f.row(k), broadcast(plan.kernel_re[k], plan.kernel_im[k]))));
  const Block<T> g = run_stockham(*plan.inner, f, f.data == a.data ? b : a);
  for (int64_t k = 0; k < n; ++k) x.set_row(k, mul(swap_parts(g.row(k)), broadcast(plan.chirp_re[k], plan.chirp_im[k])));
  return x;
}

// Scratch values for a blocked plan of `rows` >= n rows per block: blocks x and y, then
// Bluestein's work.
template <typename T> int64_t block_scratch_values(const FftPlan<T>& plan, int64_t rows) {
  return 4 * rows * kB<T> + (plan.kind == FftPlan<T>::Kind::Bluestein ? 4 * plan.m * kB<T> : 0);
}

// The blocks x, y of `rows` rows at the start of a scratch area, and the work area after them.
template <typename T> struct BlockScratch {
  Block<T> x, y;
  T* work;
  BlockScratch(T* scratch, int64_t rows)
      : x{scratch}, y{scratch + 2 * rows * kB<T>}, work(scratch + 4 * rows * kB<T>) {}
};

// Forward DFT of block s.x: the block holding the result (s.x or s.y).
template <typename T> Block<T> run_block(const FftPlan<T>& plan, const BlockScratch<T>& s) {
  if (plan.kind == FftPlan<T>::Kind::Bluestein) return run_bluestein_block(plan, s.x, s.work);
  return run_stockham(plan, s.x, s.y);
}

}  // namespace
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
