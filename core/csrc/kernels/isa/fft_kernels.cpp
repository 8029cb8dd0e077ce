// FFT kernels (see kernels/fft.h): complex, real-to-complex and complex-to-real transforms of
// the lines of a contiguous (outer, n, inner) array. Lines go through blocks of kB lines
// (kernels/fft_block.h, moved by kernels/fft_lines.h), blocks run on the thread pool; long
// contiguous real lines of rfft and irfft go one line at a time along the line instead
// (kernels/fft_within_line.h), lines on the thread pool. Long lines (four-step and long
// Bluestein plans) are transformed one at a time, each in parallel.
#include <algorithm>
#include <cstring>

#include "iter/thread_pool.h"
#include "kernels/fft.h"
#include "kernels/fft_within_line.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

// Runs fn(b0, cnt, scratch) over the blocks of `lines` lines on the thread pool.
template <typename T, typename F> void for_blocks(int64_t lines, int64_t scratch_values, F fn) {
  const int64_t blocks = (lines + kB<T> - 1) / kB<T>;
  parallel_for(0, blocks, 1, [&](int64_t begin, int64_t end) {
    T* scratch = static_cast<T*>(fft_scratch(kFftBlockSlot, sizeof(T) * scratch_values));
    for (int64_t blk = begin; blk < end; ++blk) {
      const int64_t b0 = blk * kB<T>;
      fn(b0, std::min<int64_t>(kB<T>, lines - b0), scratch);
    }
  });
}

// ------------------------------------------------------------------ one long line at a time

template <typename T> void line_transform(const FftPlan<T>& plan, const T* in, T* out, bool inverse, T scale, int depth);

// Multiplies the columns of the block holding columns c0 .. c0 + kB - 1 by w^(k1 j2) (see
// FftPlan: the same two table entries for a column in every build).
template <typename T> void four_step_twiddle(const FftPlan<T>& plan, Block<T> z, int64_t c0) {
  constexpr int64_t G = kFftTwiddleGroup<T>;
  const int64_t n1 = plan.n1, g = c0 / G, l0 = c0 % G;
  const T* base_re = plan.base_re.data() + g * n1;
  const T* base_im = plan.base_im.data() + g * n1;
  for (int64_t k1 = 0; k1 < n1; ++k1) {
    const CV<T> fine = load_cv(plan.fine_re.data(), plan.fine_im.data(), k1 * G + l0);
    z.set_row(k1, mul(z.row(k1), mul(broadcast(base_re[k1], base_im[k1]), fine)));
  }
}

// Four-step DFT of one contiguous line (in == out allowed): columns j2 of x[j1 n2 + j2]
// transformed over j1 and twiddled into a row-major copy, then its rows k1 transformed over
// j2 into X[k1 + n1 k2]. The inverse is the forward transform with the parts swapped on the
// way in and out. Blocks of columns, then of rows, run in parallel.
template <typename T> void four_step(const FftPlan<T>& plan, const T* in, T* out, bool inverse, T scale, int depth) {
  TZ_CHECK(kFftFourStepSlot + depth < kFftScratchSlots, Runtime, "fft: the transform length nests the four-step split too deeply");
  const int64_t n1 = plan.n1, n2 = plan.n2;
  const FftPlan<T>& sub1 = *plan.sub1;
  const FftPlan<T>& sub2 = *plan.sub2;
  T* tmp = static_cast<T*>(fft_scratch(kFftFourStepSlot + depth, sizeof(T) * 2 * plan.n));
  const Lines columns = complex_lines(n1, n2);  // column j2: element j1 at j1 n2 + j2
  parallel_for(0, (n2 + kB<T> - 1) / kB<T>, 1, [&](int64_t begin, int64_t end) {
    const BlockScratch<T> bs(static_cast<T*>(fft_scratch(kFftBlockSlot, sizeof(T) * block_scratch_values(sub1, n1))), n1);
    for (int64_t blk = begin; blk < end; ++blk) {
      const int64_t c0 = blk * kB<T>, cnt = std::min<int64_t>(kB<T>, n2 - c0);
      gather(in, columns, c0, cnt, 0, n1, bs.x, inverse);
      const Block<T> z = run_block(sub1, bs);
      four_step_twiddle(plan, z, c0);
      scatter(z, false, T(1), columns, c0, cnt, 0, n1, tmp);
    }
  });
  const Lines rows = complex_lines(n2, 1);     // row k1 of tmp: element j2 at k1 n2 + j2
  const Lines result = complex_lines(n2, n1);  // X[k1 + n1 k2]: line k1, element k2
  if (!sub2.blocked) {  // rows longer than a block: each a four-step line of its own
    for (int64_t k1 = 0; k1 < n1; ++k1) {
      T* row = tmp + 2 * k1 * n2;
      line_transform(sub2, row, row, false, T(1), depth + 1);
      const int p = inverse ? 1 : 0;  // the swapped parts of the inverse
      for (int64_t k2 = 0; k2 < n2; ++k2) {
        T* dst = out + result.offset(k1, k2);
        dst[0] = row[2 * k2 + p] * scale, dst[1] = row[2 * k2 + 1 - p] * scale;
      }
    }
    return;
  }
  parallel_for(0, (n1 + kB<T> - 1) / kB<T>, 1, [&](int64_t begin, int64_t end) {
    const BlockScratch<T> bs(static_cast<T*>(fft_scratch(kFftBlockSlot, sizeof(T) * block_scratch_values(sub2, n2))), n2);
    for (int64_t blk = begin; blk < end; ++blk) {
      const int64_t r0 = blk * kB<T>, cnt = std::min<int64_t>(kB<T>, n1 - r0);
      gather(tmp, rows, r0, cnt, 0, n2, bs.x, false);
      scatter(run_block(sub2, bs), inverse, scale, result, r0, cnt, 0, n2, out);
    }
  });
}

