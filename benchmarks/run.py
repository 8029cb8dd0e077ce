"""Runs the core benchmarks and prints ours vs PyTorch vs numpy:

    python benchmarks/run.py [--threads N] [--repeats R] [--filter SUBSTRING]

Threads default to every core; core, PyTorch and numpy's BLAS get the same count.
"""
import argparse
import os
import sys

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="threads for core, PyTorch and numpy's BLAS (default: all cores)")
    parser.add_argument("--repeats", type=int, default=9, help="timed samples per measurement (median)")
    parser.add_argument("--filter", default="", help="only cases whose name contains this")
    args = parser.parse_args(argv)

    # numpy's OpenBLAS reads its thread count once, when numpy is first imported.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", str(args.threads))
    import harness
    import bench_core

    harness.run_and_print(bench_core.all_benches(), args.threads, args.repeats, args.filter)
    return 0


if __name__ == "__main__":
    sys.exit(main())
