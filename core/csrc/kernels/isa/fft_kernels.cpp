// FFT kernels (see kernels/fft.h). Lines are transformed in blocks of kB = one vector's lanes:
// a block holds element j of line l at [j * kB + l], real and imaginary parts in separate
// arrays, so every butterfly works on whole vectors (one line per lane) with no shuffles.
// Stockham passes ping-pong between two such blocks. The inverse transform is the forward
// one with real and imaginary parts swapped on the way in and out.
#include <algorithm>
#include <cstring>

#include "iter/thread_pool.h"
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
template <typename T> TZ_VINLINE CV<T> scale(const CV<T>& a, const vec<T>& s) { return {a.re * s, a.im * s}; }
// -i * a and +i * a.
template <typename T> TZ_VINLINE CV<T> mul_neg_i(const CV<T>& a) { return {a.im, -a.re}; }
template <typename T> TZ_VINLINE CV<T> mul_pos_i(const CV<T>& a) { return {-a.im, a.re}; }
template <typename T> TZ_VINLINE CV<T> broadcast(T re, T im) { return {splat<vec<T>>(re), splat<vec<T>>(im)}; }

template <typename T> TZ_VINLINE CV<T> load_cv(const T* re, const T* im, int64_t at) {
  return {vm::load(re + at), vm::load(im + at)};
}
template <typename T> TZ_VINLINE void store_cv(T* re, T* im, int64_t at, const CV<T>& v) {
  vm::store(re + at, v.re);
  vm::store(im + at, v.im);
}

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
  const CV<T> t = sub(a[0], scale(s, splat<vec<T>>(T(0.5))));
  const CV<T> u = mul_neg_i(scale(d, splat<vec<T>>(kSin)));
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
  const CV<T> r1 = add(a[0], add(scale(p1, c1), scale(p2, c2)));
  const CV<T> r2 = add(a[0], add(scale(p1, c2), scale(p2, c1)));
  const CV<T> i1 = mul_neg_i(add(scale(m1, s1), scale(m2, s2)));
  const CV<T> i2 = mul_neg_i(sub(scale(m1, s2), scale(m2, s1)));
  a[0] = add(a[0], add(p1, p2));
  a[1] = add(r1, i1);
  a[4] = sub(r1, i1);
  a[2] = add(r2, i2);
  a[3] = sub(r2, i2);
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
      else dft5(a);
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

// A split-complex block: arrays of len * kB values.
template <typename T> struct Block {
  T* re;
  T* im;
};

// Forward DFT of the kB lines of `x` ([n][kB]); `y` is scratch of the same size. Returns the
// block holding the result (x or y). Swapping re and im of both gives the inverse.
template <typename T> Block<T> run_stockham(const FftPlan<T>& plan, Block<T> x, Block<T> y) {
  int64_t s = 1;
  for (const FftStage<T>& st : plan.stages) {
    switch (st.radix) {
      case 2: pass_fixed<T, 2>(st, s, x.re, x.im, y.re, y.im); break;
      case 3: pass_fixed<T, 3>(st, s, x.re, x.im, y.re, y.im); break;
      case 4: pass_fixed<T, 4>(st, s, x.re, x.im, y.re, y.im); break;
      case 5: pass_fixed<T, 5>(st, s, x.re, x.im, y.re, y.im); break;
      default: pass_direct<T>(st, s, x.re, x.im, y.re, y.im); break;
    }
    std::swap(x, y);
    s *= st.radix;
  }
  return x;
}

template <typename T> Block<T> swapped(Block<T> b) { return {b.im, b.re}; }

