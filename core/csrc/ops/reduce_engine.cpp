#include "ops/reduce_engine.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/views.h"

namespace tz {

namespace {

constexpr int64_t kGrain = 32768;  // elements of work per parallel task, at least

struct DimRun {
  int64_t size, stride;  // stride in elements
};

// Merges neighbours (outer first) that address memory as one dim.
std::vector<DimRun> coalesce(const std::vector<DimRun>& dims) {
  std::vector<DimRun> out;
  for (const DimRun& d : dims) {
    if (!out.empty() && out.back().stride == d.size * d.stride) {
      out.back() = {out.back().size * d.size, d.stride};
    } else {
      out.push_back(d);
    }
  }
  return out;
}

// The input with kept dims first (in order) and reduced dims last, contiguous.
Tensor kept_then_reduced(const Tensor& in, const std::vector<bool>& reduced) {
  IntList perm;
  for (int64_t d = 0; d < in.dim(); ++d)
    if (!reduced[d]) perm.push_back(d);
  for (int64_t d = 0; d < in.dim(); ++d)
    if (reduced[d]) perm.push_back(d);
  return contiguous(permute(in, perm));
}

bool fill_kept(ReduceLayout& L, const std::vector<DimRun>& kept, int64_t item) {
  if (static_cast<int>(kept.size()) > kMaxReduceDims) return false;
  L.nkept = static_cast<int>(kept.size());
  for (int i = 0; i < L.nkept; ++i) {
    L.kept_size[i] = kept[i].size;
    L.kept_stride[i] = kept[i].stride * item;
  }
  return true;
}

// The layout of `in` for a reduction over `reduced`; nullopt when the region or the kept
// dims do not fit (the caller then reduces a permuted contiguous copy).
std::optional<ReduceLayout> plan(const Tensor& in, const std::vector<bool>& reduced) {
  std::vector<DimRun> kept, red;
  bool empty_region = false;
  for (int64_t d = 0; d < in.dim(); ++d) {
    DimRun r{in.sizes()[d], in.strides()[d]};
    if (reduced[d]) {
      if (r.size == 0) empty_region = true;
      if (r.size != 1) red.push_back(r);
    } else if (r.size != 1) {
      kept.push_back(r);
    }
  }
  const int64_t item = in.itemsize();
  ReduceLayout L;
  if (!fill_kept(L, coalesce(kept), item)) return std::nullopt;
  if (empty_region) {
    L.inner_size = 0;
    L.inner_stride = item;
    return L;
  }
  std::stable_sort(red.begin(), red.end(),
                   [](const DimRun& a, const DimRun& b) { return a.stride > b.stride; });
  red = coalesce(red);
  if (red.size() > 2) return std::nullopt;
  if (red.empty()) red.push_back({1, 1});
  L.inner_size = red.back().size;
  L.inner_stride = red.back().stride * item;
  if (red.size() == 2) {
    L.outer_size = red[0].size;
    L.outer_stride = red[0].stride * item;
  }
  return L;
}

// Whether to run the column kernel: the last kept dim is contiguous and the region is not.
bool use_columns(const ReduceLayout& L, int64_t item) {
  return L.nkept > 0 && L.kept_stride[L.nkept - 1] == item && L.inner_stride != item &&
         L.region() > 1;
}

int64_t num_column_tasks(const ReduceLayout& L, int64_t numel_out) {
  const int64_t width = L.kept_size[L.nkept - 1];
  return numel_out / width * ((width + kReduceTile - 1) / kReduceTile);
}

// x + x + ... (n terms): integers wrap like the repeated sum; floats round once.
template <typename T> T repeated_sum(T x, int64_t n) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<uint64_t>(x) * static_cast<uint64_t>(n));
  } else if constexpr (is_complex_v<T>) {
    return x * static_cast<typename T::value_type>(n);
  } else {
    return static_cast<T>(static_cast<double>(x) * static_cast<double>(n));
  }
}

