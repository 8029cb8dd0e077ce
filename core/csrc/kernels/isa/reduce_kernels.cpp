// Reduction loops (see kernels/reduce.h): regions split in chunks, column tiles, arg
// reductions; the reducers themselves are in kernels/reduce_loops.h.
#include "kernels/reduce.h"
#include "kernels/reduce_loops.h"

#pragma GCC diagnostic ignored "-Wpsabi"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

constexpr int64_t kGather = 512;  // strided elements gathered per contiguous reduce

// Elements [b, e) (linear, inner fastest) of the region at base.
template <class R, typename T>
T reduce_chunk(const R& r, const char* base, const ReduceLayout& L, int64_t b, int64_t e, T c) {
  Acc<R, T> acc(r);
  const int64_t ri = L.inner_size;
  int64_t o = b ? b / ri : 0, i = b ? b % ri : 0;
  if (L.inner_stride == int64_t(sizeof(T)) && ri >= 16) {
    while (b < e) {
      int64_t n = std::min(ri - i, e - b);
      acc.push(reduce_contig(r, reinterpret_cast<const T*>(base + o * L.outer_stride) + i, n, c));
      b += n, i = 0, ++o;
    }
  } else {
    T buf[kGather];
    while (b < e) {
      int64_t n = std::min(kGather, e - b);
      for (int64_t k = 0; k < n; ++k) {
        buf[k] = *reinterpret_cast<const T*>(base + o * L.outer_stride + i * L.inner_stride);
        if (++i == ri) i = 0, ++o;
      }
      acc.push(reduce_contig(r, buf, n, c));
      b += n;
    }
  }
  return acc.total();
}

template <typename T> inline T center_of(const ReduceArgs& a, int64_t o) {
  return a.center ? static_cast<const T*>(a.center)[o] : T(0);
}

template <class R, typename T>
void outputs_impl(const R& r, const ReduceArgs& a, const ReduceLayout& L, const char* in, T* out,
                  int64_t begin, int64_t end) {
  const int64_t region = L.region(), nchunks = L.num_chunks();
  // One contiguous run per output (rows): no chunk bookkeeping.
  const bool rows = nchunks == 1 && L.outer_size == 1 && L.inner_stride == int64_t(sizeof(T));
  KeptCursor cur(L, L.nkept, begin);
  for (int64_t o = begin; o < end; ++o, cur.next()) {
    const char* base = in + cur.offset;
    const T c = center_of<T>(a, o);
    if (rows) {
      out[o] = reduce_contig(r, reinterpret_cast<const T*>(base), region, c);
      continue;
    }
    if (nchunks <= 1) {
      out[o] = nchunks ? reduce_chunk(r, base, L, 0, region, c) : r.identity();
      continue;
    }
    Acc<R, T> acc(r);
    for (int64_t ch = 0; ch < nchunks; ++ch)
      acc.push(reduce_chunk(r, base, L, ch * kReduceChunk, std::min(region, (ch + 1) * kReduceChunk), c));
    out[o] = acc.total();
  }
}

// Rows [r0, r1) of a column tile (NV full vectors) combined into acc, pairwise for sums.
template <class R, typename T, int NV>
void column_rows(const R& r, const char* base, const ReduceLayout& L, int64_t r0, int64_t r1,
                 const vec<T>* cv, vec<T>* acc) {
  using V = vec<T>;
  if constexpr (R::kCascade) {
    if (r1 - r0 > 32) {
      int64_t mid = r0 + (r1 - r0) / 2;
      V second[NV];
      for (int v = 0; v < NV; ++v) second[v] = splat<V>(r.identity());
      column_rows<R, T, NV>(r, base, L, r0, mid, cv, acc);
      column_rows<R, T, NV>(r, base, L, mid, r1, cv, second);
      for (int v = 0; v < NV; ++v) acc[v] = r.combine(acc[v], second[v]);
      return;
    }
  }
  V a[NV], c[NV];
  for (int v = 0; v < NV; ++v) a[v] = acc[v], c[v] = cv[v];
  const int64_t ri = L.inner_size;
  int64_t o = r0 / ri, i = r0 % ri;
  for (int64_t row = r0; row < r1; ++row) {
    const T* p = reinterpret_cast<const T*>(base + o * L.outer_stride + i * L.inner_stride);
    for (int v = 0; v < NV; ++v) a[v] = r.combine(a[v], r.map(vm::load(p + v * kLanes<T>), c[v]));
    if (++i == ri) i = 0, ++o;
  }
  for (int v = 0; v < NV; ++v) acc[v] = a[v];
}

