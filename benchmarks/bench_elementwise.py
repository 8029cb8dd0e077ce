"""Elementwise ops: core vs PyTorch (when installed) vs numpy, as time ratios.

    PYTHONPATH=. python benchmarks/bench_elementwise.py [--threads N]

Each library runs in its own process, so that thread pools do not compete; times are the
best of many repeats. Ratios below 1 mean core is faster.
"""
import argparse
import json
import subprocess
import sys
import timeit

CASES = [
    # name, expression (m: the module, a/b: 1M float32 in [0.1, 1.1), s: 10 elements)
    ("add 10", "s + s"),
    ("add number 10", "s + 1.5"),
    ("add 1M", "m.add(a, b)"),
    ("mul 1M", "a * b"),
    ("add_ 1M", "a.add_(b)"),
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

NUMPY = {"m.add(a, b)": "np.add(a, b)", "m.maximum(a, b)": "np.maximum(a, b)", "a.add_(b)": "np.add(a, b, out=a)",
         "m.clamp(a, 0.2, 0.8)": "np.clip(a, 0.2, 0.8)", "m.sqrt(a)": "np.sqrt(a)", "m.exp(a)": "np.exp(a)",
         "m.log(a)": "np.log(a)", "m.tanh(a)": "np.tanh(a)", "m.sigmoid(a)": "1 / (1 + np.exp(-a))",
         "m.sin(a)": "np.sin(a)"}


def measure(lib, threads):
    import numpy as np
    rng = np.random.default_rng(0)
    data = [rng.random(1 << 20, dtype=np.float32) + np.float32(0.1) for _ in range(2)] + [rng.random(10, dtype=np.float32)]
    if lib == "torch":
        import torch as m
        m.set_num_threads(threads)
        a, b, s = (m.from_numpy(x) for x in data)
    elif lib == "core":
        import core as m
        m.set_num_threads(threads)
        a, b, s = (m.tensor(x) for x in data)
    else:
        m = np
        a, b, s = data
    scope = {"m": m, "np": np, "a": a, "b": b, "s": s}
    out = {}
    for name, expr in CASES:
        if lib == "numpy":
            expr = NUMPY.get(expr, expr)
        number = 2000 if name.endswith(" 10") else 20
        try:
            out[name] = min(timeit.repeat(expr, globals=scope, number=number, repeat=15)) / number
        except Exception:  # noqa: BLE001 - a library without the op
            pass
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--lib")
    args = parser.parse_args()
    if args.lib:
        print(json.dumps(measure(args.lib, args.threads)))
        return
    results = {}
    for lib in ("core", "torch", "numpy"):
        run = subprocess.run([sys.executable, __file__, "--lib", lib, "--threads", str(args.threads)],
                             capture_output=True, text=True)
        if run.returncode == 0:
            results[lib] = json.loads(run.stdout)
    print(f"{'op':16s} {'core us':>9s} {'torch us':>9s} {'core/torch':>10s} {'numpy us':>9s} {'core/numpy':>10s}")
    for name, _ in CASES:
        c = results["core"].get(name)
        line = f"{name:16s} {c * 1e6:9.2f}"
        for lib in ("torch", "numpy"):
            v = results.get(lib, {}).get(name)
            line += f" {v * 1e6:9.2f} {c / v:10.2f}" if v else f" {'-':>9s} {'-':>10s}"
        print(line)


if __name__ == "__main__":
    main()
