"""The one argument-checking path of the Python-level functions (core.nn.functional and the
Python parts of core): when a call fails inside, its arguments are checked against the
function's signature, and a wrong one is reported in PyTorch's words,
"dropout(): argument 'input' (position 1) must be Tensor, not NoneType", instead of whatever
Python internals said ("'NoneType' object has no attribute 'numel'").

The check costs nothing on calls that succeed: it runs only once the call has raised. What an
argument must be comes from its name (tensor arguments) and from its default value.
"""
import functools
import inspect
import numbers
import sys
import warnings

# Parameters that hold tensors in torch.nn.functional's signatures.
TENSOR_PARAMS = frozenset({
    "input", "x1", "x2", "target", "weight", "bias", "grid", "theta", "input1", "input2", "anchor",
    "positive", "negative", "log_probs", "targets", "query", "key",
    "offsets", "per_sample_weights", "pos_weight", "var", "indices", "mat1", "mat2", "other", "tensor",
})  # not running_mean / running_var (None is fine), nor ctc_loss's lengths (int lists are)

# Errors that describe the caller's mistake well already (raised by the core's checks).
_CLEAN = (RuntimeError, NotImplementedError)


def _type_name(value):
    return type(value).__name__


def _is_tensor(value):
    from core._native import _C
    return isinstance(value, _C._TensorBase)


def _is_number_like(value):
    if isinstance(value, numbers.Real) or _is_tensor(value):
        return True
    return isinstance(value, (tuple, list)) and all(_is_number_like(v) for v in value)  # nested: tensordot


def _expected(param):
    """What `param` accepts, as (description, predicate), or None when anything goes."""
    default = param.default
    if param.name in TENSOR_PARAMS and (default is inspect.Parameter.empty or default is None):
        if default is None:
            return "Tensor or None", lambda v: v is None or _is_tensor(v)
        return "Tensor", _is_tensor
    if default is inspect.Parameter.empty or default is None:
        return None
    if isinstance(default, bool):
        return None  # flags are taken by truth value, like PyTorch's Python functions do
    if isinstance(default, numbers.Real):
        # Numbers, per-dimension tuples of them ("kernel_size=3" or "(3, 5)"), and conv's
        # padding="same"; never None, a string or an arbitrary object.
        strings_ok = param.name == "padding"
        return "float" if isinstance(default, float) else "int", \
            lambda v: _is_number_like(v) or (strings_ok and isinstance(v, str))
    if isinstance(default, str):
        return "str", lambda v: isinstance(v, str)
    return None


def first_bad_argument(fn, name, args, kwargs):
    """A TypeError for the first argument of `fn(*args, **kwargs)` that cannot be right, or None."""
    try:
        sig = _signature(fn)
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:  # wrong arity or an unknown keyword: Python's own words are right
        return TypeError(f"{name}(): {e}")
    for position, (pname, param) in enumerate(sig.parameters.items(), start=1):
        if pname not in bound.arguments or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        rule = _expected(param)
        if rule is None:
            continue
        what, accepts = rule
        value = bound.arguments[pname]
        if not accepts(value):
            return TypeError(f"{name}(): argument '{pname}' (position {position}) must be {what}, "
                             f"not {_type_name(value)}")
    return None


@functools.lru_cache(maxsize=None)
def _signature(fn):
    return inspect.signature(fn)


def checked(fn, name=None):
    """`fn` with its failures explained: a wrong argument becomes PyTorch's TypeError."""
    name = name or fn.__name__

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except _CLEAN:
            raise
        except Exception as e:
            bad = first_bad_argument(fn, name, args, kwargs)
            if bad is None:
                raise
            raise bad from None

    wrapper.__wrapped_unchecked__ = fn
    return wrapper


def check_module(namespace, names):
    """Routes every Python function of `names` in `namespace` (a module's globals) through `checked`."""
    for fname in names:
        fn = namespace.get(fname)
        if inspect.isfunction(fn) and not hasattr(fn, "__wrapped_unchecked__"):
            namespace[fname] = checked(fn, fname)


_WRAPPER_CODE = checked(lambda: None).__code__  # every `checked` wrapper runs this code


def warn(message, category=UserWarning, stacklevel=1):
    """warnings.warn for the checked functions: `stacklevel` counts the frames above the
    caller as if no `checked` wrapper were among them, so a warning still names the user's line."""
    frame, level, counted = sys._getframe(1), 1, 1
    while frame is not None and counted < stacklevel:
        frame, level = frame.f_back, level + 1
        if frame is not None and frame.f_code is not _WRAPPER_CODE:
            counted += 1
    warnings.warn(message, category, stacklevel=level + 1)
