#include "ops/conv_grad.h"

#include "autograd/functions.h"

namespace tz::grad {
namespace {

// The output_padding that makes a transposed convolution of `small` (a regular
// convolution's output) come back at the spatial size of `big` (its input).
IntList output_padding_for(const Shape& big, const Shape& small, const Shape& weight, const IntList& stride,
                           const IntList& padding, const IntList& dilation) {
  const size_t k = weight.size() - 2;
  IntList op(k);
  for (size_t i = 0; i < k; ++i) {
    const int64_t in = big[big.size() - k + i], out = small[small.size() - k + i];
    op[i] = in - ((out - 1) * stride[i] - 2 * padding[i] + dilation[i] * (weight[i + 2] - 1) + 1);
  }
  return op;
}

// The regular convolution of x by w, or its transpose (the data gradient of one of size `like`).
Tensor conv(const Tensor& x, const Tensor& w, const IntList& stride, const IntList& padding, const IntList& dilation,
            int64_t groups) {
  return F::tensor_call(TZ_OP("_convolution"), {x, w, Value(), stride, padding, dilation, false,
                                                IntList(stride.size(), 0), groups});
}
Tensor conv_t(const Tensor& gy, const Tensor& w, const Shape& like, const IntList& stride, const IntList& padding,
              const IntList& dilation, int64_t groups) {
  const IntList op = output_padding_for(like, gy.sizes(), w.sizes(), stride, padding, dilation);
  return F::tensor_call(TZ_OP("_convolution"), {gy, w, Value(), stride, padding, dilation, true, op, groups});
}
Tensor weight_grad(const Tensor& x, const Tensor& gy, const Shape& weight, const IntList& stride,
                   const IntList& padding, const IntList& dilation, int64_t groups) {
  return F::tensor_call(TZ_OP("_conv_backward_weight"),
                        {x, gy, IntList(weight.begin(), weight.end()), stride, padding, dilation, groups});
}

// With output_padding >= stride (allowed below the dilation) a regular convolution of a
// transposed one's output reaches past the positions that had an effect: crop them.
Tensor crop(Tensor g, const Shape& like) {
  for (int64_t d = 0; d < g.dim(); ++d)
    if (g.size(d) > like[d]) g = F::tensor_call(TZ_OP("narrow"), {g, d, int64_t(0), like[d]});
  return g;
}

}  // namespace

TensorList convolution(BackwardContext& c, bool transposed, int stride_arg, int padding_arg, int dilation_arg,
                       int output_padding_arg, int groups_arg) {
  (void)output_padding_arg;  // the input gradient's size is the input's: no output_padding needed
  const Tensor& gy = c.grad();
  const IntList& stride = c.arg("stride").int_list();
  const IntList& padding = c.arg("padding").int_list();
  const IntList& dilation = c.arg("dilation").int_list();
  const int64_t groups = c.arg("groups").to_int();
  const Shape& wsize = c.input_sizes("weight");
  TensorList out(3);
  if (c.needs_grad("input")) {
    if (transposed) {
      out[0] = crop(conv(gy, c.input("weight"), stride, padding, dilation, groups), c.input_sizes("input"));
    } else {
      out[0] = conv_t(gy, c.input("weight"), c.input_sizes("input"), stride, padding, dilation, groups);
    }
  }
  if (c.needs_grad("weight")) {
    out[1] = transposed ? weight_grad(gy, c.input("input"), wsize, stride, padding, dilation, groups)
                        : weight_grad(c.input("input"), gy, wsize, stride, padding, dilation, groups);
  }
  if (c.needs_grad("bias")) {
    const int64_t channel_dim = gy.dim() - int64_t(wsize.size()) + 1;  // 0 when unbatched
    IntList dims;
    for (int64_t d = 0; d < gy.dim(); ++d)
      if (d != channel_dim) dims.push_back(d);
    out[2] = F::tensor_call(TZ_OP("sum"), {gy, dims});
  }
  return out;
}

TensorList conv_backward_weight(BackwardContext& c) {
  const Tensor& ggw = c.grad();
  const IntList& stride = c.arg("stride").int_list();
  const IntList& padding = c.arg("padding").int_list();
  const IntList& dilation = c.arg("dilation").int_list();
  const int64_t groups = c.arg("groups").to_int();
  TensorList out(2);
  if (c.needs_grad("input")) out[0] = conv_t(c.input("grad_output"), ggw, c.input_sizes("input"), stride, padding, dilation, groups);
  if (c.needs_grad("grad_output")) out[1] = crop(conv(c.input("input"), ggw, stride, padding, dilation, groups), c.input_sizes("grad_output"));
  return out;
}

}  // namespace tz::grad
