"""audio I/O and filters against torchaudio (and soundfile alone for I/O), in one run:

    python benchmarks/bench_audio.py [--threads 1 2] [--repeats R] [--seconds 60]

Cases: decoding a 60 s 44.1 kHz stereo 16-bit FLAC and WAV to float32 [channel, time]
(audio.load vs torchaudio.load vs soundfile.read, which gives [time, channel]), and lfilter /
lowpass_biquad over the same 60 s (float32, two channels). The column "numpy" is soundfile
for the I/O cases. Ratios below 1 mean we are faster. torchaudio >= 2.9 decodes through
torchcodec (FFmpeg): without it its I/O columns print n/a.
"""
import argparse
import os
import tempfile

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import harness  # noqa: E402

try:
    import torchaudio
except ImportError:  # pragma: no cover - depends on the environment
    torchaudio = None

SR = 44100


def _signal(seconds):
    rng = np.random.default_rng(0)
    t = np.arange(int(SR * seconds)) / SR
    x = np.stack([0.4 * np.sin(2 * np.pi * 440 * t), 0.3 * np.sin(2 * np.pi * 660 * t)])
    return (x + 0.05 * rng.standard_normal(x.shape)).astype(np.float32)


def io_benches(directory, seconds):
    import soundfile

    import audio

    x = _signal(seconds)
    benches = []
    for fmt in ("flac", "wav"):
        path = os.path.join(directory, f"bench.{fmt}")
        soundfile.write(path, x.T, SR, subtype="PCM_16")
        makers = {
            "ours": lambda path=path: (lambda: audio.load(path)[0]),
            "numpy": lambda path=path: (lambda: soundfile.read(path, dtype="float32")[0].T),
        }
        if torchaudio is not None:
            makers["pytorch"] = lambda path=path: (lambda: torchaudio.load(path)[0])
        benches.append(harness.Bench(f"load {seconds:g} s 44.1 kHz stereo 16-bit {fmt}", makers))
    return benches


def filter_benches(seconds):
    import core
    import audio.functional as F

    x = _signal(seconds)
    a, b = np.array([1.0, -1.8, 0.81], np.float32), np.array([0.0025, 0.005, 0.0025], np.float32)
    ours_x, ours_a, ours_b = core.from_numpy(x), core.from_numpy(a), core.from_numpy(b)
    makers_lfilter = {"ours": lambda: (lambda: F.lfilter(ours_x, ours_a, ours_b))}
    makers_biquad = {"ours": lambda: (lambda: F.lowpass_biquad(ours_x, SR, 3000.0))}
    if torchaudio is not None:
        import torch

        tx, ta, tb = torch.from_numpy(x), torch.from_numpy(a), torch.from_numpy(b)
        makers_lfilter["pytorch"] = lambda: (lambda: torchaudio.functional.lfilter(tx, ta, tb))
        makers_biquad["pytorch"] = lambda: (lambda: torchaudio.functional.lowpass_biquad(tx, SR, 3000.0))
    return [harness.Bench(f"lfilter order 2, {seconds:g} s stereo float32", makers_lfilter, check=False),
            harness.Bench(f"lowpass_biquad, {seconds:g} s stereo float32", makers_biquad, check=False)]


def agreement(seconds):
    """ours vs torchaudio on the filters (the harness checks I/O against soundfile)."""
    if torchaudio is None:
        return "torchaudio not installed: filter outputs not compared"
    import torch

    import core
    import audio.functional as F

    x = _signal(seconds)
    ours = F.lowpass_biquad(core.from_numpy(x), SR, 3000.0).numpy()
    theirs = torchaudio.functional.lowpass_biquad(torch.from_numpy(x), SR, 3000.0).numpy()
    return f"lowpass_biquad max |ours - torchaudio| = {np.abs(ours - theirs).max():.2e}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        benches = io_benches(directory, args.seconds) + filter_benches(args.seconds)
        for threads in args.threads:
            harness.set_threads(threads)
            print(harness.header(threads))
            if torchaudio is not None:
                print(f"torchaudio {torchaudio.__version__}; the numpy column is soundfile.read for I/O")
            results = [harness.run_bench(bench, repeats=args.repeats) for bench in benches]
            print(harness.format_table(results))
            for r in results:
                ours, sf = r.seconds.get("ours"), r.seconds.get("numpy")
                if ours and sf:
                    print(f"  {r.name}: ours / soundfile = {harness.format_ratio(ours, sf)}")
            print()
    print(agreement(args.seconds))


if __name__ == "__main__":
    main()
