"""core.nn.utils: gradient clipping, parameter vectors, reparametrizations, fusion, rnn packing."""
from core.nn.utils import clip_grad, convert_parameters, fusion, rnn  # noqa: F401
from core.nn.utils.clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_
from core.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
from core.nn.utils.fusion import fuse_conv_bn_eval, fuse_conv_bn_weights
from core.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
from core.nn.utils.weight_norm import remove_weight_norm, weight_norm
