"""Runs the core benchmarks and prints ours vs PyTorch vs numpy:

    python benchmarks/run.py [--threads N] [--repeats R] [--filter SUBSTRING]

Threads default to every core; core and PyTorch get the same count.
"""
import argparse
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)  # harness, bench_core
sys.path.insert(1, os.path.dirname(_HERE))  # the source tree's `core` when not installed

import harness  # noqa: E402
import bench_core  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="threads for core and PyTorch (default: all cores)")
    parser.add_argument("--repeats", type=int, default=7, help="timed samples per measurement (median)")
    parser.add_argument("--filter", default="", help="only cases whose name contains this")
    args = parser.parse_args(argv)

    harness.set_threads(args.threads)
    print(harness.header(args.threads), flush=True)
    results = []
    for bench in bench_core.all_benches():
        if args.filter and args.filter not in bench.name:
            continue
        results.append(harness.run_bench(bench, repeats=args.repeats))
    print()
    print(harness.format_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
