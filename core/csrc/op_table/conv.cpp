// The convolution family's op-table entries: conv1d/conv2d/conv_transpose1d/conv_transpose2d
// (exported at top level like torch's), _convolution and _conv_backward_weight (the ops
// their derivatives are made of, so double backward works), and F.unfold / F.fold's
// _im2col / _col2im.
#include "ops/conv.h"
#include "ops/conv_inverted_residual.h"
#include "ops/conv_tile.h"
#include "ops/conv_winograd.h"
#include "derivatives/conv.h"
#include "op_table/util.h"

namespace tz {
namespace {

using namespace op_table;

Value conv_op(Stack& a, const char* name) {
  return convolution(a[0].tensor(), a[1].tensor(), a[2].opt_tensor(), a[3].int_list(), a[4].int_list(),
                     a[5].int_list(), false, {}, a[6].to_int(), name);
}
Value conv_transpose_op(Stack& a, const char* name) {
  return convolution(a[0].tensor(), a[1].tensor(), a[2].opt_tensor(), a[3].int_list(), a[4].int_list(),
                     a[7].int_list(), true, a[5].int_list(), a[6].to_int(), name);
}
TensorList conv_grad(BackwardContext& c) { return grad::convolution(c, false, 3, 4, 5, -1, 6); }
TensorList conv_transpose_grad(BackwardContext& c) { return grad::convolution(c, true, 3, 4, 7, 5, 6); }
TensorList convolution_grad(BackwardContext& c) {
  return grad::convolution(c, c.arg("transposed").to_bool(), 3, 4, 5, 7, 8);
}

// Inference only (core.jit's compiled programs, fused eval blocks): conv2d + bias, then an
// optional residual and activation applied block by block inside the kernels; on a weight
// transformed for Winograd once, when given. No derivative.
Value conv_fused_op(Stack& a) {
  const ConvInference inference{conv_act_from_name(a[7].str(), "_conv2d_fused"), a[8].opt_tensor(),
                                a[9].opt_tensor()};
  return convolution(a[0].tensor(), a[1].tensor(), a[2].opt_tensor(), a[3].int_list(), a[4].int_list(),
                     a[5].int_list(), false, {}, a[6].to_int(), "_conv2d_fused", &inference);
}

Value inverted_residual_op(Stack& a) {
  const char* op = "_conv2d_inverted_residual";
  InvertedResidual block;
  block.expand_weight = a[1].opt_tensor(), block.expand_bias = a[2].opt_tensor();
  block.expanded_channels = a[3].to_int(), block.expand_act = conv_act_from_name(a[4].str(), op);
  block.dw_weight = a[5].tensor(), block.dw_bias = a[6].opt_tensor();
  block.stride = a[7].int_list(), block.padding = a[8].int_list(), block.dilation = a[9].int_list();
  block.act = conv_act_from_name(a[10].str(), op);
  block.project_weight = a[11].opt_tensor(), block.project_bias = a[12].opt_tensor();
  block.out_channels = a[13].to_int(), block.residual = a[14].opt_tensor();
  SqueezeExcitation& se = block.excitation;
  se.fc1_weight = a[15].opt_tensor(), se.fc1_bias = a[16].opt_tensor(), se.squeeze_channels = a[17].to_int();
  se.fc1_act = conv_act_from_name(a[18].str(), op);
  se.fc2_weight = a[19].opt_tensor(), se.fc2_bias = a[20].opt_tensor();
  se.scale_act = conv_act_from_name(a[21].str(), op);
  return conv2d_inverted_residual(a[0].tensor(), block);
}

const OpDef kConvOps[] = {
    {"conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] dilation=1, int groups=1) -> Tensor",
     kFunction, N::Custom, OP { return conv_op(a, "conv1d"); }, "conv1d", "input weight", &conv_grad},
    {"conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor",
     kFunction, N::Custom, OP { return conv_op(a, "conv2d"); }, "conv2d", "input weight", &conv_grad},
    {"conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] output_padding=0, int groups=1, int[1] dilation=1) -> Tensor",
     kFunction, N::Custom, OP { return conv_transpose_op(a, "conv_transpose1d"); }, "conv_transpose1d",
     "input weight", &conv_transpose_grad},
    {"conv_transpose2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor",
     kFunction, N::Custom, OP { return conv_transpose_op(a, "conv_transpose2d"); }, "conv_transpose2d",
     "input weight", &conv_transpose_grad},
    {"_conv2d_fused(Tensor input, Tensor weight, Tensor? bias, int[2] stride, int[2] padding, int[2] dilation, int groups, str activation, Tensor? residual, Tensor? winograd_weight=None) -> Tensor",
     kInternal, N::Keep, OP { return conv_fused_op(a); }, ""},
    {"_conv_winograd_pack(Tensor weight) -> Tensor", kInternal, N::Keep,
     OP { return conv_winograd_pack(a[0].tensor()); }, ""},
    {"_conv_winograd_pays(Tensor input, Tensor weight, int[2] stride, int[2] padding, int[2] dilation, int groups) -> bool",
     kInternal, N::None,
     OP {
       return conv_winograd_pays(a[0].tensor(), a[1].tensor(), a[2].int_list(), a[3].int_list(), a[4].int_list(),
                                 a[5].to_int());
     }, ""},
    // The same on a weight the compiler packed once for the tile kernel (groups == 1).
    {"_conv_tile_pack(Tensor weight) -> Tensor", kInternal, N::Keep, OP { return conv_tile_pack(a[0].tensor()); }, ""},
    {"_conv2d_prepacked(Tensor input, Tensor packed_weight, Tensor? bias, int out_channels, int[2] stride, int[2] padding, int[2] dilation, str activation, Tensor? residual) -> Tensor",
     kInternal, N::Keep,
     OP {
       return conv2d_prepacked(a[0].tensor(), a[1].tensor(), a[2].opt_tensor(), a[3].to_int(), a[4].int_list(),
                               a[5].int_list(), a[6].int_list(), conv_act_from_name(a[7].str(), "_conv2d_prepacked"),
                               a[8].opt_tensor());
     }, ""},
    // An inverted-residual block's depthwise convolution with its 1x1 expansion before it and
    // projection (+ residual) after it, each optional, band by band with the rows in cache; and
    // a squeeze-excitation before the projection, image by image.
    {"_conv2d_inverted_residual(Tensor input, Tensor? expand_weight, Tensor? expand_bias, int expanded_channels, str expand_activation, Tensor depthwise_weight, Tensor? depthwise_bias, int[2] stride, int[2] padding, int[2] dilation, str activation, Tensor? project_weight, Tensor? project_bias, int out_channels, Tensor? residual, Tensor? excite_fc1_weight=None, Tensor? excite_fc1_bias=None, int squeeze_channels=0, str excite_fc1_activation='none', Tensor? excite_fc2_weight=None, Tensor? excite_fc2_bias=None, str excite_scale_activation='none') -> Tensor",
     kInternal, N::Keep, OP { return inverted_residual_op(a); }, ""},
    // The derivatives' building blocks: a convolution or its transpose, and the weight gradient.
    {"_convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor",
     kInternal, N::Keep,
     OP {
       return convolution(a[0].tensor(), a[1].tensor(), a[2].opt_tensor(), a[3].int_list(), a[4].int_list(),
                          a[5].int_list(), a[6].to_bool(), a[7].int_list(), a[8].to_int(), "_convolution");
     }, "", "input weight", &convolution_grad},
    {"_conv_backward_weight(Tensor input, Tensor grad_output, int[] weight_size, int[] stride, int[] padding, int[] dilation, int groups) -> Tensor",
     kInternal, N::None,
     OP {
       return conv_backward_weight(a[0].tensor(), a[1].tensor(), a[2].int_list(), a[3].int_list(), a[4].int_list(),
                                   a[5].int_list(), a[6].to_int());
     }, "", "input grad_output", &grad::conv_backward_weight},
    // F.unfold / F.fold: adjoint linear maps, each the other's derivative.
    {"_im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor",
     kFunction, N::Custom,
     OP { return im2col(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].int_list()); },
     "im2col", "", GRAD {
       const Shape& in = c.input_sizes("self");
       return {F::tensor_call(TZ_OP("_col2im"), {c.grad(), IntList{in[in.size() - 2], in[in.size() - 1]},
                                                 c.arg("kernel_size"), c.arg("dilation"), c.arg("padding"), c.arg("stride")})};
     }},
    {"_col2im(Tensor self, int[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor",
     kFunction, N::Custom,
     OP {
       return col2im(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].int_list(),
                     a[5].int_list());
     },
     "col2im", "", GRAD {
       return {F::tensor_call(TZ_OP("_im2col"), {c.grad(), c.arg("kernel_size"), c.arg("dilation"), c.arg("padding"), c.arg("stride")})};
     }},
};

}  // namespace

OpTableRef op_table::conv_ops() { return kConvOps; }

}  // namespace tz
