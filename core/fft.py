"""core.fft: discrete Fourier transforms with torch.fft's names and semantics.

Every function resizes its input (``n`` / ``s``: trim or zero-pad at the end of each dim),
then calls one of the three C++ primitives ``_fft_c2c``, ``_fft_r2c``, ``_fft_c2r``, which
carry the gradients. ``norm`` is ``"backward"`` (the default: no scaling forward, 1/n
backward), ``"ortho"`` (1/sqrt(n) both ways) or ``"forward"`` (1/n forward).
Integer and bool inputs are transformed as the default float dtype; float64 gives complex128.
"""
import builtins

from core._device import check_options
from core._native import _C

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
           "fftn", "ifftn", "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_ops = _C._functions
_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2


def _norm_mode(norm, forward, name):
    """The primitive's normalization code for a transform in direction `forward`."""
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "ortho":
        return _BY_ROOT_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    raise ValueError(f"{name}(): Invalid normalization mode: {norm!r} "
                     "(expected 'forward', 'backward' or 'ortho')")


def _float_input(x, name, require_real=False):
    """x as a floating or complex tensor (integers and bool in the default float dtype)."""
    if not isinstance(x, _C._TensorBase):
        raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(x).__name__}")
    if x.dtype.is_complex:
        if require_real:
            raise RuntimeError(f"{name} expects a real input tensor, but got {x.dtype}")
        return x
    if x.dtype in (_C.float32, _C.float64):
        return x
    if x.dtype in (_C.float16, _C.bfloat16):
        return x.to(_C.float32)
    return x.to(_C.get_default_dtype())


def _complex_input(x, name):
    x = _float_input(x, name)
    if x.dtype.is_complex:
        return x
    return x.to(_C.complex128 if x.dtype == _C.float64 else _C.complex64)


def _check_length(n, name):
    if n < 1:
        raise RuntimeError(f"{name}(): Invalid number of data points ({n}) specified")


def _resize(x, dim, n):
    """x trimmed or zero-padded at the end of `dim` to n elements."""
    size = x.shape[dim]
    if n == size:
        return x
    if n < size:
        return _ops["narrow"](x, dim, 0, n)
    pad = [0] * (2 * (x.ndim - dim))
    pad[-1] = n - size
    return _ops["pad"](x, pad, "constant", 0.0)


def _named_dim(x, dim):
    """A dim name of a named tensor as its index; other dims as given."""
    return _C._dim_of_name(x, dim) if isinstance(dim, str) else dim


def _wrap(dim, ndim, name):
    if not -ndim <= dim < builtins.max(ndim, 1):
        raise IndexError(f"{name}(): Dimension out of range (expected to be in range of "
                         f"[{-ndim}, {ndim - 1}], but got {dim})")
    return dim % ndim if ndim else 0


def _one_dim(x, dim, name):
    """The wrapped dim of a one-dimensional transform."""
    if not isinstance(x, _C._TensorBase):
        raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(x).__name__}")
    if x.ndim == 0:
        raise IndexError(f"{name}(): Dimension specified as {dim} but tensor has no dimensions")
    return _wrap(_named_dim(x, dim), x.ndim, name)


def _length(x, dim, n, name):
    """The signal length: n, or the size of dim."""
    n = x.shape[dim] if n is None else n
    _check_length(n, name)
    return n


def _dims_and_sizes(x, s, dim, name):
    """The dims and signal sizes of an n-dimensional transform (torch.fft's s/dim rules)."""
    if dim is None:
        dims = list(range(x.ndim)) if s is None else list(range(x.ndim - len(s), x.ndim))
    else:
        dims = [dim] if isinstance(dim, (int, str)) else list(dim)
        dims = [_wrap(_named_dim(x, d), x.ndim, name) for d in dims]
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"{name}(): dims must be unique")
    if s is None:
        sizes = [x.shape[d] for d in dims]
    else:
        sizes = list(s)
        if len(sizes) != len(dims):
            raise RuntimeError(f"{name}(): When given, dim and shape arguments must have the same length")
        if len(dims) > x.ndim:
            raise RuntimeError(f"{name}(): Got shape with {len(sizes)} values but input tensor only has "
                               f"{x.ndim} dimensions.")
        sizes = [x.shape[d] if n == -1 else n for d, n in zip(dims, sizes)]
    for n in sizes:
        _check_length(n, name)
    return dims, sizes


def _resize_all(x, dims, sizes):
    for d, n in zip(dims, sizes):
        x = _resize(x, d, n)
    return x


def _c2c(x, dims, sizes, norm, forward, name):
    x = _resize_all(_float_input(x, name), dims, sizes)
    mode = _norm_mode(norm, forward, name)
    if not x.dtype.is_complex:
        if forward:  # a real signal: the full spectrum from the real transform
            return _ops["_fft_r2c"](x, dims, mode, False)
        x = _complex_input(x, name)
    return _ops["_fft_c2c"](x, dims, mode, forward)


def _r2c(x, dims, sizes, norm, forward, name):
    x = _resize_all(_float_input(x, name, require_real=True), dims, sizes)
    out = _ops["_fft_r2c"](x, dims, _norm_mode(norm, forward, name), True)
    return out if forward else _ops["conj"](out)


