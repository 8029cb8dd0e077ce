"""sox's biquad family: lowpass, highpass, bandpass, bandreject, allpass, band, bass, treble,
equalizer, biquad, deemph, riaa. Coefficients as sox's biquads.c designs them (RBJ cookbook),
run by the lfilter kernel."""
import math

from audio.functional import filtering as F
from audio.sox_effects._parse import fail, frequency, number, width


def _alpha(effect, w0, A, value, kind, fc):
    """The RBJ bandwidth parameter for a width given as slope, Q, octaves or Hz."""
    s = math.sin(w0)
    if kind == "s":
        return s / 2 * math.sqrt((A + 1 / A) * (1 / value - 1) + 2)
    if kind == "q":
        return s / (2 * value)
    if kind == "o":
        return s * math.sinh(math.log(2) / 2 * value * w0 / s)
    if kind == "h":
        return s / (2 * fc / value)
    fail(effect, f"unknown width unit {kind!r}")


def _omega(effect, fc, rate):
    w0 = 2 * math.pi * fc / rate
    if w0 > math.pi:
        fail(effect, f"frequency {fc:g} Hz must be less than half the sample rate ({rate / 2:g} Hz)")
    return w0


def _run(waveform, coeffs):
    return F.biquad(waveform, *coeffs)


def _count(effect, args, lo, hi):
    if not lo <= len(args) <= hi:
        fail(effect, f"expected {lo}{'' if lo == hi else f' to {hi}'} arguments, got {len(args)}: {args}")


def lowpass_highpass(effect, args, waveform, rate):
    poles = 2
    if args and args[0] in ("-1", "-2"):
        poles, args = int(args[0][1]), args[1:]
    _count(effect, args, 1, 1 if poles == 1 else 2)
    fc = frequency(effect, args[0])
    w0 = _omega(effect, fc, rate)
    if poles == 1:  # one-pole RC filters
        a1 = -math.exp(-w0)
        b = (1 + a1, 0.0) if effect == "lowpass" else ((1 - a1) / 2, -(1 - a1) / 2)
        return _run(waveform, (b[0], b[1], 0.0, 1.0, a1, 0.0)), rate
    value, kind = width(effect, args[1], "qohk") if len(args) > 1 else (math.sqrt(0.5), "q")
    alpha = _alpha(effect, w0, 1.0, value, kind, fc)
    c = math.cos(w0)
    b = ((1 - c) / 2, 1 - c, (1 - c) / 2) if effect == "lowpass" else ((1 + c) / 2, -(1 + c), (1 + c) / 2)
    return _run(waveform, b + (1 + alpha, -2 * c, 1 - alpha)), rate


def bandpass_bandreject_allpass(effect, args, waveform, rate):
    skirt = effect == "bandpass" and args[:1] == ["-c"]
    args = args[1:] if skirt else args
    _count(effect, args, 2, 2)
    fc = frequency(effect, args[0])
    w0 = _omega(effect, fc, rate)
    value, kind = width(effect, args[1], "hkqo")
    alpha, c = _alpha(effect, w0, 1.0, value, kind, fc), math.cos(w0)
    den = (1 + alpha, -2 * c, 1 - alpha)
    if effect == "bandpass":
        top = math.sin(w0) / 2 if skirt else alpha
        num = (top, 0.0, -top)
    elif effect == "bandreject":
        num = (1.0, -2 * c, 1.0)
    else:
        num = (1 - alpha, -2 * c, 1 + alpha)
    return _run(waveform, num + den), rate


def band(effect, args, waveform, rate):
    noise = args[:1] == ["-n"]
    args = args[1:] if noise else args
    _count(effect, args, 1, 2)
    fc = frequency(effect, args[0])
    w0 = _omega(effect, fc, rate)
    value, kind = width(effect, args[1], "hkqo") if len(args) > 1 else (fc / 2, "h")
    bw_hz = fc / value if kind == "q" else value if kind == "h" else fc * (2 ** value - 1) * 2 ** (-0.5 * value)
    a2 = math.exp(-2 * math.pi * bw_hz / rate)
    a1 = -4 * a2 / (1 + a2) * math.cos(w0)
    b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
    if noise:
        b0 *= math.sqrt(((1 + a2) * (1 + a2) - a1 * a1) * (1 - a2) / (1 + a2)) / b0
    return _run(waveform, (b0, 0.0, 0.0, 1.0, a1, a2)), rate


def bass_treble(effect, args, waveform, rate):
    _count(effect, args, 1, 3)
    gain = number(effect, args[0], "gain")
    fc = frequency(effect, args[1]) if len(args) > 1 else (100.0 if effect == "bass" else 3000.0)
    value, kind = width(effect, args[2], "shkqo") if len(args) > 2 else (0.5, "s")
    w0 = _omega(effect, fc, rate)
    A = math.exp(gain / 40 * math.log(10))
    alpha = _alpha(effect, w0, A, value, kind, fc)
    coeffs = F._shelf(rate, gain, fc, lambda *_: alpha, low=effect == "bass")
    return _run(waveform, coeffs), rate


def equalizer(effect, args, waveform, rate):
    _count(effect, args, 3, 3)
    fc = frequency(effect, args[0])
    value, kind = width(effect, args[1], "qohk")
    gain = number(effect, args[2], "gain")
    w0 = _omega(effect, fc, rate)
    A = math.exp(gain / 40 * math.log(10))
    alpha, c = _alpha(effect, w0, A, value, kind, fc), math.cos(w0)
    return _run(waveform, (1 + alpha * A, -2 * c, 1 - alpha * A, 1 + alpha / A, -2 * c, 1 - alpha / A)), rate


def biquad(effect, args, waveform, rate):
    _count(effect, args, 6, 6)
    coeffs = [number(effect, a, f"coefficient {i + 1}") for i, a in enumerate(args)]
    if coeffs[3] == 0:
        fail(effect, "a0 must not be zero")
    return _run(waveform, coeffs), rate


def deemph(effect, args, waveform, rate):
    _count(effect, args, 0, 0)
    if rate not in (44100, 48000):
        fail(effect, f"the sample rate must be 44100 or 48000 Hz, got {rate:g}")
    return F.deemph_biquad(waveform, int(rate)), rate


def riaa(effect, args, waveform, rate):
    _count(effect, args, 0, 0)
    if rate not in (44100, 48000, 88200, 96000):
        fail(effect, f"the sample rate must be 44100, 48000, 88200 or 96000 Hz, got {rate:g}")
    return F.riaa_biquad(waveform, int(rate)), rate


EFFECTS = {
    "lowpass": lowpass_highpass, "highpass": lowpass_highpass,
    "bandpass": bandpass_bandreject_allpass, "bandreject": bandpass_bandreject_allpass,
    "allpass": bandpass_bandreject_allpass, "band": band, "bass": bass_treble, "treble": bass_treble,
    "equalizer": equalizer, "biquad": biquad, "deemph": deemph, "riaa": riaa,
}