// Bluestein on a block (the inner plan is Stockham): x [n][kB] -> result block.
// `work` holds 4 * m * kB values.
template <typename T> Block<T> run_bluestein_block(const FftPlan<T>& plan, Block<T> x, T* work) {
  const int64_t n = plan.n, m = plan.m;
  Block<T> a{work, work + m * kB<T>}, b{work + 2 * m * kB<T>, work + 3 * m * kB<T>};
  for (int64_t j = 0; j < n; ++j)
    store_cv(a.re, a.im, j * kB<T>, mul(load_cv(x.re, x.im, j * kB<T>), broadcast(plan.chirp_re[j], plan.chirp_im[j])));
  std::memset(a.re + n * kB<T>, 0, sizeof(T) * (m - n) * kB<T>);
  std::memset(a.im + n * kB<T>, 0, sizeof(T) * (m - n) * kB<T>);
  Block<T> f = run_stockham(*plan.inner, a, b);
  for (int64_t k = 0; k < m; ++k)
    store_cv(f.re, f.im, k * kB<T>, mul(load_cv(f.re, f.im, k * kB<T>), broadcast(plan.kernel_re[k], plan.kernel_im[k])));
  Block<T> other = f.re == a.re ? b : a;
  Block<T> g = swapped(run_stockham(*plan.inner, swapped(f), swapped(other)));
  for (int64_t k = 0; k < n; ++k)
    store_cv(x.re, x.im, k * kB<T>, mul(load_cv(g.re, g.im, k * kB<T>), broadcast(plan.chirp_re[k], plan.chirp_im[k])));
  return x;
}

// Values per block and scratch for a blocked plan: x, y ([n][kB] each) and Bluestein's work.
template <typename T> int64_t block_scratch_values(const FftPlan<T>& plan) {
  return 4 * plan.n * kB<T> + (plan.kind == FftPlan<T>::Kind::Bluestein ? 4 * plan.m * kB<T> : 0);
}

// Forward DFT of a block in x (scratch after it, see block_scratch_values).
template <typename T> Block<T> run_block(const FftPlan<T>& plan, Block<T> x, T* scratch) {
  if (plan.kind == FftPlan<T>::Kind::Bluestein) return run_bluestein_block(plan, x, scratch);
  return run_stockham(plan, x, Block<T>{scratch, scratch + plan.n * kB<T>});
}

// ------------------------------------------------------------------ lines in (outer, n, inner)

// Where the lines of a block start: line b = o * inner + i begins at o * len * inner + i.
struct LineSet {
  int64_t len, inner, lines;
  int64_t start(int64_t b) const { return (b / inner) * len * inner + b % inner; }
};

// Loads element j (complex, interleaved) of lines b0..b0+cnt-1 into block row j for all j < n
// (zeros in lanes >= cnt); `swap` exchanges the parts.
template <typename T>
void gather_complex(const T* in, const LineSet& ls, int64_t b0, int64_t cnt, int64_t n, bool swap, Block<T> x) {
  int64_t start[kB<T>];
  for (int64_t l = 0; l < cnt; ++l) start[l] = ls.start(b0 + l);
  T* re = swap ? x.im : x.re;
  T* im = swap ? x.re : x.im;
  for (int64_t j = 0; j < n; ++j) {
    T* rr = re + j * kB<T>;
    T* ri = im + j * kB<T>;
    for (int64_t l = 0; l < cnt; ++l) {
      const T* src = in + 2 * (start[l] + j * ls.inner);
      rr[l] = src[0], ri[l] = src[1];
    }
    for (int64_t l = cnt; l < kB<T>; ++l) rr[l] = ri[l] = T(0);
  }
}

// Stores block rows j < n, times `scale`, as element j of lines b0..b0+cnt-1.
template <typename T>
void scatter_complex(Block<T> x, bool swap, T scale, const LineSet& ls, int64_t b0, int64_t cnt, int64_t n, T* out) {
  int64_t start[kB<T>];
  for (int64_t l = 0; l < cnt; ++l) start[l] = ls.start(b0 + l);
  const T* re = swap ? x.im : x.re;
  const T* im = swap ? x.re : x.im;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t l = 0; l < cnt; ++l) {
      T* dst = out + 2 * (start[l] + j * ls.inner);
      dst[0] = re[j * kB<T> + l] * scale, dst[1] = im[j * kB<T> + l] * scale;
    }
}

