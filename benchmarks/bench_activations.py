"""gelu, silu and dropout: tensorzoo vs PyTorch, forward and forward+backward (autograd), on
1M elements and on a (32, 1024, 14, 14) activation map.

    python benchmarks/bench_activations.py [--threads 1,2] [--repeats R] [--filter SUBSTRING]

Prints median times per call (harness.time_interleaved) and the ratio ours / PyTorch (lower
is better).
"""
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import core  # noqa: E402
import core.nn.functional as F  # noqa: E402

try:
    import torch
    import torch.nn.functional as TF
except ImportError:  # nothing to compare with
    torch = None

SHAPES = [(1 << 20,), (32, 1024, 14, 14)]
OPS = {
    "gelu": (lambda t: F.gelu(t), lambda t: TF.gelu(t)),
    "silu": (lambda t: F.silu(t), lambda t: TF.silu(t)),
    "dropout": (lambda t: F.dropout(t, 0.5, training=True), lambda t: TF.dropout(t, 0.5, training=True)),
}


def _forward(lib, fn, x):
    t = core.tensor(x) if lib == "ours" else torch.from_numpy(x)
    return lambda: fn(t)


def _forward_backward(lib, fn, x, g):
    if lib == "ours":
        t, gg = core.tensor(x).requires_grad_(), core.tensor(g)
    else:
        t, gg = torch.from_numpy(x).requires_grad_(), torch.from_numpy(g)

    def step():
        t.grad = None
        fn(t).backward(gg)
    return step


def benches():
    import harness

    out = []
    for shape in SHAPES:
        tag = "x".join(map(str, shape))
        x = np.random.default_rng(0).normal(size=shape).astype(np.float32)
        g = np.random.default_rng(1).normal(size=shape).astype(np.float32)
        for name, (ours, theirs) in OPS.items():
            for kind, make in (("fwd", lambda lib, fn, x=x: _forward(lib, fn, x)),
                               ("fwd+bwd", lambda lib, fn, x=x, g=g: _forward_backward(lib, fn, x, g))):
                makers = {"ours": lambda make=make, ours=ours: make("ours", ours)}
                if torch is not None:
                    makers["pytorch"] = lambda make=make, theirs=theirs: make("pytorch", theirs)
                out.append(harness.Bench(f"{name} {kind} {tag}", makers, check=False))
    return out


def main(argv=None):
    import harness

    return harness.bench_main(__doc__, benches, argv)


if __name__ == "__main__":
    sys.exit(main())
