"""tensorzoo core: tensors, ops and autograd with PyTorch's names and semantics."""
from core._native import _C
from core._size import Size
from core._tensor import Tensor
from core import _creation
from core._creation import tensor, as_tensor, from_numpy, from_dlpack
# Python-level functions of op families (one import line per family module).
from core._tensor_str import set_printoptions, get_printoptions, printoptions
from core._dtype_info import finfo, iinfo, is_tensor
from core._random import Generator, manual_seed, seed, initial_seed, default_generator, get_rng_state, set_rng_state
from core._joining import meshgrid, cartesian_prod, broadcast_tensors, atleast_1d, atleast_2d, atleast_3d
from core._linalg import einsum, tensordot
from core._spectral import hann_window, hamming_window, blackman_window, bartlett_window, kaiser_window, stft, istft
from core._indexing import split
from core._normalization import batch_norm, layer_norm, group_norm, instance_norm
from core._dropout import *  # noqa: F401,F403  (dropout, feature_dropout, alpha_dropout and in-place forms)
from core._distance import pairwise_distance, cosine_similarity
from core.serialization import save, load
from core._budget import get_decode_budget, set_decode_budget
from core._qscheme import (qscheme, per_tensor_affine, per_channel_affine, per_tensor_symmetric,  # noqa: F401
                           per_channel_symmetric, per_channel_affine_float_qparams)
from core import utils  # core.utils.data loads on first attribute access
from core import fft

from core import autograd
from core.autograd.grad_mode import no_grad, enable_grad, set_grad_enabled, inference_mode, is_grad_enabled
from core.autograd.grad_mode import is_inference_mode_enabled, is_inference

dtype = _C.dtype
bool = _C.bool  # noqa: A001 - mirrors torch.bool
uint8 = _C.uint8
int8 = _C.int8
int16 = _C.int16
int32 = _C.int32
int64 = _C.int64
float16 = _C.float16
bfloat16 = _C.bfloat16
float32 = _C.float32
float64 = _C.float64
complex64 = _C.complex64
complex128 = _C.complex128
quint8 = _C.quint8
qint8 = _C.qint8
qint32 = _C.qint32
# PyTorch's aliases.
half = float16
float = float32  # noqa: A001
double = float64
short = int16
int = int32  # noqa: A001
long = int64
cfloat = complex64
cdouble = complex128
memory_format = _C.memory_format
contiguous_format = _C.contiguous_format
preserve_format = _C.preserve_format
channels_last = _C.channels_last
channels_last_3d = _C.channels_last_3d

set_num_threads = _C.set_num_threads
get_num_threads = _C.get_num_threads
get_default_dtype = _C.get_default_dtype
set_default_dtype = _C.set_default_dtype


def _export_ops():
    # Every function-variant op in the C++ op table becomes core.<name>, unless a Python
    # wrapper of the same name already exists (it then calls the op itself).
    namespace = globals()
    for name, fn in _C._functions.items():
        namespace.setdefault(name, fn)


_export_ops()
del _export_ops

from core._device import device  # noqa: E402
from core._layout import layout, strided, sparse_coo, sparse_csr  # noqa: E402,F401
from core._legacy import *  # noqa: E402,F401,F403  (FloatTensor, LongTensor, ...)
from core import _device, _out  # noqa: E402
_C._set_keyword_hooks(_device.check_options, _out.OUT_OPS, _out.write_out)

__version__ = "0.1.0"

from core import nn  # noqa: E402  (nn and optim build on the ops exported above)
from core.nn._torch_losses import (ctc_loss, binary_cross_entropy_with_logits, kl_div,  # noqa: E402,F401
                                   margin_ranking_loss, cosine_embedding_loss, triplet_margin_loss,
                                   hinge_embedding_loss, poisson_nll_loss)
from core import optim  # noqa: E402
from core import distributed  # noqa: E402  (MPI itself starts only in init_process_group)
from core import backends, quantization  # noqa: E402,F401  (eager-mode quantization on nn)
from core import profiler  # noqa: E402,F401  (torch.profiler: op recording is off until a profile starts)
from core import cuda, accelerator, onnx  # noqa: E402,F401  (torch.cuda / torch.accelerator of a CPU-only build)


def compile(model, example_inputs=None):  # noqa: A001 - torch.compile's name
    """The model compiled for inference (core.jit.compile: a C++ program of fused ops)."""
    from core import jit

    return jit.compile(model, example_inputs)
