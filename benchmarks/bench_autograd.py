"""Autograd engine overhead: backward of a chain of 1,000 small ops, and one training step
of a 2-layer MLP (batch 64, 784-256-10), ours vs PyTorch.

    python benchmarks/bench_autograd.py [--threads N] [--repeats R]
"""
import argparse
import os

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import numpy as np  # noqa: E402

import harness  # noqa: E402


def chain_case(lib):
    x = lib.ones(16).requires_grad_()

    def run():
        y = x
        for _ in range(1000):
            y = y * 1.0001
        y.sum().backward()
        x.grad = None
    return run


def mlp_case(lib):
    rng = np.random.default_rng(0)
    tensor = lib.tensor
    w1 = tensor(rng.standard_normal((784, 256)).astype(np.float32) * 0.05).requires_grad_()
    b1 = tensor(np.zeros(256, np.float32)).requires_grad_()
    w2 = tensor(rng.standard_normal((256, 10)).astype(np.float32) * 0.05).requires_grad_()
    b2 = tensor(np.zeros(10, np.float32)).requires_grad_()
    x = tensor(rng.standard_normal((64, 784)).astype(np.float32))
    target = tensor(rng.standard_normal((64, 10)).astype(np.float32))
    params = (w1, b1, w2, b2)

    def run():
        hidden = (x @ w1 + b1).clamp(min=0)
        out = hidden @ w2 + b2
        loss = ((out - target) * (out - target)).mean()
        loss.backward()
        for p in params:
            p.grad = None
    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args(argv)
    import core

    harness.set_threads(args.threads)
    torch = harness.torch
    print(f"threads: {args.threads}; torch: {torch.__version__ if torch else 'not installed'}")
    print(f"{'case':32s} {'ours':>10s} {'pytorch':>10s} {'ours/pytorch':>13s}")
    for name, make in [("backward of a 1000-op chain", chain_case), ("MLP step 64x784-256-10", mlp_case)]:
        fns = {"ours": make(core)}
        if torch is not None:
            fns["pytorch"] = make(torch)
        times = harness.time_interleaved(fns, repeats=args.repeats)
        theirs = times.get("pytorch")
        print(f"{name:32s} {harness.format_seconds(times['ours']):>10s} "
              f"{harness.format_seconds(theirs) if theirs else 'n/a':>10s} "
              f"{harness.format_ratio(times['ours'], theirs):>13s}")


if __name__ == "__main__":
    main()
