"""Reductions, softmax and sorting: tensorzoo vs PyTorch (when installed) vs numpy.

    PYTHONPATH=. python benchmarks/bench_reduction.py [--threads N] [filter ...]

Prints per-call times and the ratio ours / PyTorch (lower is better). Timing is CPU time of
the calling thread when --threads 1 (robust on a busy machine), wall time otherwise.
"""
import argparse
import time
import timeit

import numpy as np

import core

try:
    import torch
except ImportError:  # numpy only
    torch = None


def measure(fn, number, thread_time):
    if not thread_time:
        return min(timeit.repeat(fn, number=number, repeat=7)) / number
    samples = []
    for _ in range(7):
        t0 = time.thread_time()
        for _ in range(number):
            fn()
        samples.append((time.thread_time() - t0) / number)
    return sorted(samples)[2]


def cases(rng):
    v = rng.normal(size=1_000_000).astype(np.float32)
    m = rng.normal(size=(256, 1000)).astype(np.float32)
    img = rng.normal(size=(32, 64, 28, 28)).astype(np.float32)
    yield "sum 1M f32", v, lambda x: x.sum(), lambda a: a.sum()
    yield "mean 1M f32", v, lambda x: x.mean(), lambda a: a.mean()
    yield "max 1M f32", v, lambda x: x.max(), lambda a: a.max()
    yield "argmax 1M f32", v, lambda x: x.argmax(), lambda a: a.argmax()
    yield "var 1M f32", v, lambda x: x.var(), lambda a: a.var(ddof=1)
    yield "norm 1M f32", v, lambda x: x.norm(), lambda a: np.linalg.norm(a)
    yield "sum (256,1000) dim0", m, lambda x: x.sum(0), lambda a: a.sum(0)
    yield "sum (256,1000) dim1", m, lambda x: x.sum(1), lambda a: a.sum(1)
    yield "max (256,1000) dim1", m, lambda x: x.max(1), lambda a: a.max(1)
    yield "mean NCHW dims (0,2,3)", img, lambda x: x.mean((0, 2, 3)), lambda a: a.mean((0, 2, 3))
    yield "softmax (256,1000) dim1", m, lambda x: x.softmax(1), None
    yield "log_softmax (256,1000) dim1", m, lambda x: x.log_softmax(1), None
    yield "softmax (256,1000) dim0", m, lambda x: x.softmax(0), None
    yield "logsumexp (256,1000) dim1", m, lambda x: x.logsumexp(1), None
    yield "cumsum (256,1000) dim1", m, lambda x: x.cumsum(1), lambda a: a.cumsum(1)
    yield "sort (256,1000) dim1", m, lambda x: x.sort(1), lambda a: np.sort(a, 1)
    yield "topk 10 (256,1000)", m, lambda x: x.topk(10), None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("filters", nargs="*")
    args = parser.parse_args()
    core.set_num_threads(args.threads)
    if torch is not None:
        torch.set_num_threads(args.threads)
    thread_time = args.threads == 1
    print(f"threads {args.threads}, cpu capability {core._C._cpu_capability()}")
    print(f"{'case':30s} {'ours':>10s} {'torch':>10s} {'numpy':>10s} {'ours/torch':>10s}")
    for name, data, fn, np_fn in cases(np.random.default_rng(0)):
        if args.filters and not any(f in name for f in args.filters):
            continue
        number = 10 if "sort" in name or "topk" in name else 50
        x = core.tensor(data)
        ours = measure(lambda: fn(x), number, thread_time)
        theirs = numpy_t = float("nan")
        if torch is not None:
            t = torch.from_numpy(data)
            theirs = measure(lambda: fn(t), number, thread_time)
        if np_fn is not None:
            numpy_t = measure(lambda: np_fn(data), number, thread_time)
        print(f"{name:30s} {ours * 1e6:8.1f}us {theirs * 1e6:8.1f}us {numpy_t * 1e6:8.1f}us {ours / theirs:10.2f}")


if __name__ == "__main__":
    main()
