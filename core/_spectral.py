"""Window functions and the short-time Fourier transform, with torch's names and semantics:
hann_window, hamming_window, blackman_window, bartlett_window, kaiser_window, stft, istft.

Windows are computed in float64 and rounded once to the requested dtype. A periodic window
of length N is the symmetric window of length N + 1 without its last point (for spectral
analysis); lengths 0 and 1 give [] and [1].
"""
import math

from core._argcheck import warn
from core._device import check_options as _check_options
from core._native import _C

__all__ = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window",
           "stft", "istft"]

_ops = _C._functions


def _window(name, window_length, periodic, dtype, requires_grad, values):
    """values(k, m): the float64 window at points k (an arange tensor) for a symmetric length m + 1."""
    if not isinstance(window_length, int) or window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    dtype = dtype or _C.get_default_dtype()
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} expects floating point dtypes, got: {dtype}")
    if window_length <= 1:
        out = _ops["ones"]([window_length], dtype=dtype)
    else:
        m = window_length if periodic else window_length - 1  # the symmetric length is m + 1
        k = _ops["arange"](window_length, dtype=_C.float64)
        out = values(k, m).to(dtype)
    return out.requires_grad_(requires_grad)


def _cosine_sum(coefficients):
    """sum_i (-1)^i a_i cos(2 pi i k / m)."""
    def values(k, m):
        out = _ops["full"]([k.shape[0]], coefficients[0], dtype=_C.float64)
        for i, a in enumerate(coefficients[1:], start=1):
            term = _ops["mul"](_ops["cos"](_ops["mul"](k, 2.0 * math.pi * i / m)), a)
            out = _ops["sub"](out, term) if i % 2 else _ops["add"](out, term)
        return out
    return values


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    """0.5 - 0.5 cos(2 pi k / m)."""
    _check_options("hann_window", device, False, layout)
    return _window("hann_window", window_length, periodic, dtype, requires_grad, _cosine_sum((0.5, 0.5)))


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None,
                   device=None, requires_grad=False):
    """alpha - beta cos(2 pi k / m)."""
    _check_options("hamming_window", device, False, layout)
    return _window("hamming_window", window_length, periodic, dtype, requires_grad, _cosine_sum((alpha, beta)))


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    """0.42 - 0.5 cos(2 pi k / m) + 0.08 cos(4 pi k / m)."""
    _check_options("blackman_window", device, False, layout)
    return _window("blackman_window", window_length, periodic, dtype, requires_grad,
                   _cosine_sum((0.42, 0.5, 0.08)))


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    """The triangle 1 - |2 k / m - 1|."""
    def values(k, m):
        return _ops["rsub"](_ops["abs"](_ops["sub"](_ops["mul"](k, 2.0 / m), 1.0)), 1.0)
    _check_options("bartlett_window", device, False, layout)
    return _window("bartlett_window", window_length, periodic, dtype, requires_grad, values)


def _bessel_i0(x):
    """The modified Bessel function I0 (float64 tensor), by its power series (x <= ~700)."""
    half_sq = _ops["mul"](_ops["square"](x), 0.25)
    term = _ops["ones_like"](x)
    total = _ops["ones_like"](x)
    j = 1
    while True:
        term = _ops["mul"](term, _ops["mul"](half_sq, 1.0 / (j * j)))
        total = _ops["add"](total, term)
        if _ops["max"](_ops["div"](term, total)).item() < 1e-17:
            return total
        j += 1


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None,
                  requires_grad=False):
    """I0(beta sqrt(1 - (2 k / m - 1)^2)) / I0(beta)."""
    def values(k, m):
        r = _ops["sub"](_ops["mul"](k, 2.0 / m), 1.0)
        arg = _ops["mul"](_ops["sqrt"](_ops["clamp"](_ops["rsub"](_ops["square"](r), 1.0), 0.0)), float(beta))
        return _ops["div"](_bessel_i0(arg), _bessel_i0(_ops["full"]([1], float(beta), dtype=_C.float64)))
    _check_options("kaiser_window", device, False, layout)
    return _window("kaiser_window", window_length, periodic, dtype, requires_grad, values)


# ---------------------------------------------------------------- stft / istft

