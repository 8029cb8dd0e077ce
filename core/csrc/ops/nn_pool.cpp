// Pooling front-ends (ops/nn_pool.h): argument checks and output sizes as in PyTorch's
// pool2d_shape_check / pooling_output_shape, then one window table per spatial axis for the
// kernels of kernels/nn_pool.h. 1-d ops run as 2-d ops on an (N, C, 1, L) view.
#include <algorithm>
#include <atomic>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/nn_pool_util.h"
#include "ops/views.h"
#include "tensor/memory_format.h"
#include "tensor/size_math.h"

namespace tz {
namespace nn {

Tensor Spatial::empty(int64_t oH, int64_t oW, DType d) const {
  if (channels_last) return empty_with_format({N, C, oH, oW}, d, MemoryFormat::ChannelsLast);
  return Tensor::empty(batched ? Shape{N, C, oH, oW} : Shape{C, oH, oW}, d);
}

Tensor Spatial::zeros(int64_t oH, int64_t oW, DType d) const {
  Tensor out = empty(oH, oW, d);
  fill_(out, Scalar(int64_t(0)));
  return out;
}

Tensor Spatial::finish(const Tensor& out) const {
  if (out.dtype() == dtype) return out;
  Tensor back = to_dtype(out, dtype);
  return channels_last ? contiguous(back, MemoryFormat::ChannelsLast) : back;
}

Spatial spatial_of(const Tensor& t, DType compute) {
  Spatial s;
  s.dtype = t.dtype();
  s.batched = t.dim() == 4;
  s.channels_last = suggest_memory_format(t) == MemoryFormat::ChannelsLast;
  const int64_t o = s.batched ? 1 : 0;
  if (s.batched) s.N = t.sizes()[0];
  s.C = t.sizes()[o], s.H = t.sizes()[o + 1], s.W = t.sizes()[o + 2];
  Tensor x = compute == t.dtype() ? t : to_dtype(t, compute);
  s.data = contiguous(x, s.channels_last ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous);
  return s;
}

void check_spatial_input(const Tensor& t, const char* op) {
  const int64_t nd = t.dim();
  bool ok = nd == 3 || nd == 4;
  for (int64_t d = nd - 3; ok && d < nd; ++d) ok = t.sizes()[d] > 0;
  TZ_CHECK(ok, Runtime, op, "(): Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
           "but got: ", shape_str(t.sizes()));
}

}  // namespace nn

namespace {

using nn::Spatial;

// One axis' windows (see PoolWindows) with their storage.
struct Windows {
  std::vector<int64_t> start, end;
  std::vector<double> div;
  int64_t step = 1;
  PoolWindows view() const { return {start.data(), end.data(), step, div.data()}; }
};

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// PyTorch's pooling_output_shape: with ceil_mode the last window must start inside the
// input or its left padding.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  int64_t out = floor_div(in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0), stride) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

// kernel/stride/padding/dilation as (h, w) pairs: one int means both; stride [] means kernel.
int64_t pick(const IntList& v, size_t i) { return v.size() == 1 ? v[0] : v[i]; }
void check_pair(const IntList& v, const char* op, const char* what, bool may_be_empty) {
  TZ_CHECK(v.size() == 1 || v.size() == 2 || (may_be_empty && v.empty()), Runtime, op, ": ", what,
           " must either be ", may_be_empty ? "omitted, " : "", "a single int, or a tuple of two ints");
}

struct Pool2d {
  int64_t kH, kW, sH, sW, pH, pW, dH, dW, oH, oW;
};

Pool2d pool_params(const char* op, int64_t H, int64_t W, int64_t C, const IntList& kernel, const IntList& stride,
                   const IntList& padding, const IntList& dilation, bool ceil_mode) {
  check_pair(kernel, op, "kernel_size", false);
  check_pair(stride, op, "stride", true);
  check_pair(padding, op, "padding", false);
  check_pair(dilation, op, "dilation", false);
  Pool2d p;
  p.kH = pick(kernel, 0), p.kW = pick(kernel, 1);
  p.sH = stride.empty() ? p.kH : pick(stride, 0), p.sW = stride.empty() ? p.kW : pick(stride, 1);
  p.pH = pick(padding, 0), p.pW = pick(padding, 1);
  p.dH = pick(dilation, 0), p.dW = pick(dilation, 1);
  TZ_CHECK(p.kH > 0 && p.kW > 0, Runtime, op, "(): kernel size should be greater than zero, but got kH: ", p.kH,
           " kW: ", p.kW);
  TZ_CHECK(p.sH > 0 && p.sW > 0, Runtime, op, "(): stride should be greater than zero, but got dH: ", p.sH,
           " dW: ", p.sW);
  TZ_CHECK(p.dH > 0 && p.dW > 0, Runtime, op, "(): dilation should be greater than zero, but got dilationH: ",
           p.dH, " dilationW: ", p.dW);
  TZ_CHECK(p.pH >= 0 && p.pW >= 0, Runtime, op, "(): pad must be non-negative, but got padH: ", p.pH, " padW: ", p.pW);
  TZ_CHECK(p.kW / 2 >= p.pW && p.kH / 2 >= p.pH, Runtime, op, "(): pad should be smaller than or equal to half of "
           "kernel size, but got padW = ", p.pW, ", padH = ", p.pH, ", kW = ", p.kW, ", kH = ", p.kH);
  p.oH = pooled_size(H, p.kH, p.pH, p.sH, p.dH, ceil_mode);
  p.oW = pooled_size(W, p.kW, p.pW, p.sW, p.dW, ceil_mode);
  TZ_CHECK(p.oH >= 1 && p.oW >= 1, Runtime, op, "(): Given input size: (", C, "x", H, "x", W, "). Calculated output "
           "size: (", C, "x", p.oH, "x", p.oW, "). Output size is too small");
  return p;
}

Windows max_windows(int64_t in, int64_t out, int64_t k, int64_t s, int64_t pad, int64_t d) {
  Windows w;
  w.step = d;
  for (int64_t o = 0; o < out; ++o) {
    int64_t start = o * s - pad;
    const int64_t end = std::min(start + (k - 1) * d + 1, in);
    while (start < 0) start += d;
    w.start.push_back(start), w.end.push_back(end);
  }
  return w;
}

// Average-pool windows; the divisor factor is the window's extent clipped to the padded
// input (count_include_pad) or to the input. divisor_override replaces the product: the
// h axis carries it, the w axis 1.
Windows avg_windows(int64_t in, int64_t out, int64_t k, int64_t s, int64_t pad, bool include_pad,
                    std::optional<int64_t> override_div, bool carries_override) {
  Windows w;
  for (int64_t o = 0; o < out; ++o) {
    int64_t start = o * s - pad, end = std::min(start + k, in + pad);
    const int64_t padded = end - start;
    start = std::max<int64_t>(start, 0), end = std::min(end, in);
    w.start.push_back(start), w.end.push_back(std::max(end, start));
    double div = include_pad ? padded : end - start;
    if (override_div) div = carries_override ? static_cast<double>(*override_div) : 1.0;
    w.div.push_back(end > start && div != 0 ? div : 1.0);  // an empty window averages to 0
  }
  return w;
}

Windows adaptive_windows(int64_t in, int64_t out) {
  Windows w;
  w.start.reserve(out), w.end.reserve(out), w.div.reserve(out);  // fails at once when out is absurd
  for (int64_t o = 0; o < out; ++o) {
    // In 128 bits: an expanded input's size times the output size may pass int64.
    using Wide = __int128;
    const int64_t start = static_cast<int64_t>(Wide(o) * in / out);
    const int64_t end = static_cast<int64_t>((Wide(o + 1) * in + out - 1) / out);
    w.start.push_back(start), w.end.push_back(end), w.div.push_back(static_cast<double>(end - start));
  }
  return w;
}

void check_real(const Tensor& t, const char* op) {
  TZ_CHECK(!is_complex(t.dtype()) && t.dtype() != DType::Bool, Runtime, op, "(): \"", op,
           "\" not implemented for '", scalar_type_name(t.dtype()), "'");
}
void check_floating(const Tensor& t, const char* op) {
  TZ_CHECK(is_floating(t.dtype()), Runtime, op, "(): \"", op, "\" not implemented for '",
           scalar_type_name(t.dtype()), "'");
}

std::tuple<Tensor, Tensor> run_max(const Spatial& s, const Windows& h, const Windows& w, int64_t oH, int64_t oW,
                                   bool want_idx) {
  const DType cd = s.data.dtype();
  Tensor out = s.empty(oH, oW, cd);
  Tensor idx = want_idx ? s.empty(oH, oW, DType::Int64) : Tensor();
  if (out.numel() > 0)
    max_pool_stub(cd, s.data.raw_data(), out.raw_data(), want_idx ? idx.data<int64_t>() : nullptr, s.geom(oH, oW),
                  h.view(), w.view());
  return {s.finish(out), idx};
}

std::tuple<Tensor, Tensor> max_pool2d_impl(const Tensor& self, const IntList& kernel, const IntList& stride,
                                           const IntList& padding, const IntList& dilation, bool ceil_mode,
                                           bool want_idx, const char* op) {
  nn::check_spatial_input(self, op);
  check_real(self, op);
  const int64_t o = self.dim() - 3;
  const Pool2d p = pool_params(op, self.sizes()[o + 1], self.sizes()[o + 2], self.sizes()[o], kernel, stride,
                               padding, dilation, ceil_mode);
  const Spatial s = nn::spatial_of(self, compute_dtype(self.dtype()));
  return run_max(s, max_windows(s.H, p.oH, p.kH, p.sH, p.pH, p.dH), max_windows(s.W, p.oW, p.kW, p.sW, p.pW, p.dW),
                 p.oH, p.oW, want_idx);
}

// A 1-d argument as the w half of a 2-d one (h gets `h_value`).
IntList lift(const IntList& v, int64_t h_value) {
  if (v.empty()) return {};
  TZ_CHECK(v.size() == 1, Runtime, "max_pool1d: kernel_size, stride, padding and dilation must be single ints");
  return {h_value, v[0]};
}

// The (N, C, 1, L) view of a 1-d pooling input, after the 1-d shape check.
Tensor as_2d(const Tensor& self, const char* op) {
  TZ_CHECK(self.dim() == 2 || self.dim() == 3, Runtime, op, "(): Expected 2D or 3D (batch mode) tensor with "
           "optional 0 dim batch size for input, but got: ", shape_str(self.sizes()));
  return unsqueeze(self, -2);
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, const IntList& kernel, const IntList& stride,
                                                   const IntList& padding, const IntList& dilation, bool ceil_mode) {
  return max_pool2d_impl(self, kernel, stride, padding, dilation, ceil_mode, true, "max_pool2d");
}

Tensor max_pool2d(const Tensor& self, const IntList& kernel, const IntList& stride, const IntList& padding,
                  const IntList& dilation, bool ceil_mode) {
  return std::get<0>(max_pool2d_impl(self, kernel, stride, padding, dilation, ceil_mode, false, "max_pool2d"));
}

std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, const IntList& kernel, const IntList& stride,
                                                   const IntList& padding, const IntList& dilation, bool ceil_mode) {
  auto [v, i] = max_pool2d_impl(as_2d(self, "max_pool1d"), lift(kernel, 1), lift(stride, 1), lift(padding, 0),
                                lift(dilation, 1), ceil_mode, true, "max_pool1d");
  return {squeeze(v, -2), squeeze(i, -2)};
}

Tensor avg_pool2d(const Tensor& self, const IntList& kernel, const IntList& stride, const IntList& padding,
                  bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  const char* op = "avg_pool2d";
  nn::check_spatial_input(self, op);
  TZ_CHECK(is_floating(self.dtype()) || self.dtype() == DType::Int64, Runtime, op, "(): \"", op,
           "\" not implemented for '", scalar_type_name(self.dtype()), "'");
  TZ_CHECK(!divisor_override || *divisor_override != 0, Runtime, op, "(): divisor must be not zero");
  const int64_t o = self.dim() - 3;
  const Pool2d p = pool_params(op, self.sizes()[o + 1], self.sizes()[o + 2], self.sizes()[o], kernel, stride,
                               padding, {1}, ceil_mode);
  const Spatial s = nn::spatial_of(self, compute_dtype(self.dtype()));
  const Windows h = avg_windows(s.H, p.oH, p.kH, p.sH, p.pH, count_include_pad, divisor_override, true);
  const Windows w = avg_windows(s.W, p.oW, p.kW, p.sW, p.pW, count_include_pad, divisor_override, false);
  Tensor out = s.empty(p.oH, p.oW, s.data.dtype());
  if (out.numel() > 0) avg_pool_stub(s.data.dtype(), s.data.raw_data(), out.raw_data(), s.geom(p.oH, p.oW), h.view(), w.view());
  return s.finish(out);
}

namespace {

// The zeroed input-gradient block for `grad` (laid out like it) of an input of input_size.
struct GradBlock {
  Spatial g;   // grad_output as a block
  Tensor gin;  // zeros, compute dtype, grad's layout
};

GradBlock grad_block(const Tensor& grad, const IntList& input_size, int64_t oH, int64_t oW, const char* op) {
  const int64_t nd = static_cast<int64_t>(input_size.size());
  TZ_CHECK(nd == 3 || nd == 4, Runtime, op, "(): input_size must have 3 or 4 elements");
  Shape expect(input_size.begin(), input_size.end());
  expect[nd - 2] = oH, expect[nd - 1] = oW;
  TZ_CHECK(grad.sizes() == expect, Runtime, op, "(): expected grad_output of size ", shape_str(expect), ", but got ",
           shape_str(grad.sizes()));
  GradBlock b;
  b.g = nn::spatial_of(grad, compute_dtype(grad.dtype()));
  b.g.H = input_size[nd - 2], b.g.W = input_size[nd - 1];
  b.gin = b.g.zeros(b.g.H, b.g.W, b.g.data.dtype());
  return b;
}

// The geometry of a backward kernel: the block is the input gradient, o* the output's.
PoolGeom backward_geom(const Spatial& g, int64_t oH, int64_t oW) { return g.geom(oH, oW); }

}  // namespace

Tensor avg_pool2d_backward(const Tensor& grad, const IntList& input_size, const IntList& kernel, const IntList& stride,
                           const IntList& padding, bool ceil_mode, bool count_include_pad,
                           std::optional<int64_t> divisor_override) {
  const char* op = "avg_pool2d_backward";
  const int64_t nd = static_cast<int64_t>(input_size.size());
  TZ_CHECK(nd == 3 || nd == 4, Runtime, op, "(): input_size must have 3 or 4 elements");
  const Pool2d p = pool_params(op, input_size[nd - 2], input_size[nd - 1], input_size[nd - 3], kernel, stride,
                               padding, {1}, ceil_mode);
  GradBlock b = grad_block(grad, input_size, p.oH, p.oW, op);
  const Windows h = avg_windows(b.g.H, p.oH, p.kH, p.sH, p.pH, count_include_pad, divisor_override, true);
  const Windows w = avg_windows(b.g.W, p.oW, p.kW, p.sW, p.pW, count_include_pad, divisor_override, false);
  if (grad.numel() > 0)
    avg_pool_backward_stub(b.gin.dtype(), b.g.data.raw_data(), b.gin.raw_data(), backward_geom(b.g, p.oH, p.oW),
                           h.view(), w.view());
  return b.g.finish(b.gin);
}

namespace {
std::pair<int64_t, int64_t> adaptive_size(const Tensor& self, const IntList& output_size, const char* op) {
  TZ_CHECK(output_size.size() == 2 || output_size.size() == 1, Runtime, op, "(): output_size must be 2");
  const int64_t nd = self.dim();
  TZ_CHECK(nd == 3 || nd == 4, Runtime, op, "(): Expected 3D or 4D tensor, but got ", shape_str(self.sizes()));
  for (int64_t d = nd - 3; d < nd; ++d)
    TZ_CHECK(self.sizes()[d] > 0, Runtime, op, "(): Expected input to have non-zero size for non-batch dimensions, "
             "but input has sizes ", shape_str(self.sizes()), " with dimension ", d, " being empty");
  const int64_t oH = pick(output_size, 0), oW = pick(output_size, 1);
  TZ_CHECK(oH >= 0 && oW >= 0, Runtime, op, "(): elements of output_size must be greater than or equal to 0 but "
           "received {", oH, ", ", oW, "}");
  Shape out_shape(self.sizes().begin(), self.sizes().end() - 2);
  out_shape.insert(out_shape.end(), {oH, oW});
  strided_extent(out_shape, contiguous_strides(out_shape), op);  // the output's size must fit in int64
  return {oH, oW};
}
}  // namespace

Tensor adaptive_avg_pool2d(const Tensor& self, const IntList& output_size) {
  const char* op = "adaptive_avg_pool2d";
  auto [oH, oW] = adaptive_size(self, output_size, op);
  check_floating(self, op);
  const Spatial s = nn::spatial_of(self, compute_dtype(self.dtype()));
  Tensor out = s.empty(oH, oW, s.data.dtype());
  if (out.numel() > 0)
    avg_pool_stub(s.data.dtype(), s.data.raw_data(), out.raw_data(), s.geom(oH, oW),
                  adaptive_windows(s.H, oH).view(), adaptive_windows(s.W, oW).view());
  return s.finish(out);
}

Tensor adaptive_avg_pool2d_backward(const Tensor& grad, const IntList& input_size) {
  const int64_t nd = grad.dim();
  TZ_CHECK(nd == 3 || nd == 4, Runtime, "adaptive_avg_pool2d_backward(): expected a 3-d or 4-d grad_output");
  const int64_t oH = grad.sizes()[nd - 2], oW = grad.sizes()[nd - 1];
  GradBlock b = grad_block(grad, input_size, oH, oW, "adaptive_avg_pool2d_backward");
  if (grad.numel() > 0)
    avg_pool_backward_stub(b.gin.dtype(), b.g.data.raw_data(), b.gin.raw_data(), backward_geom(b.g, oH, oW),
                           adaptive_windows(b.g.H, oH).view(), adaptive_windows(b.g.W, oW).view());
  return b.g.finish(b.gin);
}

std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, const IntList& output_size) {
  const char* op = "adaptive_max_pool2d";
  auto [oH, oW] = adaptive_size(self, output_size, op);
  check_floating(self, op);
  const Spatial s = nn::spatial_of(self, compute_dtype(self.dtype()));
  return run_max(s, adaptive_windows(s.H, oH), adaptive_windows(s.W, oW), oH, oW, true);
}

