#include "ops/conv_tile.h"

#include <algorithm>
#include <atomic>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/joining.h"
#include "ops/views.h"

namespace tz {

namespace {

std::atomic<ConvAlgorithm> g_algorithm{ConvAlgorithm::Auto};

bool tile_kernel_fits(const ConvShape& s, DType dtype) {
  return s.groups == 1 && (dtype == DType::Float32 || dtype == DType::Float64);
}

// Where the tile kernel beats im2col + GEMM (benchmarks/bench_conv_paths.py, measured on
// the 2-core AVX-512 Xeon): see the closing note of issue 29.
bool tile_kernel_wins(const ConvShape& s) {
  (void)s;
  return true;
}

bool chosen(const ConvShape& s) {
  switch (g_algorithm.load()) {
    case ConvAlgorithm::Tile: return true;
    case ConvAlgorithm::Gemm: return false;
    case ConvAlgorithm::Auto: break;
  }
  return tile_kernel_wins(s);
}

// x (N, C, H, W) in any layout -> (N, Hp, Wp, C) contiguous with x at (top, left), zeros
// around; rows and columns of x past Hp or Wp are left out (the kernel never reads them).
Tensor padded_nhwc(const Tensor& x, int64_t top, int64_t left, int64_t Hp, int64_t Wp) {
  const int64_t N = x.size(0), C = x.size(1);
  const int64_t H = std::min(x.size(2), Hp - top), W = std::min(x.size(3), Wp - left);
  Tensor out = zeros({N, Hp, Wp, C}, x.dtype());
  if (H > 0 && W > 0)
    copy_(narrow(narrow(out, 1, top, H), 2, left, W), permute(narrow(narrow(x, 2, 0, H), 3, 0, W), {0, 2, 3, 1}));
  return out;
}

// The padded height (width) the tile kernel reads: every tap of every output.
int64_t reach(int64_t out, int64_t stride, int64_t k, int64_t dilation) { return (out - 1) * stride + (k - 1) * dilation + 1; }

// w (O, C, KH, KW) -> (ceil(O / block), KH, KW, C, block), zeros past O. One pass: a block's
// rows are read side by side (each sequentially), its packed rows written whole.
template <typename T> void pack_block(const T* w, int64_t rows, int64_t C, int64_t taps, int64_t block, T* out) {
  for (int64_t c = 0; c < C; ++c)
    for (int64_t k = 0; k < taps; ++k) {
      T* dst = out + (k * C + c) * block;
      const T* src = w + c * taps + k;
      for (int64_t j = 0; j < rows; ++j) dst[j] = src[j * C * taps];
      for (int64_t j = rows; j < block; ++j) dst[j] = T(0);
    }
}

Tensor packed_weight(const Tensor& w_, int64_t block) {
  const Tensor w = contiguous(w_);
  const int64_t O = w.size(0), C = w.size(1), KH = w.size(2), KW = w.size(3), nb = (O + block - 1) / block;
  Tensor out = Tensor::empty({nb, KH, KW, C, block}, w.dtype());
  const int64_t per_block = KH * KW * C * block;
  parallel_for(0, nb, std::max<int64_t>(1, (int64_t(1) << 16) / per_block), [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t rows = std::min(block, O - b * block);
      if (w.dtype() == DType::Float64)
        pack_block(w.data<double>() + b * block * C * KH * KW, rows, C, KH * KW, block, out.data<double>() + b * per_block);
      else
        pack_block(w.data<float>() + b * block * C * KH * KW, rows, C, KH * KW, block, out.data<float>() + b * per_block);
    }
  });
  return out;
}

// The tile kernel on padded NHWC x (N, Hp, Wp, C) and weight (O, C, KH, KW) in any layout.
Tensor run_tiles(const Tensor& xpad, const Tensor& w, const Tensor& bias, const ConvShape& s, bool nhwc_out) {
  const DType dt = xpad.dtype();
  const int64_t block = conv_tile_block_stub(dt);
  Tensor wp = packed_weight(w, block);
  Tensor b = bias.defined() ? contiguous(bias) : Tensor();
  Tensor y = Tensor::empty({s.N, s.OH, s.OW, s.O}, dt);
  TileConvArgs a{s, xpad.size(1), xpad.size(2), xpad.raw_data(), wp.raw_data(), b.defined() ? b.raw_data() : nullptr,
                 y.raw_data()};
  const int64_t work = kConvTilePixels * block * s.KH * s.KW * s.C;  // multiply-adds per task
  parallel_for(0, conv_tile_tasks(s, block), std::max<int64_t>(1, (int64_t(1) << 18) / work),
               [&](int64_t begin, int64_t end) { conv_tile_stub(dt, a, begin, end); });
  Tensor nchw_shaped = permute(y, {0, 3, 1, 2});
  return nhwc_out ? nchw_shaped : contiguous(nchw_shaped);
}

}  // namespace

void set_conv_algorithm(ConvAlgorithm a) { g_algorithm = a; }
ConvAlgorithm conv_algorithm() { return g_algorithm.load(); }

bool conv_tile_forward_applies(const ConvShape& s, DType dtype) { return tile_kernel_fits(s, dtype) && chosen(s); }

bool conv_tile_backward_data_applies(const ConvShape& s, DType dtype) {
  return tile_kernel_fits(s, dtype) && chosen(s) && s.sh == 1 && s.sw == 1 && s.ph <= s.dh * (s.KH - 1) &&
         s.pw <= s.dw * (s.KW - 1);
}

Tensor conv_tile_forward(const Tensor& x, const Tensor& w, const Tensor& bias, const ConvShape& s, bool nhwc_out) {
  const int64_t Hp = reach(s.OH, s.sh, s.KH, s.dh), Wp = reach(s.OW, s.sw, s.KW, s.dw);
  return run_tiles(padded_nhwc(x, s.ph, s.pw, Hp, Wp), w, bias, s, nhwc_out);
}

Tensor conv_tile_backward_data(const Tensor& gy, const Tensor& w, const ConvShape& s, bool nhwc_out) {
  // gx = gy, padded by the taps' reach less the padding (more at the end where the input
  // has rows no output reads: a transposed convolution's output_padding), convolved with
  // w's taps reversed and its channel dims swapped.
  const int64_t ph = s.dh * (s.KH - 1) - s.ph, pw = s.dw * (s.KW - 1) - s.pw;
  ConvShape t{s.N, s.O, s.OH, s.OW, s.C, s.KH, s.KW, s.H, s.W, 1, 1, ph, pw, s.dh, s.dw, 1};
  const int64_t Hp = reach(s.H, 1, s.KH, s.dh), Wp = reach(s.W, 1, s.KW, s.dw);
  return run_tiles(padded_nhwc(gy, ph, pw, Hp, Wp), flip(transpose(w, 0, 1), {2, 3}), Tensor(), t, nhwc_out);
}

}  // namespace tz