def _padded_window(window, win_length, n_fft, name, dtype):
    """The window as n_fft points: centred, zero-padded on both sides (ones if None)."""
    if window is None:
        window = _ops["ones"]([win_length], dtype=dtype)
    elif window.ndim != 1 or window.shape[0] != win_length:
        raise RuntimeError(f"{name}: expected a 1D window tensor of size equal to win_length={win_length}, "
                           f"but got window with size {list(window.shape)}")
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = _ops["pad"](window, [left, n_fft - win_length - left], "constant", 0.0)
    return window


def _frame_params(n_fft, hop_length, win_length, name):
    if not isinstance(n_fft, int) or n_fft <= 0:
        raise RuntimeError(f"{name}: expected n_fft > 0, but got n_fft={n_fft}")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if hop_length <= 0:
        raise RuntimeError(f"{name}: expected hop_length > 0, but got hop_length={hop_length}")
    if win_length <= 0 or win_length > n_fft:
        raise RuntimeError(f"{name}: expected 0 < win_length <= n_fft, but got win_length={win_length}")
    return hop_length, win_length


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, return_complex=None):
    """Short-time Fourier transform of a (L) or (B, L) signal: (B?, n_freq, n_frames) frames
    of n_fft points every hop_length (default n_fft // 4), windowed by `window` (ones if None;
    shorter windows are centred). center pads n_fft // 2 on both sides with pad_mode.
    n_freq is n_fft // 2 + 1 when onesided (the default for real input and window).
    return_complex=False gives the real view (..., 2) (deprecated, as in torch 1.8)."""
    name = "stft"
    hop_length, win_length = _frame_params(n_fft, hop_length, win_length, name)
    if input.ndim not in (1, 2):
        raise RuntimeError(f"{name}: expected a 1D or 2D tensor, but got {input.ndim}D")
    complex_input = input.dtype.is_complex or (window is not None and window.dtype.is_complex)
    if return_complex is None:
        if not complex_input:
            warn("stft will soon require the return_complex parameter be given for real inputs; "
                 "pass return_complex=True for a complex result (the real view is deprecated)",
                 UserWarning, stacklevel=2)
        return_complex = complex_input
    elif complex_input and not return_complex:
        raise RuntimeError(f"{name}: complex input or window requires return_complex=True")
    onesided = not complex_input if onesided is None else onesided
    if onesided and complex_input:
        raise RuntimeError(f"{name}: Cannot have onesided output if window or input is complex")
    x = input if input.dtype.is_floating_point or input.dtype.is_complex else input.to(_C.get_default_dtype())
    batched = x.ndim == 2
    if not batched:
        x = _ops["unsqueeze"](x, 0)
    if center:
        half = n_fft // 2
        x = _ops["squeeze"](_pad_signal(_ops["unsqueeze"](x, 0), half, pad_mode), 0)
    length = x.shape[-1]
    if n_fft > length:
        raise RuntimeError(f"{name}: expected 0 < n_fft <= {length}, but got n_fft={n_fft}")
    dtype = x.dtype if not x.dtype.is_complex else (_C.float64 if x.dtype == _C.complex128 else _C.float32)
    w = _padded_window(window, win_length, n_fft, name, dtype)
    frames = _ops["mul"](x.unfold(-1, n_fft, hop_length), w)       # (B, n_frames, n_fft)
    mode = 1 if normalized else 0
    if frames.dtype.is_complex:
        spec = _ops["_fft_c2c"](frames, [-1], mode, True)
    else:
        spec = _ops["_fft_r2c"](frames, [-1], mode, onesided)
    spec = spec.transpose(-1, -2)                                     # (B, n_freq, n_frames)
    if not batched:
        spec = _ops["squeeze"](spec, 0)
    return spec if return_complex else _ops["view_as_real"](spec)