// out[0 .. count) <- a[0 .. count) * w[0 .. count) on interleaved complex lines (w split),
// with the parts of `a` swapped before (swap_in) and of the product after (swap_out).
template <typename T>
void mul_line(const T* a, const T* w_re, const T* w_im, T* out, int64_t count, bool swap_in, bool swap_out, T scale) {
  const vec<T> s = splat<vec<T>>(scale);
  int64_t k = 0;
  for (; k + kB<T> <= count; k += kB<T>) {
    CV<T> v = load_complex(a + 2 * k);
    if (swap_in) v = {v.im, v.re};
    CV<T> r = scaled(mul(v, load_cv(w_re, w_im, k)), s);
    if (swap_out) r = {r.im, r.re};
    store_complex(out + 2 * k, r);
  }
  for (; k < count; ++k) {
    const T ar = a[2 * k + swap_in], ai = a[2 * k + 1 - swap_in], wr = w_re[k], wi = w_im[k];
    const T re = (ar * wr - ai * wi) * scale, im = (ar * wi + ai * wr) * scale;
    out[2 * k + swap_out] = re, out[2 * k + 1 - swap_out] = im;
  }
}

// Bluestein on one line whose convolution length needs a line plan of its own.
template <typename T> void bluestein_line(const FftPlan<T>& plan, const T* in, T* out, bool inverse, T scale, int depth) {
  const int64_t n = plan.n, m = plan.m;
  T* a = static_cast<T*>(fft_scratch(kFftBluesteinSlot, sizeof(T) * 2 * m));
  mul_line(in, plan.chirp_re.data(), plan.chirp_im.data(), a, n, inverse, false, T(1));
  std::memset(a + 2 * n, 0, sizeof(T) * 2 * (m - n));
  line_transform(*plan.inner, a, a, false, T(1), depth);
  mul_line(a, plan.kernel_re.data(), plan.kernel_im.data(), a, m, false, false, T(1));
  line_transform(*plan.inner, a, a, true, T(1), depth);
  mul_line(a, plan.chirp_re.data(), plan.chirp_im.data(), out, n, false, inverse, scale);
}

// DFT of one contiguous interleaved line, times `scale` (in == out allowed).
template <typename T> void line_transform(const FftPlan<T>& plan, const T* in, T* out, bool inverse, T scale, int depth) {
  if (plan.kind == FftPlan<T>::Kind::FourStep) return four_step(plan, in, out, inverse, scale, depth);
  if (plan.kind == FftPlan<T>::Kind::Bluestein && !plan.blocked) return bluestein_line(plan, in, out, inverse, scale, depth);
  const int64_t n = plan.n;  // a blocked plan on one line
  const BlockScratch<T> bs(static_cast<T*>(fft_scratch(kFftBlockSlot, sizeof(T) * block_scratch_values(plan, n))), n);
  const Lines one = complex_lines(n, 1);
  gather(in, one, 0, 1, 0, n, bs.x, inverse);
  scatter(run_block(plan, bs), inverse, scale, one, 0, 1, 0, n, out);
}

