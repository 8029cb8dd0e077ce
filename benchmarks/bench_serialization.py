"""Checkpoint save + load, core.save/core.load vs torch.save/torch.load:

    python benchmarks/bench_serialization.py [--threads N] [--repeats R]

A state dict of 170 float32 tensors holding 5.5M parameters (a MobileNetV3-sized model:
conv weights, BN weight/bias/running stats, a classifier), written to a file in a temp dir
and read back (weights_only=True on both sides). Also the safetensors pair when the
`safetensors` package is installed. ratio = ours / PyTorch, below 1 means we are faster.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

N_TENSORS, N_PARAMS = 170, 5_500_000


def _arrays():
    """170 shapes of a conv net whose sizes sum to 5.5M, deterministic."""
    rng = np.random.default_rng(0)
    shapes = []
    for i in range(N_TENSORS - 2):
        c = 16 * (1 + i % 12)
        shapes.append((c, c // 4, 3, 3) if i % 4 == 0 else (c,))
    used = sum(int(np.prod(s)) for s in shapes)
    rest = N_PARAMS - used
    shapes += [(1000, rest // 1000 - 1), (1000 + rest % 1000,)]
    assert sum(int(np.prod(s)) for s in shapes) == N_PARAMS and len(shapes) == N_TENSORS
    return {f"layer{i}.{'weight' if len(s) > 1 else 'bias'}": rng.standard_normal(s, dtype=np.float32)
            for i, s in enumerate(shapes)}


def _round_trip(save, load, state, path):
    def run():
        save(state, path)
        return load(path)
    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)

    import harness
    import core
    from core.utils import safetensors as core_st

    torch = harness.torch
    harness.set_threads(args.threads)
    print(harness.header(args.threads))
    arrays = _arrays()
    print(f"state dict: {len(arrays)} float32 tensors, {sum(a.size for a in arrays.values()):,} "
          f"parameters ({sum(a.nbytes for a in arrays.values()) / 1e6:.1f} MB); save + load per call\n")
    ours_sd = {k: core.from_numpy(v.copy()) for k, v in arrays.items()}
    rows = [("case", "ours", "pytorch", "ours/pytorch")]
    with tempfile.TemporaryDirectory() as tmp:
        cases = {"save+load (zip .pt)": {"ours": _round_trip(core.save, core.load, ours_sd, os.path.join(tmp, "o.pt"))},
                 "save+load (safetensors)": {"ours": _round_trip(
                     lambda s, p: core_st.save_file(s, p), core_st.load_file, ours_sd, os.path.join(tmp, "o.st"))}}
        if torch is not None:
            torch_sd = {k: torch.from_numpy(v.copy()) for k, v in arrays.items()}
            cases["save+load (zip .pt)"]["pytorch"] = _round_trip(
                torch.save, lambda p: torch.load(p, weights_only=True), torch_sd, os.path.join(tmp, "t.pt"))
            try:
                import safetensors.torch as st_torch
                cases["save+load (safetensors)"]["pytorch"] = _round_trip(
                    lambda s, p: st_torch.save_file(s, p), st_torch.load_file, torch_sd, os.path.join(tmp, "t.st"))
            except ImportError:
                pass
        for name, fns in cases.items():
            check = fns["ours"]()
            for k, v in arrays.items():
                if not np.array_equal(check[k].numpy(), v):
                    raise AssertionError(f"{name}: {k} differs after the round trip")
            seconds = harness.time_interleaved(fns, repeats=args.repeats)
            rows.append((name, harness.format_seconds(seconds["ours"]),
                         harness.format_seconds(seconds.get("pytorch")),
                         harness.format_ratio(seconds["ours"], seconds.get("pytorch"))))
    harness.print_rows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
