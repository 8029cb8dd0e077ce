"""nn-pool family, ours vs PyTorch: global average pool (classifier head), 3x3/2 max pool
(ResNet stem), bilinear resize by 0.75 (detection transform), grid_sample; NCHW and
channels-last inputs.

    python benchmarks/bench_nn_pool.py [--threads N] [--repeats R] [--backward]
"""
import argparse
import os

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import numpy as np  # noqa: E402

import harness  # noqa: E402


def _input(lib, shape, channels_last):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape).astype(np.float32)
    if not channels_last:
        return lib.tensor(a)
    return lib.tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)


CASES = [
    ("adaptive_avg_pool2d 32x960x7x7 -> 1", (32, 960, 7, 7), lambda F, x: F.adaptive_avg_pool2d(x, 1)),
    ("max_pool2d 3x3/2 32x64x112x112", (32, 64, 112, 112), lambda F, x: F.max_pool2d(x, 3, 2, 1)),
    ("bilinear 1x3x800x1066 x0.75", (1, 3, 800, 1066),
     lambda F, x: F.interpolate(x, scale_factor=0.75, mode="bilinear", align_corners=False,
                                recompute_scale_factor=True)),
    ("grid_sample 1x3x224x224", (1, 3, 224, 224), None),
]


def make(lib, F, shape, fn, channels_last, backward):
    x = _input(lib, shape, channels_last)
    if fn is None:  # grid_sample through a rotation grid of the same size
        theta = lib.tensor(np.array([[[0.9, -0.3, 0.05], [0.3, 0.9, -0.05]]], dtype=np.float32))
        grid = F.affine_grid(theta, list(shape), align_corners=False)
        fn = lambda F_, t: F_.grid_sample(t, grid, align_corners=False)  # noqa: E731
    if backward:
        x.requires_grad_()
        out = fn(F, x)
        g = lib.ones(tuple(out.shape))

        def run():
            x.grad = None
            fn(F, x).backward(g)
        return run
    return lambda: fn(F, x)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--backward", action="store_true", help="time forward + backward")
    args = parser.parse_args(argv)
    import core
    import core.nn.functional as F

    harness.set_threads(args.threads)
    torch = harness.torch
    print(f"threads: {args.threads}; torch: {torch.__version__ if torch else 'not installed'}")
    print(f"{'case':44s} {'ours':>10s} {'pytorch':>10s} {'ours/pytorch':>13s}")
    for name, shape, fn in CASES:
        for channels_last in (False, True):
            fns = {"ours": make(core, F, shape, fn, channels_last, args.backward)}
            if torch is not None:
                fns["pytorch"] = make(torch, torch.nn.functional, shape, fn, channels_last, args.backward)
            times = harness.time_interleaved(fns, repeats=args.repeats)
            theirs = times.get("pytorch")
            label = name + (" NHWC" if channels_last else "")
            print(f"{label:44s} {harness.format_seconds(times['ours']):>10s} "
                  f"{harness.format_seconds(theirs) if theirs else 'n/a':>10s} "
                  f"{harness.format_ratio(times['ours'], theirs):>13s}")


if __name__ == "__main__":
    main()
