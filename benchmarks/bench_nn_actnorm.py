"""MobileNetV3's activations and batch norm: tensorzoo vs PyTorch, forward and backward, on
MobileNetV3-like shapes in NCHW and channels-last.

    PYTHONPATH=. python benchmarks/bench_nn_actnorm.py [--threads N] [filter ...]

Prints per-call times and the ratio ours / PyTorch (lower is better). Timing is CPU time of
the calling thread when --threads 1 (robust on a busy machine), wall time otherwise.
"""
import argparse
import time
import timeit

import numpy as np

import core
import core.nn.functional as F

try:
    import torch
    import torch.nn.functional as TF
except ImportError:  # nothing to compare with
    torch = None

SHAPES = [(32, 72, 56, 56), (32, 672, 14, 14)]


def measure(fn, number, thread_time):
    for _ in range(3):  # warm up: first-touch page faults of fresh heap memory are not the op's cost
        fn()
    if not thread_time:
        return min(timeit.repeat(fn, number=number, repeat=5)) / number
    samples = []
    for _ in range(5):
        t0 = time.thread_time()
        for _ in range(number):
            fn()
        samples.append((time.thread_time() - t0) / number)
    return sorted(samples)[2]


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("filters", nargs="*")
    args = parser.parse_args()
    core.set_num_threads(args.threads)
    if torch is not None:
        torch.set_num_threads(args.threads)
    thread_time = args.threads == 1
    # glibc raises its mmap threshold after the first large free: do that before timing, so
    # the first case doesn't pay page faults on every call (in either library).
    for _ in range(2):
        core.empty(*SHAPES[0]).fill_(0)
        if torch is not None:
            torch.empty(*SHAPES[0]).fill_(0)
    print(f"threads {args.threads}; ratio = ours / torch (lower is better)")
    print(f"{'case':44s} {'ours':>10s} {'torch':>10s} {'ratio':>7s}")
    ratios = []
    for name, make_ours, make_theirs in cases():
        if args.filters and not any(f in name for f in args.filters):
            continue
        fo = make_ours()
        number = 3
        t_ours = measure(fo, number, thread_time)
        t_theirs = measure(make_theirs(), number, thread_time) if torch is not None else None
        ratio = t_ours / t_theirs if t_theirs else float("nan")
        ratios.append(ratio)
        theirs = f"{t_theirs * 1e3:9.2f}ms" if t_theirs else "       n/a"
        print(f"{name:44s} {t_ours * 1e3:9.2f}ms {theirs} {ratio:6.2f}x")
    if ratios and torch is not None:
        print(f"geometric mean ratio: {float(np.exp(np.mean(np.log(ratios)))):.2f}x")


if __name__ == "__main__":
    main()
