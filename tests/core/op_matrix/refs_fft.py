"""numpy references of the FFT primitives (numpy.fft in float64/complex128, then rounded)."""
import numpy as np

from .registry import reference

# The primitive's normalization code -> numpy's norm, per direction.
_FORWARD = {0: "backward", 1: "ortho", 2: "forward"}
_INVERSE = {0: "forward", 1: "ortho", 2: "backward"}


def _complex_of(dtype):
    return np.complex128 if dtype in (np.float64, np.complex128) else np.complex64


@reference("_fft_c2c", atol=1e-5, rtol=1e-5)
def _fft_c2c(x, dim, normalization, forward):
    if forward:
        out = np.fft.fftn(x, axes=dim, norm=_FORWARD[normalization])
    else:
        out = np.fft.ifftn(x, axes=dim, norm=_INVERSE[normalization])
    return out.astype(x.dtype)


@reference("_fft_r2c", atol=1e-5, rtol=1e-5)
def _fft_r2c(x, dim, normalization, onesided):
    norm = _FORWARD[normalization]
    out = np.fft.rfftn(x, axes=dim, norm=norm) if onesided else np.fft.fftn(x, axes=dim, norm=norm)
    return out.astype(_complex_of(x.dtype.type))


@reference("_fft_c2r", atol=1e-5, rtol=1e-5)
def _fft_c2r(x, dim, normalization, last_dim_size):
    sizes = [x.shape[d] for d in dim[:-1]] + [last_dim_size]
    out = np.fft.irfftn(x, s=sizes, axes=dim, norm=_INVERSE[normalization])
    return out.astype(np.float64 if x.dtype == np.complex128 else np.float32)
