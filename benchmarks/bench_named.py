"""Named tensors: the per-call cost of names on a small op. `add` of two 8x8 (and 256x256)
float32 tensors, unnamed and named ('N', 'C'), ours vs PyTorch (whose named form is n/a where
the installed PyTorch has dropped named tensors); unnamed calls must not pay for names.

    python benchmarks/bench_named.py [--threads 1,2] [--repeats R]
"""
import _paths  # noqa: F401  (an in-place build wins over an installed one)

import numpy as np

import harness


def add_case(lib, n, names):
    def make():
        data = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
        a, b = lib.tensor(data), lib.tensor(data)
        if names:  # raises (n/a) where the library has no named tensors
            a, b = a.refine_names("N", "C"), b.refine_names("N", "C")
        return lambda: a + b
    return make


def make_benches():
    import core

    libs = {"ours": core}
    if harness.torch is not None:
        libs["pytorch"] = harness.torch
    benches = []
    for n in (8, 256):
        for names in (False, True):
            data = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
            makers = {lib: add_case(mod, n, names) for lib, mod in libs.items()}
            makers["numpy"] = lambda d=data: (lambda: d + d)
            benches.append(harness.Bench(f"add {n}x{n} {'named' if names else 'unnamed'}", makers))
    return benches


if __name__ == "__main__":
    raise SystemExit(harness.bench_main(__doc__, make_benches))
