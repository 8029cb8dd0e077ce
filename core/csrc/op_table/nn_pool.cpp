// Op-table entries of the nn-pool family: pooling, resampling, pixel shuffles and the
// sparse layers' ops (front-ends in ops/nn_pool.h, derivatives in ops/nn_pool_grad.h).
// Backward kernels are kInternal entries with derivatives of their own (double backward).
#include "ops/nn_pool.h"
#include "derivatives/nn_pool.h"
#include "op_table/util.h"
#include "ops/views.h"

namespace tz {
namespace {

using namespace op_table;

Value pair(std::tuple<Tensor, Tensor> r) { return Value::Tuple{std::get<0>(r), std::get<1>(r)}; }

// The 1-d pooling ops run the 2-d front-ends on an (N, C, 1, L) view.
Tensor as_2d(const Tensor& t, const char* op) {
  TZ_CHECK(t.dim() == 2 || t.dim() == 3, Runtime, op, "(): Expected 2D or 3D (batch mode) tensor with optional 0 "
           "dim batch size for input, but got: ", shape_str(t.sizes()));
  return unsqueeze(t, -2);
}
IntList lift(const IntList& v, int64_t h) {
  if (v.empty()) return {};
  return {h, v[0]};
}

Tensor avg_pool1d(const Tensor& self, const IntList& k, const IntList& s, const IntList& p, bool ceil, bool include) {
  return squeeze(avg_pool2d(as_2d(self, "avg_pool1d"), lift(k, 1), lift(s, 1), lift(p, 0), ceil, include, std::nullopt), -2);
}

Value adaptive_max_pool1d(const Tensor& self, const IntList& size) {
  TZ_CHECK(size.size() == 1, Runtime, "adaptive_max_pool1d(): 'output_size' should contain one int");
  auto [v, i] = adaptive_max_pool2d(as_2d(self, "adaptive_max_pool1d"), {1, size[0]});
  return Value::Tuple{squeeze(v, -2), squeeze(i, -2)};
}

Tensor adaptive_avg_pool1d(const Tensor& self, const IntList& size) {
  TZ_CHECK(size.size() == 1, Runtime, "adaptive_avg_pool1d(): 'output_size' should contain one int");
  return squeeze(adaptive_avg_pool2d(as_2d(self, "adaptive_avg_pool1d"), {1, size[0]}), -2);
}

const OpDef kNnPoolOps[] = {
    // ---------------------------------------------------------------- pooling
    {"max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
     kFunction, N::Keep,
     OP { return pair(max_pool2d_with_indices(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].int_list(), a[5].to_bool())); },
     "max_pool2d", "result", GRAD { return grad::max_pool_indices_backward(c, false); }},
    {"max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor",
     kFunction, N::Keep,
     OP { return max_pool2d(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].int_list(), a[5].to_bool()); },
     "max_pool2d", "self", GRAD { return grad::max_pool_recompute_backward(c, false); }},
    {"max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
     kFunction, N::Keep,
     OP { return pair(max_pool1d_with_indices(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].int_list(), a[5].to_bool())); },
     "max_pool1d", "result", GRAD { return grad::max_pool_indices_backward(c, true); }},
    {"max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> Tensor",
     kFunction, N::Keep,
     OP { return std::get<0>(max_pool1d_with_indices(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].int_list(), a[5].to_bool())); },
     "max_pool1d", "self", GRAD { return grad::max_pool_recompute_backward(c, true); }},
    {"_max_pool_backward(Tensor grad_output, Tensor indices, int[] input_size) -> Tensor", kInternal, N::Keep,
     OP { return max_pool_backward(a[0].tensor(), a[1].tensor(), a[2].int_list()); }, "",
     "indices", &grad::max_pool_backward_backward},
    {"max_unpool2d(Tensor self, Tensor indices, int[2] output_size) -> Tensor", kFunction, N::Keep,
     OP { return max_unpool2d(a[0].tensor(), a[1].tensor(), a[2].int_list()); }, "max_unpool2d",
     "indices", &grad::max_unpool2d_backward},
    {"avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
     kFunction, N::Keep,
     OP { return avg_pool2d(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].to_bool(), a[5].to_bool(), a[6].opt_int()); },
     "avg_pool2d", "", GRAD { return grad::avg_pool2d_backward(c, false); }},
    {"avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True) -> Tensor",
     kFunction, N::Keep,
     OP { return avg_pool1d(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].to_bool(), a[5].to_bool()); },
     "avg_pool1d", "", GRAD { return grad::avg_pool2d_backward(c, true); }},
    {"_avg_pool2d_backward(Tensor grad_output, int[] input_size, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
     kInternal, N::Keep,
     OP { return avg_pool2d_backward(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].int_list(), a[5].to_bool(), a[6].to_bool(), a[7].opt_int()); },
     "", "", &grad::avg_pool2d_backward_backward},
    {"adaptive_avg_pool2d(Tensor self, int[2] output_size) -> Tensor", kFunction, N::Keep,
     OP { return adaptive_avg_pool2d(a[0].tensor(), a[1].int_list()); }, "adaptive_pool2d",
     "", GRAD { return grad::adaptive_avg_pool2d_backward(c, false); }},
    {"adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", kFunction, N::Keep,
     OP { return adaptive_avg_pool1d(a[0].tensor(), a[1].int_list()); }, "adaptive_pool1d",
     "", GRAD { return grad::adaptive_avg_pool2d_backward(c, true); }},
    {"_adaptive_avg_pool2d_backward(Tensor grad_output, int[] input_size) -> Tensor", kInternal, N::Keep,
     OP { return adaptive_avg_pool2d_backward(a[0].tensor(), a[1].int_list()); }, "",
     "", &grad::adaptive_avg_pool2d_backward_backward},
    {"adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)", kFunction, N::Keep,
     OP { return pair(adaptive_max_pool2d(a[0].tensor(), a[1].int_list())); }, "adaptive_pool2d",
     "result", GRAD { return grad::max_pool_indices_backward(c, false); }},
    {"adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)", kFunction, N::Keep,
     OP { return adaptive_max_pool1d(a[0].tensor(), a[1].int_list()); }, "adaptive_pool1d",
     "result", GRAD { return grad::max_pool_indices_backward(c, true); }},

    // ---------------------------------------------------------------- upsampling
    {"upsample_nearest1d(Tensor self, int[1] output_size, float? scales=None) -> Tensor", kFunction, N::Keep,
     OP { return upsample(a[0].tensor(), a[1].int_list(), InterpMode::Nearest, false, a[2].opt_double(), std::nullopt, "upsample_nearest1d"); },
     "upsample1d", "", GRAD { return grad::upsample_backward(c, "nearest", nullptr, "scales", nullptr); }},
    {"upsample_nearest2d(Tensor self, int[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor", kFunction, N::Keep,
     OP { return upsample(a[0].tensor(), a[1].int_list(), InterpMode::Nearest, false, a[2].opt_double(), a[3].opt_double(), "upsample_nearest2d"); },
     "upsample2d", "", GRAD { return grad::upsample_backward(c, "nearest", nullptr, "scales_h", "scales_w"); }},
    {"upsample_linear1d(Tensor self, int[1] output_size, bool align_corners, float? scales=None) -> Tensor", kFunction, N::Keep,
     OP { return upsample(a[0].tensor(), a[1].int_list(), InterpMode::Linear, a[2].to_bool(), a[3].opt_double(), std::nullopt, "upsample_linear1d"); },
     "upsample1d_align", "", GRAD { return grad::upsample_backward(c, "linear", "align_corners", "scales", nullptr); }},
    {"upsample_bilinear2d(Tensor self, int[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", kFunction, N::Keep,
     OP { return upsample(a[0].tensor(), a[1].int_list(), InterpMode::Linear, a[2].to_bool(), a[3].opt_double(), a[4].opt_double(), "upsample_bilinear2d"); },
     "upsample2d_align", "", GRAD { return grad::upsample_backward(c, "linear", "align_corners", "scales_h", "scales_w"); }},
    {"upsample_bicubic2d(Tensor self, int[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", kFunction, N::Keep,
     OP { return upsample(a[0].tensor(), a[1].int_list(), InterpMode::Cubic, a[2].to_bool(), a[3].opt_double(), a[4].opt_double(), "upsample_bicubic2d"); },
     "upsample2d_align", "", GRAD { return grad::upsample_backward(c, "cubic", "align_corners", "scales_h", "scales_w"); }},
    // Generic forms: the backward kernel and the forward it differentiates to (1-d ops pass
    // their one scale as scales_h).
    {"_upsample(Tensor self, int[] output_size, str mode, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", kInternal, N::Keep,
     OP { return upsample(a[0].tensor(), a[1].int_list(), interp_mode(a[2].str()), a[3].to_bool(), a[4].opt_double(), a[5].opt_double(), "upsample"); },
     "", "", GRAD { return grad::upsample_backward(c, c.arg("mode").str().c_str(), "align_corners", "scales_h", "scales_w"); }},
    {"_upsample_backward(Tensor grad_output, int[] input_size, str mode, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", kInternal, N::Keep,
     OP { return upsample_backward(a[0].tensor(), a[1].int_list(), interp_mode(a[2].str()), a[3].to_bool(), a[4].opt_double(), a[5].opt_double()); },
     "", "", &grad::upsample_backward_backward},

    // ---------------------------------------------------------------- grids, shuffles
    {"grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor", kFunction, N::Custom,
     OP { return grid_sampler_2d(a[0].tensor(), a[1].tensor(), a[2].to_int(), a[3].to_int(), a[4].to_bool()); },
     "grid_sampler", "input grid", &grad::grid_sampler_backward, false},
    {"grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor", kFunction, N::Custom,
     OP { return grid_sampler_2d(a[0].tensor(), a[1].tensor(), a[2].to_int(), a[3].to_int(), a[4].to_bool()); },
     "grid_sampler", "input grid", &grad::grid_sampler_backward, false},
    {"grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, bool input_grad=True, bool grid_grad=True) -> (Tensor, Tensor)", kInternal, N::Custom,
     OP {
       auto [gi, gg] = grid_sampler_2d_backward(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_int(), a[4].to_int(), a[5].to_bool(), a[6].to_bool(), a[7].to_bool());
       return Value::Tuple{gi.defined() ? Value(gi) : Value(), gg.defined() ? Value(gg) : Value()};
     }, ""},
    {"affine_grid_generator(Tensor theta, int[] size, bool align_corners) -> Tensor", kFunction, N::Custom,
     OP { return affine_grid_generator(a[0].tensor(), a[1].int_list(), a[2].to_bool()); }, "affine_grid",
     "", &grad::affine_grid_backward},
    {"pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", kFunction, N::Keep,
     OP { return pixel_shuffle(a[0].tensor(), a[1].to_int()); }, "pixel_shuffle",
     "", GRAD { return {F::tensor_call(TZ_OP("pixel_unshuffle"), {c.grad(), c.arg("upscale_factor")})}; }},
    {"pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", kFunction, N::Keep,
     OP { return pixel_unshuffle(a[0].tensor(), a[1].to_int()); }, "pixel_unshuffle",
     "", GRAD { return {F::tensor_call(TZ_OP("pixel_shuffle"), {c.grad(), c.arg("downscale_factor")})}; }},

    // ---------------------------------------------------------------- sparse
    {"embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor", kFunction, N::Custom,
     OP {
       TZ_CHECK(!a[4].to_bool(), NotImplemented, "embedding(): sparse gradients are not supported");
       return embedding(a[0].tensor(), a[1].tensor(), a[2].to_int());
     }, "embedding", "indices", &grad::embedding_backward},
    {"embedding_dense_backward(Tensor grad_output, Tensor indices, int num_weights, int padding_idx, bool scale_grad_by_freq) -> Tensor", kInternal, N::None,
     OP { return embedding_dense_backward(a[0].tensor(), a[1].tensor(), a[2].to_int(), a[3].to_int(), a[4].to_bool()); },
     "", "indices", &grad::embedding_dense_backward_backward},
    {"embedding_renorm_(Tensor self, Tensor indices, float max_norm, float norm_type) -> Tensor", kFunction, N::Keep,
     OP { return embedding_renorm_(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_double()); }, "embedding_renorm",
     "", &not_differentiable},  // F.embedding runs it under no_grad, as PyTorch does
    {"embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int? padding_idx=None) -> (Tensor, Tensor, Tensor, Tensor)",
     kFunction, N::None,
     OP {
       TZ_CHECK(!a[5].to_bool(), NotImplemented, "embedding_bag(): sparse gradients are not supported");
       auto [o, b, s, m] = embedding_bag(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[4].to_int(), a[6].opt_tensor(),
                                         a[7].to_bool(), a[8].is_none() ? -1 : a[8].to_int());
       return Value::Tuple{o, b, s, m};
     }, "embedding_bag", "weight indices offsets per_sample_weights result", &grad::embedding_bag_backward},
    {"one_hot(Tensor self, int num_classes=-1) -> Tensor", kFunction, N::Custom,
     OP { return one_hot(a[0].tensor(), a[1].to_int()); }, "one_hot"},
};

}  // namespace

OpTableRef op_table::nn_pool_ops() { return kNnPoolOps; }

}  // namespace tz
