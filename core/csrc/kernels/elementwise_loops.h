// Parallel elementwise loops over a TensorIter for the elementwise kernels: the iterator
// hands runs of elements to the inner loops of kernels/loops.h.
#pragma once
#include "iter/tensor_iter.h"
#include "kernels/loops.h"

namespace tz {
// Internal linkage: each ISA build of a kernel file must keep its own instantiations (one
// shared between builds could run AVX-512 code on a CPU without it).
namespace {

// out (operand 0, of type Out) <- f(in) (operand 1, of type In).
template <typename Out, typename In, typename F>
void run_unary(const TensorIter& iter, F f) {
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    unary_loop<Out, In>(data, strides, n, f);
  });
}

// out (operand 0, of type Out) <- f(a, b) (operands 1 and 2, both of type T).
template <typename Out, typename T, typename F>
void run_binary(const TensorIter& iter, F f) {
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    binary_loop<Out, T, T>(data, strides, n, f);
  });
}

}  // namespace
}  // namespace tz
