"""Indexing speed: ours vs PyTorch (when installed) vs numpy, as ratios to PyTorch.

    PYTHONPATH=. python benchmarks/bench_indexing.py
"""
import timeit

import numpy as np

import core

try:
    import torch
except ImportError:  # ratios need PyTorch; numpy columns still print
    torch = None


def _time(fn, number):
    fn()
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def main():
    rng = np.random.default_rng(0)
    a = rng.random((1000, 1000), dtype=np.float32)
    rows = rng.integers(0, 1000, 1000)
    full_index = rng.integers(0, 1000, (1000, 1000))
    mask = a > 0.5
    ours = {"a": core.tensor(a), "rows": core.tensor(rows), "g": core.tensor(full_index), "m": core.tensor(mask)}
    if torch is not None:
        torch.set_num_threads(core.get_num_threads())
        theirs = {"a": torch.tensor(a), "rows": torch.tensor(rows), "g": torch.tensor(full_index), "m": torch.tensor(mask)}
    cases = [
        # (name, repetitions, ours/torch call, numpy call)
        ("t[rows] (1000x1000 f32, 1000 rows)", 200, lambda m, d: d["a"][d["rows"]], lambda: a[rows]),
        ("index_select(t, 0, rows)", 200, lambda m, d: m.index_select(d["a"], 0, d["rows"]), lambda: np.take(a, rows, 0)),
        ("t[:, rows]", 20, lambda m, d: d["a"][:, d["rows"]], lambda: a[:, rows]),
        ("gather(t, 0, index 1000x1000)", 10, lambda m, d: d["a"].gather(0, d["g"]),
         lambda: np.take_along_axis(a, full_index, 0)),
        ("t[mask]", 10, lambda m, d: d["a"][d["m"]], lambda: a[mask]),
        ("t[rows] = 1.0", 200, lambda m, d: d["a"].__setitem__(d["rows"], 1.0), lambda: a.__setitem__(rows, 1.0)),
        ("t[5] (Python overhead)", 20000, lambda m, d: d["a"][5], lambda: a[5]),
        ("t[5, 1:3] (Python overhead)", 20000, lambda m, d: d["a"][5, 1:3], lambda: a[5, 1:3]),
    ]
    print(f"{'case':40s} {'ours us':>10s} {'torch us':>10s} {'numpy us':>10s} {'ours/torch':>10s}")
    for name, number, call, numpy_call in cases:
        t_ours = _time(lambda: call(core, ours), number)
        t_np = _time(numpy_call, number)
        if torch is not None:
            t_torch = _time(lambda: call(torch, theirs), number)
            print(f"{name:40s} {t_ours:10.2f} {t_torch:10.2f} {t_np:10.2f} {t_ours / t_torch:10.2f}")
        else:
            print(f"{name:40s} {t_ours:10.2f} {'-':>10s} {t_np:10.2f} {'-':>10s}")


if __name__ == "__main__":
    main()
