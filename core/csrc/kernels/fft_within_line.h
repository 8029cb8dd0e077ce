// FFT of one contiguous line vectorised along the line (see kernels/fft.h), for
// kernels/isa/fft_kernels.cpp only: long lines stored one after another, where gathering kB
// lines into a block costs kB x kB transposes on the way in and out. A line of L complex values
// sits in a block as rows of kB consecutive elements (row r: elements r kB .. r kB + kB - 1, in
// split parts), so a Stockham pass with a stride s that is a multiple of kB is the blocked
// pass on rows with stride s / kB. The first pass (s = 1) runs along p instead, its outputs
// transposed into rows. Every element goes through the same operations as in the blocked
// path, so the results are the same bits.
#pragma once

#include "kernels/fft_lines.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

// Whether a plan's line can run within-line: Stockham with a first radix of whole vectors
// (it is 8 for lengths divisible by 8; AVX-512 float vectors, 16 lanes, stay blocked) and a
// multiple of kB first-pass butterflies.
template <typename T> bool within_line_fits(const FftPlan<T>& plan) {
  if (plan.kind != FftPlan<T>::Kind::Stockham || plan.stages.empty()) return false;
  const FftStage<T>& first = plan.stages[0];
  return first.radix % kB<T> == 0 && first.m % kB<T> == 0;
}

// Lane 0 of `keep`, the other lanes of `other`.
template <typename T> TZ_VINLINE vec<T> lane0_of(const vec<T>& keep, const vec<T>& other) {
  return __builtin_shuffle(keep, other, make_mask<T>([](int l) { return l == 0 ? 0 : kB<T> + l; }));
}

// Splitting kB interleaved complex values takes one shuffle per part when each 16-byte lane
// of the result takes half its values from each of the two loads: lane l then holds the
// parts at paired_source(l) (and + 1) of the 2 kB values, complex value paired_source(l) / 2.
template <typename T> constexpr int paired_source(int l) {
  constexpr int S = 16 / sizeof(T);  // values per 16 bytes
  return (l % S < S / 2 ? 0 : kB<T>) + l / S * S + 2 * (l % (S / 2));
}
template <typename T> TZ_VINLINE CV<T> load_complex_in_lanes(const T* p) {
  const vec<T> a = vm::load(p), b = vm::load(p + kB<T>);
  return {__builtin_shuffle(a, b, make_mask<T>([](int l) { return paired_source<T>(l); })),
          __builtin_shuffle(a, b, make_mask<T>([](int l) { return paired_source<T>(l) + 1; }))};
}

// The first Stockham pass (stride 1) of the L = R m interleaved complex values at `in`, into
// the rows of y: y[R p + k] = w^(p k) sum_j x[p + j m] e^(-2 pi i j k / R), for kB values of p
// at a time. Transposed, a vector holds the R (or kB of the) outputs of one p, twiddled by a
// row of the table (k = 0 and p = 0 untwiddled, as in the blocked pass).
template <typename T, int R> void first_pass(const FftStage<T>& st, const T* in, Block<T> y) {
  constexpr int64_t B = kB<T>, G = R / B;  // each p's R outputs fill G rows
  const int64_t m = st.m;
  const T* twr = st.tw_row_re.data();
  const T* twi = st.tw_row_im.data();
  for (int64_t p0 = 0; p0 < m; p0 += B) {
    CV<T> a[R];
    for (int j = 0; j < R; ++j) a[j] = load_complex_in_lanes(in + 2 * (p0 + j * m));
    dft<T, R>(a);
    for (int64_t g = 0; g < G; ++g) {
      vec<T> re[B], im[B];
      for (int64_t l = 0; l < B; ++l) re[l] = a[g * B + l].re, im[l] = a[g * B + l].im;
      transpose<T>(re);
      transpose<T>(im);
      for (int l = 0; l < B; ++l) {
        const int64_t p = p0 + paired_source<T>(l) / 2, at = p * R + g * B;
        const CV<T> v{re[l], im[l]};
        if (p == 0) {
          y.set_row(g, v);
          continue;
        }
        const CV<T> t = mul(v, load_cv(twr, twi, at));
        y.set_row(at / B, g == 0 ? CV<T>{lane0_of<T>(v.re, t.re), lane0_of<T>(v.im, t.im)} : t);
      }
    }
  }
}

