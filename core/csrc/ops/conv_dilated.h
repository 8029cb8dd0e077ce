// Dense dilated convolutions (groups == 1, stride 1, dilation > 1: atrous convolutions of
// DeepLab's ASPP and of dilated ResNets) as GEMMs over regions of the output.
//
// With a large dilation many taps of a 3x3 kernel fall into the zero padding for a whole band
// of output rows or columns (with rate 36 on a 33x33 map only the centre tap ever reads the
// image). Per spatial dim the outputs split into segments where the set of in-image taps is
// constant (a contiguous range of kernel indices); each (row segment x column segment) region
// gathers only its valid taps (no bounds checks, no multiplications by padding zeros) and
// runs one GEMM per kernel row against the weight packed (O, KH, KW, C): in NHWC the gathered
// (pixels x taps*C) times the weight, in NCHW the weight times (taps*C x pixels) runs of input
// rows, so neither layout is transposed. Regions are cut into blocks of rows spread over the
// thread pool, each block's GEMM single-threaded.
//   forward        y = conv(x, w) + bias over the regions
//   data gradient  the forward convolution of grad_output by the flipped, transposed weight
//                  with padding d * (k - 1) - p (stride 1 makes it a regular convolution)
//   weight grad    per region and kernel row: gw += grad_output^T @ gathered input, the
//                  blocks summed per thread and then in a fixed order
#pragma once
#include "kernels/conv.h"
#include "tensor/tensor.h"

namespace tz {

// Whether the three passes of this convolution take the region GEMMs.
bool uses_dilated_gemm(const ConvShape& s);
// Whether its data gradient can (the flipped convolution needs padding <= d * (k - 1)).
bool dilated_gemm_has_data_grad(const ConvShape& s);

// x (N, C, H, W) and the result in NCHW or NHWC memory as `nhwc` says; bias may be undefined.
Tensor dilated_conv_forward(const Tensor& x, const Tensor& w, const Tensor& bias, const ConvShape& s, bool nhwc);
Tensor dilated_conv_backward_data(const Tensor& gy, const Tensor& w, const ConvShape& s, bool nhwc);
// The weight gradient (O, C, KH, KW); channels-last memory when `nhwc`.
Tensor dilated_conv_backward_weight(const Tensor& x, const Tensor& gy, const ConvShape& s, bool nhwc);

}  // namespace tz
