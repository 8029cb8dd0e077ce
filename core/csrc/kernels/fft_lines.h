// Moving FFT lines between memory and blocks (kernels/fft_block.h), for
// kernels/isa/fft_kernels.cpp only. Lines of a strided array are described by `Lines`; a set
// of kB lines is gathered into a block's rows and scattered back with whole vectors where the
// layout allows: lines stored one after another (kB x kB tiles transposed in registers) or
// lines side by side (element j of the kB lines is one contiguous run). Anything else, and the
// rows or lanes left over, goes element by element: the same values either way.
#pragma once
#include <type_traits>

#include "kernels/fft_block.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

// ------------------------------------------------------------------ lane shuffles

template <typename T> using LaneIndex = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;
template <typename T> using lane_mask = vec<LaneIndex<T>>;

// A shuffle mask from lane -> source lane (0 .. 2 kB - 1 over two concatenated vectors);
// always inlined with constant arguments, it folds to a constant.
template <typename T, typename F> TZ_VINLINE lane_mask<T> make_mask(F source) {
  lane_mask<T> m;
  for (int l = 0; l < kB<T>; ++l) m[l] = static_cast<LaneIndex<T>>(source(l));
  return m;
}

// kB interleaved complex values at p (2 kB parts) in split form.
template <typename T> TZ_VINLINE CV<T> load_complex(const T* p) {
  const vec<T> a = vm::load(p), b = vm::load(p + kB<T>);
  return {__builtin_shuffle(a, b, make_mask<T>([](int l) { return 2 * l; })),
          __builtin_shuffle(a, b, make_mask<T>([](int l) { return 2 * l + 1; }))};
}
template <typename T> TZ_VINLINE void store_complex(T* p, const CV<T>& v) {
  constexpr int64_t B = kB<T>;
  vm::store(p, __builtin_shuffle(v.re, v.im, make_mask<T>([](int l) { return (l % 2) * B + l / 2; })));
  vm::store(p + B, __builtin_shuffle(v.re, v.im, make_mask<T>([](int l) { return (l % 2) * B + B / 2 + l / 2; })));
}

// One stage of the kB x kB transpose: exchanges bit D of the row index with bit D of the lane.
template <typename T, int D> TZ_VINLINE void transpose_stage(vec<T>* r) {
  constexpr int64_t B = kB<T>;
  const lane_mask<T> lo = make_mask<T>([](int j) { return (j & D) ? B + (j ^ D) : j; });
  const lane_mask<T> hi = make_mask<T>([](int j) { return (j & D) ? B + j : (j | D); });
  for (int i = 0; i < B; ++i)
    if (!(i & D)) {
      const vec<T> a = r[i], b = r[i + D];
      r[i] = __builtin_shuffle(a, b, lo);
      r[i + D] = __builtin_shuffle(a, b, hi);
    }
}

// r[i][l] <- r[l][i] for the kB vectors r[0 .. kB - 1].
template <typename T> TZ_VINLINE void transpose(vec<T>* r) {
  transpose_stage<T, 1>(r);
  if constexpr (kB<T> > 2) transpose_stage<T, 2>(r);
  if constexpr (kB<T> > 4) transpose_stage<T, 4>(r);
  if constexpr (kB<T> > 8) transpose_stage<T, 8>(r);
}

// ------------------------------------------------------------------ line layouts

// Lines b = o * inner + i of a strided array: element j of line b starts
// o * outer_step + i * lane_step + j * elem_step values of T from the base, its imaginary part
// part_step after the real one (part_step 0: real data, no imaginary part).
struct Lines {
  int64_t inner, outer_step, lane_step, elem_step, part_step;
  int64_t offset(int64_t b, int64_t j) const { return (b / inner) * outer_step + (b % inner) * lane_step + j * elem_step; }
  bool is_real() const { return part_step == 0; }
  // Whether kB lines stored one after another share L1 sets (64 sets of 64 bytes).
  template <typename T> bool share_cache_sets() const {
    uint64_t sets = 0;
    for (int64_t l = 0; l < kB<T>; ++l) sets |= uint64_t(1) << (l * outer_step * int64_t(sizeof(T)) / 64 % 64);
    return __builtin_popcountll(sets) < kB<T>;
  }
  // Consecutive elements of a line are adjacent (lines stored one after another).
  bool contiguous() const { return elem_step == (part_step == 1 ? 2 : 1) && part_step <= 1; }
  // The kB lines from b0 lie next to each other: element j of all of them is one run.
  template <typename T> bool side_by_side(int64_t b0, int64_t cnt) const {
    return cnt == kB<T> && lane_step == (part_step == 1 ? 2 : 1) && b0 % inner + kB<T> <= inner;
  }
};