// NV vectors of columns starting at column j of the output row q; stores columns >= keep_from.
template <class R, typename T, int NV>
void column_vectors(const R& r, const ReduceArgs& a, const ReduceLayout& L, const char* base,
                    T* out_row, const T* center_row, int64_t j, int64_t keep_from) {
  using V = vec<T>;
  constexpr int LN = kLanes<T>;
  V cv[NV], acc[NV];
  for (int v = 0; v < NV; ++v) {
    acc[v] = splat<V>(r.identity());
    cv[v] = center_row ? vm::load(center_row + j + v * LN) : zero<V>();
  }
  column_rows<R, T, NV>(r, base + j * int64_t(sizeof(T)), L, 0, L.region(), cv, acc);
  T res[NV * LN];
  for (int v = 0; v < NV; ++v) vm::store(res + v * LN, acc[v]);
  for (int k = std::max<int64_t>(0, keep_from - j); k < NV * LN; ++k) out_row[j + k] = res[k];
}

template <class R, typename T>
void columns_impl(const R& r, const ReduceArgs& a, const ReduceLayout& L, const char* in, T* out,
                  int64_t begin, int64_t end) {
  const int64_t width = L.kept_size[L.nkept - 1];
  const int64_t ntiles = (width + kReduceTile - 1) / kReduceTile;
  const int64_t rows = L.region();
  KeptCursor cur(L, L.nkept - 1, begin / ntiles);
  for (int64_t t = begin; t < end; ++t) {
    const int64_t q = t / ntiles, tile = t % ntiles, j0 = tile * kReduceTile;
    if (t != begin && tile == 0) cur.next();
    const char* base = in + cur.offset;
    T* out_row = out + q * width;
    const T* center_row = a.center ? static_cast<const T*>(a.center) + q * width : nullptr;
    if constexpr (kVectorized<T>) {
      constexpr int LN = kLanes<T>;
      if (width >= kReduceTile) {
        // A last partial tile slides left to end at the row's end (columns are independent,
        // so recomputed ones come out identical); it stores only its own columns. Up to
        // four vectors of columns share a pass over the rows.
        constexpr int G = std::min(4, int(kReduceTile / LN));
        const int64_t j = std::min(j0, width - kReduceTile);
        for (int64_t g = 0; g < kReduceTile; g += G * LN)
          column_vectors<R, T, G>(r, a, L, base, out_row, center_row, j + g, j0);
        continue;
      }
      // (The threshold is the wide lane count in every build, so a column is reduced the
      // same way, with the same bits, whatever the native width.)
      if (width >= vm::kWideLanes<T>) {
        for (int64_t j = 0; j < width; j += LN)
          column_vectors<R, T, 1>(r, a, L, base, out_row, center_row, std::min(j, width - LN), j);
        continue;
      }
    }
    // Fewer columns than lanes: one column at a time, as a strided 1-D region.
    for (int64_t j = 0; j < width; ++j) {
      const T c = center_row ? center_row[j] : T(0);
      const char* cb = base + j * int64_t(sizeof(T));
      Acc<R, T> acc(r);
      for (int64_t ch = 0; ch * kReduceChunk < rows; ++ch)
        acc.push(reduce_chunk(r, cb, L, ch * kReduceChunk, std::min(rows, (ch + 1) * kReduceChunk), c));
      out_row[j] = acc.total();
    }
  }
}

