"""no_grad, enable_grad, set_grad_enabled, inference_mode: thread-local switches that work
as context managers and as decorators; is_inference for the tensors inference mode makes."""
import functools

from core._native import _C

is_grad_enabled = _C.is_grad_enabled
is_inference_mode_enabled = _C.is_inference_mode_enabled


def is_inference(input):
    """Whether `input` is an inference tensor: its memory was made in inference mode."""
    if not isinstance(input, _C._TensorBase):
        raise TypeError(f"is_inference(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.is_inference()


class _DecoratorContextManager:
    """Lets a context manager class also decorate functions (a fresh instance per call)."""

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self._fresh():
                return fn(*args, **kwargs)
        return wrapper

    def _fresh(self):
        return self.__class__()


class no_grad(_DecoratorContextManager):
    """Ops inside record no graph."""

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(False)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False


class enable_grad(_DecoratorContextManager):
    """Ops inside record graphs even within no_grad."""

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(True)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False


class set_grad_enabled(_DecoratorContextManager):
    """Sets grad mode on or off; takes effect at once (usable as a function call too)."""

    def __init__(self, mode):
        self._prev = _C.is_grad_enabled()
        self._mode = bool(mode)
        _C._set_grad_enabled(self._mode)

    def _fresh(self):
        return self.__class__(self._mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False


class inference_mode(_DecoratorContextManager):
    """Like no_grad, for code that never needs autograd (inference)."""

    def __init__(self, mode=True):
        self._mode = bool(mode)

    def _fresh(self):
        return self.__class__(self._mode)

    def __enter__(self):
        self._prev = (_C.is_grad_enabled(), _C.is_inference_mode_enabled())
        if self._mode:
            _C._set_grad_enabled(False)
        _C._set_inference_mode(self._mode)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev[0])
        _C._set_inference_mode(self._prev[1])
        return False
