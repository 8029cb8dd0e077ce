// cat, stack and their numpy-style relatives.
#include <cstring>

#include "iter/thread_pool.h"
#include "ops/joining.h"
#include "ops/joining_util.h"
#include "ops/promotion.h"
#include "ops/views.h"
#include "tensor/memory_format.h"
#include "tensor/quantizer.h"

namespace tz {

using joining::copy_into;
using joining::prod_range;
using joining::slice_dim;
using joining::unsqueeze_view;

namespace {

// PyTorch's legacy rule: 1-D empty tensors take no part in shape checks (old code
// concatenated them with anything).
bool skipped_in_cat(const Tensor& t) { return t.dim() == 1 && t.sizes()[0] == 0; }

constexpr int64_t kRowGrainBytes = 1 << 16;

// A contiguous input with the output's dtype: each of the `outer` rows is one memcpy.
struct Block {
  const char* src;
  int64_t bytes;       // per row
  int64_t dst_offset;  // bytes into each output row
};

void copy_blocks(const Tensor& out, const std::vector<Block>& blocks, int64_t outer, int64_t out_row) {
  char* base = static_cast<char*>(out.raw_data());
  if (outer == 1) {
    for (const Block& b : blocks) joining::parallel_memcpy(base + b.dst_offset, b.src, b.bytes);
    return;
  }
  int64_t row_bytes = 0;
  for (const Block& b : blocks) row_bytes += b.bytes;
  int64_t grain = std::max<int64_t>(1, kRowGrainBytes / std::max<int64_t>(row_bytes, 1));
  parallel_for(0, outer, grain, [&](int64_t begin, int64_t end) {
    for (int64_t o = begin; o < end; ++o)
      for (const Block& b : blocks) std::memcpy(base + o * out_row + b.dst_offset, b.src + o * b.bytes, b.bytes);
  });
}

using TensorFn = Tensor (*)(const Tensor&);

TensorList map_list(const TensorList& tensors, TensorFn fn) {
  TensorList out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(fn(t));
  return out;
}

// Whether every tensor is 4-d and channels-last (PyTorch's cat keeps that layout then).
bool all_channels_last(const TensorList& tensors) {
  for (const Tensor& t : tensors)
    if (t.dim() != 4 || suggest_memory_format(t) != MemoryFormat::ChannelsLast) return false;
  return true;
}

void check_non_empty(const TensorList& tensors, const char* op) {
  TZ_CHECK(!tensors.empty(), Runtime, op, " expects a non-empty TensorList");
}

}  // namespace

// Quantized tensors concatenate when they share dtype and per-tensor qparams (PyTorch's
// rule; the quantized cat op of core.ops.quantized requantizes instead).
Tensor cat_quantized(const TensorList& tensors, int64_t dim) {
  const Quantizer& q = quantizer_of(tensors[0], "cat");
  TensorList ints;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    TZ_CHECK(t.dtype() == tensors[0].dtype(), Runtime, "cat(): quantized tensors must have one dtype, got ",
             dtype_name(tensors[0].dtype()), " and ", dtype_name(t.dtype()), " (tensor ", i, ")");
    const Quantizer& qi = quantizer_of(t, "cat");
    TZ_CHECK(!qi.per_channel() && qi.scale == q.scale && qi.zero_point == q.zero_point, Runtime,
             "cat(): All inputs should share the same quantization parameters (tensor ", i,
             " differs); use core.ops.quantized.cat to requantize");
    ints.push_back(int_view(t));
  }
  Tensor out = cat(ints, dim);
  out.impl()->dtype = tensors[0].dtype();
  out.impl()->quantizer = per_tensor_quantizer(q.scale, q.zero_point);
  return out;
}