// Complex lines of an (outer, len, inner) array, interleaved parts.
inline Lines complex_lines(int64_t len, int64_t inner) { return {inner, 2 * len * inner, 2, 2 * inner, 1}; }
// Real lines of an (outer, len, inner) array.
inline Lines real_lines(int64_t len, int64_t inner) { return {inner, len * inner, 1, inner, 0}; }
// Real lines of even length n of an (outer, n, inner) array read as n / 2 complex values
// x[2 j] + i x[2 j + 1] (the real FFT's half-length transform).
inline Lines paired_lines(int64_t n, int64_t inner) { return {inner, n * inner, 1, 2 * inner, inner}; }

// Scatter writes tiles straight into the lines unless the kB lines fall in the same few L1
// sets (a line length near a multiple of 4 KiB): then tile by tile they would evict each
// other's half-written cache lines, so each line's chunk of tiles goes out in one run through
// a staging area (kB x 512 bytes). Gather always reads tiles straight from the lines (a
// staging copy measured slower there, aliasing or not).
template <typename T> constexpr int64_t kChunk = 512 / sizeof(T);

// A tile: kB values of each of the kB lines, transposed (v[i][l] = value i of line l) into
// block rows j, j + 1, ...: kB rows of real parts (real lines), or kB / 2 rows of alternate
// real and imaginary parts. The parts go to offset re_at of a row and the other half.
template <typename T> TZ_VINLINE void tile_to_rows(vec<T>* v, Block<T> x, int64_t j, bool real, int64_t re_at) {
  constexpr int64_t B = kB<T>;
  const int64_t im_at = B - re_at;
  transpose<T>(v);
  if (real) {
#pragma GCC unroll 16
    for (int64_t r = 0; r < B; ++r) vm::store(x.at(j + r) + re_at, v[r]), vm::store(x.at(j + r) + im_at, splat<vec<T>>(T(0)));
  } else {
#pragma GCC unroll 8
    for (int64_t r = 0; r < B / 2; ++r) vm::store(x.at(j + r) + re_at, v[2 * r]), vm::store(x.at(j + r) + im_at, v[2 * r + 1]);
  }
}

// The inverse of tile_to_rows for the rows src(j), src(j + 1), ... times s.
template <typename T, typename Rows>
TZ_VINLINE void rows_to_tile(const Rows& src, int64_t j, bool real, const vec<T>& s, vec<T>* v) {
  constexpr int64_t B = kB<T>;
  if (real) {
#pragma GCC unroll 16
    for (int64_t r = 0; r < B; ++r) v[r] = src(j + r).re * s;
  } else {
#pragma GCC unroll 8
    for (int64_t r = 0; r < B / 2; ++r) {
      const CV<T> row = src(j + r);
      v[2 * r] = row.re * s, v[2 * r + 1] = row.im * s;
    }
  }
  transpose<T>(v);
}

// Block rows 0 .. rows - 1 <- elements j0 .. j0 + rows - 1 of lines b0 .. b0 + cnt - 1 (zeros
// in lanes >= cnt and in the imaginary parts of real lines), the parts exchanged if `swap`.
template <typename T>
void gather(const T* in, const Lines& ls, int64_t b0, int64_t cnt, int64_t j0, int64_t rows, Block<T> x, bool swap) {
  constexpr int64_t B = kB<T>;
  const vec<T> zero = splat<vec<T>>(T(0));
  int64_t at[B] = {};
  for (int64_t l = 0; l < cnt; ++l) at[l] = ls.offset(b0 + l, j0);
  const int64_t re_at = swap ? B : 0, im_at = B - re_at;  // where a row's parts go
  int64_t j = 0;
  if (ls.contiguous()) {  // tiles of kB values per line
    const int64_t per = ls.is_real() ? 1 : 2;
    vec<T> v[B];
    for (; j + B / per <= rows; j += B / per) {
#pragma GCC unroll 16
      for (int64_t l = 0; l < B; ++l) v[l] = l < cnt ? vm::load(in + at[l] + per * j) : zero;
      tile_to_rows(v, x, j, ls.is_real(), re_at);
    }
  } else if (ls.side_by_side<T>(b0, cnt)) {
    for (; j < rows; ++j) {
      const T* p = in + at[0] + j * ls.elem_step;
      CV<T> v;
      if (ls.is_real()) v = {vm::load(p), zero};
      else if (ls.part_step == 1) v = load_complex(p);
      else v = {vm::load(p), vm::load(p + ls.part_step)};
      x.set_row(j, swap ? swap_parts(v) : v);
    }
  }
  for (; j < rows; ++j) {
    T* re = x.at(j) + re_at;
    T* im = x.at(j) + im_at;
    for (int64_t l = 0; l < B; ++l) {
      const T* p = in + at[l] + j * ls.elem_step;
      re[l] = l < cnt ? p[0] : T(0);
      im[l] = l < cnt && !ls.is_real() ? p[ls.part_step] : T(0);
    }
  }
}

