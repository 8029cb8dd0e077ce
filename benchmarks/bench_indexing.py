"""Indexing speed: ours vs PyTorch (when installed) vs numpy, as ratios to PyTorch.

    python benchmarks/bench_indexing.py [--threads 1,2] [--repeats R]
"""
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)


def benches():
    import core
    import harness

    rng = np.random.default_rng(0)
    a = rng.random((1000, 1000), dtype=np.float32)
    rows = rng.integers(0, 1000, 1000)
    full_index = rng.integers(0, 1000, (1000, 1000))
    mask = a > 0.5
    arrays = {"a": a, "rows": rows, "g": full_index, "m": mask}
    ours = {k: core.tensor(v) for k, v in arrays.items()}
    torch = harness.torch
    theirs = {k: torch.from_numpy(v.copy()) for k, v in arrays.items()} if torch is not None else None
    a_np = a.copy()  # the numpy column's own copy: the writes below change it
    cases = [  # name, call on (module, tensors), numpy call, compare outputs
        ("t[rows] (1000x1000 f32, 1000 rows)", lambda m, d: d["a"][d["rows"]], lambda: a_np[rows], True),
        ("index_select(t, 0, rows)", lambda m, d: m.index_select(d["a"], 0, d["rows"]), lambda: np.take(a_np, rows, 0),
         True),
        ("t[:, rows]", lambda m, d: d["a"][:, d["rows"]], lambda: a_np[:, rows], True),
        ("gather(t, 0, index 1000x1000)", lambda m, d: d["a"].gather(0, d["g"]),
         lambda: np.take_along_axis(a_np, full_index, 0), True),
        ("gather(t, 1, index 1000x1000)", lambda m, d: d["a"].gather(1, d["g"]),
         lambda: np.take_along_axis(a_np, full_index, 1), True),
        ("t[mask]", lambda m, d: d["a"][d["m"]], lambda: a_np[mask], True),
        ("t[rows] = 1.0", lambda m, d: d["a"].__setitem__(d["rows"], 1.0), lambda: a_np.__setitem__(rows, 1.0), False),
        ("t[5] (Python overhead)", lambda m, d: d["a"][5], lambda: a_np[5], True),
        ("t[5, 1:3] (Python overhead)", lambda m, d: d["a"][5, 1:3], lambda: a_np[5, 1:3], True),
    ]
    return [harness.bench_of(name, lambda call=call: call(core, ours),
                             (lambda call=call: call(torch, theirs)) if theirs is not None else None,
                             numpy_call, check)
            for name, call, numpy_call, check in cases]


def main(argv=None):
    import harness

    return harness.bench_main(__doc__, benches, argv)


if __name__ == "__main__":
    sys.exit(main())