namespace {

// out (zeros, layout of src) at plane position idx <- (or +=) src; planes are (n, c).
template <typename T>
void scatter_planes(const Spatial& s, const Tensor& idx, const Tensor& out, int64_t HW, bool accumulate) {
  const T* src = s.data.data<T>();
  const int64_t* ix = idx.data<int64_t>();
  T* dst = out.data<T>();
  const int64_t oHW = s.H * s.W;  // the source's plane size
  if (!s.channels_last) {
    parallel_for(0, s.N * s.C, std::max<int64_t>(1, 4096 / std::max<int64_t>(oHW, 1)), [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) {
        const T* sp = src + p * oHW;
        const int64_t* ip = ix + p * oHW;
        T* dp = dst + p * HW;
        for (int64_t j = 0; j < oHW; ++j) accumulate ? (void)(dp[ip[j]] += sp[j]) : (void)(dp[ip[j]] = sp[j]);
      }
    });
    return;
  }
  const int64_t C = s.C;
  parallel_for(0, s.N, 1, [&](int64_t b, int64_t e) {
    for (int64_t n = b; n < e; ++n)
      for (int64_t j = 0; j < oHW; ++j) {
        const T* sp = src + (n * oHW + j) * C;
        const int64_t* ip = ix + (n * oHW + j) * C;
        T* dn = dst + n * HW * C;
        for (int64_t c = 0; c < C; ++c) {
          T& d = dn[ip[c] * C + c];
          d = accumulate ? d + sp[c] : sp[c];
        }
      }
  });
}

