"""Hostile-input fuzzing (issue 27). Cases are generated from the op table (every op's schema x
hostile argument classes) plus mutated checkpoints and PNGs. Each case runs in a child
process under a time and memory limit, batched (one child runs many cases and is replaced
when one kills it), so a crash or hang is counted, not fatal.

A case passes when it returns or raises one of the exceptions PyTorch raises for bad input.
It fails on a crash (signal), a hang (time limit) or any other exception (AttributeError,
AssertionError, SystemError...: Python internals leaking).

    PYTHONPATH=.:tests python tests/support_fuzz.py            # every case (minutes)
    PYTHONPATH=.:tests python tests/support_fuzz.py --sample 500 --seed 3
"""
import argparse
import json
import os
import random
import re
import selectors
import subprocess
import sys
import tempfile

CLEAN = ("RuntimeError", "TypeError", "ValueError", "IndexError", "NotImplementedError", "MemoryError",
         "OverflowError", "UnpicklingError", "ZeroDivisionError")
CASE_SECONDS = 10
MEMORY_BYTES = 4 << 30

# Hostile values per argument kind, as Python source evaluated in the child.
HOSTILE_TENSORS = [
    "core.ones(2, 3, dtype=core.int64)", "core.ones(2, 3, dtype=core.bool)", "core.ones(2, 3, dtype=core.complex64)",
    "core.tensor(1.5)", "core.ones(0, 3)", "core.ones(3, 2).t()", "core.ones(1, 3).expand(2, 3)",
    "core.full((2, 3), float('nan'))", "core.full((2, 3), float('inf'))", "None", "core.ones(1).expand(2**40)",
    "core.ones(2, 3, 4, 5, 6)",
]
HOSTILE_INTS = ["-1", "2**62", "-(2**63)", "10**30", "None", "1.5", "'x'"]
HOSTILE_INT_LISTS = ["[-1]", "[2**62]", "[2**31, 2**31]", "[]", "[-(2**63)]", "None", "[1.5]"]
HOSTILE_SCALARS = ["float('nan')", "float('inf')", "1e300", "2**70", "1+2j", "None", "'x'"]
# Known, open (issue 27 notes): reductions walk all 2**40 elements of a stride-0 expanded input
# (minutes, not forever). Listed so CI stays green while they are visible; fix, then delete.
KNOWN_SLOW = frozenset(f"{op}[0]=core.ones(1).expand(2**40)" for op in ("max", "min", "std", "std_mean", "var", "var_mean"))
BASE = {"Tensor": "core.ones(2, 3)", "int": "1", "int[]": "[1]", "Scalar": "1", "float": "1.0", "bool": "False"}


def _kind(type_text):
    t = type_text.rstrip("?")
    if t.startswith("Tensor") and "[]" not in t:
        return "Tensor"
    if re.fullmatch(r"int\[\d*\]", t):
        return "int[]"
    return t if t in BASE else None


def _schema_args(signature):
    """[(kind, name, has_default)] of the schema's arguments before any '*'."""
    inner = signature[signature.index("(") + 1:signature.index(") ->")]
    out = []
    for part in inner.split(","):
        part = part.strip()
        if not part or part == "*":
            if part == "*":
                break
            continue
        words = part.split("=")[0].split()
        if len(words) < 2:
            continue
        out.append((_kind(words[0]), words[-1], "=" in part))
    return out


def op_cases():
    """(case id, source) for every op-table entry x hostile argument classes."""
    import core
    cases = []
    for name, op in sorted(core._C._functions.items()):
        for signature in op.signatures:
            args = _schema_args(signature)
            if any(kind is None and not has_default for kind, _, has_default in args):
                continue  # an argument kind this generator cannot build
            # Positional arguments up to the first one of a kind it cannot build (optional).
            kinds = []
            for kind, _, _ in args:
                if kind is None:
                    break
                kinds.append(kind)
            base = [BASE[kind] for kind in kinds]
            call = f"core._C._functions[{name!r}]"
            for i, kind in enumerate(kinds):
                hostile = {"Tensor": HOSTILE_TENSORS, "int": HOSTILE_INTS, "int[]": HOSTILE_INT_LISTS,
                           "Scalar": HOSTILE_SCALARS, "float": HOSTILE_SCALARS, "bool": ["None", "'x'"]}[kind]
                for value in hostile:
                    values = list(base)
                    values[i] = value
                    cases.append((f"{name}[{i}]={value}", f"{call}({', '.join(values)})"))
            if name.endswith("_") and kinds and kinds[0] == "Tensor":  # in place on an expanded tensor
                values = ["core.ones(1, 3).expand(2, 3)"] + base[1:]
                cases.append((f"{name}[expanded self]", f"{call}({', '.join(values)})"))
    return cases


