"""Op-table entries without a sample kind, each with the reason and where it is tested instead.

test_op_matrix.py keeps this list honest: every entry has a sample or is listed here, every
listed entry exists and has no sample, a `backward_of` forward is sampled and differentiable
(so the gradcheck matrix runs this kernel through its derivative), and a `tested_in` file
exists and names `via` (the op's base name unless given).
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Exempt:
    reason: str
    backward_of: str = ""  # the sampled, differentiable entry whose derivative runs this kernel
    tested_in: str = ""    # a test file (relative to tests/) that exercises the entry
    via: str = ""          # what that file calls it by, when not the op's base name


def _backward(forward):
    return Exempt("a backward kernel: checked by the float64 gradcheck of its forward", backward_of=forward)


def _random(via=""):
    return Exempt("a random draw: its stream is checked against PyTorch's generator", "",
                  "core/test_random.py", via)


def _quantized(via=""):
    return Exempt("quantized input or output: the op matrix compares plain arrays", "",
                  "core/quantization/test_qtensor.py", via)


def _optimizer(via):
    return Exempt("a fused multi-tensor optimizer step: checked against hand-computed updates", "",
                  "core/optim/test_optim.py", via)


def _meta(path, via=""):
    return Exempt("takes or returns dtypes, layouts or type names rather than arrays", "", path, via)


EXEMPT = {
    # Backward kernels (internal entries the derivative formulas call).
    "_adaptive_avg_pool2d_backward": _backward("adaptive_avg_pool2d"),
    "_avg_pool2d_backward": _backward("avg_pool2d"),
    "_conv_backward_weight": _backward("conv2d"),
    "_conv2d_fused": Exempt("inference only, no derivative: every kernel path against conv2d and the activation",
                            tested_in="core/jit/test_conv_fused.py"),
    **{name: Exempt("inference only, no derivative: the packed weight's results bit for bit against the tile "
                    "kernel's _conv2d_fused and close to conv2d, and its errors", tested_in="core/jit/test_conv_fused.py")
       for name in ("_conv_tile_pack", "_conv2d_prepacked")},
    "_conv2d_inverted_residual": Exempt("inference only, no derivative: the same bits as the prepacked 1x1 and "
                                        "depthwise _conv2d_fused calls it replaces (each part optional, every split "
                                        "of the work, every ISA build), close to numpy, the compiler's use of it, "
                                        "and its errors", tested_in="core/jit/test_conv_inverted_residual.py"),
    **{name: Exempt("inference only, no derivative: _conv2d_fused on the transformed weight bit for bit against "
                    "the forced Winograd path and close to numpy, every ISA build, the table's answers, and its errors",
                    tested_in="core/nn/test_conv_winograd.py")
       for name in ("_conv_winograd_pack", "_conv_winograd_pays")},
    "_log_softmax_backward_data": _backward("log_softmax"),
    "_max_pool_backward": _backward("max_pool2d"),
    "_nll_loss_backward": _backward("_nll_loss_forward"),
    **{name: Exempt("an elementwise loss recorded as one node: values against numpy, float64 gradcheck and "
                    "gradgradcheck for each reduction", tested_in="core/nn/test_fused_losses.py")
       for name in ("mse_loss", "smooth_l1_loss", "huber_loss", "soft_margin_loss", "binary_cross_entropy",
                    "binary_cross_entropy_with_logits")},
    "_softmax_backward_data": _backward("softmax"),
    "_split_backward": _backward("split"),
    "_upsample_backward": _backward("upsample_bilinear2d"),
    "_view_scatter_add": _backward("unfold"),
    "embedding_dense_backward": _backward("embedding"),
    "grid_sampler_2d_backward": _backward("grid_sampler"),
    "elu_backward": _backward("elu"),
    "gelu_backward": _backward("gelu"),
    "hardshrink_backward": _backward("hardshrink"),
    "hardsigmoid_backward": _backward("hardsigmoid"),
    "hardswish_backward": _backward("hardswish"),
    "hardtanh_backward": _backward("hardtanh"),
    "leaky_relu_backward": _backward("leaky_relu"),
    "log_sigmoid_backward": _backward("log_sigmoid"),
    "mish_backward": _backward("mish"),
    "silu_backward": _backward("silu"),
    "softplus_backward": _backward("softplus"),
    "softshrink_backward": _backward("softshrink"),
    "threshold_backward": _backward("threshold"),
    # Forms reached through another entry's tests.
    "_convolution": Exempt("the generic convolution the conv derivatives differentiate to (transposed too)",
                           tested_in="core/nn/test_conv.py", via="conv_transpose2d"),
    "_upsample": Exempt("the generic interpolation the upsample derivatives differentiate to",
                        tested_in="core/nn/test_sampling.py", via="interpolate"),
    "_ctc_loss": Exempt("CTC's alignments need targets and lengths consistent with each other",
                        tested_in="core/nn/test_loss.py", via="ctc_loss"),
    "_ctc_loss_backward": Exempt("CTC's backward kernel, checked by the gradcheck of ctc_loss",
                                 tested_in="core/nn/test_loss.py", via="ctc_loss"),
    "native_batch_norm": Exempt("three outputs whose saved statistics depend on training and running stats",
                                tested_in="core/nn/test_norm.py", via="batch_norm"),
    "native_batch_norm_backward": Exempt("checked by the gradcheck of batch_norm",
                                         tested_in="core/nn/test_norm.py", via="batch_norm"),
    "native_group_norm": Exempt("three outputs (output, mean, rstd) reached through group_norm",
                                tested_in="core/nn/test_norm.py", via="group_norm"),
    "native_group_norm_backward": Exempt("checked by the gradcheck of group_norm",
                                         tested_in="core/nn/test_norm.py", via="group_norm"),
    "native_layer_norm": Exempt("three outputs (output, mean, rstd) reached through layer_norm",
                                tested_in="core/nn/test_norm.py"),
    "native_layer_norm_backward": Exempt("checked by the gradcheck of layer_norm",
                                         tested_in="core/nn/test_norm.py", via="layer_norm"),
    "_rnn_layer": Exempt("a recurrent layer's time loop: needs consistent weights, states and batch_sizes",
                         tested_in="core/nn/test_rnn_fused.py"),
    "_rnn_layer_backward": Exempt("the fused layer's backward, checked by the gradcheck of _rnn_layer",
                                  tested_in="core/nn/test_rnn_fused.py", via="_rnn_layer"),
    "_viterbi_quadratic": Exempt("a dynamic programme checked against an exhaustive search",
                                 tested_in="core/test_viterbi.py"),
    # Random draws.
    "bernoulli": _random(), "bernoulli.p": _random(), "bernoulli_.Tensor": _random(),
    "bernoulli_.float": _random(), "cauchy_": _random(), "exponential_": _random(),
    "geometric_": _random(), "log_normal_": _random(), "multinomial": _random(),
    "normal.Tensor_Tensor": _random(), "normal.Tensor_float": _random(), "normal.float_Tensor": _random(),
    "normal.float_float": _random(), "normal_": _random(), "rand": _random("rand("), "rand_like": _random(),
    "randint": _random(), "randint.low": _random("randint"), "randint_like": _random(),
    "randint_like.low_dtype": _random("randint_like"), "randn": _random(), "randn_like": _random(),
    "random_": _random(), "random_.from": _random("random_"), "random_.to": _random("random_"),
    "randperm": _random(), "uniform_": _random(),
    # Quantized tensors.
    "_make_per_channel_quantized_tensor": _quantized(), "_make_per_tensor_quantized_tensor": _quantized(),
    "dequantize": _quantized(), "int_repr": _quantized(), "q_per_channel_axis": _quantized(),
    "q_per_channel_scales": _quantized(), "q_per_channel_zero_points": _quantized(), "q_scale": _quantized(),
    "q_zero_point": _quantized(), "quantize_per_channel": _quantized(), "quantize_per_tensor": _quantized(),
    "_int_view": _quantized("save_load"),  # what core.save stores of a quantized tensor
    "_qscheme_name": _quantized("qscheme()"),
    # Fused optimizer steps.
    "_fused_adadelta_step": _optimizer("Adadelta"), "_fused_adagrad_step": _optimizer("Adagrad"),
    "_fused_adam_step": _optimizer("Adam"), "_fused_adamax_step": _optimizer("Adamax"),
    "_fused_rmsprop_step": _optimizer("RMSprop"), "_fused_sgd_step": _optimizer("SGD"),
    # Dtypes, layouts and type names.
    "can_cast": _meta("core/test_conversion.py"), "promote_types": _meta("core/test_conversion.py"),
    "result_type": _meta("core/test_conversion.py"), "type": _meta("core/test_conversion.py", "type("),
    "type.dtype": _meta("core/test_conversion.py", "type("), "type.str": _meta("core/test_conversion.py", "type("),
    "to.device": _meta("core/test_conversion.py", "to("),
    "is_contiguous": _meta("core/test_memory_format.py"),
    "empty": Exempt("uninitialised memory: only its shape, dtype and layout are defined",
                    tested_in="core/test_foundation.py"),
}
