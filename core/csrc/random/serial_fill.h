// Serial element walks for sampling kernels. Elements are visited in memory order (the
// order PyTorch's TensorIterator gives a lone output), so every draw lands where PyTorch
// puts it, whatever the layout. Random streams are sequential: these never run in parallel.
#pragma once
#include "iter/tensor_iter.h"

namespace tz {

// t[i] = draw() for every element i.
template <typename T, typename Draw>
void fill_serial(const Tensor& t, Draw&& draw) {
  if (t.numel() == 0) return;
  Tensor keep = t;
  TensorIter iter({keep}, keep.sizes());
  iter.run_range([&](char** data, const int64_t* strides, int64_t n) {
    char* p = data[0];
    for (int64_t i = 0; i < n; ++i, p += strides[0]) *reinterpret_cast<T*>(p) = draw();
  }, 0, iter.numel());
}

// t[i] = draw(input[i]) with `input` (element type In) broadcast to t's shape.
template <typename T, typename In, typename Draw>
void fill_serial_from(const Tensor& t, const Tensor& input, Draw&& draw) {
  if (t.numel() == 0) return;
  Tensor keep = t, keep_in = input;
  TensorIter iter({keep, keep_in}, keep.sizes());
  iter.run_range([&](char** data, const int64_t* strides, int64_t n) {
    char* out = data[0];
    const char* in = data[1];
    for (int64_t i = 0; i < n; ++i, out += strides[0], in += strides[1])
      *reinterpret_cast<T*>(out) = draw(*reinterpret_cast<const In*>(in));
  }, 0, iter.numel());
}

}  // namespace tz

// The floating dtypes sampling kernels write, half types included.
#define TZ_DISPATCH_SAMPLING_FLOATING(dtype, opname, ...)                     \
  [&] { switch (dtype) {                                                      \
    TZ_DTYPE_CASE(Float16, __VA_ARGS__) TZ_DTYPE_CASE(BFloat16, __VA_ARGS__)  \
    TZ_DTYPE_CASE(Float32, __VA_ARGS__) TZ_DTYPE_CASE(Float64, __VA_ARGS__)   \
    TZ_DISPATCH_FAIL(dtype, opname); } }()