def file_cases(count=60, seed=0):
    """Mutated checkpoints (core.load) and 16-bit PNGs (vision.io.decode_png)."""
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        pos, byte = rng.randrange(1 << 16), rng.randrange(256)
        cases.append((f"load[{i}]", textwrap_load(pos, byte)))
        cases.append((f"png[{i}]", textwrap_png(pos, byte)))
    return cases


def textwrap_load(pos, byte):
    return ("import io\nbuf = io.BytesIO(); core.save({'w': core.ones(4, 4), 'b': core.arange(5)}, buf)\n"
            f"raw = bytearray(buf.getvalue()); raw[{pos} % len(raw)] = {byte}\n"
            "core.load(io.BytesIO(bytes(raw)))")


def textwrap_png(pos, byte):
    return ("import numpy as np\nfrom vision.io import _png16, decode_png\n"
            "raw = bytearray(_png16.encode(np.arange(60, dtype=np.uint16).reshape(4, 5, 3)))\n"
            f"raw[{pos} % len(raw)] = {byte}\n"
            "decode_png(core.tensor(np.frombuffer(bytes(raw), np.uint8).copy()))")


_CHILD = r"""
import json, os, resource, sys, warnings
resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))
warnings.simplefilter("ignore")
import core
with open(sys.argv[1]) as cases:
    lines = cases.readlines()[int(sys.argv[2]):]
for line in lines:
    case = json.loads(line)
    os.write(1, ("start " + str(case["i"]) + "\n").encode())
    try:
        exec(case["src"], {{"core": core}})
        verdict = "ok"
    except BaseException as e:
        verdict = type(e).__name__
    os.write(1, ("done " + json.dumps([case["i"], verdict]) + "\n").encode())
"""


def run_cases(cases, case_seconds=CASE_SECONDS, memory=MEMORY_BYTES):
    """{case id: verdict} for the failing cases: 'crash (signal N)', 'hang', or an exception name."""
    failures, i = {}, 0
    env = {**os.environ, "TZ_NUM_THREADS": "1"}
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:  # a file, not a pipe: no deadlock
        f.write("".join(json.dumps({"i": j, "src": src}) + "\n" for j, (_, src) in enumerate(cases)))
    try:
        while i < len(cases):
            i = _run_batch(cases, i, f.name, env, case_seconds, memory, failures)
    finally:
        os.unlink(f.name)
    return failures


def _run_batch(cases, first, path, env, case_seconds, memory, failures):
    """Runs cases[first:] in one child until it ends or dies; returns the next case to run."""
    proc = subprocess.Popen([sys.executable, "-c", _CHILD.format(mem=memory), path, str(first)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=env)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    fd, pending = proc.stdout.fileno(), b""  # raw reads: a buffered reader would hide lines from select
    started, finished = None, first - 1  # global case indices
    while True:
        if not sel.select(timeout=case_seconds):
            proc.kill()
            proc.wait()
            failures[cases[started if started is not None else finished + 1][0]] = "hang"
            break
        data = os.read(fd, 1 << 16)
        if not data:
            rc = proc.wait()
            if started is not None and started > finished:
                failures[cases[started][0]] = f"crash (exit {rc})"
            elif started is None:
                raise RuntimeError(f"the fuzz child could not start (exit {rc})")
            break
        *lines, pending = (pending + data).split(b"\n")
        for line in lines:
            kind, _, rest = line.decode().partition(" ")
            if kind == "start":
                started = int(rest)
            elif kind == "done":
                j, verdict = json.loads(rest)
                finished = j
                if verdict != "ok" and verdict not in CLEAN:
                    failures[cases[j][0]] = verdict
    sel.close()
    proc.stdout.close()
    return max(finished, started if started is not None else first - 1) + 1


def all_cases(seed=0):
    return op_cases() + file_cases(seed=seed)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=0, help="run this many cases, drawn with --seed")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cases = all_cases(args.seed)
    if args.sample:
        cases = random.Random(args.seed).sample(cases, min(args.sample, len(cases)))
    failures = run_cases(cases)
    print(f"{len(cases)} cases, {len(failures)} failures")
    for case_id, verdict in sorted(failures.items()):
        print(f"  {verdict}: {case_id}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
