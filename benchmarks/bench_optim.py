"""One optimizer step over a MobileNetV3-Large-sized parameter set (the real model's 174
tensors, 5.48M parameters: conv weights, depthwise kernels, SE convs with biases, many small
BN vectors, the classifier), ours vs PyTorch: SGD with momentum, RMSprop as in the MobileNetV3
recipe (alpha .9, eps .0316, momentum .9, weight decay 1e-5) and AdamW. PyTorch is timed with
its CPU default (foreach=None: the per-tensor loop) and with foreach=True.

    python benchmarks/bench_optim.py [--threads N] [--repeats R]
"""
import argparse

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import numpy as np  # noqa: E402

import harness  # noqa: E402

# torchvision's mobilenet_v3_large: (input, kernel, expanded, output, use_se) per block.
BLOCKS = [(16, 3, 16, 16, False), (16, 3, 64, 24, False), (24, 3, 72, 24, False), (24, 5, 72, 40, True),
          (40, 5, 120, 40, True), (40, 5, 120, 40, True), (40, 3, 240, 80, False), (80, 3, 200, 80, False),
          (80, 3, 184, 80, False), (80, 3, 184, 80, False), (80, 3, 480, 112, True), (112, 3, 672, 112, True),
          (112, 5, 672, 160, True), (160, 5, 960, 160, True), (160, 5, 960, 160, True)]


def _divisible(v, d=8):
    new = max(d, int(v + d / 2) // d * d)
    return new + d if new < 0.9 * v else new


def mobilenet_v3_large_shapes():
    shapes = []

    def conv_bn(cin, cout, k, groups=1):
        shapes.extend([(cout, cin // groups, k, k), (cout,), (cout,)])

    conv_bn(3, 16, 3)
    for cin, k, exp, cout, se in BLOCKS:
        if exp != cin:
            conv_bn(cin, exp, 1)
        conv_bn(exp, exp, k, groups=exp)
        if se:
            sq = _divisible(exp // 4)
            shapes.extend([(sq, exp, 1, 1), (sq,), (exp, sq, 1, 1), (exp,)])
        conv_bn(exp, cout, 1)
    conv_bn(160, 960, 1)
    shapes.extend([(1280, 960), (1280,), (1000, 1280), (1000,)])
    return shapes


CASES = [
    ("SGD", dict(lr=0.1, momentum=0.9, weight_decay=1e-4)),
    ("RMSprop", dict(lr=0.064, alpha=0.9, eps=0.0316, momentum=0.9, weight_decay=1e-5)),
    ("AdamW", dict(lr=1e-3)),
]


def make_step(lib, name, kwargs, shapes, **extra):
    rng = np.random.default_rng(0)
    params = [lib.tensor(rng.standard_normal(s).astype(np.float32), requires_grad=True) for s in shapes]
    for p in params:
        p.grad = lib.tensor(rng.standard_normal(p.shape).astype(np.float32) * 1e-3)
    opt = getattr(lib.optim, name)(params, **kwargs, **extra)
    opt.step()  # state created
    return opt.step


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args(argv)
    import core
    import core.optim  # noqa: F401

    harness.set_threads(args.threads)
    torch = harness.torch
    shapes = mobilenet_v3_large_shapes()
    total = sum(int(np.prod(s)) for s in shapes)
    print(f"threads: {args.threads}; torch: {torch.__version__ if torch else 'not installed'}; "
          f"{len(shapes)} tensors, {total / 1e6:.2f}M parameters")
    print(f"{'step':10s} {'ours':>10s} {'pt default':>11s} {'pt foreach':>11s} {'ours/default':>13s} "
          f"{'ours/foreach':>13s}")
    for name, kwargs in CASES:
        fns = {"ours": make_step(core, name, kwargs, shapes)}
        if torch is not None:
            fns["pytorch"] = make_step(torch, name, kwargs, shapes)
            fns["foreach"] = make_step(torch, name, kwargs, shapes, foreach=True)
        times = harness.time_interleaved(fns, repeats=args.repeats)
        ours, default, foreach = times["ours"], times.get("pytorch"), times.get("foreach")
        fmt = harness.format_seconds
        print(f"{name:10s} {fmt(ours):>10s} {fmt(default) if default else 'n/a':>11s} "
              f"{fmt(foreach) if foreach else 'n/a':>11s} {harness.format_ratio(ours, default):>13s} "
              f"{harness.format_ratio(ours, foreach):>13s}")


if __name__ == "__main__":
    main()
