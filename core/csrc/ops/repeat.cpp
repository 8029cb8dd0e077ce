// repeat, tile and repeat_interleave.
#include <cstring>
#include <numeric>
#include <type_traits>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/joining.h"
#include "ops/joining_util.h"
#include "ops/views.h"

namespace tz {

using joining::copy_into;
using joining::prod_range;

namespace {

constexpr int64_t kMaxIterDims = 16;     // TensorIter's limit
constexpr int64_t kRowGrainBytes = 1 << 16;

// repeat for tensors whose interleaved (repeat, size) view would exceed the iterator's
// dims: one dim at a time, concatenating copies.
Tensor repeat_by_dims(Tensor t, const IntList& repeats) {
  bool copied = false;
  for (size_t i = 0; i < repeats.size(); ++i)
    if (repeats[i] != 1) t = cat(TensorList(repeats[i], t), static_cast<int64_t>(i)), copied = true;
  return copied ? t : clone(t);
}

void check_repeats_dtype(const Tensor& repeats) {
  TZ_CHECK(repeats.dtype() == DType::Int64 || repeats.dtype() == DType::Int32, NotImplemented,
           "repeats has to be a Long or Int tensor, but got ", dtype_name(repeats.dtype()));
}

// The values of an int tensor of repeat counts, each checked to be >= 0.
std::vector<int64_t> read_counts(const Tensor& repeats) {
  check_repeats_dtype(repeats);
  Tensor c = contiguous(to_dtype(repeats, DType::Int64));
  const int64_t* p = c.data<int64_t>();
  std::vector<int64_t> counts(p, p + c.numel());
  for (int64_t v : counts) TZ_CHECK(v >= 0, Runtime, "repeats can not be negative");
  return counts;
}

// Element i along `dim` of `input` repeated counts[i] times, into a new tensor.
Tensor interleave(const Tensor& input, int64_t dim, const std::vector<int64_t>& counts) {
  const int64_t total = std::accumulate(counts.begin(), counts.end(), int64_t(0));
  Shape out_shape = input.sizes();
  out_shape[dim] = total;
  Tensor out = Tensor::empty(out_shape, input.dtype());
  if (out.numel() == 0) return out;
  Tensor src = contiguous(input);
  const int64_t nd = input.dim(), n = input.sizes()[dim];
  const int64_t outer = prod_range(out_shape, 0, dim);
  const int64_t block = prod_range(out_shape, dim + 1, nd) * input.itemsize();  // bytes
  const char* in = static_cast<const char*>(src.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  const int64_t row = total * block;
  parallel_for(0, outer, std::max<int64_t>(1, kRowGrainBytes / std::max<int64_t>(row, 1)),
               [&](int64_t begin, int64_t end) {
    for (int64_t o = begin; o < end; ++o) {
      char* d = dst + o * row;
      for (int64_t i = 0; i < n; ++i) {
        const char* s = in + (o * n + i) * block;
        for (int64_t r = 0; r < counts[i]; ++r, d += block) std::memcpy(d, s, block);
      }
    }
  });
  return out;
}

}  // namespace

Tensor repeat(const Tensor& t, const IntList& repeats) {
  const int64_t n = static_cast<int64_t>(repeats.size());
  TZ_CHECK(n >= t.dim(), Runtime, "Number of dimensions of repeat dims can not be smaller than "
           "number of dimensions of tensor");
  const int64_t lead = n - t.dim();
  Shape in_sizes(n, 1), in_strides(n, 0), out_shape(n);
  for (int64_t i = 0; i < t.dim(); ++i) {
    in_sizes[lead + i] = t.sizes()[i];
    in_strides[lead + i] = t.strides()[i];
  }
  for (int64_t i = 0; i < n; ++i) out_shape[i] = in_sizes[i] * repeats[i];
  for (int64_t i = 0; i < n; ++i)
    TZ_CHECK(repeats[i] >= 0, Runtime, "Trying to create tensor with negative dimension ",
             out_shape[i], ": ", shape_str(out_shape));
  Tensor out = Tensor::empty(out_shape, t.dtype());
  if (out.numel() == 0) return out;
  // View the output as (r0, s0, r1, s1, ...) and copy the input broadcast along the r axes.
  Shape vsizes, out_strides, src_strides;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = repeats[i], s = in_sizes[i], os = out.strides()[i];
    if (r != 1) vsizes.push_back(r), out_strides.push_back(s * os), src_strides.push_back(0);
    if (s != 1) vsizes.push_back(s), out_strides.push_back(os), src_strides.push_back(in_strides[i]);
  }
  if (static_cast<int64_t>(vsizes.size()) > kMaxIterDims) {
    Tensor padded = Tensor::view_of(t, in_sizes, in_strides, t.offset());
    return repeat_by_dims(padded, repeats);
  }
  copy_into(Tensor::view_of(out, vsizes, out_strides, 0),
            Tensor::view_of(t, vsizes, src_strides, t.offset()));
  return out;
}

Tensor tile(const Tensor& t, const IntList& dims) {
  IntList reps = dims;
  if (static_cast<int64_t>(reps.size()) < t.dim()) reps.insert(reps.begin(), t.dim() - reps.size(), 1);
  return repeat(t, reps);
}

Tensor repeat_interleave(const Tensor& repeats) {
  TZ_CHECK(repeats.dim() == 1, Runtime, "repeat_interleave only accept 1D vector as repeat");
  std::vector<int64_t> counts = read_counts(repeats);
  const int64_t total = std::accumulate(counts.begin(), counts.end(), int64_t(0));
  Tensor out = Tensor::empty({total}, repeats.dtype());
  auto fill = [&](auto* p) {
    for (size_t i = 0; i < counts.size(); ++i)
      for (int64_t r = 0; r < counts[i]; ++r) *p++ = static_cast<std::remove_pointer_t<decltype(p)>>(i);
  };
  if (out.dtype() == DType::Int64) fill(out.data<int64_t>());
  else fill(out.data<int32_t>());
  return out;
}

Tensor repeat_interleave(const Tensor& t, const Tensor& repeats, std::optional<int64_t> dim) {
  Tensor input = dim ? t : reshape(t, {-1});
  TZ_CHECK(input.dim() > 0, Index, "Dimension specified as ", *dim, " but tensor has no dimensions");
  const int64_t d = dim ? wrap_dim(*dim, input.dim(), "repeat_interleave") : 0;
  const int64_t n = input.sizes()[d];
  std::vector<int64_t> counts;
  if (repeats.dim() == 0 || (repeats.dim() == 1 && repeats.sizes()[0] == 1)) {
    counts.assign(n, read_counts(repeats)[0]);  // one count for every element
  } else {
    TZ_CHECK(repeats.dim() == 1, Runtime, "repeats must be 0-dim or 1-dim tensor");
    TZ_CHECK(repeats.sizes()[0] == n, Runtime, "repeats must have the same size as input along dim, "
             "but got repeats.size(0) = ", repeats.sizes()[0], " and input.size(", d, ") = ", n);
    counts = read_counts(repeats);
  }
  return interleave(input, d, counts);
}

Tensor repeat_interleave(const Tensor& t, int64_t repeats, std::optional<int64_t> dim) {
  TZ_CHECK(repeats >= 0, Runtime, "Repeats must be non-negative");
  Tensor r = Tensor::empty({}, DType::Int64);
  *r.data<int64_t>() = repeats;
  return repeat_interleave(t, r, dim);
}

}  // namespace tz