Tensor cat(const TensorList& tensors, int64_t dim) {
  TZ_CHECK(!tensors.empty(), Value, "expected a non-empty list of Tensors");
  for (const Tensor& t : tensors)
    if (is_quantized(t.dtype())) return cat_quantized(tensors, dim);
  for (size_t i = 0; i < tensors.size(); ++i)
    TZ_CHECK(tensors[i].dim() > 0, Runtime, "zero-dimensional tensor (at position ", i,
             ") cannot be concatenated");
  if (all_channels_last(tensors)) {  // as NHWC tensors, whole pixels copied at once
    static constexpr int64_t kNhwcDim[4] = {0, 3, 1, 2};  // where each NCHW dim sits in NHWC
    TensorList nhwc;
    for (const Tensor& t : tensors) nhwc.push_back(permute(t, {0, 2, 3, 1}));
    return permute(cat(nhwc, kNhwcDim[wrap_dim(dim, 4, "cat")]), {0, 3, 1, 2});
  }
  DType dtype = result_type(tensors);
  const Tensor* ref = nullptr;
  for (const Tensor& t : tensors)
    if (!skipped_in_cat(t)) {
      ref = &t;
      break;
    }
  if (ref == nullptr) return Tensor::empty({0}, dtype);

  const int64_t nd = ref->dim();
  const int64_t d = wrap_dim(dim, nd, "cat");
  Shape out_shape = ref->sizes();
  out_shape[d] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (skipped_in_cat(t)) continue;
    TZ_CHECK(t.dim() == nd, Runtime, "Tensors must have same number of dimensions: got ", nd,
             " and ", t.dim());
    for (int64_t k = 0; k < nd; ++k)
      TZ_CHECK(k == d || t.sizes()[k] == ref->sizes()[k], Runtime,
               "Sizes of tensors must match except in dimension ", d, ". Expected size ",
               ref->sizes()[k], " but got size ", t.sizes()[k], " for tensor number ", i, " in the list.");
    out_shape[d] += t.sizes()[d];
  }

  Tensor out = Tensor::empty(out_shape, dtype);
  if (out.numel() == 0) return out;
  const int64_t outer = prod_range(out_shape, 0, d), inner = prod_range(out_shape, d + 1, nd);
  const int64_t isz = out.itemsize();
  std::vector<Block> blocks;
  int64_t at = 0;
  for (const Tensor& t : tensors) {
    if (skipped_in_cat(t) || t.numel() == 0) continue;
    int64_t len = t.sizes()[d];
    if (t.dtype() == dtype && t.is_contiguous())
      blocks.push_back({static_cast<const char*>(t.raw_data()), len * inner * isz, at * inner * isz});
    else
      copy_into(slice_dim(out, d, at, len), t);  // strided or converting: the copy kernel
    at += len;
  }
  copy_blocks(out, blocks, outer, out_shape[d] * inner * isz);
  return out;
}

Tensor stack(const TensorList& tensors, int64_t dim) {
  check_non_empty(tensors, "stack");
  const Shape& shape = tensors[0].sizes();
  for (size_t i = 1; i < tensors.size(); ++i)
    TZ_CHECK(tensors[i].sizes() == shape, Runtime, "stack expects each tensor to be equal size, but got ",
             shape_str(shape), " at entry 0 and ", shape_str(tensors[i].sizes()), " at entry ", i);
  int64_t d = wrap_dim(dim, tensors[0].dim() + 1, "stack");
  TensorList expanded;
  expanded.reserve(tensors.size());
  for (const Tensor& t : tensors) expanded.push_back(unsqueeze_view(t, d));
  return cat(expanded, d);
}

namespace {
// A view with at least n dims; an alias (a new tensor) even when nothing changes, so that
// autograd records it as its own output instead of rewriting the input's history.
Tensor atleast_nd(const Tensor& t, int64_t n) {
  const Shape shape = joining::atleast_shape(t.sizes(), n);
  return shape == t.sizes() ? alias(t) : reshape(t, IntList(shape.begin(), shape.end()));
}
}  // namespace

Tensor atleast_1d(const Tensor& t) { return atleast_nd(t, 1); }
Tensor atleast_2d(const Tensor& t) { return atleast_nd(t, 2); }
Tensor atleast_3d(const Tensor& t) { return atleast_nd(t, 3); }

TensorList atleast_1d(const TensorList& tensors) {
  return map_list(tensors, static_cast<TensorFn>(atleast_1d));
}
TensorList atleast_2d(const TensorList& tensors) {
  return map_list(tensors, static_cast<TensorFn>(atleast_2d));
}
TensorList atleast_3d(const TensorList& tensors) {
  return map_list(tensors, static_cast<TensorFn>(atleast_3d));
}

Tensor hstack(const TensorList& tensors) {
  check_non_empty(tensors, "hstack");
  TensorList ts = map_list(tensors, static_cast<TensorFn>(atleast_1d));
  return cat(ts, ts[0].dim() == 1 ? 0 : 1);
}

Tensor vstack(const TensorList& tensors) {
  check_non_empty(tensors, "vstack");
  return cat(map_list(tensors, static_cast<TensorFn>(atleast_2d)), 0);
}

Tensor dstack(const TensorList& tensors) {
  check_non_empty(tensors, "dstack");
  return cat(map_list(tensors, static_cast<TensorFn>(atleast_3d)), 2);
}

Tensor column_stack(const TensorList& tensors) {
  check_non_empty(tensors, "column_stack");
  // 0-d and 1-d inputs become columns; the rest are stacked along dim 1 as they are.
  TensorList ts = map_list(tensors, [](const Tensor& t) {
    return t.dim() <= 1 ? reshape(t, {t.numel(), 1}) : t;
  });
  return cat(ts, 1);
}

}  // namespace tz