// The DFT of the L = plan.n interleaved complex values at `in` into the rows of x or y (L / kB
// rows each): the block holding the result.
template <typename T> Block<T> within_line(const FftPlan<T>& plan, const T* in, Block<T> x, Block<T> y) {
  const FftStage<T>& first = plan.stages[0];
  switch (first.radix) {
    case 2: first_pass<T, 2>(first, in, x); break;
    case 4: first_pass<T, 4>(first, in, x); break;
    default: first_pass<T, 8>(first, in, x); break;
  }
  return run_stages(plan, 1, first.radix / kB<T>, x, y);
}

// Bins 0 .. h of a real line of 2h values from the rows of z = DFT_h(x_even + i x_odd) (h
// values), times `scale`, interleaved into out: untangled (kernels/isa/fft_kernels.cpp) kB
// bins at a time, with Z_{h-k} read backwards across two rows.
template <typename T> void untangle_line(const FftPlan<T>& half, Block<T> z, int64_t h, T scale, T* out) {
  constexpr int64_t B = kB<T>;
  const int64_t rows = h / B;
  const vec<T> s = splat<vec<T>>(scale), one_half = splat<vec<T>>(T(0.5)), zero = splat<vec<T>>(T(0));
  // Lane l of Z_{h-k} for k = r B + l: lane 0 of row rows - r (row 0 for r = 0: Z_h = Z_0), lane
  // B - l of the row below it.
  const lane_mask<T> backwards = make_mask<T>([](int l) { return l == 0 ? 0 : 2 * kB<T> - l; });
  for (int64_t r = 0; r < rows; ++r) {
    const CV<T> a = z.row(r), top = z.row(r == 0 ? 0 : rows - r), below = z.row(rows - r - 1);
    const CV<T> c{__builtin_shuffle(top.re, below.re, backwards), __builtin_shuffle(top.im, below.im, backwards)};
    const CV<T> e{(a.re + c.re) * one_half, (a.im - c.im) * one_half};
    const CV<T> d{(a.re - c.re) * one_half, (a.im + c.im) * one_half};
    CV<T> v = add(e, mul(mul_neg_i(d), load_cv(half.half_re.data(), half.half_im.data(), r * B)));
    if (r == 0) v = {lane0_of<T>(a.re + a.im, v.re), lane0_of<T>(zero, v.im)};  // X_0 = Z_0.re + Z_0.im, real
    store_complex(out + 2 * r * B, scaled(v, s));
  }
  const CV<T> z0 = z.row(0);
  out[2 * h] = (z0.re[0] - z0.im[0]) * scale, out[2 * h + 1] = T(0) * scale;  // X_h, real
}

// The inverse of untangle_line: Z_k for k < h, parts swapped (for the inverse), from the bins
// X_0 .. X_h interleaved at `in`, interleaved into z: tangle (kernels/isa/fft_kernels.cpp) kB
// bins at a time, with X_{h-k} read backwards. The imaginary parts of X_0 and X_h are ignored.
template <typename T> void tangle_line(const FftPlan<T>& half, const T* in, int64_t h, T* z) {
  constexpr int64_t B = kB<T>;
  const lane_mask<T> reversed = make_mask<T>([](int l) { return kB<T> - 1 - l; });
  const vec<T> zero = splat<vec<T>>(T(0));
  for (int64_t k0 = 0; k0 < h; k0 += B) {
    CV<T> a = load_complex(in + 2 * k0);
    const CV<T> back = load_complex(in + 2 * (h - k0 - B + 1));
    CV<T> c{__builtin_shuffle(back.re, reversed), __builtin_shuffle(back.im, reversed)};
    if (k0 == 0) a.im = lane0_of<T>(zero, a.im), c.im = lane0_of<T>(zero, c.im);  // X_0 and X_h
    const CV<T> e{a.re + c.re, a.im - c.im};
    const CV<T> d{a.re - c.re, a.im + c.im};
    const CV<T> w = load_cv(half.half_re.data(), half.half_im.data(), k0);
    const CV<T> o = mul(d, CV<T>{w.re, -w.im});
    store_complex(z + 2 * k0, CV<T>{e.im + o.re, e.re - o.im});
  }
}

}  // namespace
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
