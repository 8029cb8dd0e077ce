"""The eager paths of issue 29 against PyTorch, in one run: per-op overhead, elementwise and
reductions on 1M and 16M elements, ResNet-50's 3x3 convolutions (forward, and forward +
backward, NCHW and channels-last), ResNet-18/50 inference at batch 1 and 8 and a ResNet-50
training step at batch 16.

    PYTHONPATH=. python benchmarks/bench_eager_paths.py [--threads 1,2] [--repeats R] [--filter S]

Median times per call (harness.time_interleaved: the libraries take turns, so background load
hits both alike); ours / PyTorch below 1 means we are faster. Models get identical weights.
"""
import functools
import sys

import _paths  # noqa: F401  (an in-place build wins over an installed one)

import numpy as np  # noqa: E402

import harness  # noqa: E402

# ResNet-50's 3x3 convolutions at batch 1: (in = out channels, input size, stride).
RESNET50_3X3 = [(64, 56, 1), (128, 56, 2), (128, 28, 1), (256, 28, 2), (256, 14, 1), (512, 14, 2), (512, 7, 1)]


def _libraries():
    import core

    libs = {"ours": (core, core.tensor)}
    if harness.torch is not None:
        torch = harness.torch
        libs["pytorch"] = (torch, lambda a: torch.from_numpy(np.array(a)))
    return libs


def _bench(name, make, check=False):
    """A Bench whose callables `make(lib_module, to_tensor)` builds per library."""
    return harness.Bench(name, {lib: (lambda m=m, t=t: make(m, t)) for lib, (m, t) in _libraries().items()},
                         check=check)


def overhead_benches():
    small = np.arange(10, dtype=np.float32)

    def add(requires_grad):
        def make(m, t):
            a = t(small).requires_grad_(requires_grad)
            return lambda: a + a
        return make
    return [_bench("overhead: add of 10 elements", add(False)),
            _bench("overhead: add of 10 elements, requires_grad", add(True))]


def elementwise_benches():
    out = []
    rng = np.random.default_rng(0)
    for n, label in ((1 << 20, "1M"), (1 << 24, "16M")):
        a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        rows = a.reshape(-1, 1024)
        cases = {"add": lambda m, x, y, r: (lambda: x + y), "mul": lambda m, x, y, r: (lambda: x * y),
                 "sum": lambda m, x, y, r: (lambda: x.sum()),
                 "softmax": lambda m, x, y, r: (lambda: m.softmax(r, dim=-1))}
        for op, body in cases.items():
            out.append(_bench(f"{op} {label} float32",
                              lambda m, t, body=body, a=a, b=b, rows=rows: body(m, t(a), t(b), t(rows))))
    return out


def conv_benches():
    out = []
    for c, size, stride in RESNET50_3X3:
        x = np.random.default_rng(1).standard_normal((1, c, size, size), dtype=np.float32)
        w = np.random.default_rng(2).standard_normal((c, c, 3, 3), dtype=np.float32) * 0.05
        for channels_last in (False, True):
            for backward in (False, True):
                def make(m, t, x=x, w=w, stride=stride, channels_last=channels_last, backward=backward):
                    xt, wt = t(x), t(w)
                    if channels_last:
                        fmt = m.channels_last
                        xt, wt = xt.contiguous(memory_format=fmt), wt.contiguous(memory_format=fmt)
                    conv = m.nn.functional.conv2d
                    if not backward:
                        return lambda: conv(xt, wt, None, stride, 1)
                    xt.requires_grad_(), wt.requires_grad_()

                    def step():
                        y = conv(xt, wt, None, stride, 1)
                        y.backward(m.ones_like(y))
                        return y
                    return step
                layout = "NHWC" if channels_last else "NCHW"
                what = "fwd+bwd" if backward else "fwd"
                out.append(_bench(f"conv3x3 {c}@{size} s{stride} {layout} {what}", make))
    return out


@functools.lru_cache(maxsize=None)
def _models(name):
    """{library: (module, model)} with identical weights, built on first use (a --filter that
    leaves the models out never builds them)."""
    import core
    from bench_vision_models import _pair

    torch, tv = harness.torch, harness.import_torchvision()
    ours, theirs = _pair(name, torch, tv)
    return {"ours": (core, ours), "pytorch": (torch, theirs)}


def _images(n):
    return np.random.default_rng(0).standard_normal((n, 3, 224, 224)).astype(np.float32)


def _inference(name, lib, n):
    m, model = _models(name)[lib]
    if model is None:
        return None
    model.eval()
    x = m.tensor(_images(n)) if lib == "ours" else m.from_numpy(_images(n))

    def run():
        with m.no_grad():
            return model(x)
    return run


def _train_step(name, lib, n):
    m, model = _models(name)[lib]
    if model is None:
        return None
    model.train()
    target = np.random.default_rng(0).integers(0, 1000, n)
    to = m.tensor if lib == "ours" else m.from_numpy
    x, y = to(_images(n)), to(target)
    opt = m.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)

    def run():
        opt.zero_grad()
        loss = m.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss
    return run


def model_benches():
    libs = ("ours", "pytorch") if harness.torch is not None else ("ours",)
    out = []
    for name in ("resnet18", "resnet50"):
        for n in (1, 8):
            out.append(harness.Bench(f"{name} eval {n}x224", {lib: functools.partial(_inference, name, lib, n)
                                                              for lib in libs}, check=False))
    out.append(harness.Bench("resnet50 train step 16x224 (SGD)",
                             {lib: functools.partial(_train_step, "resnet50", lib, 16) for lib in libs}, check=False))
    return out


def benches():
    return overhead_benches() + elementwise_benches() + conv_benches() + model_benches()


def main(argv=None):
    return harness.bench_main(__doc__, benches, argv)


if __name__ == "__main__":
    sys.exit(main())
