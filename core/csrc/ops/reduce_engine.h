// The shared machinery of reductions: which dims are reduced and the result shapes, the
// input layout handed to kernels/reduce.h, and the split over threads.
#pragma once
#include <optional>
#include <utility>
#include <vector>

#include "kernels/reduce.h"
#include "ops/promotion.h"
#include "ops/value.h"

namespace tz {

struct ReduceDims {
  std::vector<bool> reduced;  // per input dim
  Shape keep_shape;           // the input shape with reduced dims set to 1
  Shape out_shape;            // keep_shape, or without the reduced dims unless keepdim
  int64_t region = 1;         // input elements per output
  int64_t numel_out = 1;
};

// `dims` None or empty means every dim. Checks the range and repeats of dims.
ReduceDims reduce_dims(const Tensor& t, const std::optional<IntList>& dims, bool keepdim, const char* op);

// A reduced dim of stride 0 repeats one value, so it is never walked: `in` is the input with
// such dims narrowed to size 1, `rd` its reduction (region divided by `times`), and each
// remaining region element stands for `times` equal ones. None when no reduced dim repeats
// (checked without copying anything: the common case costs a loop over the dims).
struct Unrepeated {
  Tensor in;
  ReduceDims rd;
  int64_t times = 1;
};
std::optional<Unrepeated> unrepeat(const Tensor& in, const ReduceDims& rd);
// out[i] <- `op`'s combination of `times` copies of out[i]: x * times for the sums (integers
// wrap as repeated addition would), x ^ times for Prod, x for max and min.
void repeat_combine(const Tensor& out, ReduceOp op, int64_t times);

// A contiguous tensor of shape rd.keep_shape and dtype args.dtype holding the reduction of
// `in` (whose dtype must be args.dtype). Stride-0 reduced dims are not walked (unrepeat).
Tensor reduce(const Tensor& in, const ReduceDims& rd, ReduceArgs args);

// Values (dtype of `in`: Int64, Float32 or Float64) and int64 indices of the max (min) along
// `dim`, first occurrence on ties, NaN winning; shape of `in` with dim set to 1.
std::pair<Tensor, Tensor> arg_reduce(const Tensor& in, int64_t dim, bool is_max);

// A contiguous tensor seen as (outer, n, inner) around dim `d` (a 0-d tensor as 1, 1, 1).
struct DimSplit {
  int64_t outer = 1, n = 1, inner = 1;
};
DimSplit split_at_dim(const Shape& sizes, int64_t d);



// A contiguous tensor viewed with another shape of the same numel.
Tensor reshaped(const Tensor& contiguous_tensor, const Shape& shape);
// The same bytes seen as another dtype of the same item size (bool as uint8).
Tensor reinterpret_dtype(const Tensor& t, DType dtype);
// complex64/128 (...) seen as float32/64 (..., 2).
Tensor complex_as_real(const Tensor& t);
// float32/64 (..., 2) contiguous in the last dim seen as complex64/128 (...).
Tensor real_as_complex(const Tensor& t);

}  // namespace tz