// Calls f(reducer) for the reducer of a.op over element type T.
template <typename T, class F> void with_reducer_t(const ReduceArgs& a, F&& f) {
  const double p = a.p;
  if constexpr (std::is_floating_point_v<T>) {
    switch (a.op) {
      case ReduceOp::Sum: return f(SumR<T>{{p}});
      case ReduceOp::Prod: return f(ProdR<T>{p});
      case ReduceOp::Max: return f(MaxR<T>{p});
      case ReduceOp::Min: return f(MinR<T>{p});
      case ReduceOp::NanSum: return f(NanSumR<T>{{p}});
      case ReduceOp::AbsSum: return f(AbsSumR<T>{{p}});
      case ReduceOp::SqSum: return f(SqSumR<T>{{p}});
      case ReduceOp::PowSum: return f(PowSumR<T>{{p}});
      case ReduceOp::AbsMax: return f(AbsMaxR<T>{{p}});
      case ReduceOp::AbsMin: return f(AbsMinR<T>{{p}});
      case ReduceOp::NonZero: return f(NonZeroR<T>{{p}});
      case ReduceOp::SqDevSum: return f(SqDevSumR<T>{{p}});
      case ReduceOp::ExpDevSum: return f(ExpDevSumR<T>{{p}});
    }
  } else if constexpr (std::is_same_v<T, int64_t>) {
    switch (a.op) {
      case ReduceOp::Sum: return f(SumR<T>{{p}});
      case ReduceOp::Prod: return f(ProdR<T>{p});
      case ReduceOp::Max: return f(MaxR<T>{p});
      case ReduceOp::Min: return f(MinR<T>{p});
      default: break;
    }
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    switch (a.op) {
      case ReduceOp::Max: return f(MaxR<T>{p});
      case ReduceOp::Min: return f(MinR<T>{p});
      default: break;
    }
  } else {
    switch (a.op) {
      case ReduceOp::Sum: return f(SumR<T>{{p}});
      case ReduceOp::Prod: return f(ProdR<T>{p});
      default: break;
    }
  }
  fail(ErrorKind::Runtime, "reduce kernel: unsupported op for dtype ", dtype_name(a.dtype));
}

template <class F> void with_reducer(const ReduceArgs& a, F&& f) {
  switch (a.dtype) {
    case DType::Float32: return with_reducer_t<float>(a, f);
    case DType::Float64: return with_reducer_t<double>(a, f);
    case DType::Int64: return with_reducer_t<int64_t>(a, f);
    case DType::UInt8: return with_reducer_t<uint8_t>(a, f);
    case DType::Complex64: return with_reducer_t<complex64>(a, f);
    case DType::Complex128: return with_reducer_t<complex128>(a, f);
    default: fail(ErrorKind::Runtime, "reduce kernel: unsupported dtype ", dtype_name(a.dtype));
  }
}

void reduce_outputs(const ReduceArgs& a, const ReduceLayout& L, const char* in, void* out,
                    int64_t begin, int64_t end) {
  with_reducer(a, [&](auto r) {
    using T = typename TypeOf<decltype(r)>::type;
    outputs_impl(r, a, L, in, static_cast<T*>(out), begin, end);
  });
}

void reduce_chunks(const ReduceArgs& a, const ReduceLayout& L, const char* in, int64_t o,
                   int64_t begin, int64_t end, void* partials) {
  with_reducer(a, [&](auto r) {
    using T = typename TypeOf<decltype(r)>::type;
    const char* base = in + KeptCursor(L, L.nkept, o).offset;
    const T c = center_of<T>(a, o);
    const int64_t region = L.region();
    for (int64_t ch = begin; ch < end; ++ch)
      static_cast<T*>(partials)[ch] =
          reduce_chunk(r, base, L, ch * kReduceChunk, std::min(region, (ch + 1) * kReduceChunk), c);
  });
}

void reduce_finish(const ReduceArgs& a, const void* partials, int64_t n, void* out) {
  with_reducer(a, [&](auto r) {
    using T = typename TypeOf<decltype(r)>::type;
    Acc<decltype(r), T> acc(r);
    for (int64_t i = 0; i < n; ++i) acc.push(static_cast<const T*>(partials)[i]);
    *static_cast<T*>(out) = acc.total();
  });
}