// ------------------------------------------------------------------ c2c

template <typename T>
void c2c(const T* in, T* out, int64_t n, int64_t outer, int64_t inner, bool inverse, T scale) {
  const FftPlan<T>& plan = fft_plan<T>(n);
  const Lines ls = complex_lines(n, inner);
  const int64_t lines = outer * inner;
  if (plan.blocked) {
    for_blocks<T>(lines, block_scratch_values(plan, n), [&](int64_t b0, int64_t cnt, T* scratch) {
      const BlockScratch<T> bs(scratch, n);
      gather(in, ls, b0, cnt, 0, n, bs.x, inverse);
      scatter(run_block(plan, bs), inverse, scale, ls, b0, cnt, 0, n, out);
    });
    return;
  }
  if (inner == 1) {
    for (int64_t b = 0; b < lines; ++b) line_transform(plan, in + 2 * b * n, out + 2 * b * n, inverse, scale, 0);
    return;
  }
  T* line = static_cast<T*>(fft_scratch(kFftLineSlot, sizeof(T) * 2 * n));
  for (int64_t b = 0; b < lines; ++b) {
    for (int64_t j = 0; j < n; ++j) std::memcpy(line + 2 * j, in + ls.offset(b, j), 2 * sizeof(T));
    line_transform(plan, line, line, inverse, scale, 0);
    for (int64_t j = 0; j < n; ++j) std::memcpy(out + ls.offset(b, j), line + 2 * j, 2 * sizeof(T));
  }
}

// ------------------------------------------------------------------ r2c

// Contiguous real lines of n = 2h values go within-line (kernels/fft_within_line.h) from h =
// 128 for rfft, from h = 512 for irfft (shorter, its tangle's pass of its own costs more than
// the blocks' transposes: 512 x 512 irfft 245 blocked vs 271 us within-line, 1024 points 428 vs 412).
constexpr int64_t kWithinLineMinR2C = 128, kWithinLineMinC2R = 512;

template <typename T> bool goes_within_line(const FftPlan<T>& half, int64_t n, int64_t inner, int64_t min_half) {
  return inner == 1 && n % 2 == 0 && n / 2 >= min_half && within_line_fits(half);
}

// Bin k <= h of X (a real line of length 2h) from rows 0 .. h - 1 of block z = DFT_h(x_even +
// i x_odd): X_k = (Z_k + conj Z_{h-k}) / 2 - i w^k (Z_k - conj Z_{h-k}) / 2 with
// w = exp(-i pi / h); X_0 and X_h are real. Computed as scatter writes it (no pass of its own).
template <typename T> TZ_VINLINE CV<T> untangled(const FftPlan<T>& half, Block<T> z, int64_t h, int64_t k) {
  if (k == 0 || k == h) {
    const CV<T> z0 = z.row(0);
    return {k == 0 ? z0.re + z0.im : z0.re - z0.im, splat<vec<T>>(T(0))};
  }
  const vec<T> one_half = splat<vec<T>>(T(0.5));
  const CV<T> a = z.row(k), c = z.row(h - k);
  const CV<T> e{(a.re + c.re) * one_half, (a.im - c.im) * one_half};
  const CV<T> d{(a.re - c.re) * one_half, (a.im + c.im) * one_half};
  return add(e, mul(mul_neg_i(d), broadcast(half.half_re[k], half.half_im[k])));
}

