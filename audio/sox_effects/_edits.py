"""Effects that cut, pad, reorder or mix: trim, pad, reverse, fade, channels, remix."""
import math
import re

import core

from audio.sox_effects._parse import fail, number, position, samples


def _length(waveform):
    return waveform.shape[1]


def trim(effect, args, waveform, rate):
    """trim {position(+)}: keep from the first position, then alternately cut and keep."""
    if not args:
        fail(effect, "expected at least one position")
    n, latest, cuts = _length(waveform), 0, []
    for text in args:
        latest = position(effect, text, rate, latest, n, "+")
        cuts.append(latest)
    if any(b < a for a, b in zip(cuts, cuts[1:])):
        fail(effect, f"positions must not go backwards: {args}")
    cuts.append(n)
    pieces = [waveform[:, min(a, n):min(b, n)] for a, b in zip(cuts[0::2], cuts[1::2])]
    return core.cat(pieces, dim=1) if len(pieces) > 1 else pieces[0].contiguous(), rate


def pad(effect, args, waveform, rate):
    """pad {length[@position(=)]}: insert silence; the first length goes at the start and a
    last one without a position at the end."""
    if not args:
        fail(effect, "expected at least one length")
    n, inserts = _length(waveform), []
    for i, text in enumerate(args):
        length_text, _, where = text.partition("@")
        length = samples(effect, length_text, rate)
        if where:
            at = position(effect, where, rate, inserts[-1][0] if inserts else 0, n, "=")
        else:
            at = 0 if i == 0 else n if i == len(args) - 1 else None
            if at is None:
                fail(effect, f"{text!r} needs a position (length@position)")
        if inserts and at < inserts[-1][0]:
            fail(effect, f"positions must not go backwards: {args}")
        if at > n:
            fail(effect, f"position {where or text!r} is past the end of the audio")
        inserts.append((at, length))
    pieces, start = [], 0
    for at, length in inserts:
        pieces.append(waveform[:, start:at])
        pieces.append(core.zeros((waveform.shape[0], length), dtype=waveform.dtype))
        start = at
    pieces.append(waveform[:, start:])
    return core.cat(pieces, dim=1), rate


def reverse(effect, args, waveform, rate):
    if args:
        fail(effect, f"takes no arguments, got {args}")
    return waveform.flip(1), rate


_FADE_SHAPES = {
    "t": lambda f: f,
    "q": lambda f: (f * (math.pi / 2)).sin(),
    "h": lambda f: (1 - (f * math.pi).cos()) / 2,
    "l": lambda f: core.pow(0.1, (1 - f) * 5),  # -100 dB at the start of a fade in
    "p": lambda f: 1 - (1 - f) * (1 - f),
}


def fade(effect, args, waveform, rate):
    """fade [q|h|t|l|p] fade-in-length [stop-position(=) [fade-out-length]]; logarithmic by
    default. Past the end, the fade-out pads with silence."""
    shape = "l"
    if args and re.fullmatch(r"[qhltp]", args[0]):
        shape, args = args[0], args[1:]
    if not 1 <= len(args) <= 3:
        fail(effect, f"expected [type] fade-in-length [stop-position [fade-out-length]], got {args}")
    n = _length(waveform)
    fade_in = samples(effect, args[0], rate)
    stop = None
    if len(args) > 1:
        stop = n if args[1] in ("0", "-0") else position(effect, args[1], rate, 0, n, "=")
    fade_out = samples(effect, args[2], rate) if len(args) > 2 else fade_in
    if stop is not None and fade_in > stop - fade_out and stop - fade_out != 0:
        fail(effect, "the fade-in must end before the fade-out begins")
    curve = _FADE_SHAPES[shape]
    total = n if stop is None else stop
    if total > n:
        waveform = core.cat([waveform, core.zeros((waveform.shape[0], total - n), dtype=waveform.dtype)], dim=1)
    waveform = waveform[:, :total]
    t = core.arange(total, dtype=waveform.dtype)
    gain = core.ones(total, dtype=waveform.dtype)
    if fade_in > 0:
        gain = core.where(t < fade_in, curve((t / fade_in).clamp(0, 1)), gain)
    if stop is not None and fade_out > 0:
        gain = core.where(t >= stop - fade_out, curve(((stop - t) / fade_out).clamp(0, 1)), gain)
    return waveform * gain, rate


def channels(effect, args, waveform, rate):
    """channels N: fewer -> average of the inputs i with i % N == j; more -> repeat cyclically."""
    if len(args) != 1:
        fail(effect, f"expected the number of channels, got {args}")
    count = number(effect, args[0], "channels", 1)
    if count != int(count):
        fail(effect, f"the number of channels must be an integer, got {args[0]}")
    count, have = int(count), waveform.shape[0]
    if count == have:
        return waveform, rate
    if count > have:
        return waveform[[j % have for j in range(count)]], rate
    rows = [waveform[j::count].mean(dim=0) for j in range(count)]
    return core.stack(rows), rate


_IN_SPEC = re.compile(r"(\d*)(-?)(\d*)(?:([piv])(-?[\d.]*))?")