// x * x * ... (n factors): integers and complex by squaring (integers wrap), reals by pow.
template <typename T> T repeated_product(T x, int64_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(std::pow(static_cast<double>(x), static_cast<double>(n)));
  } else {
    using U = std::conditional_t<std::is_integral_v<T>, uint64_t, T>;
    U base = static_cast<U>(x), acc = static_cast<U>(1);
    for (uint64_t k = static_cast<uint64_t>(n); k; k >>= 1) {
      if (k & 1) acc *= base;
      base *= base;
    }
    return static_cast<T>(acc);
  }
}

template <typename T> void repeat_values(const Tensor& out, ReduceOp op, int64_t times) {
  T* p = out.data<T>();
  for (int64_t i = 0, n = out.numel(); i < n; ++i)
    p[i] = op == ReduceOp::Prod ? repeated_product(p[i], times) : repeated_sum(p[i], times);
}

}  // namespace

ReduceDims reduce_dims(const Tensor& t, const std::optional<IntList>& dims, bool keepdim, const char* op) {
  const int64_t nd = t.dim();
  ReduceDims rd;
  rd.reduced.assign(nd, !dims || dims->empty());
  if (dims) {
    std::vector<bool> seen(std::max<int64_t>(nd, 1), false);
    for (int64_t d : *dims) {
      int64_t w = wrap_dim(d, nd, op);
      TZ_CHECK(!seen[w], Runtime, op, "(): dim ", w, " appears multiple times in the list of dims");
      seen[w] = true;
      if (nd > 0) rd.reduced[w] = true;
    }
  }
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t s = t.sizes()[d];
    rd.keep_shape.push_back(rd.reduced[d] ? 1 : s);
    if (rd.reduced[d]) rd.region *= s;
    if (!rd.reduced[d] || keepdim) rd.out_shape.push_back(rd.reduced[d] ? 1 : s);
    if (!rd.reduced[d]) rd.numel_out *= s;
  }
  return rd;
}

std::optional<Unrepeated> unrepeat(const Tensor& in, const ReduceDims& rd) {
  if (rd.region == 0) return std::nullopt;  // nothing is walked anyway
  int64_t times = 1;
  for (int64_t d = 0; d < in.dim(); ++d)
    if (rd.reduced[d] && in.strides()[d] == 0) times *= in.sizes()[d];
  if (times == 1) return std::nullopt;
  Shape sizes = in.sizes();
  for (int64_t d = 0; d < in.dim(); ++d)
    if (rd.reduced[d] && in.strides()[d] == 0) sizes[d] = 1;
  Unrepeated u{Tensor::view_of(in, sizes, in.strides(), in.offset()), rd, times};
  u.rd.region /= times;
  return u;
}

void repeat_combine(const Tensor& out, ReduceOp op, int64_t times) {
  const bool idempotent = op == ReduceOp::Max || op == ReduceOp::Min || op == ReduceOp::AbsMax ||
                          op == ReduceOp::AbsMin;
  if (times == 1 || idempotent) return;
  switch (out.dtype()) {
    case DType::Float32: return repeat_values<float>(out, op, times);
    case DType::Float64: return repeat_values<double>(out, op, times);
    case DType::Int64: return repeat_values<int64_t>(out, op, times);
    case DType::UInt8: return repeat_values<uint8_t>(out, op, times);
    case DType::Complex64: return repeat_values<complex64>(out, op, times);
    case DType::Complex128: return repeat_values<complex128>(out, op, times);
    default: fail(ErrorKind::Runtime, "reduce(): no kernel for dtype ", dtype_name(out.dtype()));
  }
}

