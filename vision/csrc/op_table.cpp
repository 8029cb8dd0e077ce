// vision's entries in the core op table: torchvision's C++ ops with their derivative formulas.
// They are kInternal (not in core's namespace); vision.ops binds them with core._C._op.
// The backward kernels of roi_align, ps_roi_align and ps_roi_pool are linear in the gradient
// with the forward op as their adjoint, which gives double backward; roi_pool and
// deform_conv2d differentiate once.
#include "ops.h"
#include "ops/op_table_util.h"

namespace tz {
namespace {

using namespace op_table;
using grad::op;

// The [N, C, H, W] size of the forward's input, as the backward kernels' trailing arguments.
Stack input_dims(const BackwardContext& c) {
  const Shape& s = c.input_sizes("input");
  return {s[0], s[1], s[2], s[3]};
}

Stack concat(Stack a, const Stack& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The gradient, the saved rois and the named arguments, in that order.
Stack grad_rois_and(const BackwardContext& c, std::initializer_list<const char*> names) {
  Stack args{c.grad(), c.input("rois")};
  for (const char* name : names) args.push_back(c.arg(name));
  return args;
}

vision::DeformConvParams deform_params(const Stack& a) {
  return {a[5].to_int(), a[6].to_int(), a[7].to_int(), a[8].to_int(), a[9].to_int(), a[10].to_int(),
          a[11].to_int(), a[12].to_int()};
}

Value maybe(const Tensor& t) { return t.defined() ? Value(t) : Value(); }

const OpDef kVisionOps[] = {
    {"nms(Tensor boxes, Tensor scores, float iou_threshold) -> Tensor", kInternal, N::Unsupported,
     OP { return vision::nms(a[0].tensor(), a[1].tensor(), a[2].to_double()); }, "", "", &not_differentiable},

    {"roi_align(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, int sampling_ratio, bool aligned) -> Tensor",
     kInternal, N::Unsupported,
     OP { return vision::roi_align(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_int(), a[4].to_int(), a[5].to_int(), a[6].to_bool()); },
     "", "rois", GRAD {
       Stack args = concat(grad_rois_and(c, {"spatial_scale", "pooled_height", "pooled_width"}), input_dims(c));
       return {op(TZ_OP("_roi_align_backward"), concat(args, {c.arg("sampling_ratio"), c.arg("aligned")}))};
     }},
    {"_roi_align_backward(Tensor grad, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, int batch_size, int channels, int height, int width, int sampling_ratio, bool aligned) -> Tensor",
     kInternal, N::Unsupported,
     OP { return vision::roi_align_backward(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_int(), a[4].to_int(), a[5].to_int(), a[6].to_int(), a[7].to_int(), a[8].to_int(), a[9].to_int(), a[10].to_bool()); },
     "", "rois", GRAD {
       return {op(TZ_OP("roi_align"), grad_rois_and(c, {"spatial_scale", "pooled_height", "pooled_width", "sampling_ratio", "aligned"}))};
     }},

    {"roi_pool(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width) -> (Tensor, Tensor)",
     kInternal, N::Unsupported,
     OP {
       auto [out, argmax] = vision::roi_pool(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_int(), a[4].to_int());
       return Value::Tuple{out, argmax};
     },
     "", "rois result", GRAD {
       return {op(TZ_OP("_roi_pool_backward"), concat({c.grad(0), c.input("rois"), c.result(1)}, input_dims(c)))};
     }, false},
    {"_roi_pool_backward(Tensor grad, Tensor rois, Tensor argmax, int batch_size, int channels, int height, int width) -> Tensor",
     kInternal, N::Unsupported,
     OP { return vision::roi_pool_backward(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_int(), a[4].to_int(), a[5].to_int(), a[6].to_int()); },
     ""},

    {"ps_roi_align(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, int sampling_ratio) -> Tensor",
     kInternal, N::Unsupported,
     OP { return vision::ps_roi_align(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_int(), a[4].to_int(), a[5].to_int()); },
     "", "rois", GRAD {
       Stack args = grad_rois_and(c, {"spatial_scale", "pooled_height", "pooled_width", "sampling_ratio"});
       return {op(TZ_OP("_ps_roi_align_backward"), concat(args, input_dims(c)))};
     }},
    {"_ps_roi_align_backward(Tensor grad, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, int sampling_ratio, int batch_size, int channels, int height, int width) -> Tensor",
     kInternal, N::Unsupported,
     OP { return vision::ps_roi_align_backward(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_int(), a[4].to_int(), a[5].to_int(), a[6].to_int(), a[7].to_int(), a[8].to_int(), a[9].to_int()); },
     "", "rois", GRAD {
       return {op(TZ_OP("ps_roi_align"), grad_rois_and(c, {"spatial_scale", "pooled_height", "pooled_width", "sampling_ratio"}))};
     }},

    {"ps_roi_pool(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width) -> Tensor",
     kInternal, N::Unsupported,
     OP { return vision::ps_roi_pool(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_int(), a[4].to_int()); },
     "", "rois", GRAD {
       Stack args = grad_rois_and(c, {"spatial_scale", "pooled_height", "pooled_width"});
       return {op(TZ_OP("_ps_roi_pool_backward"), concat(args, input_dims(c)))};
     }},
    {"_ps_roi_pool_backward(Tensor grad, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, int batch_size, int channels, int height, int width) -> Tensor",
     kInternal, N::Unsupported,
     OP { return vision::ps_roi_pool_backward(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_int(), a[4].to_int(), a[5].to_int(), a[6].to_int(), a[7].to_int(), a[8].to_int()); },
     "", "rois", GRAD {
       return {op(TZ_OP("ps_roi_pool"), grad_rois_and(c, {"spatial_scale", "pooled_height", "pooled_width"}))};
     }},

    {"deform_conv2d(Tensor input, Tensor weight, Tensor offset, Tensor? mask, Tensor? bias, int stride_h, int stride_w, int pad_h, int pad_w, int dilation_h, int dilation_w, int groups, int offset_groups) -> Tensor",
     kInternal, N::Unsupported,
     OP { return vision::deform_conv2d(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].opt_tensor(), a[4].opt_tensor(), deform_params(a)); },
     "", "input weight offset mask bias", GRAD {
       Stack args = concat({c.grad()}, c.args);  // the backward op takes the forward's arguments
       Value r = F::call(TZ_OP("_deform_conv2d_backward"), args);
       TensorList out;
       for (const Value& v : r.tuple()) out.push_back(v.opt_tensor());
       return out;
     }, false},
    {"_deform_conv2d_backward(Tensor grad, Tensor input, Tensor weight, Tensor offset, Tensor? mask, Tensor? bias, int stride_h, int stride_w, int pad_h, int pad_w, int dilation_h, int dilation_w, int groups, int offset_groups) -> (Tensor, Tensor, Tensor, Tensor, Tensor)",
     kInternal, N::Unsupported,
     OP {
       Stack rest(a.begin() + 1, a.end());
       auto [gi, gw, go, gm, gb] = vision::deform_conv2d_backward(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].tensor(),
                                                                 a[4].opt_tensor(), a[5].opt_tensor(), deform_params(rest));
       return Value::Tuple{gi, gw, go, maybe(gm), maybe(gb)};
     }, ""},
};

const OpTableRegistrar registrar(kVisionOps);

}  // namespace
}  // namespace tz
