// Box-Muller over blocks of 16 floats, as PyTorch's CPU randn does it for float32 (and
// half types, through a float buffer). PyTorch evaluates log/sin/cos with the Cephes-style
// polynomials of avx_mathfun.h under FMA contraction; the kernel repeats that arithmetic
// operation for operation so the results match bit for bit on every ISA build.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"

namespace tz {

// Each block holds 16 uniforms in [0, 1): u1 = 1 - data[j], u2 = data[j + 8] for j < 8;
// it becomes r*cos(theta) * std + mean in data[j] and r*sin(theta) * std + mean in data[j + 8].
using NormalBlocksKernel = void (*)(float* data, int64_t nblocks, float mean, float std);
extern DispatchStub<NormalBlocksKernel> normal_blocks_stub;

}  // namespace tz
