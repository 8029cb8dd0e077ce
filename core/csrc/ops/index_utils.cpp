#include "ops/index_utils.h"

#include "iter/tensor_iter.h"
#include "ops/conversion.h"

namespace tz {

namespace {

[[noreturn]] void out_of_bounds(const IndexBounds& bounds, int64_t value, size_t dim, int64_t size) {
  switch (bounds.message) {
    case IndexBounds::Message::InSelf:
      fail(bounds.kind, "index out of range in self");
    case IndexBounds::Message::Flat:
      fail(bounds.kind, "out of range: tried to access index ", value, " on a tensor of ", size, " elements.");
    case IndexBounds::Message::Dim:
      if (size == 0) fail(bounds.kind, "index is out of bounds for dimension with size 0");
      fail(bounds.kind, "index ", value, " is out of bounds for dimension ",
           bounds.dim >= 0 ? bounds.dim : int64_t(dim), " with size ", size);
  }
  fail(bounds.kind, "index out of range");
}

// out (+)= wrap(index) * stride over the broadcast shape; `accumulate` false for the first index.
template <typename I>
void add_offsets(const TensorIter& iter, int64_t size, int64_t stride, bool accumulate,
                 const IndexBounds& bounds, size_t dim) {
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    char* out = data[0];
    const char* in = data[1];
    for (int64_t i = 0; i < n; ++i, out += strides[0], in += strides[1]) {
      int64_t v = *reinterpret_cast<const I*>(in), w = v;
      if (w < 0 && bounds.allow_negative) w += size;
      if (__builtin_expect(w < 0 || w >= size, 0)) out_of_bounds(bounds, v, dim, size);
      int64_t* o = reinterpret_cast<int64_t*>(out);
      *o = accumulate ? *o + w * stride : w * stride;
    }
  });
}

}  // namespace

void check_index_dtype(const Tensor& index, bool allow_int32, const char* op) {
  DType t = index.dtype();
  TZ_CHECK(t == DType::Int64 || (allow_int32 && t == DType::Int32), Runtime, op, "(): Expected dtype int64",
           allow_int32 ? " or int32" : "", " for index, but got ", dtype_name(t));
}

Tensor index_offsets(const TensorList& indices, const Shape& shape, const Shape& sizes,
                     const Shape& strides, const IndexBounds& bounds) {
  Tensor out = Tensor::empty(shape, DType::Int64);
  if (indices.empty()) {
    for (int64_t i = 0, n = out.numel(); i < n; ++i) out.data<int64_t>()[i] = 0;
    return out;
  }
  for (size_t k = 0; k < indices.size(); ++k) {
    const Tensor& index = indices[k];
    TensorIter iter({out, index}, shape);
    if (index.dtype() == DType::Int64) {
      add_offsets<int64_t>(iter, sizes[k], strides[k], k > 0, bounds, k);
    } else {
      TZ_CHECK(index.dtype() == DType::Int32, Index, "tensors used as indices must be long, int, byte or bool tensors");
      add_offsets<int32_t>(iter, sizes[k], strides[k], k > 0, bounds, k);
    }
  }
  return out;
}

Tensor spread_offsets(const Tensor& offsets, const Shape& result_shape, int64_t first) {
  Shape strides(result_shape.size(), 0);
  for (int64_t i = 0; i < offsets.dim(); ++i) strides[first + i] = offsets.strides()[i];
  return Tensor::view_of(offsets, result_shape, strides, offsets.offset());
}

void check_no_internal_overlap(const Tensor& t, const char* op) {
  if (t.numel() == 0) return;
  for (int64_t d = 0; d < t.dim(); ++d)
    TZ_CHECK(t.sizes()[d] <= 1 || t.strides()[d] != 0, Runtime, op, "(): unsupported operation: more "
             "than one element of the written-to tensor refers to a single memory location. Please "
             "clone() the tensor before performing the operation.");
}

Tensor unaliased(const Tensor& src, const Tensor& dst) {
  return src.storage().get() == dst.storage().get() ? clone(src) : src;
}

}  // namespace tz
