"""DataLoader throughput, core.utils.data vs torch.utils.data on the same dataset:

    python benchmarks/bench_data.py [--threads N] [--samples 2000] [--repeats R]

One epoch over 2,000 samples of (3, 224, 224) float32 images, each made by a small numpy
computation, batch 32, with num_workers 0 and 2 (worker start-up included, as a training loop
pays it every epoch). Times are medians over interleaved runs (harness.time_interleaved);
ratio = ours / PyTorch, below 1 means we are faster.
"""
import argparse
import os
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)


class ImageDataset:
    """Sample i: (an image from a little numpy arithmetic, as a tensor of `library`, i)."""

    def __init__(self, library, samples):
        self.library = library
        self.samples = samples
        self.base = np.random.default_rng(0).standard_normal((3, 224, 224), dtype=np.float32)

    def __len__(self):
        return self.samples

    def __getitem__(self, index):
        image = self.base * np.float32(1.0 + index * 1e-3) + np.float32(index % 7)
        return sys.modules[self.library].from_numpy(image), index


def _epoch(loader_class, dataset, workers):
    def run():
        seen = 0
        for images, labels in loader_class(dataset, batch_size=32, num_workers=workers):
            seen += len(labels)
        if seen != len(dataset):
            raise AssertionError(f"saw {seen} samples, expected {len(dataset)}")
    return run


def _first_batch(loader_class, dataset, workers):
    images, labels = next(iter(loader_class(dataset, batch_size=32, num_workers=workers)))
    return np.asarray(images.numpy()), np.asarray(labels.numpy())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="threads for core and PyTorch in the main process (default: all cores)")
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5, help="timed epochs per library and setting (median)")
    args = parser.parse_args(argv)

    import harness
    import core
    import core.utils.data

    torch = harness.torch
    if torch is not None:
        import torch.utils.data
    harness.set_threads(args.threads)
    print(harness.header(args.threads))
    print(f"data: {args.samples} samples of (3, 224, 224) float32, batch 32; one epoch per call\n")
    rows = [("num_workers", "ours", "pytorch", "ours/pytorch", "ours samples/s")]
    for workers in (0, 2):
        fns = {"ours": _epoch(core.utils.data.DataLoader, ImageDataset("core", args.samples), workers)}
        if torch is not None:
            fns["pytorch"] = _epoch(torch.utils.data.DataLoader, ImageDataset("torch", args.samples), workers)
            ours, theirs = (_first_batch(loader, ImageDataset(lib, 64), workers) for loader, lib in
                            ((core.utils.data.DataLoader, "core"), (torch.utils.data.DataLoader, "torch")))
            if not all(np.array_equal(a, b) for a, b in zip(ours, theirs)):
                raise AssertionError(f"num_workers={workers}: the libraries' first batches differ")
        seconds = harness.time_interleaved(fns, repeats=args.repeats)
        rows.append((str(workers), harness.format_seconds(seconds["ours"]),
                     harness.format_seconds(seconds.get("pytorch")),
                     harness.format_ratio(seconds["ours"], seconds.get("pytorch")),
                     f"{args.samples / seconds['ours']:.0f}"))
    harness.print_rows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
