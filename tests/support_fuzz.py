"""Hostile-input fuzzing (issue 27). Case families: the op table (every op's schema x hostile
argument classes), wrong out= targets, in-place ops on expanded selves, mutated checkpoints and
PNGs, hostile archives (tests/support_fuzz_io.py), hub downloads from a misbehaving local
server (same file) and DataLoader abuse (tests/support_fuzz_data.py). Each case runs in a
child process under a time and memory limit, batched (one child runs many cases and is
replaced when one kills it), so a crash or hang is counted, not fatal.

A case passes when it returns or raises one of the exceptions PyTorch raises for bad input.
It fails on a crash (signal), a hang (time limit) or any other exception (AttributeError,
AssertionError from a case's own check of its outcome, SystemError...: Python internals leaking).

    PYTHONPATH=.:tests python tests/support_fuzz.py                 # every case (minutes)
    PYTHONPATH=.:tests python tests/support_fuzz.py --ci            # the CI slice (tests/fuzz)
    PYTHONPATH=.:tests python tests/support_fuzz.py --family hub --family archives
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

from support import child_process_options

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


def _buildable_schemas():
    """(op name, argument kinds, base values) of every op-table signature whose required
    arguments this generator can build (positional arguments up to the first it cannot)."""
    import core
    for name, op in sorted(core._C._functions.items()):
        for signature in op.signatures:
            args = _schema_args(signature)
            if any(kind is None and not has_default for kind, _, has_default in args):
                continue
            kinds = []
            for kind, _, _ in args:
                if kind is None:
                    break
                kinds.append(kind)
            yield name, kinds, [BASE[kind] for kind in kinds]


def op_cases():
    """(case id, source) for every op-table entry x hostile argument classes."""
    cases = []
    for name, kinds, base in _buildable_schemas():
        call = f"core._C._functions[{name!r}]"
        for i, kind in enumerate(kinds):
            hostile = {"Tensor": HOSTILE_TENSORS, "int": HOSTILE_INTS, "int[]": HOSTILE_INT_LISTS,
                       "Scalar": HOSTILE_SCALARS, "float": HOSTILE_SCALARS, "bool": ["None", "'x'"]}[kind]
            for value in hostile:
                values = list(base)
                values[i] = value
                cases.append((f"{name}[{i}]={value}", f"{call}({', '.join(values)})"))
    return cases


# out= targets that must be refused or filled exactly: wrong dtype, wrong shape, memory that
# overlaps itself, the input itself.
HOSTILE_OUTS = ["core.empty(2, 3, dtype=core.int64)", "core.empty(5)", "core.empty(1, 3).expand(2, 3)", "x"]
_OUT_CHECK = """
core.manual_seed(0)  # random ops (normal, rand_like...) draw the same values both times
expected = f(x.clone(), *args)
out = {out}
core.manual_seed(0)
result = f(x, *args, out=out)  # refusing out= (TypeError) or a bad target (RuntimeError) is clean
assert result is out, "out= was accepted but not returned (ignored?)"
assert unspecified or core.allclose(out, expected, equal_nan=True), "out= holds a wrong result"
"""
UNSPECIFIED_VALUES = ("empty", "empty_like", "empty_strided")  # out= holds whatever memory held


def out_cases():
    """Every public function of an op-table entry called with each hostile out= target."""
    import core
    cases = []
    for name, kinds, base in _buildable_schemas():
        if not kinds or kinds[0] != "Tensor" or not callable(getattr(core, name, None)):
            continue
        for out in HOSTILE_OUTS:
            src = (f"f, x, args = core.{name}, core.full((2, 3), 0.5), [{', '.join(base[1:])}]\n"
                   f"unspecified = {name in UNSPECIFIED_VALUES}") + _OUT_CHECK.format(out=out)
            cases.append((f"{name}[out={out}]", src))
    return sorted(set(cases))


# Expanded selves (stride-0 dims: elements share memory): an in-place op must refuse them or
# give exactly what it gives on a dense copy. (Overlap without a zero stride, as_strided((3, 2),
# (1, 1)), is undefined in PyTorch too, which does not look for it: not a case.)
EXPANDED_SELVES = ["core.full((1, 3), 0.5).expand(2, 3)", "core.full((3, 1), 0.5).expand(3, 3)",
                   "core.tensor(0.5).expand(4)"]
_INPLACE_CHECK = """
dense = x.clone()
try:
    getattr(dense, method)(*args)
    dense_ok = True
except Exception:
    dense_ok = False