// Runs fn(b0, cnt, scratch) over the blocks of `lines` lines on the thread pool.
template <typename T, typename F> void for_blocks(int64_t lines, int64_t scratch_values, F fn) {
  const int64_t blocks = (lines + kB<T> - 1) / kB<T>;
  parallel_for(0, blocks, 1, [&](int64_t begin, int64_t end) {
    T* scratch = static_cast<T*>(fft_scratch(0, sizeof(T) * scratch_values));
    for (int64_t blk = begin; blk < end; ++blk) {
      const int64_t b0 = blk * kB<T>;
      fn(b0, std::min<int64_t>(kB<T>, lines - b0), scratch);
    }
  });
}

// ------------------------------------------------------------------ one long line at a time

template <typename T> void line_transform(const FftPlan<T>& plan, T* data, bool inverse);

// Four-step: columns j2 of x[j1 * n2 + j2] transformed over j1, twiddled by w^(j2 k1), then
// rows k1 transformed over j2 into X[k1 + n1 k2]. Blocks of columns/rows run in parallel.
template <typename T> void four_step_line(const FftPlan<T>& plan, T* data, bool inverse) {
  const int64_t n = plan.n, n1 = plan.n1, n2 = plan.n2;
  T* tmp = static_cast<T*>(fft_scratch(1, sizeof(T) * 2 * n));
  const LineSet columns{n1, n2, n2};  // column j2 starts at j2, steps by n2
  parallel_for(0, (n2 + kB<T> - 1) / kB<T>, 1, [&](int64_t begin, int64_t end) {
    T* scratch = static_cast<T*>(fft_scratch(0, sizeof(T) * block_scratch_values(*plan.sub1)));
    for (int64_t blk = begin; blk < end; ++blk) {
      const int64_t c0 = blk * kB<T>, cnt = std::min<int64_t>(kB<T>, n2 - c0);
      Block<T> x{scratch, scratch + n1 * kB<T>};
      gather_complex(data, columns, c0, cnt, n1, inverse, x);
      Block<T> z = run_block(*plan.sub1, x, scratch + 2 * n1 * kB<T>);
      for (int64_t k1 = 0; k1 < n1; ++k1)
        for (int64_t l = 0; l < cnt; ++l) {
          const int64_t at = k1 * kB<T> + l, e = k1 * (c0 + l);  // < n
          const T zr = z.re[at], zi = z.im[at], wr = plan.root_re[e], wi = plan.root_im[e];
          z.re[at] = zr * wr - zi * wi;
          z.im[at] = zr * wi + zi * wr;
        }
      scatter_complex(z, false, T(1), columns, c0, cnt, n1, tmp);
    }
  });
  const LineSet rows{n2, 1, n1};  // row k1 of tmp starts at k1 * n2
  parallel_for(0, (n1 + kB<T> - 1) / kB<T>, 1, [&](int64_t begin, int64_t end) {
    T* scratch = static_cast<T*>(fft_scratch(0, sizeof(T) * block_scratch_values(*plan.sub2)));
    for (int64_t blk = begin; blk < end; ++blk) {
      const int64_t r0 = blk * kB<T>, cnt = std::min<int64_t>(kB<T>, n1 - r0);
      Block<T> x{scratch, scratch + n2 * kB<T>};
      gather_complex(tmp, rows, r0, cnt, n2, false, x);
      Block<T> z = run_block(*plan.sub2, x, scratch + 2 * n2 * kB<T>);
      const T* re = inverse ? z.im : z.re;
      const T* im = inverse ? z.re : z.im;
      for (int64_t k2 = 0; k2 < n2; ++k2)
        for (int64_t l = 0; l < cnt; ++l) {
          T* dst = data + 2 * (r0 + l + n1 * k2);
          dst[0] = re[k2 * kB<T> + l], dst[1] = im[k2 * kB<T> + l];
        }
    }
  });
}

