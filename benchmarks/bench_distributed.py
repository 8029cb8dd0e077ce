"""core.distributed on MPI ranks (the script starts them itself with mpiexec):

    python benchmarks/bench_distributed.py [--ranks 2] [--repeats 7] [--image-size 224] [--steps 4]

1. all_reduce (SUM, in place) of 1 MB, 25 MB and 100 MB of float32: core.distributed on a tensor
   against raw mpi4py's Allreduce on a numpy array over the same memory (a view of that tensor),
   and on an array numpy allocated (numpy maps large arrays with transparent huge pages,
   which MPI's shared-memory copies profit from: a property of the memory, not of the library);
   the libraries take turns sample by sample, every sample started by a barrier; median seconds per
   call on rank 0. ratio = ours / mpi4py (target <= 1.05x).
2. A training step (forward, cross-entropy, backward, SGD step) of MobileNetV3-Small: DDP on the
   ranks at batch 16 each, one thread per rank, against one process at batch 32 (`--ranks` x 16)
   at 1 and 2 threads. overlap = the share of the all-reduce time that ran before the last gradient
   was ready, i.e. hidden behind backward (from the reducer's timeline of each step).

PyTorch has no MPI backend in its PyPI wheels, so the yardsticks are raw mpi4py (1) and the
single-process step (2). Timings vary +-30% on shared machines: compare within one run.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

SIZES_MB = (1, 25, 100)
CALLS_PER_SAMPLE = {1: 20, 25: 2, 100: 1}


# ---- on the ranks

def _seconds_per_call(fn, calls, comm):
    comm.Barrier()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def _all_reduce_timings(repeats):
    import core
    import core.distributed as dist
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    rows = []
    for mb in SIZES_MB:
        n = mb * 1024 * 1024 // 4
        ours = core.zeros(n)  # zeros: sums stay finite
        # mpi4py on the very same memory (a numpy view of that tensor), and on numpy's own, which numpy
        # maps with transparent huge pages (madvise) and MPI then copies faster
        same_memory, numpy_memory = ours.numpy(), np.zeros(n, dtype=np.float32)
        fns = {"ours": lambda: dist.all_reduce(ours),
               "mpi4py": lambda: comm.Allreduce(MPI.IN_PLACE, same_memory, MPI.SUM),
               "mpi4py_numpy": lambda: comm.Allreduce(MPI.IN_PLACE, numpy_memory, MPI.SUM)}
        samples = {lib: [] for lib in fns}
        calls = CALLS_PER_SAMPLE[mb]
        libs = list(fns)
        for round_ in range(repeats + 1):  # the first round warms up; the order rotates, so each
            for lib in libs[round_ % 3:] + libs[:round_ % 3]:  # library runs first, second, third alike
                samples[lib].append(_seconds_per_call(fns[lib], calls, comm))
        check = core.arange(n, dtype=core.float32) % 7  # after the timed calls: checks the path they took
        dist.all_reduce(check)
        expected = (np.arange(n, dtype=np.float32) % 7) * comm.Get_size()
        if not np.array_equal(check.numpy(), expected):
            raise AssertionError(f"all_reduce of {mb} MB gave a wrong sum")
        rows.append({"mb": mb, **{lib: statistics.median(s[1:]) for lib, s in samples.items()}})
    return rows


def _step_seconds(model, optimizer, x, y, steps, before=None, after=None):
    """Seconds of each of `steps` training steps (after one warm-up step); `before` runs ahead of
    each step, `after(model)` after each timed one."""
    import core.nn.functional as F

    seconds = []
    for step in range(steps + 1):
        if before is not None:
            before()
        start = time.perf_counter()
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step:
            seconds.append(time.perf_counter() - start)
            if after is not None:
                after(model)
    return seconds


def _hidden_share(timeline):
    grads_ready, intervals = timeline
    busy = sum(end - start for start, end in intervals)
    hidden = sum(max(0.0, min(end, grads_ready) - start) for start, end in intervals)
    return hidden / busy if busy > 0 else 0.0, busy


def _ddp_timings(steps, image_size, bucket_caps):
    import core
    import core.distributed as dist
    from vision.models import mobilenet_v3_small

    rows = []
    rank = dist.get_rank()
    for cap in bucket_caps:
        core.manual_seed(0)
        ddp = core.nn.parallel.DistributedDataParallel(mobilenet_v3_small(), bucket_cap_mb=cap)
        optimizer = core.optim.SGD(ddp.parameters(), lr=0.01, momentum=0.9)
        x = core.randn(16, 3, image_size, image_size)
        y = (core.randint(0, 1000, (16,)) + rank) % 1000
        hidden, comm_seconds = [], []

        def record(model):
            share, busy = _hidden_share(model.reducer.timeline)
            hidden.append(share)
            comm_seconds.append(busy)
        seconds = _step_seconds(ddp, optimizer, x, y, steps, before=dist.barrier, after=record)
        rows.append({"bucket_cap_mb": cap, "buckets": len(ddp.reducer.buckets), "step": statistics.median(seconds),
                     "hidden": statistics.median(hidden), "all_reduce": statistics.median(comm_seconds)})
    return rows


def rank_main(args):
    import core
    import core.distributed as dist

    core.set_num_threads(1)  # the ranks share the machine's cores
    dist.init_process_group("mpi")
    result = {"world": dist.get_world_size(), "all_reduce": _all_reduce_timings(args.repeats),
              "ddp": _ddp_timings(args.steps, args.image_size, args.bucket_caps)}
    if dist.get_rank() == 0:
        print("RESULT " + json.dumps(result), flush=True)
    dist.destroy_process_group()


# ---- in the launching process

def _single_process_step(threads, batch, steps, image_size):
    import core
    from vision.models import mobilenet_v3_small

    core.set_num_threads(threads)
    core.manual_seed(0)
    model = mobilenet_v3_small()
    optimizer = core.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = core.randn(batch, 3, image_size, image_size), core.randint(0, 1000, (batch,))
    seconds = _step_seconds(model, optimizer, x, y, steps)
    return statistics.median(seconds)


def _mpiexec():
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    return beside if os.access(beside, os.X_OK) else "mpiexec"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=7, help="samples per all_reduce case (median)")
    parser.add_argument("--steps", type=int, default=4, help="timed training steps (median)")
    parser.add_argument("--image-size", type=int, default=224)
    parser.add_argument("--bucket-caps", type=float, nargs="+", default=[25.0, 2.0],
                        help="DDP bucket_cap_mb values to time (25 is torch's default)")
    parser.add_argument("--rank-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rank_worker:
        rank_main(args)
        return 0

    import harness

    worker_args = [sys.executable, os.path.abspath(__file__), "--rank-worker", "--repeats", str(args.repeats),
                   "--steps", str(args.steps), "--image-size", str(args.image_size),
                   "--bucket-caps", *map(str, args.bucket_caps)]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([_mpiexec(), "-n", str(args.ranks), *worker_args], env=env, capture_output=True,
                          text=True, timeout=1800)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        sys.stderr.write(done.stdout + done.stderr)
        return 1
    result = json.loads(lines[0][len("RESULT "):])
    from mpi4py import MPI

    print(harness.header(1))
    print(f"MPI: {MPI.Get_library_version().splitlines()[0].strip()}; mpi4py {__import__('mpi4py').__version__}; "
          f"{result['world']} ranks, one core thread each\n")
    print("all_reduce SUM of float32, in place (median per call on rank 0); mpi4py on a numpy view of the same\n"
          "tensor's memory, and on numpy's own memory (huge pages)")
    rows = [("size", "ours", "mpi4py", "ours/mpi4py", "mpi4py numpy mem", "ours/that", "ours GB/s")]
    for row in result["all_reduce"]:
        rows.append((f"{row['mb']} MB", harness.format_seconds(row["ours"]), harness.format_seconds(row["mpi4py"]),
                     harness.format_ratio(row["ours"], row["mpi4py"]), harness.format_seconds(row["mpi4py_numpy"]),
                     harness.format_ratio(row["ours"], row["mpi4py_numpy"]), f"{row['mb'] / 1024 / row['ours']:.2f}"))
    harness.print_rows(rows)

    batch = 16 * args.ranks
    single = {t: _single_process_step(t, batch, args.steps, args.image_size) for t in (1, 2)}
    print(f"\nMobileNetV3-Small training step at {args.image_size}x{args.image_size}: DDP {args.ranks} x 16 "
          f"against one process at batch {batch}")
    rows = [("setting", "step", "vs 1 process 1 thread", "vs 1 process 2 threads", "all-reduce", "hidden")]
    for t, seconds in single.items():
        rows.append((f"1 process, batch {batch}, {t} thread{'s' if t > 1 else ''}", harness.format_seconds(seconds),
                     harness.format_ratio(seconds, single[1]), harness.format_ratio(seconds, single[2]), "", ""))
    for row in result["ddp"]:
        rows.append((f"DDP {args.ranks} x 16, bucket_cap_mb {row['bucket_cap_mb']:g} ({row['buckets']} buckets)",
                     harness.format_seconds(row["step"]), harness.format_ratio(row["step"], single[1]),
                     harness.format_ratio(row["step"], single[2]), harness.format_seconds(row["all_reduce"]),
                     f"{100 * row['hidden']:.0f}%"))
    harness.print_rows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
