"""Inference: our eager and compiled models against PyTorch eager, PyTorch's frozen TorchScript
(torch.jit.freeze + optimize_for_inference) and ONNX Runtime running the file core.onnx.export
wrote, all on the same weights, in one run.

    python benchmarks/bench_inference.py [--threads 2] [--repeats R] [--models a,b] [--batches 1,8]
                                         [--no-profile] [--no-memory]

Rows: each model at each batch size, 224x224, the median time per call of every runtime and
the ratio compiled / ONNX Runtime. Then a per-op profile of the compiled MobileNetV3-Large at
batch 1 (where the remaining time goes), and the peak resident memory of a batch-1 run of
our compiled model and of PyTorch eager, each in a fresh process. PyTorch, torchvision and
onnxruntime are optional (their columns print n/a without them).
"""
import argparse
import io
import os
import subprocess
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)
import harness  # noqa: E402

_HERE = os.path.dirname(os.path.abspath(__file__))

RUNTIMES = ("ours eager", "ours compiled", "torch eager", "torch frozen", "onnxruntime")
# The pause before each runtime's turn. ONNX Runtime's intra-op workers spin after a run: our
# 2-thread compiled MobileNetV3-Large took 22-29 ms when run within 20 ms of an ORT call, 13.0 ms
# 50 ms after it (the harness's default pause) and 11.7 ms without ORT (the 2-core EPYC).
_SETTLE_SECONDS = 0.2


def _ort_session(model, x, threads):
    try:
        import onnx  # noqa: F401  (core.onnx.export writes with it)
        import onnxruntime as ort
    except ImportError:
        return None
    import core.onnx

    buffer = io.BytesIO()
    core.onnx.export(model, x, buffer, opset_version=14)
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    options.log_severity_level = 3
    session = ort.InferenceSession(buffer.getvalue(), options, providers=["CPUExecutionProvider"])
    array = x.numpy()
    return lambda: session.run(None, {"input_0": array})[0]


def _torch_pair(name, ours, x):
    torch, tv = harness.torch, harness.import_torchvision()
    if torch is None or tv is None:
        return {}
    theirs = getattr(tv.models, name)()
    theirs.load_state_dict({k: torch.from_numpy(np.array(v.detach().numpy())) for k, v in ours.state_dict().items()})
    theirs.eval()
    tx = torch.from_numpy(x.numpy().copy())

    def eager():
        with torch.no_grad():
            return theirs(tx)

    with torch.no_grad():
        frozen = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(theirs, tx).eval()))

    def run_frozen():
        with torch.no_grad():
            return frozen(tx)

    return {"torch eager": eager, "torch frozen": run_frozen}


def _row(name, batch, threads, repeats):
    import core
    import vision

    core.manual_seed(0)
    model = getattr(vision.models, name)().eval()
    x = core.randn(batch, 3, 224, 224)

    def eager():
        with core.no_grad():
            return model(x)

    compiled = core.compile(model, x)
    fns = {"ours eager": eager, "ours compiled": lambda: compiled(x)}
    fns.update(_torch_pair(name, model, x))
    ort_run = _ort_session(model, x, threads)
    if ort_run is not None:
        fns["onnxruntime"] = ort_run
    want = eager().numpy()
    for label, fn in fns.items():  # a fast wrong answer must not pass unnoticed
        got = fn()
        got = got.detach().numpy() if hasattr(got, "detach") else np.asarray(got)
        if not np.allclose(got, want, rtol=1e-3, atol=1e-4 * max(1.0, float(np.abs(want).max()))):
            raise SystemExit(f"{name} batch {batch}: {label} disagrees with our eager output")
    return harness.time_interleaved(fns, repeats=repeats, settle=_SETTLE_SECONDS)


def _profile(threads):
    import core
    import vision

    core.manual_seed(0)
    model = vision.models.mobilenet_v3_large().eval()
    x = core.randn(1, 3, 224, 224)
    program = core.compile(model, x).program_for(x)
    totals = {}
    for _ in range(3):  # warm
        program.profile(x)
    for _ in range(10):  # each op's fastest run: what other load on the machine adds drops out
        for op, calls, seconds in program.profile(x):
            entry = totals.setdefault(op, [calls, seconds])
            entry[1] = min(entry[1], seconds)
    total = sum(s for _, s in totals.values())
    rows = [("op (compiled mobilenet_v3_large, batch 1)", "calls", "fastest of 10", "share")]
    for op, (calls, seconds) in sorted(totals.items(), key=lambda kv: -kv[1][1]):
        rows.append((op, str(calls), harness.format_seconds(seconds), f"{100 * seconds / total:.1f}%"))
    rows.append(("total", "", harness.format_seconds(total), ""))
    harness.print_rows(rows)


_MEMORY_SCRIPT = r"""
import resource, sys
sys.path.insert(0, {here!r})
import _paths  # the parent's choice of core: an in-place build first


def peak_kib():
    # VmHWM: this process image's own peak (ru_maxrss keeps the parent's across exec)
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


which, threads = sys.argv[1], int(sys.argv[2])
if which == "compiled":
    import core, vision
    core.set_num_threads(threads)
    core.manual_seed(0)
    model = vision.models.mobilenet_v3_large().eval()
    x = core.randn(1, 3, 224, 224)
    run = core.compile(model, x)
    before = peak_kib()
    for _ in range(3):
        run(x)
else:
    import torch, harness
    torch.set_num_threads(threads)
    tv = harness.import_torchvision()
    model = tv.models.mobilenet_v3_large().eval()
    x = torch.randn(1, 3, 224, 224)
    before = peak_kib()
    with torch.no_grad():
        for _ in range(3):
            model(x)
print(peak_kib(), before)
"""


def _peak_memory(threads):
    script = _MEMORY_SCRIPT.format(here=_HERE)
    rows = [("peak resident memory, mobilenet_v3_large batch 1", "peak RSS", "growth while running")]
    for which in ("compiled", "torch"):
        if which == "torch" and harness.torch is None:
            continue
        out = subprocess.run([sys.executable, "-c", script, which, str(threads)], capture_output=True, text=True)
        if out.returncode != 0:
            rows.append((which, "n/a", out.stderr.strip().splitlines()[-1][:60] if out.stderr else ""))
            continue
        peak, before = (int(v) for v in out.stdout.split())
        rows.append(("ours compiled" if which == "compiled" else "torch eager", f"{peak / 1024:.1f} MiB",
                     f"{(peak - before) / 1024:.1f} MiB"))
    harness.print_rows(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="2")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--models", default="mobilenet_v3_large,mobilenet_v3_small,resnet50")
    parser.add_argument("--batches", default="1,8")
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--no-memory", action="store_true")
    args = parser.parse_args(argv)
    for threads in harness.thread_counts(args.threads):
        harness.set_threads(threads)
        print(harness.header(threads), flush=True)
        rows = [("case", *RUNTIMES, "compiled/onnxruntime")]
        for name in args.models.split(","):
            for batch in harness.thread_counts(args.batches):
                t = _row(name, batch, threads, args.repeats)
                rows.append((f"{name} b{batch}", *(harness.format_seconds(t.get(r)) for r in RUNTIMES),
                             harness.format_ratio(t.get("ours compiled"), t.get("onnxruntime"))))
                print(f"  measured {name} batch {batch}", file=sys.stderr, flush=True)
        print()
        harness.print_rows(rows)
        print()
        if not args.no_profile:
            _profile(threads)
            print()
        if not args.no_memory:
            _peak_memory(threads)
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
