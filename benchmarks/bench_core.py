"""The core benchmark cases. Each maker builds its inputs from one numpy array set, so all
three libraries see the same values; a maker raising (op not in core yet) prints "n/a"."""
import numpy as np

import core
from harness import Bench, torch


def _rng():
    return np.random.default_rng(0)


def _ours(fn, *arrays):
    tensors = [core.tensor(a) for a in arrays]
    return lambda: fn(*tensors)


def _torch(fn, *arrays):
    if torch is None:
        return None
    tensors = [torch.from_numpy(np.ascontiguousarray(a).copy()) for a in arrays]
    return lambda: fn(*tensors)


def _numpy(fn, *arrays):
    return lambda: fn(*arrays)


def _three(ours_fn, torch_fn, numpy_fn, *arrays):
    return {
        "ours": lambda: _ours(ours_fn, *arrays),
        "pytorch": lambda: _torch(torch_fn, *arrays),
        "numpy": lambda: _numpy(numpy_fn, *arrays),
    }


def _require(name):
    """core.<name>, or an AttributeError that the table prints as n/a."""
    if not hasattr(core, name):
        raise AttributeError(f"core.{name} not available yet")
    return getattr(core, name)


def add_small():
    a, b = _rng().standard_normal((2, 10), dtype=np.float32)
    return Bench("add 10 f32 (per-op overhead)", _three(lambda x, y: x + y, lambda x, y: x + y, np.add, a, b))


def add_1m():
    a, b = _rng().standard_normal((2, 1 << 20), dtype=np.float32)
    return Bench("add 1M f32", _three(lambda x, y: x + y, lambda x, y: x + y, np.add, a, b))


def sum_1m():
    a = _rng().standard_normal(1 << 20, dtype=np.float32)
    makers = _three(lambda x: _require("sum")(x), lambda x: x.sum(), np.sum, a)
    return Bench("sum 1M f32", makers)


def _core_softmax():
    """softmax(x, dim) from wherever core has it: core.softmax, Tensor.softmax or
    core.nn.functional.softmax."""
    if hasattr(core, "softmax"):
        return core.softmax
    if hasattr(core.Tensor, "softmax"):
        return core.Tensor.softmax
    try:
        from core.nn import functional

        return functional.softmax
    except ImportError:
        raise AttributeError("core.softmax not available yet") from None


def _numpy_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def softmax():
    x = _rng().standard_normal((256, 1000), dtype=np.float32)
    makers = {
        "ours": lambda: _ours(lambda t, f=_core_softmax(): f(t, dim=1), x),
        "pytorch": lambda: _torch(lambda t: torch.softmax(t, dim=1), x),
        "numpy": lambda: _numpy(_numpy_softmax, x),
    }
    return Bench("softmax (256, 1000) f32 dim=1", makers)


def matmul(n):
    a, b = _rng().standard_normal((2, n, n), dtype=np.float32)
    return Bench(f"matmul {n}x{n} f32", _three(core.matmul, lambda x, y: x @ y, np.matmul, a, b),
                 flops=2.0 * n ** 3)


def attention_scores():
    q, k = _rng().standard_normal((2, 8, 8, 128, 64), dtype=np.float32)
    eq = "bhqd,bhkd->bhqk"
    return Bench("einsum bhqd,bhkd->bhqk (8,8,128,64)",
                 _three(lambda x, y: core.einsum(eq, x, y), lambda x, y: torch.einsum(eq, x, y),
                        lambda x, y: np.einsum(eq, x, y, optimize=True), q, k),
                 flops=2.0 * 8 * 8 * 128 * 128 * 64)


def index_rows():
    rng = _rng()
    x = rng.standard_normal((1000, 1000), dtype=np.float32)
    idx = rng.integers(0, 1000, 1000).astype(np.int64)
    return Bench("index (1000, 1000) f32 [1000 int64 rows]",
                 _three(lambda t, i: t[i], lambda t, i: t[i], lambda t, i: t[i], x, idx))


def all_benches():
    return [add_small(), add_1m(), sum_1m(), softmax(), matmul(512), matmul(2048), attention_scores(),
            index_rows()]
