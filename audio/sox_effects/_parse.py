"""sox's argument syntax: numbers, frequencies ("3k"), filter widths ("0.5q", "2o", "100h"),
time specifications ("1:30.5", "8000s", "1.2t", "3:00-200s") and positions ("=2", "-0.5",
"+10s"). Errors name the effect and the argument."""
import re


class EffectError(ValueError):
    """An effect's name or options are not valid."""


def fail(effect, message):
    raise EffectError(f"sox effect '{effect}': {message}")


_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def number(effect, text, what, lo=None, hi=None):
    """A float in [lo, hi]."""
    if not isinstance(text, str) or not _NUMBER.fullmatch(text.strip()):
        fail(effect, f"{what} must be a number, got {text!r}")
    value = float(text)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        fail(effect, f"{what} must be in [{lo}, {hi}], got {text}")
    return value


def leading_number(effect, text, what):
    """(value, suffix) for "12.5k"-like text."""
    m = _NUMBER.match(text or "")
    if not m:
        fail(effect, f"{what} must start with a number, got {text!r}")
    return float(m.group(0)), text[m.end():]


def frequency(effect, text, nyquist=None):
    """Hz, or kHz with a `k` suffix; below the Nyquist frequency when one is given."""
    value, suffix = leading_number(effect, text, "frequency")
    if suffix not in ("", "k"):
        fail(effect, f"bad frequency {text!r}")
    value *= 1000 if suffix == "k" else 1
    if value < 0:
        fail(effect, f"frequency must not be negative, got {text}")
    if nyquist is not None and value > nyquist:
        fail(effect, f"frequency {value:g} Hz must be less than half the sample rate ({nyquist:g} Hz)")
    return value


def width(effect, text, allowed):
    """(value, kind): kind is one of allowed ('h' Hz, 'k' kHz -> 'h', 'o' octaves, 'q' Q,
    's' slope); a bare number takes allowed[0]."""
    value, suffix = leading_number(effect, text, "width")
    kind = suffix or allowed[0]
    if len(kind) != 1 or kind not in allowed:
        fail(effect, f"width {text!r}: the unit must be one of {', '.join(allowed)}")
    if value <= 0:
        fail(effect, f"width must be positive, got {text}")
    if kind == "k":
        return value * 1000, "h"
    return value, kind


def _samples_part(effect, text, rate, default):
    """One part of a time specification, in samples (sox's rounding)."""
    if not text or not re.fullmatch(r"[0-9:.ets]+", text):
        fail(effect, f"bad time specification {text!r}")
    is_time = ":" in text or ("." in text and "e" not in text) or text.endswith("t")
    if not is_time and not text.endswith("s") and default == "t":
        is_time = True
    if is_time:
        body = text[:-1] if text.endswith("t") else text
        if "e" in body or "s" in body:
            fail(effect, f"bad time specification {text!r}")
        whole, _, frac = body.partition(".")
        fields = whole.split(":")
        if len(fields) > 3 or (fields[0] == "" and not frac and len(fields) == 1):
            fail(effect, f"bad time specification {text!r}")
        seconds = 0
        for field in fields:
            seconds = seconds * 60 + int(field or 0)
        samples = int(rate * seconds)
        if frac:
            samples += int(rate * float("." + frac) + 0.5)
        return samples
    body = text[:-1] if text.endswith("s") else text
    try:
        return int(float(body) + 0.5)
    except ValueError:
        fail(effect, f"bad sample count {text!r}")


def samples(effect, text, rate, default="t", start=0, combine="+"):
    """A time specification in samples: parts joined by + or -, a bare number in seconds
    (default 't') or samples ('s')."""
    total = start
    for sign, part in re.findall(r"([+-]?)([^+-]+)", text) if text else [("", "")]:
        value = _samples_part(effect, part.strip(), rate, default)
        op = sign or combine
        total = total + value if op == "+" else max(0, total - value)
        combine = "+"
    if not re.fullmatch(r"[+-]?[^+-]+([+-][^+-]+)*", text or ""):
        fail(effect, f"bad time specification {text!r}")
    return total


def position(effect, text, rate, latest, end, default):
    """An audio position: '=' from the start, '-' from the end, '+' after `latest`."""
    anchor = text[0] if text and text[0] in "=+-" else default
    body = text[1:] if text and text[0] in "=+-" else text
    combine = "+"
    if anchor in "+-":
        combine = anchor
        if body and body[0] in "+-":
            combine, body = body[0], body[1:]
    base = {"=": 0, "+": latest, "-": end}[anchor]
    if base is None:
        fail(effect, f"position {text!r} is relative to an unknown end")
    return samples(effect, body, rate, "t", start=base, combine=combine)