def _c2r(x, dims, sizes, last_size, norm, forward, name):
    x = _complex_input(x, name)
    x = _resize_all(x, dims[:-1], sizes[:-1])
    x = _resize(x, dims[-1], last_size // 2 + 1)
    if forward:  # hfft: the spectrum of a Hermitian signal is the inverse of its conjugate
        x = _ops["conj"](x)
    return _ops["_fft_c2r"](x, dims, _norm_mode(norm, forward, name), last_size)


def _default_real_length(x, dim, n, name):
    if n is None:
        n = 2 * (x.shape[dim] - 1)
    _check_length(n, name)
    return n


# ---------------------------------------------------------------- one dimension

def fft(input, n=None, dim=-1, norm=None):
    """The one-dimensional discrete Fourier transform of `input` along `dim`."""
    dim = _one_dim(input, dim, "fft")
    return _c2c(input, [dim], [_length(input, dim, n, "fft")], norm, True, "fft")


def ifft(input, n=None, dim=-1, norm=None):
    """The one-dimensional inverse discrete Fourier transform."""
    dim = _one_dim(input, dim, "ifft")
    return _c2c(input, [dim], [_length(input, dim, n, "ifft")], norm, False, "ifft")


def rfft(input, n=None, dim=-1, norm=None):
    """The n // 2 + 1 non-negative frequency bins of the transform of a real signal."""
    dim = _one_dim(input, dim, "rfft")
    return _r2c(input, [dim], [_length(input, dim, n, "rfft")], norm, True, "rfft")


def irfft(input, n=None, dim=-1, norm=None):
    """The inverse of rfft: a real signal of n (default 2 * (bins - 1)) points."""
    dim = _one_dim(input, dim, "irfft")
    n = _default_real_length(input, dim, n, "irfft")
    return _c2r(input, [dim], [n], n, norm, False, "irfft")


def hfft(input, n=None, dim=-1, norm=None):
    """The (real) transform of a Hermitian-symmetric signal given by its first half."""
    dim = _one_dim(input, dim, "hfft")
    n = _default_real_length(input, dim, n, "hfft")
    return _c2r(input, [dim], [n], n, norm, True, "hfft")


def ihfft(input, n=None, dim=-1, norm=None):
    """The inverse of hfft: the first n // 2 + 1 bins of the inverse transform of a real signal."""
    dim = _one_dim(input, dim, "ihfft")
    return _r2c(input, [dim], [_length(input, dim, n, "ihfft")], norm, False, "ihfft")


# ---------------------------------------------------------------- n dimensions

def fftn(input, s=None, dim=None, norm=None):
    """The n-dimensional transform over `dim` (default: the last len(s) dims, or all)."""
    dims, sizes = _dims_and_sizes(input, s, dim, "fftn")
    return _c2c(input, dims, sizes, norm, True, "fftn")


def ifftn(input, s=None, dim=None, norm=None):
    dims, sizes = _dims_and_sizes(input, s, dim, "ifftn")
    return _c2c(input, dims, sizes, norm, False, "ifftn")


def rfftn(input, s=None, dim=None, norm=None):
    """The n-dimensional transform of a real signal; the last dim keeps n // 2 + 1 bins."""
    dims, sizes = _dims_and_sizes(input, s, dim, "rfftn")
    if not dims:
        raise RuntimeError("rfftn(): must transform at least one axis")
    return _r2c(input, dims, sizes, norm, True, "rfftn")


def irfftn(input, s=None, dim=None, norm=None):
    """The inverse of rfftn; the last dim's output length defaults to 2 * (bins - 1)."""
    dims, sizes = _dims_and_sizes(input, s, dim, "irfftn")
    if not dims:
        raise RuntimeError("irfftn(): must transform at least one axis")
    last = sizes[-1] if s is not None and s[-1] != -1 else 2 * (input.shape[dims[-1]] - 1)
    _check_length(last, "irfftn")
    return _c2r(input, dims, sizes, last, norm, False, "irfftn")


def fft2(input, s=None, dim=(-2, -1), norm=None):
    return fftn(input, s, dim, norm)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    return ifftn(input, s, dim, norm)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    return rfftn(input, s, dim, norm)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    return irfftn(input, s, dim, norm)


# ---------------------------------------------------------------- helpers

def fftfreq(n, d=1.0, *, dtype=None, device=None, layout=None, requires_grad=False):
    """Sample frequencies of an n-point transform: [0, 1, ..., -(n // 2), ..., -1] / (d n)."""
    _check_length(n, "fftfreq")
    check_options("fftfreq", device, False, layout)
    dtype = dtype or _C.get_default_dtype()
    k = _ops["cat"]([_ops["arange"](0, (n + 1) // 2, dtype=dtype), _ops["arange"](-(n // 2), 0, dtype=dtype)])
    return _ops["mul"](k, 1.0 / (d * n)).requires_grad_(requires_grad)


def rfftfreq(n, d=1.0, *, dtype=None, device=None, layout=None, requires_grad=False):
    """Sample frequencies of rfft's bins: [0, 1, ..., n // 2] / (d n)."""
    _check_length(n, "rfftfreq")
    check_options("rfftfreq", device, False, layout)
    k = _ops["arange"](n // 2 + 1, dtype=dtype or _C.get_default_dtype())
    return _ops["mul"](k, 1.0 / (d * n)).requires_grad_(requires_grad)


def _shift_dims(x, dim):
    if dim is None:
        return list(range(x.ndim))
    return [_named_dim(x, d) for d in ([dim] if isinstance(dim, (int, str)) else dim)]


def fftshift(input, dim=None):
    """Moves the zero-frequency bin to the centre (rolls each dim by size // 2)."""
    dims = _shift_dims(input, dim)
    return _ops["roll"](input, [input.shape[d] // 2 for d in dims], dims) if dims else input


def ifftshift(input, dim=None):
    """The inverse of fftshift (rolls each dim by (size + 1) // 2)."""
    dims = _shift_dims(input, dim)
    return _ops["roll"](input, [(input.shape[d] + 1) // 2 for d in dims], dims) if dims else input
