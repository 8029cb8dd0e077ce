"""Timing harness: ours vs PyTorch (when importable) vs numpy, as a printed table.

A benchmark is a `Bench`: a name, a maker per library that returns a zero-argument callable
(or raises / returns None when the library lacks the op, which prints "n/a"), and an optional
FLOP count for a GFLOP/s column. Each callable is warmed up, calibrated to a minimum sample
time, then timed `repeats` times; the table shows the median time per call and the ratio
ours / PyTorch (below 1 means we are faster). Results are also checked against numpy's so a
fast wrong answer cannot pass unnoticed.
"""
import gc
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

import numpy as np

try:  # PyTorch is optional: it is only the yardstick
    import torch
except ImportError:  # pragma: no cover - depends on the environment
    torch = None

LIBRARIES = ("ours", "pytorch", "numpy")

# TZ_BENCH_CLOCK=cpu times with the process's CPU time instead of the wall clock: at one thread
# that ignores the time other processes take from the cores, so a busy machine still compares
# fairly (at more threads it counts every thread's CPU time, spinning included: use the wall clock).
CLOCK_NAME = os.environ.get("TZ_BENCH_CLOCK", "wall")
if CLOCK_NAME not in ("wall", "cpu"):
    raise SystemExit(f"TZ_BENCH_CLOCK must be 'wall' or 'cpu', got {CLOCK_NAME!r}")
clock = time.process_time if CLOCK_NAME == "cpu" else time.perf_counter


@dataclass
class Bench:
    name: str
    makers: Dict[str, Callable[[], Optional[Callable]]]  # library -> () -> callable
    flops: Optional[float] = None                       # per call, for GFLOP/s
    check: bool = True                                   # compare outputs with numpy's


@dataclass
class Result:
    name: str
    seconds: Dict[str, Optional[float]] = field(default_factory=dict)
    notes: Dict[str, str] = field(default_factory=dict)
    flops: Optional[float] = None
    mismatch: List[str] = field(default_factory=list)


def import_torchvision():
    """torchvision, or None. The torchvision wheel on PyPI is a CUDA build whose C++ ops do not
    load beside a CPU torch (registering their fake kernels fails); its Python code does, so on
    that error the import is retried without registering them."""
    import sys
    import warnings

    if torch is None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import torchvision
            return torchvision
        except ImportError:
            return None
        except RuntimeError:
            for name in [m for m in sys.modules if m.startswith("torchvision")]:
                del sys.modules[name]
            original = torch.library.register_fake
            torch.library.register_fake = lambda *a, **k: (lambda f: f)
            try:
                import torchvision
            finally:
                torch.library.register_fake = original
            return torchvision


def set_threads(n):
    """The same thread count for our pool and PyTorch's (numpy's BLAS keeps its own)."""
    import core

    core.set_num_threads(n)
    if torch is not None:
        torch.set_num_threads(n)


def calibrate(fn, warmup=2, min_sample=0.02):
    """Calls per sample so that one sample lasts at least `min_sample` seconds (short ops
    are then not dominated by timer noise)."""
    for _ in range(warmup):
        fn()
    number = 1
    while True:
        start = clock()
        for _ in range(number):
            fn()
        elapsed = clock() - start
        if elapsed >= min_sample or number >= 1 << 20:
            return number
        number *= 2 if elapsed == 0 else max(2, min(10, int(min_sample / elapsed) + 1))