template <typename T>
void r2c(const T* in, T* out, int64_t n, int64_t outer, int64_t inner, bool onesided, T scale) {
  const int64_t lines = outer * inner, bins = onesided ? n / 2 + 1 : n;
  const Lines dst = complex_lines(bins, inner);
  const bool odd = n % 2 == 1;
  const int64_t h = n / 2, len = odd ? n : h;  // the complex transform's length
  const FftPlan<T>& plan = fft_plan<T>(len);
  if (goes_within_line(plan, n, inner, kWithinLineMinR2C)) {
    parallel_for(0, lines, 1, [&](int64_t begin, int64_t end) {
      T* scratch = static_cast<T*>(fft_scratch(kFftBlockSlot, sizeof(T) * 4 * h));
      const Block<T> x{scratch}, y{scratch + 2 * h};
      for (int64_t b = begin; b < end; ++b) {
        const T* line = in + b * n;
        T* o = out + 2 * b * bins;
        untangle_line(plan, within_line(plan, line, x, y), h, scale, o);
        for (int64_t k = h + 1; k < bins; ++k) o[2 * k] = o[2 * (n - k)], o[2 * k + 1] = -o[2 * (n - k) + 1];  // full: conjugates
      }
    });
    return;
  }
  if (plan.blocked) {
    for_blocks<T>(lines, block_scratch_values(plan, len), [&](int64_t b0, int64_t cnt, T* scratch) {
      const BlockScratch<T> bs(scratch, len);
      gather(in, odd ? real_lines(n, inner) : paired_lines(n, inner), b0, cnt, 0, len, bs.x, false);
      const Block<T> z = run_block(plan, bs);
      const int64_t first = n / 2 + 1;  // bins first .. n - 1 (full spectrum): conjugates of bins n - k
      if (odd) {
        scatter(z, false, scale, dst, b0, cnt, 0, first, out);
        if (!onesided) scatter_rows([&](int64_t k) { return conj(z.row(n - first - k)); }, scale, dst, b0, cnt, first, n - first, out);
      } else {
        scatter_rows([&](int64_t k) { return untangled(plan, z, h, k); }, scale, dst, b0, cnt, 0, first, out);
        if (!onesided)
          scatter_rows([&](int64_t k) { return conj(untangled(plan, z, h, n - first - k)); }, scale, dst, b0, cnt, first, n - first, out);
      }
    });
    return;
  }
  // One long line at a time: the real line as a complex one (odd), or read as h complex values.
  T* line = static_cast<T*>(fft_scratch(kFftLineSlot, sizeof(T) * 2 * len));
  const Lines src = odd ? real_lines(n, inner) : paired_lines(n, inner);
  for (int64_t b = 0; b < lines; ++b) {
    for (int64_t j = 0; j < len; ++j) {
      const T* p = in + src.offset(b, j);
      line[2 * j] = p[0], line[2 * j + 1] = odd ? T(0) : p[src.part_step];
    }
    line_transform(plan, line, line, false, T(1), 0);
    T* o = out + dst.offset(b, 0);
    auto put = [&](int64_t k, T re, T im) {
      o[k * dst.elem_step] = re * scale, o[k * dst.elem_step + 1] = im * scale;
      if (!onesided && k > 0 && 2 * k != n) o[(n - k) * dst.elem_step] = re * scale, o[(n - k) * dst.elem_step + 1] = -im * scale;
    };
    if (odd) {
      for (int64_t k = 0; k <= h; ++k) put(k, line[2 * k], line[2 * k + 1]);
      continue;
    }
    put(0, line[0] + line[1], T(0));
    put(h, line[0] - line[1], T(0));
    for (int64_t k = 1; k < h; ++k) {
      const T ar = line[2 * k], ai = line[2 * k + 1], cr = line[2 * (h - k)], ci = line[2 * (h - k) + 1];
      const T er = (ar + cr) * T(0.5), ei = (ai - ci) * T(0.5), dr = (ar - cr) * T(0.5), di = (ai + ci) * T(0.5);
      const T wr = plan.half_re[k], wi = plan.half_im[k];  // e + (-i d) w, as untangled
      put(k, er + (di * wr - (-dr) * wi), ei + (di * wi + (-dr) * wr));
    }
  }
}

// ------------------------------------------------------------------ c2r

// Rows 0 .. h - 1 of Z, parts swapped (for the inverse), from the bins X_0 .. X_h in rows
// 0 .. h, in place: Z_k = (X_k + conj X_{h-k}) + i w^-k (X_k - conj X_{h-k}); the inverse
// DFT_h of Z is x_even + i x_odd (unnormalised, like the full inverse).
template <typename T> void tangle(const FftPlan<T>& half, Block<T> x, int64_t h) {
  auto value = [&](const CV<T>& a, const CV<T>& c, int64_t k) {
    const CV<T> e{a.re + c.re, a.im - c.im};
    const CV<T> d{a.re - c.re, a.im + c.im};
    const CV<T> o = mul(d, broadcast(half.half_re[k], T(-half.half_im[k])));
    return CV<T>{e.im + o.re, e.re - o.im};  // swapped
  };
  x.set_row(0, value(x.row(0), x.row(h), 0));
  for (int64_t k = 1; 2 * k <= h; ++k) {
    const CV<T> a = x.row(k), c = x.row(h - k);
    x.set_row(k, value(a, c, k));
    x.set_row(h - k, value(c, a, h - k));
  }
}