void reduce_columns(const ReduceArgs& a, const ReduceLayout& L, const char* in, void* out,
                    int64_t begin, int64_t end) {
  with_reducer(a, [&](auto r) {
    using T = typename TypeOf<decltype(r)>::type;
    columns_impl(r, a, L, in, static_cast<T*>(out), begin, end);
  });
}

// ---- arg reductions: the first index of the max (min); NaN beats everything.
template <typename T> inline bool better(bool is_max, T x, T best) {
  if (x != x) return best == best;
  return is_max ? x > best : x < best;
}

// One step of arg_contig: lanes of x (element indices idx) against the lanes' best so far.
template <bool kMax, typename T>
TZ_VINLINE void arg_step(const vec<T>& x, const mask_vec<T>& idx, vec<T>& best, mask_vec<T>& at) {
  const mask_vec<T> m = (kMax ? x > best : x < best) | ((x != x) & (best == best));
  best = m ? x : best;
  at = m ? idx : at;
}

// p[b, e) contiguous, e - b >= lanes: one pass keeping the best value and its first index
// per lane, in four independent sets of lanes (indices in same-width int lanes: ranges stay
// far below 2^31, chunks are small), then the lanes, ties going to the lower index.
template <bool kMax, typename T>
void arg_contig(const T* p, int64_t b, int64_t e, T& value, int64_t& index) {
  using V = vec<T>;
  using I = mask_vec<T>;
  using IT = typename MaskInt<sizeof(T)>::type;
  constexpr int L = kLanes<T>, S = 4;
  const T* q = p + b;
  const int64_t n = e - b;
  I iota;
  for (int k = 0; k < L; ++k) iota[k] = static_cast<IT>(k);
  V best[S];
  I at[S];
  for (int s = 0; s < S; ++s) best[s] = vm::load(q), at[s] = iota;
  int64_t i = 0;
  for (; i + S * L <= n; i += S * L)
    for (int s = 0; s < S; ++s) arg_step<kMax, T>(vm::load(q + i + s * L), iota + static_cast<IT>(i + s * L), best[s], at[s]);
  for (; i + L <= n; i += L) arg_step<kMax, T>(vm::load(q + i), iota + static_cast<IT>(i), best[0], at[0]);
  // The last vector overlaps seen elements: only a strictly better one can win.
  if (i < n) arg_step<kMax, T>(vm::load(q + n - L), iota + static_cast<IT>(n - L), best[0], at[0]);
  T v = best[0][0];
  int64_t pos = at[0][0];
  for (int s = 0; s < S; ++s)
    for (int k = 0; k < L; ++k) {
      const T c = best[s][k];
      const bool tie = c == v || (c != c && v != v);
      if (better(kMax, c, v) || (tie && at[s][k] < pos)) v = c, pos = at[s][k];
    }
  value = q[pos], index = b + pos;
}

// Elements [b, e) of a 1-D strided region; index relative to the region start.
template <typename T>
void arg_range(bool is_max, const char* base, int64_t stride, int64_t b, int64_t e, T& value,
               int64_t& index) {
  if (stride == int64_t(sizeof(T)) && e - b >= kLanes<T>) {
    if (is_max) arg_contig<true>(reinterpret_cast<const T*>(base), b, e, value, index);
    else arg_contig<false>(reinterpret_cast<const T*>(base), b, e, value, index);
    return;
  }
  T best = *reinterpret_cast<const T*>(base + b * stride);
  int64_t bi = b;
  for (int64_t i = b + 1; i < e; ++i) {
    T x = *reinterpret_cast<const T*>(base + i * stride);
    if (better(is_max, x, best)) best = x, bi = i;
  }
  value = best, index = bi;
}

template <class F> void with_arg_type(DType t, F&& f) {
  switch (t) {
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Int64: return f(int64_t{});
    default: fail(ErrorKind::Runtime, "arg reduce kernel: unsupported dtype ", dtype_name(t));
  }
}

