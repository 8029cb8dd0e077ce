"""Elementwise ops: core vs PyTorch (when installed) vs numpy, as time ratios.

    python benchmarks/bench_elementwise.py [--threads 1,2] [--repeats R]

Median times per call (harness.time_interleaved: the libraries take turns); ratios below 1
mean core is faster.
"""
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

CASES = [
    # name, expression (m: the module, a/b: 1M float32 in [0.1, 1.1), s: 10 elements)
    ("add 10", "s + s"),
    ("add number 10", "s + 1.5"),
    ("add 1M", "m.add(a, b)"),
    ("mul 1M", "a * b"),
    ("add_ 1M", "c.add_(b)"),
    ("add number 1M", "a + 1.5"),
    ("gt 1M", "a > b"),
    ("maximum 1M", "m.maximum(a, b)"),
    ("clamp 1M", "m.clamp(a, 0.2, 0.8)"),
    ("sqrt 1M", "m.sqrt(a)"),
    ("exp 1M", "m.exp(a)"),
    ("log 1M", "m.log(a)"),
    ("tanh 1M", "m.tanh(a)"),
    ("sigmoid 1M", "m.sigmoid(a)"),
    ("sin 1M", "m.sin(a)"),
]

NUMPY = {"m.add(a, b)": "np.add(a, b)", "m.maximum(a, b)": "np.maximum(a, b)", "c.add_(b)": "np.add(c, b, out=c)",
         "m.clamp(a, 0.2, 0.8)": "np.clip(a, 0.2, 0.8)", "m.sqrt(a)": "np.sqrt(a)", "m.exp(a)": "np.exp(a)",
         "m.log(a)": "np.log(a)", "m.tanh(a)": "np.tanh(a)", "m.sigmoid(a)": "1 / (1 + np.exp(-a))",
         "m.sin(a)": "np.sin(a)"}



def _scope(module, convert):
    """The names an expression sees: m (the module), np, a and b (1M float32 in [0.1, 1.1)), s (10),
    c (a copy of a for the in-place op, so the others keep their inputs)."""
    rng = np.random.default_rng(0)
    data = [rng.random(1 << 20, dtype=np.float32) + np.float32(0.1) for _ in range(2)] + [rng.random(10, dtype=np.float32)]
    a, b, s, c = (convert(x) for x in data + [data[0].copy()])
    return {"m": module, "np": np, "a": a, "b": b, "s": s, "c": c}


def benches():
    import core
    import harness

    torch = harness.torch
    scopes = {"ours": _scope(core, core.tensor), "numpy": _scope(np, lambda x: x)}
    if torch is not None:
        scopes["pytorch"] = _scope(torch, lambda x: torch.from_numpy(x.copy()))
    out = []
    for name, expr in CASES:
        calls = {lib: eval("lambda: " + (NUMPY.get(expr, expr) if lib == "numpy" else expr), scope)  # noqa: S307
                 for lib, scope in scopes.items()}
        out.append(harness.bench_of(name, calls["ours"], calls.get("pytorch"), calls["numpy"],
                                    check=not expr.endswith("_(b)")))  # in-place ops return different things
    return out


def main(argv=None):
    import harness

    return harness.bench_main(__doc__, benches, argv)


if __name__ == "__main__":
    sys.exit(main())
