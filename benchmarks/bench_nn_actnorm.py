"""MobileNetV3's activations and batch norm: tensorzoo vs PyTorch, forward and backward, on
MobileNetV3-like shapes in NCHW and channels-last.

    python benchmarks/bench_nn_actnorm.py [--threads 1,2] [--repeats R] [--filter SUBSTRING]

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

SHAPES = [(32, 72, 56, 56), (32, 672, 14, 14)]


def cases():
    nn = core._C._internal
    for shape in SHAPES:
        tag = "x".join(map(str, shape))
        x = np.random.default_rng(0).normal(size=shape).astype(np.float32) * 3
        g = np.random.default_rng(1).normal(size=shape).astype(np.float32)
        for layout in ("nchw", "nhwc"):
            def ours(a, layout=layout):
                t = core.tensor(a)
                return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2) if layout == "nhwc" else t

            def theirs(a, layout=layout):
                t = torch.from_numpy(a)
                return t.contiguous(memory_format=torch.channels_last) if layout == "nhwc" else t

            name = f"{tag} {layout}"
            yield (f"relu fwd {name}", lambda x=x, o=ours: (lambda t: lambda: core.relu(t))(o(x)),
                   lambda x=x, th=theirs: (lambda t: lambda: torch.relu(t))(th(x)))
            yield (f"relu bwd {name}", lambda o=ours: (lambda gg, t: lambda: nn["threshold_backward"](gg, t, 0))(o(g), o(x)),
                   lambda th=theirs: (lambda gg, t: lambda: torch.ops.aten.threshold_backward(gg, t, 0))(th(g), th(x)))
            yield (f"hardswish fwd {name}", lambda o=ours: (lambda t: lambda: F.hardswish(t))(o(x)),
                   lambda th=theirs: (lambda t: lambda: TF.hardswish(t))(th(x)))
            yield (f"hardswish bwd {name}", lambda o=ours: (lambda gg, t: lambda: nn["hardswish_backward"](gg, t))(o(g), o(x)),
                   lambda th=theirs: (lambda gg, t: lambda: torch.ops.aten.hardswish_backward(gg, t))(th(g), th(x)))
            yield (f"hardsigmoid fwd {name}", lambda o=ours: (lambda t: lambda: F.hardsigmoid(t))(o(x)),
                   lambda th=theirs: (lambda t: lambda: TF.hardsigmoid(t))(th(x)))
            yield (f"hardsigmoid bwd {name}", lambda o=ours: (lambda gg, t: lambda: nn["hardsigmoid_backward"](gg, t))(o(g), o(x)),
                   lambda th=theirs: (lambda gg, t: lambda: torch.ops.aten.hardsigmoid_backward(gg, t))(th(g), th(x)))
            c = shape[1]
            w, b = np.ones(c, np.float32) * 1.5, np.zeros(c, np.float32) + 0.1

            def bn_ours(training, o=ours):
                t, ww, bb = o(x), core.tensor(w), core.tensor(b)
                rm, rv = core.zeros(c), core.ones(c)
                return lambda: F.batch_norm(t, rm, rv, ww, bb, training)

            def bn_theirs(training, th=theirs):
                t, ww, bb = th(x), torch.from_numpy(w), torch.from_numpy(b)
                rm, rv = torch.zeros(c), torch.ones(c)
                return lambda: TF.batch_norm(t, rm, rv, ww, bb, training)

            yield f"batch_norm train fwd {name}", lambda: bn_ours(True), lambda: bn_theirs(True)
            yield f"batch_norm eval fwd {name}", lambda: bn_ours(False), lambda: bn_theirs(False)

            def bn_bwd_ours(o=ours):
                t, gg, ww = o(x), o(g), core.tensor(w)
                _, mean, invstd = core.native_batch_norm(t, ww, None, None, None, True, 0.1, 1e-5)
                return lambda: nn["native_batch_norm_backward"](gg, t, ww, None, None, mean, invstd, True, 1e-5)

            def bn_bwd_theirs(th=theirs):
                t, gg, ww = th(x), th(g), torch.from_numpy(w)
                _, mean, invstd = torch.native_batch_norm(t, ww, None, None, None, True, 0.1, 1e-5)
                return lambda: torch.ops.aten.native_batch_norm_backward(gg, t, ww, None, None, mean, invstd, True,
                                                                         1e-5, [True, True, True])

            yield f"batch_norm train bwd {name}", bn_bwd_ours, bn_bwd_theirs


def benches():
    import harness

    # glibc raises its mmap threshold after the first large free: do that before timing, so
    # the first case doesn't pay page faults on every call (in either library).
    for _ in range(2):
        core.empty(*SHAPES[0]).fill_(0)
        if torch is not None:
            torch.empty(*SHAPES[0]).fill_(0)
    return [harness.Bench(name, {"ours": make_ours, **({"pytorch": make_theirs} if torch is not None else {})},
                          check=False)  # values: the nn tests and the parity suite
            for name, make_ours, make_theirs in cases()]


def main(argv=None):
    import harness

    return harness.bench_main(__doc__, benches, argv)


if __name__ == "__main__":
    sys.exit(main())
