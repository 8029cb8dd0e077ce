// Winograd F(4x4, 3x3) for stride-1, dilation-1 3x3 convolutions (groups == 1), Lavin and
// Gray's transforms on the points 0, +-1, +-2, inf: Y = A^T [(G g G^T) . (B^T d B)] A, each
// 6x6 input tile d giving a 4x4 output tile. The weight gradient is the adjoint:
// G^T [sum over tiles (B^T d B) . (A gy A^T)] G. The three transforms live here, per ISA build
// (kernels/isa/conv_winograd_kernels.cpp), channels in vector lanes. The forward products
// over the channels run per transform point on the tile kernel, as 1x1 convolutions over the
// tiles (every build adds the channels in order with FMAs); the weight gradient's are one
// batched GEMM over the 36 points (ops/conv_winograd.cpp). Every transform is a fixed
// sequence of adds and multiplies per lane (no FMA contraction: -ffp-contract=off), so the
// baseline, AVX2 and AVX-512 builds give bit-identical results.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

constexpr int64_t kWinogradTile = 4;     // output pixels per tile side
constexpr int64_t kWinogradInput = 6;    // input pixels per tile side
constexpr int64_t kWinogradPoints = 36;  // transform points per tile

// The weight transform: U[p][c][o] = (G g G^T)[p] of the 3x3 filter g = weight (o, c, :, :),
// for c in [0, Cp) and o in [0, Op) (zeros past C and O), each point's matrix packed as the
// tile kernel reads a 1x1 convolution's weight (TileConvArgs in kernels/conv.h): blocks of
// `block` output channels, (Op / block rounded up, Cp, block), U[p][c][o] at
// u + p * u_plane + (o / block * Cp + c) * block + o % block (block a multiple of the build's
// lanes). The weight is read through strides in elements (any layout, and the input
// gradient's flipped, transposed view): element (o, c, kh, kw) at
// w + o * so + c * sc + kh * skh + kw * skw.
struct WinogradWeightArgs {
  const void* w;
  int64_t O, C, Op, Cp, block;
  int64_t so, sc, skh, skw;
  void* u;
  int64_t u_plane;
};
// Runs input channels c in [begin, end) of [0, Cp).
using WinogradWeightFn = void (*)(DType dtype, const WinogradWeightArgs& a, int64_t begin, int64_t end);
extern DispatchStub<WinogradWeightFn> conv_winograd_weight_stub;

// The input and output transforms over a chunk of tiles. Tiles are numbered (n, th, tw) over
// the whole batch, TH x TW per image; the chunk holds tiles [first, first + count).
//   input:  x, a zero-padded NHWC input (N, Hp, Wp, Cp), Hp >= 4 * TH + 2, Wp >= 4 * TW + 2,
//           channels past C zero -> V (36, count, Cp): V[p][t] = (B^T d B)[p] per channel.
//   output: M (36, count, Op), M[p] = V[p] @ U[p] -> y (N, OH, OW, O) in NHWC memory:
// The points of V and M lie v_plane and m_plane elements apart (not a multiple of 4 KiB: the
// 36 rows a tile's transform reads or writes would share cache sets).
//           the tile's pixels inside the output, y = A^T m A + bias.
struct WinogradTileArgs {
  int64_t TH, TW, Hp, Wp, Cp;
  int64_t O, Op, OH, OW;
  int64_t first, count;
  const void* x;
  void* v;
  const void* m;
  int64_t v_plane, m_plane;
  const void* bias;  // (O,), may be null
  void* y;
};
//   grad_output (the weight gradient's): x, the output gradient zero-padded to whole tiles in
//           NHWC (N, Hp = 4 * TH, Wp = 4 * TW, Op) -> v (36, count, Op): (A g A^T)[p] of
//           each tile's 4x4 output gradient g, the points v_plane apart.
// All run the chunk's tiles [begin, end) (indices within the chunk).
using WinogradTileFn = void (*)(DType dtype, const WinogradTileArgs& a, int64_t begin, int64_t end);
extern DispatchStub<WinogradTileFn> conv_winograd_input_stub;
extern DispatchStub<WinogradTileFn> conv_winograd_output_stub;
extern DispatchStub<WinogradTileFn> conv_winograd_grad_output_stub;

// The weight gradient's last step: gw (o, c, :, :) = G^T S G, S[p] = u[p][c][o] the sum over
// the tiles of (B^T d B)[p] (A g A^T)[p]; gw written through its strides in elements.
struct WinogradWeightGradArgs {
  const void* u;  // (36, C, Op), the points u_plane apart
  int64_t O, C, Op, u_plane;
  void* gw;
  int64_t so, sc, skh, skw;
};
// Runs input channels c in [begin, end).
using WinogradWeightGradFn = void (*)(DType dtype, const WinogradWeightGradArgs& a, int64_t begin, int64_t end);
extern DispatchStub<WinogradWeightGradFn> conv_winograd_weight_grad_stub;

}  // namespace tz
