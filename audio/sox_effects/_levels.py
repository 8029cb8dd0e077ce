"""Level and waveshaping effects: gain, vol, norm, dcshift, contrast, overdrive, dither."""
import math

import core

from audio.functional import filtering as F
from audio.sox_effects._parse import fail, leading_number, number


def _clip(waveform):
    return waveform.clamp(-1.0, 1.0)


def _peak(waveform, dims=None):
    return waveform.abs().amax() if dims is None else waveform.abs().amax(dim=dims, keepdim=True)


def gain(effect, args, waveform, rate):
    """gain [-e|-B|-b] [-n] [-l] [gain-dB]: the scan options look at the whole signal first."""
    flags = set()
    while args and args[0].startswith("-") and len(args[0]) > 1 and not (args[0][1].isdigit() or args[0][1] == "."):
        for flag in args[0][1:]:
            if flag not in "neBblhr":
                fail(effect, f"invalid option '-{flag}'")
            if flag in "hr":
                fail(effect, f"-{flag} (headroom kept for later effects) is not supported")
            flags.add(flag)
        args = args[1:]
    if len(flags & set("eBb")) > 1:
        fail(effect, "only one of -e, -B, -b may be given")
    if len(args) > 1:
        fail(effect, f"unexpected arguments {args[1:]}")
    fixed = 10 ** (number(effect, args[0], "gain-dB") / 20) if args else 1.0
    x = waveform
    if "B" in flags or "b" in flags:  # balance the channels' RMS levels
        rms = x.square().mean(dim=1, keepdim=True).sqrt()
        mult = core.where(rms > 0, rms.amax() / rms, core.ones_like(rms))
        peak = (mult * _peak(x, 1)).amax()
        if "n" in flags or ("b" in flags and peak > 1):
            mult = mult / peak
        y = x * (mult * fixed)
    elif "e" in flags and "n" not in flags:  # equalise the channels' peaks
        peaks = _peak(x, 1)
        y = x * (fixed * peaks.amax() / peaks)
    elif "n" in flags:  # normalise: jointly, or each channel with -e
        peaks = _peak(x, 1) if "e" in flags else _peak(x)
        y = x * (fixed / peaks)
        y = core.where(peaks > 0, y, core.zeros_like(x))
    else:
        y = x * fixed
    if "l" in flags and fixed > 1:  # sox's simple limiter: [0, gain] onto [0, 1]
        limit = 1 - 1 / fixed
        y = y / (1 + limit * y.abs())
    return _clip(y), rate


def norm(effect, args, waveform, rate):
    """norm [-i|-b] [dB-level]: gain -n (-en / -Bn) to the level."""
    flags = "-n"
    if args[:1] == ["-i"]:
        flags, args = "-en", args[1:]
    elif args[:1] == ["-b"]:
        flags, args = "-Bn", args[1:]
    if len(args) > 1:
        fail(effect, f"unexpected arguments {args[1:]}")
    return gain("gain", [flags] + args, waveform, rate)


def vol(effect, args, waveform, rate):
    """vol gain [amplitude|power|dB [limitergain]] (the type may be glued to the gain)."""
    if not 1 <= len(args) <= 3:
        fail(effect, f"expected 1 to 3 arguments, got {len(args)}")
    value, kind = leading_number(effect, args[0], "gain")
    rest = list(args[1:])
    if not kind:
        kind = rest.pop(0) if rest else "amplitude"
    if len(rest) > 1:
        fail(effect, f"unexpected arguments {rest[1:]}")
    if not ("amplitude".startswith(kind) or "power".startswith(kind) or kind.lower() == "db"):
        fail(effect, f"type must be amplitude, power or dB, got {kind!r}")
    if kind.lower() == "db":
        value = 10 ** (value / 20)
    elif "power".startswith(kind):
        value = math.copysign(math.sqrt(abs(value)), value)
    if not rest:
        return _clip(waveform * value), rate
    limiter = number(effect, rest[0], "limitergain", 0, 1)
    if abs(value) <= 1 or not 0 < limiter < 1:
        fail(effect, "the limiter needs |gain| > 1 and 0 < limitergain < 1")
    threshold = (1 - limiter) / (abs(value) - limiter)
    top = 1 - limiter * (1 - waveform)
    bottom = -(1 - limiter * (1 + waveform))
    y = core.where(waveform > threshold, top, core.where(waveform < -threshold, bottom, waveform * value))
    return _clip(y), rate


def dcshift(effect, args, waveform, rate):
    if not 1 <= len(args) <= 2:
        fail(effect, f"expected shift [limitergain], got {args}")
    shift = number(effect, args[0], "shift", -2, 2)
    limiter = number(effect, args[1], "limitergain") if len(args) > 1 else None
    return F.dcshift(waveform, shift, limiter), rate


def contrast(effect, args, waveform, rate):
    if len(args) > 1:
        fail(effect, f"expected [enhancement-amount], got {args}")
    amount = number(effect, args[0], "enhancement-amount", 0, 100) if args else 75.0
    return _clip(F.contrast(waveform, amount)), rate


def overdrive(effect, args, waveform, rate):
    if len(args) > 2:
        fail(effect, f"expected [gain [colour]], got {args}")
    g = number(effect, args[0], "gain", 0, 100) if args else 20.0
    colour = number(effect, args[1], "colour", 0, 100) if len(args) > 1 else 20.0
    return F.overdrive(waveform, g, colour), rate


def dither(effect, args, waveform, rate):
    """dither [-S] [-a] [-p precision]: TPDF noise of one step at the target precision, then
    rounding to it. Without -p the target is the output's own precision (32-bit float
    tensors), where sox leaves the audio alone."""
    sloped, precision = False, None
    while args:
        if args[0] == "-S":
            sloped, args = True, args[1:]
        elif args[0] == "-a":
            args = args[1:]  # auto mode: dithering only where needed; the rounding below is a no-op elsewhere
        elif args[0] == "-p" and len(args) > 1:
            precision, args = int(number(effect, args[1], "precision", 1, 24)), args[2:]
        elif args[0] in ("-s", "-f"):
            fail(effect, "noise-shaping filters (-s, -f) are not supported")
        else:
            fail(effect, f"unexpected argument {args[0]!r}")
    if precision is None:
        return waveform, rate
    from audio.utils.sox_utils import generator as seeded  # sox_utils.set_seed seeds it

    generator = seeded()
    scale = 2.0 ** (precision - 1)
    shape = waveform.shape
    noise = core.rand(shape, dtype=waveform.dtype, generator=generator) - 0.5
    if sloped:  # the difference of successive uniforms: TPDF tilted towards high frequencies
        noise = noise - core.nn.functional.pad(noise[:, :-1], (1, 0))
    else:
        noise = noise + core.rand(shape, dtype=waveform.dtype, generator=generator) - 0.5
    return _clip((waveform * scale + noise).round() / scale), rate


EFFECTS = {"gain": gain, "norm": norm, "vol": vol, "dcshift": dcshift, "contrast": contrast,
           "overdrive": overdrive, "dither": dither}