Tensor scatter_into(const Tensor& self, const Tensor& indices, int64_t H, int64_t W, bool accumulate, const char* op) {
  TZ_CHECK(indices.dtype() == DType::Int64, Runtime, op, "(): elements in indices should be type int64 but got: ",
           scalar_type_name(indices.dtype()));
  TZ_CHECK(self.sizes() == indices.sizes(), Runtime, op, "(): Expected shape of indices to be same as that of the "
           "input tensor (", shape_str(self.sizes()), ") but got indices tensor with shape: ",
           shape_str(indices.sizes()));
  check_floating(self, op);
  const Spatial s = nn::spatial_of(self, compute_dtype(self.dtype()));
  const Tensor idx = contiguous(indices, s.channels_last ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous);
  const int64_t* ix = idx.data<int64_t>();
  const int64_t n = idx.numel(), HW = H * W;
  for (int64_t i = 0; i < n; ++i)
    TZ_CHECK(ix[i] >= 0 && ix[i] < HW, Runtime, op, "(): Found an invalid max index: ", ix[i],
             " (output volumes are of size ", H, "x", W, ")");
  Tensor out = s.zeros(H, W, s.data.dtype());
  if (n == 0) return s.finish(out);
  if (s.data.dtype() == DType::Float32) scatter_planes<float>(s, idx, out, HW, accumulate);
  else scatter_planes<double>(s, idx, out, HW, accumulate);
  return s.finish(out);
}

}  // namespace

Tensor max_unpool2d(const Tensor& self, const Tensor& indices, const IntList& output_size) {
  const char* op = "max_unpool2d";
  TZ_CHECK(output_size.size() == 2, Runtime, op, "(): There should be exactly two elements (height, width) in "
           "output_size, but got ", output_size.size(), " elements.");
  TZ_CHECK(self.dim() == 3 || self.dim() == 4, Runtime, op, "(): Input to max_unpooling2d should be a 3d or 4d "
           "Tensor, but got a tensor with ", self.dim(), " dimensions.");
  return scatter_into(self, indices, output_size[0], output_size[1], false, op);
}

Tensor max_pool_backward(const Tensor& grad, const Tensor& indices, const IntList& input_size) {
  const int64_t nd = static_cast<int64_t>(input_size.size());
  return scatter_into(grad, indices, input_size[nd - 2], input_size[nd - 1], true, "max_pool2d_backward");
}

}  // namespace tz
