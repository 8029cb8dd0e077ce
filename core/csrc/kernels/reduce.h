// Reduction kernels. A reduction maps every element (identity, |x|, x^2, exp(x - c), ...)
// and combines the results (sum, prod, max, min) over a strided region per output.
// ops/reduce_engine.cpp plans the layout and the threading; kernels/isa/reduce_kernels.cpp
// holds the vectorised loops. Sums are cascaded (pairwise) for accuracy, and every region
// is combined in fixed chunks, so results never depend on the number of threads.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

enum class ReduceOp : uint8_t {
  Sum, Prod, Max, Min,  // Max/Min propagate NaN
  NanSum,     // sum, NaN counted as 0
  AbsSum,     // sum |x|         (1-norm)
  SqSum,      // sum x^2         (2-norm)
  PowSum,     // sum |x|^p       (p-norm)
  AbsMax,     // max |x|         (inf-norm)
  AbsMin,     // min |x|         (-inf-norm)
  NonZero,    // count x != 0    (0-norm)
  SqDevSum,   // sum (x - c)^2   (var; c is the output's mean)
  ExpDevSum,  // sum exp(x - c)  (logsumexp; c is the output's max)
};

constexpr int kMaxReduceDims = 12;
// Region elements are combined in chunks of this many (then the chunk results in order).
constexpr int64_t kReduceChunk = 16384;

// Input layout: outputs enumerate the kept dims row-major (the output is contiguous in that
// order); each output reduces a 2-D region, outer x inner, inner fastest. Byte strides.
struct ReduceLayout {
  int nkept = 0;
  int64_t kept_size[kMaxReduceDims];
  int64_t kept_stride[kMaxReduceDims];
  int64_t outer_size = 1, outer_stride = 0;
  int64_t inner_size = 1, inner_stride = 0;
  int64_t region() const { return outer_size * inner_size; }
  int64_t num_chunks() const { return region() == 0 ? 0 : (region() + kReduceChunk - 1) / kReduceChunk; }
};

struct ReduceArgs {
  ReduceOp op;
  DType dtype;                   // input, accumulator and output dtype
  double p = 0;                  // PowSum exponent
  const void* center = nullptr;  // per-output c (dtype) for SqDevSum / ExpDevSum
};

// Outputs [begin, end): out[o] <- reduction of output o's region.
using ReduceOutputsFn = void (*)(const ReduceArgs&, const ReduceLayout&, const char* in, void* out,
                                 int64_t begin, int64_t end);
// Chunks [begin, end) of output o's region: partial[c] <- reduction of chunk c.
using ReduceChunksFn = void (*)(const ReduceArgs&, const ReduceLayout&, const char* in, int64_t o,
                                int64_t begin, int64_t end, void* partials);
// Combines n chunk partials in order into *out, exactly as ReduceOutputsFn does.
using ReduceFinishFn = void (*)(const ReduceArgs&, const void* partials, int64_t n, void* out);
// Column form, when the last kept dim is contiguous (stride = itemsize) and the region is
// not: tasks enumerate (other kept dims) x (tiles of kReduceTile columns).
constexpr int64_t kReduceTile = 64;
using ReduceColumnsFn = void (*)(const ReduceArgs&, const ReduceLayout&, const char* in, void* out,
                                 int64_t begin, int64_t end);

// Arg reductions (value and first index, NaN wins) over a 1-D region (inner dim only).
using ArgReduceOutputsFn = void (*)(DType, bool is_max, const ReduceLayout&, const char* in,
                                    void* values, int64_t* indices, int64_t begin, int64_t end);
using ArgReduceChunksFn = void (*)(DType, bool is_max, const ReduceLayout&, const char* in,
                                   int64_t o, int64_t begin, int64_t end, void* values, int64_t* indices);
using ArgReduceFinishFn = void (*)(DType, bool is_max, const void* values, const int64_t* indices,
                                   int64_t n, void* value, int64_t* index);
using ArgReduceColumnsFn = void (*)(DType, bool is_max, const ReduceLayout&, const char* in,
                                    void* values, int64_t* indices, int64_t begin, int64_t end);

extern DispatchStub<ReduceOutputsFn> reduce_outputs_stub;
extern DispatchStub<ReduceChunksFn> reduce_chunks_stub;
extern DispatchStub<ReduceFinishFn> reduce_finish_stub;
extern DispatchStub<ReduceColumnsFn> reduce_columns_stub;
extern DispatchStub<ArgReduceOutputsFn> arg_reduce_outputs_stub;
extern DispatchStub<ArgReduceChunksFn> arg_reduce_chunks_stub;
extern DispatchStub<ArgReduceFinishFn> arg_reduce_finish_stub;
extern DispatchStub<ArgReduceColumnsFn> arg_reduce_columns_stub;

}  // namespace tz
