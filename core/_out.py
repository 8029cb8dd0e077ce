"""out= on the ops whose PyTorch signature has it: the op runs as usual and its result is written
into the given tensor(s), which are resized when their shape differs (as PyTorch does, with its
warning when a non-empty tensor is resized)."""
import warnings

from core._native import _C

# The ops of the op table with an out= form in torch's Python API (tools/gen_out_ops.py lists them).
OUT_OPS = frozenset((
    "abs", "absolute", "acos", "acosh", "add", "addbmm", "addmm", "addmv", "all", "amax", "amin",
    "angle", "any", "arange", "arctan2", "argmax", "argmin", "asin", "asinh", "atan", "atan2",
    "atanh", "baddbmm", "bernoulli", "bitwise_and", "bitwise_left_shift", "bitwise_not",
    "bitwise_or", "bitwise_right_shift", "bitwise_xor", "bmm", "cat", "ceil", "clamp", "clamp_max",
    "clamp_min", "clip", "column_stack", "concat", "copysign", "cos", "cosh", "cumprod", "cumsum",
    "diag", "div", "divide", "dot", "dstack", "empty", "empty_like", "eq", "erf", "erfc", "erfinv",
    "exp", "exp2", "expm1", "eye", "fix", "float_power", "floor", "floor_divide", "fmax", "fmin",
    "fmod", "frac", "full", "full_like", "gather", "ge", "ger", "greater", "greater_equal", "gt",
    "hardshrink", "hstack", "hypot", "index_add", "index_select", "isneginf", "isposinf", "le",
    "lerp", "less", "less_equal", "linspace", "log", "log10", "log1p", "log2", "log_softmax",
    "logical_and", "logical_not", "logical_or", "logical_xor", "logit", "logspace", "logsumexp",
    "lt", "masked_select", "matmul", "max", "maximum", "mean", "median", "min", "minimum", "mm",
    "msort", "mul", "multinomial", "multiply", "mv", "nan_to_num", "nanmedian", "nansum", "ne",
    "neg", "negative", "nonzero", "norm", "normal", "not_equal", "ones", "ones_like", "outer",
    "pow", "prod", "rand", "rand_like", "randint", "randint_like", "randn", "randn_like",
    "randperm", "reciprocal", "remainder", "round", "rsqrt", "scatter", "sgn", "sigmoid", "sign",
    "signbit", "sin", "sinh", "softmax", "sqrt", "square", "stack", "std", "sub", "subtract",
    "sum", "take", "tan", "tanh", "threshold", "tril", "triu", "true_divide", "trunc", "var",
    "vdot", "vstack", "where", "xlogy", "zeros", "zeros_like",
))


def write_out(op, result, out):
    """Writes `result` (a tensor or a tuple of tensors) into `out` and returns `out`."""
    if isinstance(result, tuple):
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError(f"{op}(): out must be a tuple of {len(result)} tensors")
        for r, o in zip(result, out):
            _write_one(op, r, o)
        return type(result)(*out) if hasattr(result, "_fields") else tuple(out)
    _write_one(op, result, out)
    return out


def _write_one(op, result, out):
    if not isinstance(out, _C._TensorBase):
        raise TypeError(f"{op}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if out.is_inference() and not _C.is_inference_mode_enabled():
        raise RuntimeError(f"{op}(): Inplace update to inference tensor outside InferenceMode is not allowed. "
                           "You can make a clone to get a normal tensor before doing inplace update.")
    if _C.is_grad_enabled() and (result.requires_grad or out.requires_grad):
        raise RuntimeError(f"{op}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    if not _C._functions["can_cast"](result.dtype, out.dtype):
        raise RuntimeError(f"result type {_scalar_name(result.dtype)} can't be cast to the desired "
                           f"output type {_scalar_name(out.dtype)}")
    if tuple(out.shape) != tuple(result.shape):
        if out.numel() != 0:
            warnings.warn(f"An output with one or more elements was resized since it had shape "
                          f"{list(out.shape)}, which does not match the required output shape "
                          f"{list(result.shape)}. This behavior is deprecated, and in a future PyTorch "
                          "release outputs will not be resized unless they have zero elements. You can "
                          "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                          "with t.resize_(0).", UserWarning, stacklevel=3)
        _C._set_data(out, result.to(out.dtype, copy=True))  # new memory of the result's shape
    else:
        out.copy_(result)


def _scalar_name(dtype):
    """PyTorch's ScalarType name ("Float", "Long") used in its messages."""
    from core._legacy import LEGACY_TYPES

    return next((name[:-len("Tensor")] for name, cls in LEGACY_TYPES.items() if cls.dtype == dtype),
                str(dtype))