template <typename T>
void c2r(const T* in, T* out, int64_t n, int64_t outer, int64_t inner, T scale) {
  const int64_t lines = outer * inner, bins = n / 2 + 1;
  const Lines src = complex_lines(bins, inner);
  const bool odd = n % 2 == 1;
  const int64_t h = n / 2, len = odd ? n : h;
  const FftPlan<T>& plan = fft_plan<T>(len);
  const Lines dst = odd ? real_lines(n, inner) : paired_lines(n, inner);
  if (goes_within_line(plan, n, inner, kWithinLineMinC2R)) {
    parallel_for(0, lines, 1, [&](int64_t begin, int64_t end) {
      T* scratch = static_cast<T*>(fft_scratch(kFftBlockSlot, sizeof(T) * 6 * h));
      const Block<T> x{scratch}, y{scratch + 2 * h};
      T* z = scratch + 4 * h;
      const vec<T> s = splat<vec<T>>(scale);
      for (int64_t b = begin; b < end; ++b) {
        tangle_line(plan, in + 2 * b * bins, h, z);
        const Block<T> zt = within_line(plan, z, x, y);
        T* o = out + b * n;  // x_even + i x_odd: the rows' parts swapped back
        for (int64_t r = 0; r < h / kB<T>; ++r) store_complex(o + 2 * r * kB<T>, scaled(swap_parts(zt.row(r)), s));
      }
    });
    return;
  }
  if (plan.blocked) {
    const int64_t rows = odd ? n : h + 1;
    for_blocks<T>(lines, block_scratch_values(plan, rows), [&](int64_t b0, int64_t cnt, T* scratch) {
      const BlockScratch<T> bs(scratch, rows);
      const Block<T> x = bs.x;
      gather(in, src, b0, cnt, 0, bins, x, false);
      const vec<T> zero = splat<vec<T>>(T(0));
      vm::store(x.at(0) + kB<T>, zero);  // the imaginary parts of bin 0 (and of bin n/2, n even) are ignored
      if (odd) {  // the full spectrum, parts swapped for the inverse
        for (int64_t k = bins; k < n; ++k) x.set_row(k, swap_parts(conj(x.row(n - k))));
        for (int64_t k = 0; k < bins; ++k) x.set_row(k, swap_parts(x.row(k)));
      } else {
        vm::store(x.at(h) + kB<T>, zero);
        tangle(plan, x, h);
      }
      scatter(run_block(plan, bs), true, scale, dst, b0, cnt, 0, len, out);
    });
    return;
  }
  T* line = static_cast<T*>(fft_scratch(kFftLineSlot, sizeof(T) * 2 * len));
  auto bin = [&](int64_t b, int64_t k, T& re, T& im) {
    const T* p = in + src.offset(b, k);
    re = p[0];
    im = (k == 0 || 2 * k == n) ? T(0) : p[1];
  };
  for (int64_t b = 0; b < lines; ++b) {
    if (odd) {
      for (int64_t k = 0; k < bins; ++k) {
        T re, im;
        bin(b, k, re, im);
        line[2 * k] = re, line[2 * k + 1] = im;
        if (k > 0) line[2 * (n - k)] = re, line[2 * (n - k) + 1] = -im;
      }
    } else {
      for (int64_t k = 0; k < h; ++k) {
        T ar, ai, cr, ci;
        bin(b, k, ar, ai);
        bin(b, h - k, cr, ci);
        const T er = ar + cr, ei = ai - ci, dr = ar - cr, di = ai + ci;
        const T wr = plan.half_re[k], wi = -plan.half_im[k];  // as tangle
        const T orr = dr * wr - di * wi, oi = dr * wi + di * wr;
        line[2 * k] = er - oi, line[2 * k + 1] = ei + orr;
      }
    }
    line_transform(plan, line, line, true, T(1), 0);
    for (int64_t j = 0; j < len; ++j) {
      T* p = out + dst.offset(b, j);
      p[0] = line[2 * j] * scale;
      if (!odd) p[dst.part_step] = line[2 * j + 1] * scale;
    }
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