def sample_seconds(fn, number, count):
    """`count` samples of seconds per call, each the mean over `number` calls, GC off."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        samples = []
        for _ in range(count):
            start = clock()
            for _ in range(number):
                fn()
            samples.append((clock() - start) / number)
        return samples
    finally:
        if gc_was_enabled:
            gc.enable()


def time_interleaved(fns, repeats=7, rounds=None, settle=0.05):
    """Median seconds per call of each callable. Libraries take turns over several rounds
    (by default one sample per turn), so a change in background load or in the VM's speed
    hits all of them alike, and each turn starts after a short pause so that another
    library's idle worker threads have stopped spinning."""
    numbers = {lib: calibrate(fn) for lib, fn in fns.items()}
    rounds = repeats if rounds is None else rounds
    per_round = max(1, -(-repeats // rounds))
    samples = {lib: [] for lib in fns}
    for _ in range(rounds):
        for lib, fn in fns.items():
            time.sleep(settle)
            fn()
            samples[lib] += sample_seconds(fn, numbers[lib], per_round)
    return {lib: statistics.median(s) for lib, s in samples.items()}


def _to_numpy(value):
    if hasattr(value, "detach"):  # a torch tensor
        value = value.detach()
        if value.dtype == torch.bfloat16:
            value = value.float()
        return value.numpy()
    return np.asarray(value)


def run_bench(bench, repeats=7):
    result = Result(bench.name, flops=bench.flops)
    fns, outputs = {}, {}
    for lib in LIBRARIES:
        maker = bench.makers.get(lib)
        try:
            fn = maker() if maker is not None else None
            if fn is not None:
                outputs[lib] = _to_numpy(fn())  # also proves the op exists and runs
                fns[lib] = fn
        except Exception as e:  # noqa: BLE001 - a missing op prints n/a, it must not stop the run
            first_line = str(e).splitlines()[0][:60] if str(e) else ""
            result.notes[lib] = f"{type(e).__name__}: {first_line}" if first_line else type(e).__name__
    timings = time_interleaved(fns, repeats=repeats) if fns else {}
    result.seconds = {lib: timings.get(lib) for lib in LIBRARIES}
    if bench.check and "numpy" in outputs:
        ref = outputs["numpy"]
        for lib in ("ours", "pytorch"):
            if lib in outputs and not _close(outputs[lib], ref):
                result.mismatch.append(lib)
    return result


def _close(value, ref):
    value, ref = np.asarray(value), np.asarray(ref)
    if value.shape != ref.shape:
        return False
    scale = max(1.0, float(np.max(np.abs(ref)))) if ref.size else 1.0
    wide = np.complex128 if np.iscomplexobj(value) or np.iscomplexobj(ref) else np.float64  # keep imaginary parts
    return bool(np.allclose(value.astype(wide), ref.astype(wide), rtol=1e-3, atol=1e-4 * scale))


def format_seconds(s):
    if s is None:
        return "n/a"
    if s < 1e-6:
        return f"{s * 1e9:.0f} ns"
    if s < 1e-3:
        return f"{s * 1e6:.2f} us"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def format_ratio(ours, theirs):
    if ours is None or theirs is None or theirs == 0:
        return "n/a"
    return f"{ours / theirs:.2f}x"


def format_gflops(result):
    if result.flops is None:
        return ""
    parts = []
    for lib in LIBRARIES:
        s = result.seconds.get(lib)
        parts.append(f"{lib} {result.flops / s / 1e9:.1f}" if s else f"{lib} n/a")
    return "GFLOP/s: " + ", ".join(parts)


def header(threads):
    import core

    lines = [
        "tensorzoo core benchmarks: median time per call (lower is better); ratio = ours / PyTorch",
        f"threads: core.get_num_threads()={core.get_num_threads()}"
        + (f", torch.get_num_threads()={torch.get_num_threads()}" if torch is not None else ", PyTorch not installed")
        + f" (requested {threads}; os.cpu_count()={os.cpu_count()});"
        + f" numpy's BLAS: OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}",
        f"clock: {'process CPU time (TZ_BENCH_CLOCK=cpu)' if CLOCK_NAME == 'cpu' else 'wall'}",
        f"versions: core {core.__version__} (cpu capability {core._C._cpu_capability()})"
        + (f", torch {torch.__version__}" if torch is not None else "")
        + f", numpy {np.__version__}",
    ]
    if hasattr(os, "getloadavg"):  # other work on the machine skews every column
        lines.append("load average before the run: " + ", ".join(f"{v:.2f}" for v in os.getloadavg()))
    return "\n".join(lines)


def format_table(results):
    rows = [("case", "ours", "pytorch", "numpy", "ours/pytorch", "notes")]
    for r in results:
        notes = [format_gflops(r)] if r.flops else []
        notes += [f"{lib}: {msg}" for lib, msg in r.notes.items()]
        notes += [f"MISMATCH vs numpy: {lib}" for lib in r.mismatch]
        rows.append((r.name, format_seconds(r.seconds.get("ours")), format_seconds(r.seconds.get("pytorch")),
                     format_seconds(r.seconds.get("numpy")),
                     format_ratio(r.seconds.get("ours"), r.seconds.get("pytorch")), "; ".join(n for n in notes if n)))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = []
    for i, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [row[c].rjust(widths[c]) for c in range(1, 5)] + [row[5]]
        lines.append("  ".join(cells).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def thread_counts(text):
    """[1, 2] from "1,2": the --threads argument of the benchmarks."""
    return [int(t) for t in str(text).split(",") if t.strip()]


def run_and_print(benches, threads, repeats=7, name_filter=""):
    """Times every bench whose name contains `name_filter` at each thread count of `threads`
    and prints the header and the table of each run."""
    benches = [b for b in benches if name_filter in b.name]
    for n in thread_counts(threads):
        set_threads(n)
        print(header(n), flush=True)
        results = [run_bench(bench, repeats=repeats) for bench in benches]
        print()
        print(format_table(results))
        print()


def bench_main(doc, make_benches, argv=None):
    """The command line of a benchmark script: --threads 1,2, --repeats R, --filter SUBSTRING;
    `make_benches()` builds the Benches (after the arguments parse, so --help is instant)."""
    import argparse

    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts (default 1,2)")
    parser.add_argument("--repeats", type=int, default=7, help="timed samples per library (median)")
    parser.add_argument("--filter", default="", help="only cases whose name contains this")
    args = parser.parse_args(argv)
    run_and_print(make_benches(), args.threads, args.repeats, args.filter)
    return 0


def bench_of(name, ours, theirs=None, numpy=None, check=True):
    """A Bench from ours/PyTorch/numpy callables already bound to their inputs (None: n/a)."""
    makers = {"ours": lambda: ours}
    if theirs is not None and torch is not None:
        makers["pytorch"] = lambda: theirs
    if numpy is not None:
        makers["numpy"] = lambda: numpy
    return Bench(name, makers, check=check)


def print_rows(rows):
    """Prints rows of strings as right-aligned columns (the first row is the header)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths)))