void arg_reduce_outputs(DType t, bool is_max, const ReduceLayout& L, const char* in, void* values,
                        int64_t* indices, int64_t begin, int64_t end) {
  with_arg_type(t, [&](auto tag) {
    using T = decltype(tag);
    const int64_t n = L.inner_size, nchunks = L.num_chunks();
    KeptCursor cur(L, L.nkept, begin);
    for (int64_t o = begin; o < end; ++o, cur.next()) {
      const char* base = in + cur.offset;
      T best;
      int64_t bi;
      arg_range(is_max, base, L.inner_stride, 0, std::min(n, kReduceChunk), best, bi);
      for (int64_t ch = 1; ch < nchunks; ++ch) {
        T v;
        int64_t i;
        arg_range(is_max, base, L.inner_stride, ch * kReduceChunk, std::min(n, (ch + 1) * kReduceChunk), v, i);
        if (better(is_max, v, best)) best = v, bi = i;
      }
      static_cast<T*>(values)[o] = best;
      indices[o] = bi;
    }
  });
}

void arg_reduce_chunks(DType t, bool is_max, const ReduceLayout& L, const char* in, int64_t o,
                       int64_t begin, int64_t end, void* values, int64_t* indices) {
  with_arg_type(t, [&](auto tag) {
    using T = decltype(tag);
    const char* base = in + KeptCursor(L, L.nkept, o).offset;
    const int64_t n = L.inner_size;
    for (int64_t ch = begin; ch < end; ++ch)
      arg_range(is_max, base, L.inner_stride, ch * kReduceChunk, std::min(n, (ch + 1) * kReduceChunk),
                static_cast<T*>(values)[ch], indices[ch]);
  });
}

void arg_reduce_finish(DType t, bool is_max, const void* values, const int64_t* indices, int64_t n,
                       void* value, int64_t* index) {
  with_arg_type(t, [&](auto tag) {
    using T = decltype(tag);
    const T* v = static_cast<const T*>(values);
    T best = v[0];
    int64_t bi = indices[0];
    for (int64_t c = 1; c < n; ++c)
      if (better(is_max, v[c], best)) best = v[c], bi = indices[c];
    *static_cast<T*>(value) = best;
    *index = bi;
  });
}

void arg_reduce_columns(DType t, bool is_max, const ReduceLayout& L, const char* in, void* values,
                        int64_t* indices, int64_t begin, int64_t end) {
  with_arg_type(t, [&](auto tag) {
    using T = decltype(tag);
    const int64_t width = L.kept_size[L.nkept - 1];
    const int64_t ntiles = (width + kReduceTile - 1) / kReduceTile;
    const int64_t n = L.inner_size;
    KeptCursor cur(L, L.nkept - 1, begin / ntiles);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t q = task / ntiles, tile = task % ntiles, j0 = tile * kReduceTile;
      if (task != begin && tile == 0) cur.next();
      const int64_t w = std::min(kReduceTile, width - j0);
      const char* base = in + cur.offset + j0 * int64_t(sizeof(T));
      T best[kReduceTile];
      int64_t bi[kReduceTile] = {};
      std::copy_n(reinterpret_cast<const T*>(base), w, best);
      for (int64_t i = 1; i < n; ++i) {
        const T* row = reinterpret_cast<const T*>(base + i * L.inner_stride);
        for (int64_t j = 0; j < w; ++j)
          if (better(is_max, row[j], best[j])) best[j] = row[j], bi[j] = i;
      }
      std::copy_n(best, w, static_cast<T*>(values) + q * width + j0);
      std::copy_n(bi, w, indices + q * width + j0);
    }
  });
}

}  // namespace

TZ_REGISTER_KERNEL(reduce_outputs_stub, &reduce_outputs);
TZ_REGISTER_KERNEL(reduce_chunks_stub, &reduce_chunks);
TZ_REGISTER_KERNEL(reduce_finish_stub, &reduce_finish);
TZ_REGISTER_KERNEL(reduce_columns_stub, &reduce_columns);
TZ_REGISTER_KERNEL(arg_reduce_outputs_stub, &arg_reduce_outputs);
TZ_REGISTER_KERNEL(arg_reduce_chunks_stub, &arg_reduce_chunks);
TZ_REGISTER_KERNEL(arg_reduce_finish_stub, &arg_reduce_finish);
TZ_REGISTER_KERNEL(arg_reduce_columns_stub, &arg_reduce_columns);

}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