Tensor reduce(const Tensor& in, const ReduceDims& rd, ReduceArgs args) {
  TZ_CHECK(in.dtype() == args.dtype, Runtime, "reduce(): input dtype ", dtype_name(in.dtype()),
           " differs from the kernel dtype ", dtype_name(args.dtype));
  if (auto u = unrepeat(in, rd)) {
    Tensor out = reduce(u->in, u->rd, args);
    repeat_combine(out, args.op, u->times);
    return out;
  }
  Tensor out = Tensor::empty(rd.keep_shape, args.dtype);
  if (rd.numel_out == 0) return out;
  Tensor src = in;
  std::optional<ReduceLayout> layout = plan(src, rd.reduced);
  if (!layout) {
    src = kept_then_reduced(in, rd.reduced);
    std::vector<bool> red(src.dim(), false);
    std::fill(red.end() - std::count(rd.reduced.begin(), rd.reduced.end(), true), red.end(), true);
    layout = plan(src, red);
  }
  const ReduceLayout& L = *layout;
  const char* ip = static_cast<const char*>(src.raw_data());
  char* op = static_cast<char*>(out.raw_data());
  const int64_t n_out = rd.numel_out, region = L.region(), item = src.itemsize();
  const bool parallel = get_num_threads() > 1 && !in_parallel_region() && n_out * region >= 2 * kGrain;

  if (use_columns(L, item)) {
    const int64_t tasks = num_column_tasks(L, n_out);
    const int64_t per_task = std::min(kReduceTile, L.kept_size[L.nkept - 1]) * region;
    if (parallel && tasks > 1) {
      parallel_for(0, tasks, std::max<int64_t>(1, kGrain / per_task),
                   [&](int64_t b, int64_t e) { reduce_columns_stub(args, L, ip, op, b, e); });
    } else {
      reduce_columns_stub(args, L, ip, op, 0, tasks);
    }
    return out;
  }
  const int64_t nchunks = L.num_chunks();
  if (!parallel) {
    reduce_outputs_stub(args, L, ip, op, 0, n_out);
  } else if (n_out >= 4 * get_num_threads() || nchunks < 2) {
    parallel_for(0, n_out, std::max<int64_t>(1, kGrain / std::max<int64_t>(region, 1)),
                 [&](int64_t b, int64_t e) { reduce_outputs_stub(args, L, ip, op, b, e); });
  } else {
    // Few outputs with large regions: split each region's chunks over threads.
    Tensor partials = Tensor::empty({nchunks}, args.dtype);
    char* pp = static_cast<char*>(partials.raw_data());
    for (int64_t o = 0; o < n_out; ++o) {
      parallel_for(0, nchunks, 1, [&](int64_t b, int64_t e) {
        reduce_chunks_stub(args, L, ip, o, b, e, pp);
      });
      reduce_finish_stub(args, pp, nchunks, op + o * item);
    }
  }
  return out;
}