// Bluestein on one line whose convolution length needs the four-step plan.
template <typename T> void bluestein_line(const FftPlan<T>& plan, T* data, bool inverse) {
  const int64_t n = plan.n, m = plan.m;
  T* a = static_cast<T*>(fft_scratch(2, sizeof(T) * 2 * m));
  const T sign = inverse ? T(-1) : T(1);  // the inverse is the forward of the conjugate
  for (int64_t j = 0; j < n; ++j) {
    const T xr = data[2 * j], xi = sign * data[2 * j + 1], cr = plan.chirp_re[j], ci = plan.chirp_im[j];
    a[2 * j] = xr * cr - xi * ci;
    a[2 * j + 1] = xr * ci + xi * cr;
  }
  std::memset(a + 2 * n, 0, sizeof(T) * 2 * (m - n));
  line_transform(*plan.inner, a, false);
  for (int64_t k = 0; k < m; ++k) {
    const T ar = a[2 * k], ai = a[2 * k + 1], kr = plan.kernel_re[k], ki = plan.kernel_im[k];
    a[2 * k] = ar * kr - ai * ki;
    a[2 * k + 1] = ar * ki + ai * kr;
  }
  line_transform(*plan.inner, a, true);
  for (int64_t k = 0; k < n; ++k) {
    const T ar = a[2 * k], ai = a[2 * k + 1], cr = plan.chirp_re[k], ci = plan.chirp_im[k];
    data[2 * k] = ar * cr - ai * ci;
    data[2 * k + 1] = sign * (ar * ci + ai * cr);
  }
}

// In-place DFT of one contiguous interleaved line (any plan).
template <typename T> void line_transform(const FftPlan<T>& plan, T* data, bool inverse) {
  if (plan.kind == FftPlan<T>::Kind::FourStep) return four_step_line(plan, data, inverse);
  if (plan.kind == FftPlan<T>::Kind::Bluestein && !plan.blocked) return bluestein_line(plan, data, inverse);
  // A blocked plan on a single line (Bluestein's long inner transforms are never blocked).
  const int64_t n = plan.n;
  T* scratch = static_cast<T*>(fft_scratch(0, sizeof(T) * block_scratch_values(plan)));
  Block<T> x{scratch, scratch + n * kB<T>};
  const LineSet one{n, 1, 1};
  gather_complex(data, one, 0, 1, n, inverse, x);
  scatter_complex(run_block(plan, x, scratch + 2 * n * kB<T>), inverse, T(1), one, 0, 1, n, data);
}

// ------------------------------------------------------------------ c2c

template <typename T>
void c2c(const T* in, T* out, int64_t n, int64_t outer, int64_t inner, bool inverse, T scale) {
  const FftPlan<T>& plan = fft_plan<T>(n);
  const LineSet ls{n, inner, outer * inner};
  if (plan.blocked) {
    for_blocks<T>(ls.lines, block_scratch_values(plan), [&](int64_t b0, int64_t cnt, T* scratch) {
      Block<T> x{scratch, scratch + n * kB<T>};
      gather_complex(in, ls, b0, cnt, n, inverse, x);
      scatter_complex(run_block(plan, x, scratch + 2 * n * kB<T>), inverse, scale, ls, b0, cnt, n, out);
    });
    return;
  }
  T* line = static_cast<T*>(fft_scratch(3, sizeof(T) * 2 * n));
  for (int64_t b = 0; b < ls.lines; ++b) {
    const int64_t at = ls.start(b);
    for (int64_t j = 0; j < n; ++j) line[2 * j] = in[2 * (at + j * inner)], line[2 * j + 1] = in[2 * (at + j * inner) + 1];
    line_transform(plan, line, inverse);
    for (int64_t j = 0; j < n; ++j) out[2 * (at + j * inner)] = line[2 * j] * scale, out[2 * (at + j * inner) + 1] = line[2 * j + 1] * scale;
  }
}

// ------------------------------------------------------------------ r2c

