"""Rate and time-scale effects: rate, speed, tempo, pitch."""
from audio import _kernels
from audio.sox_effects._parse import fail, frequency, leading_number, number

# rate's quality levels: (bandwidth as a fraction of Nyquist, rejection in dB)
_QUALITY = {"-q": (0.80, 60.0), "-l": (0.80, 100.0), "-m": (0.95, 100.0), "-h": (0.95, 125.0), "-v": (0.95, 175.0)}


def rate(effect, args, waveform, rate_in):
    """rate [-q|-l|-m|-h|-v] [-s] [-b bandwidth] [-a] [-L] RATE[k]: linear-phase band-limited
    resampling (high quality by default: 95 % bandwidth, 125 dB rejection)."""
    bandwidth, rejection = _QUALITY["-h"]
    args = list(args)
    while args and args[0].startswith("-") and not args[0][1:2].isdigit():
        flag = args.pop(0)
        if flag in _QUALITY:
            bandwidth, rejection = _QUALITY[flag]
        elif flag == "-s":
            bandwidth = 0.99
        elif flag == "-b" and args:
            bandwidth = number(effect, args.pop(0), "bandwidth", 74, 99.7) / 100
        elif flag in ("-a", "-L"):
            pass  # aliasing above the pass band is allowed anyway / linear phase is what we do
        elif flag == "-p" and args and float(args[0]) == 50:
            args.pop(0)
        elif flag in ("-M", "-I", "-p"):
            fail(effect, "only the linear phase response (-L, -p 50) is supported")
        else:
            fail(effect, f"invalid option {flag!r}")
    if len(args) != 1:
        fail(effect, f"expected the new sample rate, got {args}")
    target = frequency(effect, args[0])
    if target <= 0:
        fail(effect, f"the sample rate must be positive, got {args[0]}")
    if target == rate_in:
        return waveform, rate_in
    return _kernels.resample(waveform, float(rate_in), target, bandwidth, rejection), target


def speed(effect, args, waveform, rate_in):
    """speed factor[c]: relabels the rate (a later `rate` resamples): pitch and tempo change."""
    if len(args) != 1:
        fail(effect, f"expected factor[c], got {args}")
    value, suffix = leading_number(effect, args[0], "factor")
    if suffix not in ("", "c"):
        fail(effect, f"bad factor {args[0]!r}")
    factor = 2 ** (value / 1200) if suffix == "c" else value
    if factor <= 0:
        fail(effect, f"factor must be positive, got {args[0]}")
    return waveform, rate_in * factor


# tempo's defaults per profile: segment (ms), its dependence on the factor, and the divisors
# that give search and overlap from the segment (sox 14.4: none, -m, -s, -l).
_PROFILES = {None: (82, 0, 5.587, 6.833), "-m": (82, 1, 6, 7), "-s": (35, 0.33, 2.14, 2.5), "-l": (20, 1, 0, 2)}


def _tempo_settings(effect, args):
    args = list(args)
    quick, profile = False, None
    while args and args[0] in ("-q", "-m", "-s", "-l"):
        flag = args.pop(0)
        quick, profile = (True, profile) if flag == "-q" else (quick, flag)
    if not 1 <= len(args) <= 4:
        fail(effect, f"expected [-q] [-m|-s|-l] factor [segment [search [overlap]]], got {args}")
    return quick, profile, args


def _tempo_lengths(effect, profile, factor, rest):
    segment_ms, power, search_div, overlap_div = _PROFILES[profile]
    segment = number(effect, rest[0], "segment", 10, 120) if rest else segment_ms / max(factor ** power, 1)
    search = number(effect, rest[1], "search", 0, 30) if len(rest) > 1 else (segment / search_div if search_div else 0)
    overlap = number(effect, rest[2], "overlap", 0, 30) if len(rest) > 2 else segment / overlap_div
    if overlap + search >= segment:
        fail(effect, "segment must be longer than search + overlap")
    return segment, search, overlap


def tempo(effect, args, waveform, rate_in):
    """tempo [-q] [-m|-s|-l] factor [segment [search [overlap]]]: WSOLA; pitch unchanged."""
    quick, profile, args = _tempo_settings(effect, args)
    factor = number(effect, args[0], "factor", 0.1, 100)
    if factor == 1:
        return waveform, rate_in
    segment, search, overlap = _tempo_lengths(effect, profile, factor, args[1:])
    return _kernels.tempo(waveform, float(rate_in), factor, segment, search, overlap, quick), rate_in


def pitch(effect, args, waveform, rate_in):
    """pitch [-q] shift-cents [segment [search [overlap]]]: tempo by 2^(-cents/1200), then the
    rate relabelled (a later `rate` restores the length with the pitch moved)."""
    quick, profile, args = _tempo_settings(effect, args)
    if profile is not None:
        fail(effect, f"{profile} is an option of tempo, not pitch")
    factor = 2 ** (number(effect, args[0], "shift") / 1200)
    if factor == 1:
        return waveform, rate_in
    segment, search, overlap = _tempo_lengths(effect, None, 1 / factor, args[1:])
    out = _kernels.tempo(waveform, float(rate_in), 1 / factor, segment, search, overlap, quick)
    return out, rate_in * factor


EFFECTS = {"rate": rate, "speed": speed, "tempo": tempo, "pitch": pitch}
