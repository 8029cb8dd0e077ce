"""Reductions, softmax and sorting: tensorzoo vs PyTorch (when installed) vs numpy.

    python benchmarks/bench_reduction.py [--threads 1,2] [--repeats R] [--filter SUBSTRING]

Prints median times per call (harness.time_interleaved) and the ratio ours / PyTorch.
"""
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)


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
    col, one = m[:, :1].copy(), v[:1].copy()  # expanded (stride-0) inputs: one value repeated
    yield "sum expanded (256,1)->(256,1M) dim1", col, lambda x: x.expand(256, 1 << 20).sum(1), \
        lambda a: np.broadcast_to(a, (256, 1 << 20)).sum(1)
    yield "var expanded (1,)->(4M,)", one, lambda x: x.expand(1 << 22).var(), \
        lambda a: np.broadcast_to(a, (1 << 22,)).var(ddof=1)
    yield "softmax (256,1000) dim1", m, lambda x: x.softmax(1), None
    yield "log_softmax (256,1000) dim1", m, lambda x: x.log_softmax(1), None
    yield "softmax (256,1000) dim0", m, lambda x: x.softmax(0), None
    yield "logsumexp (256,1000) dim1", m, lambda x: x.logsumexp(1), None
    yield "cumsum (256,1000) dim1", m, lambda x: x.cumsum(1), lambda a: a.cumsum(1)
    yield "sort (256,1000) dim1", m, lambda x: x.sort(1), lambda a: np.sort(a, 1)
    yield "topk 10 (256,1000)", m, lambda x: x.topk(10), None


def benches():
    import core
    import harness

    torch = harness.torch
    out = []
    for name, data, fn, np_fn in cases(np.random.default_rng(0)):
        x = core.tensor(data)
        t = torch.from_numpy(data.copy()) if torch is not None else None
        out.append(harness.bench_of(name, lambda fn=fn, x=x: fn(x), (lambda fn=fn, t=t: fn(t)) if t is not None else None,
                                    (lambda np_fn=np_fn, data=data: np_fn(data)) if np_fn is not None else None,
                                    check=False))  # values: tests/core/test_reduction.py and the parity suite
    return out


def main(argv=None):
    import harness

    return harness.bench_main(__doc__, benches, argv)


if __name__ == "__main__":
    sys.exit(main())