// X_k for k <= h of a real line of length 2h from Z = DFT_h(x_even + i x_odd):
// X_k = (Z_k + conj Z_{h-k}) / 2 - i w^k (Z_k - conj Z_{h-k}) / 2 with w = exp(-i pi / h).
template <typename T>
inline void untangle(const FftPlan<T>& half, T zr, T zi, T cr, T ci, int64_t k, T& xr, T& xi) {
  const T er = (zr + cr) / 2, ei = (zi - ci) / 2;    // (Z_k + conj Z_{h-k}) / 2
  const T dr = (zr - cr) / 2, di = (zi + ci) / 2;    // (Z_k - conj Z_{h-k}) / 2
  const T orr = di, oi = -dr;                        // -i * d
  const T wr = half.half_re[k], wi = half.half_im[k];
  xr = er + orr * wr - oi * wi;
  xi = ei + orr * wi + oi * wr;
}

// Writes bins k = 0..h (and the mirrored n-k for the full spectrum) of line `at`.
template <typename T>
inline void store_bin(T* out, int64_t at, int64_t stride, int64_t n, int64_t k, bool onesided, T xr, T xi, T scale) {
  out[2 * (at + k * stride)] = xr * scale, out[2 * (at + k * stride) + 1] = xi * scale;
  if (!onesided && k > 0 && 2 * k != n)
    out[2 * (at + (n - k) * stride)] = xr * scale, out[2 * (at + (n - k) * stride) + 1] = -xi * scale;
}

template <typename T>
void r2c(const T* in, T* out, int64_t n, int64_t outer, int64_t inner, bool onesided, T scale) {
  const int64_t bins = onesided ? n / 2 + 1 : n;
  const LineSet src{n, inner, outer * inner}, dst{bins, inner, outer * inner};
  if (n % 2 == 1) {  // odd: a complex transform of the real line
    const FftPlan<T>& plan = fft_plan<T>(n);
    T* line = static_cast<T*>(fft_scratch(3, sizeof(T) * 2 * n));
    auto run = [&](int64_t b, const T* re, const T* im, int64_t stride) {  // writes line b
      const int64_t at = dst.start(b);
      for (int64_t k = 0; k <= n / 2; ++k) store_bin(out, at, inner, n, k, onesided, re[k * stride], im[k * stride], scale);
    };
    if (plan.blocked) {
      for_blocks<T>(src.lines, block_scratch_values(plan), [&](int64_t b0, int64_t cnt, T* scratch) {
        Block<T> x{scratch, scratch + n * kB<T>};
        for (int64_t j = 0; j < n; ++j)
          for (int64_t l = 0; l < kB<T>; ++l) {
            x.re[j * kB<T> + l] = l < cnt ? in[src.start(b0 + l) + j * inner] : T(0);
            x.im[j * kB<T> + l] = T(0);
          }
        Block<T> z = run_block(plan, x, scratch + 2 * n * kB<T>);
        for (int64_t l = 0; l < cnt; ++l) run(b0 + l, z.re + l, z.im + l, kB<T>);
      });
    } else {
      for (int64_t b = 0; b < src.lines; ++b) {
        const int64_t at = src.start(b);
        for (int64_t j = 0; j < n; ++j) line[2 * j] = in[at + j * inner], line[2 * j + 1] = T(0);
        line_transform(plan, line, false);
        run(b, line, line + 1, 2);
      }
    }
    return;
  }
  const int64_t h = n / 2;
  const FftPlan<T>& half = fft_plan<T>(h);
  if (half.blocked) {
    for_blocks<T>(src.lines, block_scratch_values(half), [&](int64_t b0, int64_t cnt, T* scratch) {
      Block<T> x{scratch, scratch + h * kB<T>};
      int64_t start[kB<T>];
      for (int64_t l = 0; l < cnt; ++l) start[l] = src.start(b0 + l);
      for (int64_t j = 0; j < h; ++j) {
        for (int64_t l = 0; l < cnt; ++l) {
          x.re[j * kB<T> + l] = in[start[l] + 2 * j * inner];
          x.im[j * kB<T> + l] = in[start[l] + (2 * j + 1) * inner];
        }
        for (int64_t l = cnt; l < kB<T>; ++l) x.re[j * kB<T> + l] = x.im[j * kB<T> + l] = T(0);
      }
      Block<T> z = run_block(half, x, scratch + 2 * h * kB<T>);
      for (int64_t k = 0; k <= h; ++k) {
        const int64_t a = (k % h) * kB<T>, c = ((h - k) % h) * kB<T>;
        for (int64_t l = 0; l < cnt; ++l) {
          T xr, xi;
          untangle(half, z.re[a + l], z.im[a + l], z.re[c + l], z.im[c + l], k, xr, xi);
          store_bin(out, dst.start(b0 + l), inner, n, k, onesided, xr, xi, scale);
        }
      }
    });
    return;
  }
  T* line = static_cast<T*>(fft_scratch(3, sizeof(T) * 2 * h));
  for (int64_t b = 0; b < src.lines; ++b) {
    const int64_t at = src.start(b), to = dst.start(b);
    for (int64_t j = 0; j < n; ++j) line[j] = in[at + j * inner];  // x_even + i x_odd, interleaved
    line_transform(half, line, false);
    for (int64_t k = 0; k <= h; ++k) {
      const int64_t a = k % h, c = (h - k) % h;
      T xr, xi;
      untangle(half, line[2 * a], line[2 * a + 1], line[2 * c], line[2 * c + 1], k, xr, xi);
      store_bin(out, to, inner, n, k, onesided, xr, xi, scale);
    }
  }
}