def _pad_signal(x, pad, mode):
    """(1, B, L) padded by `pad` on both ends of L with F.pad's mode."""
    from core.nn.functional import pad as f_pad

    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise RuntimeError(f"stft: unknown pad_mode {mode!r}")
    if mode == "reflect" and pad >= x.shape[-1]:
        raise RuntimeError(f"stft: reflect padding of {pad} needs a signal longer than that, "
                           f"got {x.shape[-1]} samples (use center=False or a shorter n_fft)")
    return f_pad(x, [pad, pad], mode=mode)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
          onesided=None, length=None, return_complex=False):
    """The inverse of stft by windowed overlap-add (least squares for the window): input is
    (B?, n_freq, n_frames) complex (or the deprecated real view (..., 2)). Raises when the
    window's overlap-add envelope vanishes somewhere (the NOLA condition)."""
    name = "istft"
    hop_length, win_length = _frame_params(n_fft, hop_length, win_length, name)
    spec = input
    if not spec.dtype.is_complex:
        if spec.ndim < 1 or spec.shape[-1] != 2:
            raise RuntimeError(f"{name}: expected a complex tensor (or a real view with a last dim of size 2)")
        warn("istft of a real view (..., 2) is deprecated; pass a complex tensor", UserWarning, stacklevel=2)
        spec = _ops["view_as_complex"](spec.contiguous())
    if spec.ndim not in (2, 3):
        raise RuntimeError(f"{name}: expected a tensor with 2 or 3 dims of (batch?, freq, frames), got {spec.ndim}")
    batched = spec.ndim == 3
    if not batched:
        spec = _ops["unsqueeze"](spec, 0)
    n_freq, n_frames = spec.shape[-2], spec.shape[-1]
    onesided = n_freq != n_fft if onesided is None else onesided
    expected = n_fft // 2 + 1 if onesided else n_fft
    if n_freq != expected:
        raise RuntimeError(f"{name}: expected the frequency dimension (size -2) of the input to be "
                           f"{expected} for n_fft={n_fft} and onesided={onesided}, but got {n_freq}")
    if onesided and return_complex:
        raise RuntimeError(f"{name}: cannot have onesided output if the output is complex")
    part = _C.float64 if spec.dtype == _C.complex128 else _C.float32
    w = _padded_window(window, win_length, n_fft, name, part)
    if w.dtype.is_complex and not return_complex:
        raise RuntimeError(f"{name}: complex windows need return_complex=True")
    mode = 1 if normalized else 2
    frames_spec = spec.transpose(-1, -2)                              # (B, n_frames, n_freq)
    if onesided:
        frames = _ops["_fft_c2r"](frames_spec.contiguous(), [-1], mode, n_fft)
    else:
        frames = _ops["_fft_c2c"](frames_spec.contiguous(), [-1], mode, False)
        if not return_complex:
            frames = _ops["real"](frames)
    frames = _ops["mul"](frames, w)                                  # (B, n_frames, n_fft)
    total = n_fft + hop_length * (n_frames - 1)
    signal = _overlap_add(frames, hop_length, total)                 # (B, total)
    window_sq = _ops["square"](_ops["abs"](w)).expand(1, n_frames, n_fft)
    envelope = _overlap_add(window_sq, hop_length, total)[0]
    start = n_fft // 2 if center else 0
    end = total if length is None else min(start + length, total)
    if length is None and center:
        end = total - n_fft // 2
    signal = _ops["narrow"](signal, -1, start, max(end - start, 0))
    envelope = _ops["narrow"](envelope, -1, start, max(end - start, 0))
    if envelope.numel() and _ops["min"](_ops["abs"](envelope)).item() < 1e-11:
        raise RuntimeError(f"{name}: window overlap add min: {_ops['min'](_ops['abs'](envelope)).item():.3g}; "
                           "the window fails the nonzero overlap-add (NOLA) condition")
    signal = _ops["div"](signal, envelope)
    if length is not None and signal.shape[-1] < length:
        signal = _ops["pad"](signal, [0, length - signal.shape[-1]], "constant", 0.0)
    return signal if batched else _ops["squeeze"](signal, 0)


def _overlap_add(frames, hop, total):
    """sum of frames (B, n_frames, n_fft) placed every `hop` samples: (B, total)."""
    if frames.dtype.is_complex:
        parts = [_overlap_add(_ops["real"](frames), hop, total), _overlap_add(_ops["imag"](frames), hop, total)]
        return _ops["view_as_complex"](_ops["stack"](parts, -1))
    n_fft = frames.shape[-1]
    columns = frames.transpose(-1, -2).contiguous()                  # (B, n_fft, n_frames)
    out = _ops["_col2im"](columns, [1, total], [1, n_fft], [1, 1], [0, 0], [1, hop])
    return out.reshape(frames.shape[0], total)


from core._argcheck import check_module as _check_module  # noqa: E402

_check_module(globals(), __all__)
