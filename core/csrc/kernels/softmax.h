// Fused softmax / log_softmax over the middle dim of a contiguous (outer, dim, inner)
// tensor: per line, the max, the sum of exp(x - max), then the scaled (or shifted) output.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

// Columns of a line group handled by one task when inner > 1.
constexpr int64_t kSoftmaxTile = 64;

inline int64_t softmax_tasks(int64_t outer, int64_t inner) {
  return inner == 1 ? outer : outer * ((inner + kSoftmaxTile - 1) / kSoftmaxTile);
}

// Tasks [begin, end) of softmax_tasks(outer, inner); dtype Float32 or Float64.
using SoftmaxFn = void (*)(DType dtype, bool log, const void* in, void* out, int64_t outer,
                           int64_t dim, int64_t inner, int64_t begin, int64_t end);
extern DispatchStub<SoftmaxFn> softmax_stub;

// Gradient rows (softmax dim innermost, rows [begin, end) of `n` elements): with s the row
// sum of g (log) or of g*y (softmax), out <- g - exp(y) * s or y * (g - s).
using SoftmaxBackwardFn = void (*)(DType dtype, bool log, const void* g, const void* y, void* out,
                                   int64_t n, int64_t begin, int64_t end);
extern DispatchStub<SoftmaxBackwardFn> softmax_backward_stub;

// out[i] <- exp(in[i]) with the vectorised float32 exp of kernels/vec_math.h (for its tests).
using VecExpFn = void (*)(const float* in, float* out, int64_t n);
extern DispatchStub<VecExpFn> vec_exp_stub;

}  // namespace tz
