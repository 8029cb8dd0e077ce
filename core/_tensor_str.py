"""PyTorch-style printing of tensors (the rules of torch/_tensor_str.py, on numpy data).

The tensor's values are read once into a numpy array (float64 for floating types, so
every value formats exactly like PyTorch's `item()`), then laid out here: a per-tensor
formatter picks fixed, integer-valued ("1.") or scientific notation and one column width;
rows wrap at `linewidth`; tensors above `threshold` elements show `edgeitems` per side.
"""
import contextlib
import dataclasses
import math

import numpy as np

from core._native import _C


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: object = None  # None: chosen per tensor; True/False: forced


PRINT_OPTS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None):
    """Sets how tensors print (same options and profiles as torch.set_printoptions).

    `profile` ('default', 'short', 'full') resets the four sizes first; the explicit options
    then override it. `sci_mode` is always assigned: None restores automatic selection.
    """
    if profile is not None:
        for name, value in _PROFILES.get(profile, {}).items():
            setattr(PRINT_OPTS, name, value)
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options, as keyword arguments for set_printoptions()."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Temporarily changes the print options (arguments as for set_printoptions)."""
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


class _Formatter:
    """One column format for every (real) value of a tensor: mode and width."""

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        flat = values.reshape(-1)
        if not floating:
            for v in flat.tolist():
                self.width = max(self.width, len(f"{v}"))
            return
        finite = flat[np.isfinite(flat) & (flat != 0)]
        if finite.size == 0:
            return
        magnitudes = np.abs(finite)
        lo, hi = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        p = PRINT_OPTS.precision
        if self.sci_mode:
            widths = (len(f"{v:.{p}e}") for v in finite.tolist())
        elif self.int_mode:
            widths = (len(f"{v:.0f}") + 1 for v in finite.tolist())  # + 1 for the trailing "."
        else:
            widths = (len(f"{v:.{p}f}") for v in finite.tolist())
        self.width = max(self.width, max(widths))

    def format(self, value):
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.width}.{PRINT_OPTS.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if not (math.isinf(value) or math.isnan(value)):
                text += "."
        else:
            text = f"{value:.{PRINT_OPTS.precision}f}"
        return " " * (self.width - len(text)) + text


class _ComplexFormatter:
    """Formats complex values as real part + imaginary part, each with its own column."""

    def __init__(self, real, imag):
        self.real = real
        self.imag = imag

    @property
    def width(self):
        return self.real.width + self.imag.width + 1  # + 1 for the "j"

    def format(self, value):
        real = self.real.format(value.real)
        imag = (self.imag.format(value.imag) + "j").lstrip()
        return real + imag if imag[0] in "+-" else real + "+" + imag


def _edge_rows(n):
    """Row indices shown along a summarised dim, with None standing for the '...'."""
    e = PRINT_OPTS.edgeitems
    if n > 2 * e:
        return list(range(e)) + [None] + list(range(n - e, n))
    return list(range(n))


def _summarized(a):
    """Only the values a summarised print shows (they decide the format)."""
    e = PRINT_OPTS.edgeitems
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        return np.concatenate((a[:e], a[-e:])) if a.shape[0] > 2 * e else a
    if not e:
        return np.empty((0,) * a.ndim, a.dtype)
    return np.stack([_summarized(a[i]) for i in _edge_rows(a.shape[0]) if i is not None])


def _vector_str(a, indent, summarize, formatter):
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (formatter.width + 2)))
    e = PRINT_OPTS.edgeitems
    if summarize and not e:
        items = ["..."]
    elif summarize and a.shape[0] > 2 * e:
        items = ([formatter.format(v) for v in a[:e].tolist()] + [" ..."]
                 + [formatter.format(v) for v in a[-e:].tolist()])
    else:
        items = [formatter.format(v) for v in a.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(a, indent, summarize, formatter):
    if a.ndim == 0:
        return formatter.format(a.item())
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, formatter)
    rows = _edge_rows(a.shape[0]) if summarize else range(a.shape[0])
    parts = ["..." if i is None else _nested_str(a[i], indent + 1, summarize, formatter) for i in rows]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _values(t):
    """The tensor's values as numpy: float64 for floating types (exact), else native."""
    if t.dtype.is_quantized:
        # The quantization layer supplies dequantize(); before it, show the stored integers.
        return t.dequantize().numpy() if hasattr(t, "dequantize") else _C._to_numpy(t)
    if t.dtype == _C.bfloat16 or t.dtype == _C.float16:
        t = t.to(_C.float32)
    return _C._to_numpy(t)


def _tensor_str(t, indent):
    """The bracketed values of a non-empty tensor, laid out for a given indent."""
    if t.numel() == 0:
        return "[]"
    a = _values(t)
    summarize = a.size > PRINT_OPTS.threshold
    shown = _summarized(a) if summarize else a
    if np.iscomplexobj(a):
        formatter = _ComplexFormatter(_Formatter(shown.real.astype(np.float64), True),
                                      _Formatter(shown.imag.astype(np.float64), True))
    else:
        floating = a.dtype.kind == "f"
        formatter = _Formatter(shown.astype(np.float64) if floating else shown, floating)
    return _nested_str(a, indent, summarize, formatter)


def _add_suffixes(text, suffixes, indent):
    """Appends ', suffix' items, wrapping onto a new line when one would pass linewidth."""
    parts = [text]
    line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _quantized_suffixes(t):
    if not hasattr(t, "qscheme"):
        return []
    suffixes = ["quantization_scheme=" + str(t.qscheme())]
    if "per_channel" in str(t.qscheme()):
        suffixes += ["scale=" + str(t.q_per_channel_scales()),
                     "zero_point=" + str(t.q_per_channel_zero_points()),
                     "axis=" + str(t.q_per_channel_axis())]
    else:
        suffixes += ["scale=" + str(t.q_scale()), "zero_point=" + str(t.q_zero_point())]
    return suffixes


def tensor_repr(t, tensor_contents=None):
    """repr(tensor): `tensor(<values>[, size=...][, dtype=...][, grad_fn=...])`."""
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    default = _C.get_default_dtype()
    # The default complex type pairs with the default float.
    plain_dtypes = (default, _C.int64, _C.bool, _C.complex128 if default == _C.float64 else _C.complex64)
    shape = "size=" + str(tuple(t._sizes))
    dtype = "dtype=" + str(t.dtype)
    if t.dtype.is_quantized:
        suffixes.append(shape)
        if t.dtype not in plain_dtypes:
            suffixes.append(dtype)
        suffixes += _quantized_suffixes(t)
    elif t.numel() == 0:
        if t.ndim != 1:  # numpy shows the shape of every empty array but a plain []
            suffixes.append(shape)
        if t.dtype != default:  # no element hints at the dtype
            suffixes.append(dtype)
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(shape)
        if t.dtype not in plain_dtypes:
            suffixes.append(dtype)
    text = tensor_contents if tensor_contents is not None else _tensor_str(t, indent)

    grad_fn = getattr(t, "grad_fn", None)
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn.name()}>")
    elif getattr(t, "requires_grad", False):
        suffixes.append("requires_grad=True")
    names = getattr(t, "names", None)
    if names is not None and any(n is not None for n in names):
        suffixes.append(f"names={tuple(names)}")
    return _add_suffixes(prefix + text, suffixes, indent)