// ------------------------------------------------------------------ c2r

// Z_k = (X_k + conj X_{h-k}) + i w^-k (X_k - conj X_{h-k}) for k < h: then the inverse DFT_h
// of Z is x_even + i x_odd (unnormalised, like the full inverse). Bins 0 and h count as real.
template <typename T>
inline void tangle(const FftPlan<T>& half, T ar, T ai, T cr, T ci, int64_t k, T& zr, T& zi) {
  const T er = ar + cr, ei = ai - ci;     // X_k + conj X_{h-k}
  const T dr = ar - cr, di = ai + ci;     // X_k - conj X_{h-k}
  const T wr = half.half_re[k], wi = -half.half_im[k];  // w^-k
  const T orr = dr * wr - di * wi, oi = dr * wi + di * wr;
  zr = er - oi;
  zi = ei + orr;
}

template <typename T>
void c2r(const T* in, T* out, int64_t n, int64_t outer, int64_t inner, T scale) {
  const int64_t bins = n / 2 + 1;
  const LineSet src{bins, inner, outer * inner}, dst{n, inner, outer * inner};
  // Bin k of line starting at `at`, with the imaginary part of bin 0 (and of n/2 if n is even) dropped.
  auto bin = [&](int64_t at, int64_t k, T& re, T& im) {
    re = in[2 * (at + k * inner)];
    im = (k == 0 || 2 * k == n) ? T(0) : in[2 * (at + k * inner) + 1];
  };
  if (n % 2 == 1) {  // odd: the full Hermitian spectrum through a complex inverse
    const FftPlan<T>& plan = fft_plan<T>(n);
    auto fill = [&](int64_t at, T* re, T* im, int64_t stride) {
      for (int64_t k = 0; k < bins; ++k) {
        T r, i;
        bin(at, k, r, i);
        re[k * stride] = r, im[k * stride] = i;
        if (k > 0) re[(n - k) * stride] = r, im[(n - k) * stride] = -i;
      }
    };
    if (plan.blocked) {
      for_blocks<T>(src.lines, block_scratch_values(plan), [&](int64_t b0, int64_t cnt, T* scratch) {
        Block<T> x{scratch, scratch + n * kB<T>};
        std::memset(scratch, 0, sizeof(T) * 2 * n * kB<T>);
        for (int64_t l = 0; l < cnt; ++l) fill(src.start(b0 + l), x.im + l, x.re + l, kB<T>);  // swapped: inverse
        Block<T> z = run_block(plan, x, scratch + 2 * n * kB<T>);
        for (int64_t l = 0; l < cnt; ++l) {
          const int64_t at = dst.start(b0 + l);
          for (int64_t j = 0; j < n; ++j) out[at + j * inner] = z.im[j * kB<T> + l] * scale;
        }
      });
    } else {
      T* line = static_cast<T*>(fft_scratch(3, sizeof(T) * 2 * n));
      for (int64_t b = 0; b < src.lines; ++b) {
        fill(src.start(b), line, line + 1, 2);
        line_transform(plan, line, true);
        const int64_t at = dst.start(b);
        for (int64_t j = 0; j < n; ++j) out[at + j * inner] = line[2 * j] * scale;
      }
    }
    return;
  }
  const int64_t h = n / 2;
  const FftPlan<T>& half = fft_plan<T>(h);
  if (half.blocked) {
    for_blocks<T>(src.lines, block_scratch_values(half), [&](int64_t b0, int64_t cnt, T* scratch) {
      Block<T> x{scratch, scratch + h * kB<T>};
      std::memset(scratch, 0, sizeof(T) * 2 * h * kB<T>);
      for (int64_t l = 0; l < cnt; ++l) {
        const int64_t at = src.start(b0 + l);
        for (int64_t k = 0; k < h; ++k) {
          T ar, ai, cr, ci, zr, zi;
          bin(at, k, ar, ai);
          bin(at, h - k, cr, ci);
          tangle(half, ar, ai, cr, ci, k, zr, zi);
          x.im[k * kB<T> + l] = zr, x.re[k * kB<T> + l] = zi;  // swapped: the inverse
        }
      }
      Block<T> z = run_block(half, x, scratch + 2 * h * kB<T>);
      for (int64_t l = 0; l < cnt; ++l) {
        const int64_t at = dst.start(b0 + l);
        for (int64_t j = 0; j < h; ++j) {
          out[at + 2 * j * inner] = z.im[j * kB<T> + l] * scale;
          out[at + (2 * j + 1) * inner] = z.re[j * kB<T> + l] * scale;
        }
      }
    });
    return;
  }
  T* line = static_cast<T*>(fft_scratch(3, sizeof(T) * 2 * h));
  for (int64_t b = 0; b < src.lines; ++b) {
    const int64_t at = src.start(b), to = dst.start(b);
    for (int64_t k = 0; k < h; ++k) {
      T ar, ai, cr, ci;
      bin(at, k, ar, ai);
      bin(at, h - k, cr, ci);
      tangle(half, ar, ai, cr, ci, k, line[2 * k], line[2 * k + 1]);
    }
    line_transform(half, line, true);
    for (int64_t j = 0; j < n; ++j) out[to + j * inner] = line[j] * scale;
  }
}