getattr(x, method)(*args)  # a clean refusal ends the case here
assert dense_ok and core.allclose(x, dense, equal_nan=True), "in place on shared memory gave a wrong result"
"""


def inplace_cases():
    """Every in-place Tensor method (its op's base arguments) on each self with shared memory."""
    import core
    bases = {}
    for name, kinds, base in _buildable_schemas():
        if kinds and kinds[0] == "Tensor":
            bases.setdefault(name, base[1:])
    cases = []
    for method in sorted(m for m in dir(core.Tensor) if m.endswith("_") and not m.startswith("_")):
        if method in ("requires_grad_", "detach_"):
            continue
        args = bases.get(method, bases.get(method[:-1]))
        if args is None:
            continue
        for self_ in EXPANDED_SELVES:
            src = f"method, x, args = {method!r}, {self_}, [{', '.join(args)}]" + _INPLACE_CHECK
            cases.append((f"{method}[self={self_}]", src))
    return cases


def file_cases(count=60, seed=0):
    """Mutated checkpoints (core.load), 16-bit PNGs (vision.io.decode_png), 8-bit PNGs and
    JPEGs (decode_image) and WAV and FLAC files (audio.load); half the mutations hit the headers."""
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        pos, byte = rng.randrange(64 if i % 2 else 1 << 16), rng.randrange(256)
        cases.append((f"load[{i}]", textwrap_load(pos, byte)))
        cases.append((f"png[{i}]", textwrap_png(pos, byte)))
        cases.append((f"image8[{i}]", textwrap_image8("PNG" if i % 4 < 2 else "JPEG", pos, byte)))
        cases.append((f"audio[{i}]", textwrap_audio("WAV" if i % 4 < 2 else "FLAC", pos, byte)))
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


def textwrap_image8(fmt, pos, byte):
    return ("import io\nimport numpy as np\nfrom PIL import Image\nfrom vision.io import decode_image\n"
            "buf = io.BytesIO(); Image.fromarray((np.arange(300) % 256).astype(np.uint8).reshape(10, 10, 3))"
            f".save(buf, {fmt!r})\nraw = bytearray(buf.getvalue()); raw[{pos} % len(raw)] = {byte}\n"
            "decode_image(core.tensor(np.frombuffer(bytes(raw), np.uint8).copy()))")


def textwrap_audio(fmt, pos, byte):
    return ("import io\nimport numpy as np\nimport soundfile\nimport audio\n"
            "buf = io.BytesIO(); soundfile.write(buf, np.linspace(-0.5, 0.5, 400).reshape(200, 2), 8000, "
            f"format={fmt!r}, subtype='PCM_16')\nraw = bytearray(buf.getvalue()); raw[{pos} % len(raw)] = {byte}\n"
            "audio.load(io.BytesIO(bytes(raw)))")


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
    options = child_process_options({**os.environ, "TZ_NUM_THREADS": "1"})
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:  # a file, not a pipe: no deadlock
        f.write("".join(json.dumps({"i": j, "src": src}) + "\n" for j, (_, src) in enumerate(cases)))
    try:
        while i < len(cases):
            i = _run_batch(cases, i, f.name, options, case_seconds, memory, failures)
    finally:
        os.unlink(f.name)
    return failures


def _run_batch(cases, first, path, options, case_seconds, memory, failures):
    """Runs cases[first:] in one child until it ends or dies; returns the next case to run."""
    proc = subprocess.Popen([sys.executable, "-c", _CHILD.format(mem=memory), path, str(first)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            **options)
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


def families(seed=0):
    """{family: [(case id, source)]}."""
    from support_fuzz_data import dataloader_cases
    from support_fuzz_io import archive_cases, hub_cases
    return {"ops": op_cases(), "out": out_cases(), "inplace": inplace_cases(), "files": file_cases(seed=seed),
            "archives": archive_cases(seed=seed), "dataloader": dataloader_cases(), "hub": hub_cases()}


def all_cases(seed=0):
    return [case for cases in families(seed).values() for case in cases]


# The CI slice: this many cases drawn from each family (all of a smaller one); about a minute.
CI_SLICE = {"ops": 1500, "out": 300, "inplace": 150, "files": 100, "archives": 60, "dataloader": 40, "hub": 24}


def ci_slice(seed):
    rng = random.Random(seed)
    return [case for family, cases in families(seed).items()
            for case in rng.sample(cases, min(CI_SLICE[family], len(cases)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=0, help="run this many cases, drawn with --seed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--family", action="append", help="only this family (repeatable): " + ", ".join(CI_SLICE))
    parser.add_argument("--ci", action="store_true", help="the CI slice (tests/fuzz/test_fuzz.py), seed 27 by default")
    args = parser.parse_args()
    if args.ci:
        cases = ci_slice(args.seed or 27)
    elif args.family:
        cases = [case for name, found in families(args.seed).items() if name in args.family for case in found]
    else:
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