// Elements j0 .. j0 + rows - 1 of lines b0 .. b0 + cnt - 1 <- the rows src(0 .. rows - 1)
// (CV<T> values, computed or read from a block) times `scale` (only the real parts for real
// lines).
template <typename T, typename Rows>
void scatter_rows(const Rows& src, T scale, const Lines& ls, int64_t b0, int64_t cnt, int64_t j0, int64_t rows, T* out) {
  constexpr int64_t B = kB<T>;
  const vec<T> s = splat<vec<T>>(scale);
  int64_t at[B] = {};
  for (int64_t l = 0; l < cnt; ++l) at[l] = ls.offset(b0 + l, j0);
  int64_t j = 0;
  if (ls.contiguous()) {  // tiles of kB values per line
    const int64_t per = ls.is_real() ? 1 : 2, chunk_rows = kChunk<T> / per;
    vec<T> v[B];
    if (ls.share_cache_sets<T>()) {
      alignas(64) T stage[B * kChunk<T>];
      for (; j + chunk_rows <= rows; j += chunk_rows) {
        for (int64_t t = 0; t < kChunk<T>; t += B) {
          rows_to_tile<T>(src, j + t / per, ls.is_real(), s, v);
#pragma GCC unroll 16
          for (int64_t l = 0; l < B; ++l) vm::store(stage + l * kChunk<T> + t, v[l]);
        }
        for (int64_t l = 0; l < cnt; ++l)
          for (int64_t c = 0; c < kChunk<T>; c += B) vm::store(out + at[l] + per * j + c, vm::load(stage + l * kChunk<T> + c));
      }
    }
    for (; j + B / per <= rows; j += B / per) {
      rows_to_tile<T>(src, j, ls.is_real(), s, v);
#pragma GCC unroll 16
      for (int64_t l = 0; l < B; ++l)
        if (l < cnt) vm::store(out + at[l] + per * j, v[l]);
    }
  } else if (ls.side_by_side<T>(b0, cnt)) {
    for (; j < rows; ++j) {
      T* p = out + at[0] + j * ls.elem_step;
      const CV<T> v = scaled(src(j), s);
      if (ls.is_real()) vm::store(p, v.re);
      else if (ls.part_step == 1) store_complex(p, v);
      else vm::store(p, v.re), vm::store(p + ls.part_step, v.im);
    }
  }
  for (; j < rows; ++j) {
    alignas(64) T re[B], im[B];
    const CV<T> v = src(j);
    vm::store(re, v.re), vm::store(im, v.im);
    for (int64_t l = 0; l < cnt; ++l) {
      T* p = out + at[l] + j * ls.elem_step;
      p[0] = re[l] * scale;
      if (!ls.is_real()) p[ls.part_step] = im[l] * scale;
    }
  }
}

// scatter_rows from the rows of block z, the parts exchanged if `swap`.
template <typename T>
void scatter(Block<T> z, bool swap, T scale, const Lines& ls, int64_t b0, int64_t cnt, int64_t j0, int64_t rows, T* out) {
  if (swap) return scatter_rows([z](int64_t j) { return swap_parts(z.row(j)); }, scale, ls, b0, cnt, j0, rows, out);
  scatter_rows([z](int64_t j) { return z.row(j); }, scale, ls, b0, cnt, j0, rows, out);
}

}  // namespace
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