// ------------------------------------------------------------------ entry points

void fft_c2c_kernel(DType dtype, const void* in, void* out, int64_t n, int64_t outer, int64_t inner, bool inverse,
                    double scale) {
  if (dtype == DType::Float64) return c2c(static_cast<const double*>(in), static_cast<double*>(out), n, outer, inner, inverse, scale);
  c2c(static_cast<const float*>(in), static_cast<float*>(out), n, outer, inner, inverse, static_cast<float>(scale));
}

void fft_r2c_kernel(DType dtype, const void* in, void* out, int64_t n, int64_t outer, int64_t inner, bool onesided,
                    double scale) {
  if (dtype == DType::Float64) return r2c(static_cast<const double*>(in), static_cast<double*>(out), n, outer, inner, onesided, scale);
  r2c(static_cast<const float*>(in), static_cast<float*>(out), n, outer, inner, onesided, static_cast<float>(scale));
}

void fft_c2r_kernel(DType dtype, const void* in, void* out, int64_t n, int64_t outer, int64_t inner, double scale) {
  if (dtype == DType::Float64) return c2r(static_cast<const double*>(in), static_cast<double*>(out), n, outer, inner, scale);
  c2r(static_cast<const float*>(in), static_cast<float*>(out), n, outer, inner, static_cast<float>(scale));
}

}  // namespace
TZ_REGISTER_KERNEL(fft_c2c_stub, &fft_c2c_kernel);
TZ_REGISTER_KERNEL(fft_r2c_stub, &fft_r2c_kernel);
TZ_REGISTER_KERNEL(fft_c2r_stub, &fft_c2r_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