def remix(effect, args, waveform, rate):
    """remix [-a|-m|-p] out-spec...: each output channel mixes input channels (1-based, with
    ranges and p/i/v volume specs); 0 is a silent channel."""
    mode = "a_default"
    if args and args[0] in ("-a", "-m", "-p"):
        mode, args = args[0], args[1:]
    if not args:
        fail(effect, "expected at least one output channel specification")
    have, outputs = waveform.shape[0], []
    for spec in args:
        if spec == "0":
            outputs.append(core.zeros(waveform.shape[1], dtype=waveform.dtype))
            continue
        terms, any_volume = [], False
        for part in spec.split(","):
            m = _IN_SPEC.fullmatch(part)
            if not m or not (m.group(1) or m.group(2)):
                fail(effect, f"bad input channel specification {part!r} in {spec!r}")
            first = int(m.group(1)) if m.group(1) else 1
            last = (int(m.group(3)) if m.group(3) else have) if m.group(2) else first
            if not 1 <= first <= last <= have:
                fail(effect, f"channel {part!r} is not among the {have} input channels")
            volume = None
            if m.group(4):
                any_volume = True
                letter, amount = m.group(4), m.group(5)
                if amount in ("", "-"):
                    volume = 1.0
                elif letter == "v":
                    volume = float(amount)
                else:  # p and i: a power change in dB (i inverts)
                    volume = 10 ** (float(amount) / 20)
                volume = -volume if letter == "i" else volume
            terms.extend((c - 1, volume) for c in range(first, last + 1))
        auto = 1.0  # 1/n (or 1/sqrt(n) with -p) for the inputs without their own volume
        if mode != "-m" and (mode in ("-a", "-p") or not any_volume):
            auto = 1 / math.sqrt(len(terms)) if mode == "-p" else 1 / len(terms)
        mixed = sum(waveform[c] * (auto if v is None else v) for c, v in terms)
        outputs.append(mixed)
    return core.stack(outputs).clamp(-1.0, 1.0), rate


EFFECTS = {"trim": trim, "pad": pad, "reverse": reverse, "fade": fade, "channels": channels, "remix": remix}


def _threshold(effect, text):
    value, unit = (text[:-1], text[-1]) if text and text[-1] in "d%" else (text, "%")
    level = number(effect, value, "threshold")
    if unit == "%":
        if not 0 <= level <= 100:
            fail(effect, f"threshold must be in [0, 100] %, got {text}")
        return level / 100
    if level >= 0:
        fail(effect, f"a threshold in dB must be negative, got {text}")
    return 10 ** (level / 20)


def silence(effect, args, waveform, rate):
    """silence [-l] above-periods [duration threshold[d|%]] [below-periods duration threshold[d|%]];
    a bare duration counts samples."""
    from audio import _kernels

    leave = args[:1] == ["-l"]
    args = args[1:] if leave else list(args)
    if not args:
        fail(effect, "expected above-periods [duration threshold] [below-periods duration threshold]")
    start_periods = int(number(effect, args[0], "above-periods", 0))
    rest = args[1:]
    start_duration, start_threshold = 0, 0.0
    if start_periods > 0:
        if len(rest) < 2:
            fail(effect, "above-periods > 0 needs a duration and a threshold")
        start_duration = samples(effect, rest[0], rate, default="s")
        start_threshold = _threshold(effect, rest[1])
        rest = rest[2:]
    stop_periods, stop_duration, stop_threshold = 0, 0, 0.0
    if rest:
        if len(rest) != 3:
            fail(effect, f"expected below-periods duration threshold, got {rest}")
        stop_periods = int(number(effect, rest[0], "below-periods"))
        stop_duration = samples(effect, rest[1], rate, default="s")
        stop_threshold = _threshold(effect, rest[2])
    out = _kernels.silence(waveform, float(rate), start_periods, start_duration, start_threshold, stop_periods,
                           stop_duration, stop_threshold, leave)
    return out, rate


EFFECTS["silence"] = silence


# vad's options: letter -> keyword of functional.vad
_VAD_OPTIONS = {"t": "trigger_level", "T": "trigger_time", "s": "search_time", "g": "allowed_gap",
                "p": "pre_trigger_time", "b": "boot_time", "N": "noise_up_time", "n": "noise_down_time",
                "r": "noise_reduction_amount", "f": "measure_freq", "m": "measure_duration",
                "M": "measure_smooth_time", "h": "hp_filter_freq", "l": "lp_filter_freq", "H": "hp_lifter_freq",
                "L": "lp_lifter_freq"}


def vad(effect, args, waveform, rate):
    """vad [-t level] [-T time] [-s time] [-g gap] [-p time] [-b time] [-N t] [-n t] [-r n] [-f freq]
    [-m time] [-M time] [-h freq] [-l freq] [-H freq] [-L freq]: trims up to the first voice."""
    from audio.functional.filtering import vad as detect

    options = {}
    args = list(args)
    while args:
        flag = args.pop(0)
        if len(flag) != 2 or flag[0] != "-" or flag[1] not in _VAD_OPTIONS or not args:
            fail(effect, f"invalid option {flag!r} (or its value is missing)")
        options[_VAD_OPTIONS[flag[1]]] = number(effect, args.pop(0), flag)
    return detect(waveform, rate, **options), rate


EFFECTS["vad"] = vad
