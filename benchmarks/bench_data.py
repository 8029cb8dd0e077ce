"""DataLoader throughput: core.utils.data vs torch.utils.data on the same dataset.

2,000 samples of (3, 224, 224) float32 images made by a small numpy computation, batch 32,
num_workers 0 and 2. Prints seconds per epoch (best of --repeat, worker start-up included)
and ours / torch (below 1.0: we are faster).

    PYTHONPATH=. python benchmarks/bench_data.py [--samples 2000] [--repeat 3]
"""
import argparse
import time

import numpy as np


class ImageDataset:
    """A map-style dataset whose samples cost a little numpy work, for either library."""

    def __init__(self, library, samples):
        self.library = library
        self.samples = samples
        self.base = np.random.default_rng(0).standard_normal((3, 224, 224), dtype=np.float32)
        self.from_numpy = None

    def __len__(self):
        return self.samples

    def __getitem__(self, index):
        if self.from_numpy is None:  # imported lazily so the object pickles for spawn
            self.from_numpy = __import__(self.library).from_numpy
        image = self.base * np.float32(1.0 + index * 1e-3) + np.float32(index % 7)
        return self.from_numpy(image), index


def _best_times(fns, repeat):
    # Alternating runs, best of each: the machine is shared, so load hits both sides alike.
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def _epoch(loader_class, dataset, workers):
    def run():
        seen = 0
        for images, labels in loader_class(dataset, batch_size=32, num_workers=workers):
            seen += len(labels)
        assert seen == len(dataset), seen
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    import core.utils.data

    try:
        import torch
        import torch.utils.data
    except ImportError:
        torch = None
    print(f"{'num_workers':>11} {'core s':>8} {'torch s':>8} {'core/torch':>10}")
    for workers in (0, 2):
        runs = [_epoch(core.utils.data.DataLoader, ImageDataset("core", args.samples), workers)]
        if torch is not None:
            runs.append(_epoch(torch.utils.data.DataLoader, ImageDataset("torch", args.samples), workers))
        times = _best_times(runs, args.repeat)
        if torch is None:
            print(f"{workers:>11} {times[0]:8.3f} {'-':>8} {'-':>10}")
        else:
            print(f"{workers:>11} {times[0]:8.3f} {times[1]:8.3f} {times[0] / times[1]:10.2f}")


if __name__ == "__main__":
    main()