std::pair<Tensor, Tensor> arg_reduce(const Tensor& in, int64_t dim, bool is_max) {
  Shape keep = in.sizes();
  keep[dim] = 1;
  Tensor values = Tensor::empty(keep, in.dtype());
  Tensor indices = Tensor::empty(keep, DType::Int64);
  const int64_t n_out = values.numel();
  if (n_out == 0) return {values, indices};

  Tensor src = in;
  std::vector<DimRun> kept;
  for (int64_t d = 0; d < in.dim(); ++d)
    if (d != dim && in.sizes()[d] != 1) kept.push_back({in.sizes()[d], in.strides()[d]});
  ReduceLayout L;
  if (!fill_kept(L, coalesce(kept), in.itemsize())) {
    std::vector<bool> reduced(in.dim(), false);
    reduced[dim] = true;
    src = kept_then_reduced(in, reduced);
    kept.clear();
    for (int64_t d = 0; d + 1 < src.dim(); ++d) kept.push_back({src.sizes()[d], src.strides()[d]});
    fill_kept(L, coalesce(kept), src.itemsize());
    dim = src.dim() - 1;
  }
  L.inner_size = src.sizes()[dim];
  L.inner_stride = src.strides()[dim] * src.itemsize();

  const char* ip = static_cast<const char*>(src.raw_data());
  void* vp = values.raw_data();
  int64_t* xp = indices.data<int64_t>();
  const DType t = src.dtype();
  const int64_t region = L.inner_size, item = src.itemsize();
  const bool parallel = get_num_threads() > 1 && !in_parallel_region() && n_out * region >= 2 * kGrain;

  if (use_columns(L, item)) {
    const int64_t tasks = num_column_tasks(L, n_out);
    const int64_t per_task = std::min(kReduceTile, L.kept_size[L.nkept - 1]) * region;
    if (parallel && tasks > 1) {
      parallel_for(0, tasks, std::max<int64_t>(1, kGrain / per_task), [&](int64_t b, int64_t e) {
        arg_reduce_columns_stub(t, is_max, L, ip, vp, xp, b, e);
      });
    } else {
      arg_reduce_columns_stub(t, is_max, L, ip, vp, xp, 0, tasks);
    }
    return {values, indices};
  }
  const int64_t nchunks = L.num_chunks();
  if (!parallel) {
    arg_reduce_outputs_stub(t, is_max, L, ip, vp, xp, 0, n_out);
  } else if (n_out >= 4 * get_num_threads() || nchunks < 2) {
    parallel_for(0, n_out, std::max<int64_t>(1, kGrain / region), [&](int64_t b, int64_t e) {
      arg_reduce_outputs_stub(t, is_max, L, ip, vp, xp, b, e);
    });
  } else {
    Tensor pv = Tensor::empty({nchunks}, t), pi = Tensor::empty({nchunks}, DType::Int64);
    for (int64_t o = 0; o < n_out; ++o) {
      parallel_for(0, nchunks, 1, [&](int64_t b, int64_t e) {
        arg_reduce_chunks_stub(t, is_max, L, ip, o, b, e, pv.raw_data(), pi.data<int64_t>());
      });
      arg_reduce_finish_stub(t, is_max, pv.raw_data(), pi.data<int64_t>(), nchunks,
                             static_cast<char*>(vp) + o * item, xp + o);
    }
  }
  return {values, indices};
}

DimSplit split_at_dim(const Shape& sizes, int64_t d) {
  DimSplit s;
  const int64_t nd = static_cast<int64_t>(sizes.size());
  if (nd == 0) return s;
  s.n = sizes[d];
  for (int64_t i = 0; i < d; ++i) s.outer *= sizes[i];
  for (int64_t i = d + 1; i < nd; ++i) s.inner *= sizes[i];
  return s;
}


Tensor reshaped(const Tensor& t, const Shape& shape) {
  return Tensor::view_of(t, shape, contiguous_strides(shape), t.offset());
}

Tensor reinterpret_dtype(const Tensor& t, DType dtype) {
  TZ_CHECK(itemsize(dtype) == t.itemsize(), Runtime, "reinterpret_dtype(): item sizes differ");
  return Tensor(std::make_shared<TensorImpl>(t.storage(), t.sizes(), t.strides(), t.offset(), dtype,
                                             t.impl()->version));
}

Tensor complex_as_real(const Tensor& t) {
  Shape sizes = t.sizes(), strides = t.strides();
  for (int64_t& s : strides) s *= 2;
  sizes.push_back(2);
  strides.push_back(1);
  return Tensor(std::make_shared<TensorImpl>(t.storage(), sizes, strides, t.offset() * 2,
                                             complex_part_dtype(t.dtype()), t.impl()->version));
}

Tensor real_as_complex(const Tensor& t) {
  TZ_CHECK(t.dim() > 0 && t.sizes().back() == 2 && t.strides().back() == 1 && t.offset() % 2 == 0,
           Runtime, "real_as_complex(): needs a trailing contiguous dim of size 2");
  Shape sizes(t.sizes().begin(), t.sizes().end() - 1), strides(t.strides().begin(), t.strides().end() - 1);
  for (int64_t& s : strides) s /= 2;
  return Tensor(std::make_shared<TensorImpl>(t.storage(), sizes, strides, t.offset() / 2,
                                             complex_dtype_of(t.dtype()), t.impl()->version));
}

}  // namespace tz
