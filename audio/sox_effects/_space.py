"""Delay and modulation effects: echo, echos, chorus, flanger, phaser, tremolo, reverb."""
import math

import core

from audio import _kernels
from audio.sox_effects._parse import fail, number


def _gains(effect, args):
    return number(effect, args[0], "gain-in", 0, 1), number(effect, args[1], "gain-out", 0)


def echo(effect, args, waveform, rate):
    """echo / echos gain-in gain-out <delay decay>...: up to 7 echoes; the output runs on
    until the longest (echo) or the sum of all delays (echos) has passed."""
    if len(args) < 4 or len(args) % 2:
        fail(effect, f"expected gain-in gain-out delay decay [delay decay ...], got {args}")
    gain_in, gain_out = _gains(effect, args)
    pairs = [(number(effect, d, "delay", 0), number(effect, k, "decay", 0, 1)) for d, k in zip(args[2::2], args[3::2])]
    if len(pairs) > 7:
        fail(effect, "at most 7 delays")
    delays = [int(d * rate / 1000.0) for d, _ in pairs]
    if min(delays) < 1:
        fail(effect, "every delay must be at least one sample")
    sequential = effect == "echos"
    tail = sum(delays) if sequential else max(delays)
    table = core.tensor(pairs, dtype=core.float64)
    return _kernels.echo(waveform, int(rate), gain_in, gain_out, table, sequential, tail), rate


def chorus(effect, args, waveform, rate):
    """chorus gain-in gain-out <delay decay speed depth -s|-t>...: the output runs on for the
    longest delay."""
    if len(args) < 7 or (len(args) - 2) % 5:
        fail(effect, f"expected gain-in gain-out delay decay speed depth -s|-t [...], got {args}")
    gain_in, gain_out = _gains(effect, args)
    voices = []
    for i in range(2, len(args), 5):
        delay, decay, speed, depth, shape = args[i:i + 5]
        if shape not in ("-s", "-t"):
            fail(effect, f"modulation must be -s or -t, got {shape!r}")
        voices.append((number(effect, delay, "delay", 20, 100), number(effect, decay, "decay", 0, 1),
                       number(effect, speed, "speed", 0.1, 5), number(effect, depth, "depth", 0, 10),
                       1.0 if shape == "-s" else 0.0))
    if len(voices) > 7:
        fail(effect, "at most 7 voices")
    table = core.tensor(voices, dtype=core.float64)
    return _kernels.chorus(waveform, int(rate), gain_in, gain_out, table), rate


def _choice(effect, text, options, what):
    matches = [o for o in options if o.startswith(text)] if text else []
    if len(matches) != 1:
        fail(effect, f"{what} must be one of {', '.join(options)}, got {text!r}")
    return matches[0]


def flanger(effect, args, waveform, rate):
    """flanger [delay depth regen width speed shape phase interp]."""
    names = [("delay", 0, 10, 0.0), ("depth", 0, 10, 2.0), ("regen", -95, 95, 0.0), ("width", 0, 100, 71.0),
             ("speed", 0.1, 10, 0.5)]
    values = []
    args = list(args)
    for name, lo, hi, default in names:
        values.append(number(effect, args.pop(0), name, lo, hi) if args else default)
    shape = _choice(effect, args.pop(0), ("sine", "triangle"), "shape") if args else "sine"
    phase = number(effect, args.pop(0), "phase", 0, 100) if args else 25.0
    interp = _choice(effect, args.pop(0), ("linear", "quadratic"), "interp") if args else "linear"
    if args:
        fail(effect, f"unexpected arguments {args}")
    if waveform.shape[0] > 4:
        fail(effect, f"at most 4 channels, got {waveform.shape[0]}")
    delay, depth, regen, width, speed = values
    out = _kernels.flanger(waveform, int(rate), delay, depth, regen, width, speed, shape == "sine", phase,
                           interp == "quadratic")
    return out, rate


def phaser(effect, args, waveform, rate):
    """phaser [gain-in [gain-out [delay [decay [speed]]]]] [-s|-t]."""
    args = list(args)
    sinusoidal = True
    if args and args[-1] in ("-s", "-t"):
        sinusoidal = args.pop() == "-s"
    limits = [("gain-in", 0, 1, 0.4), ("gain-out", 0, 1e9, 0.74), ("delay", 0, 5, 3.0), ("decay", 0, 0.99, 0.4),
              ("speed", 0.1, 2, 0.5)]
    if len(args) > len(limits):
        fail(effect, f"unexpected arguments {args[len(limits):]}")
    values = [number(effect, args[i], n, lo, hi) if i < len(args) else d for i, (n, lo, hi, d) in enumerate(limits)]
    gain_in, gain_out, delay, decay, speed = values
    return _kernels.phaser(waveform, int(rate), gain_in, gain_out, delay, decay, speed, sinusoidal), rate


def tremolo(effect, args, waveform, rate):
    """tremolo speed [depth]: amplitude modulation 1 - depth/200 * (1 - cos(2 pi speed t))."""
    if not 1 <= len(args) <= 2:
        fail(effect, f"expected speed [depth], got {args}")
    speed = number(effect, args[0], "speed", 0)
    depth = number(effect, args[1], "depth", 0, 100) if len(args) > 1 else 40.0
    t = core.arange(waveform.shape[1], dtype=waveform.dtype)
    gain = 1 - depth / 200 * (1 - (t * (2 * math.pi * speed / rate)).cos())
    return (waveform * gain).clamp(-1.0, 1.0), rate


def reverb(effect, args, waveform, rate):
    """reverb [-w] [reverberance [HF-damping [room-scale [stereo-depth [pre-delay [wet-gain]]]]]];
    a mono input comes out stereo unless stereo-depth is 0."""
    args = list(args)
    wet_only = bool(args) and args[0] in ("-w", "--wet-only")
    if wet_only:
        args.pop(0)
    limits = [("reverberance", 0, 100, 50.0), ("HF-damping", 0, 100, 50.0), ("room-scale", 0, 100, 100.0),
              ("stereo-depth", 0, 100, 100.0), ("pre-delay", 0, 500, 0.0), ("wet-gain", -10, 10, 0.0)]
    if len(args) > len(limits):
        fail(effect, f"unexpected arguments {args[len(limits):]}")
    values = [number(effect, args[i], n, lo, hi) if i < len(args) else d for i, (n, lo, hi, d) in enumerate(limits)]
    reverberance, damping, room, depth, pre_delay, wet_gain = values
    out = _kernels.reverb(waveform, float(rate), reverberance, damping, room, depth, pre_delay, wet_gain, wet_only)
    return out, rate


EFFECTS = {"echo": echo, "echos": echo, "chorus": chorus, "flanger": flanger, "phaser": phaser,
           "tremolo": tremolo, "reverb": reverb}
