"""Batches of images with similar aspect ratios (fewer padded pixels per batch): the ratios are
quantised into 2k+1 log-spaced bins over [0.5, 2] and GroupedBatchSampler fills one batch per bin."""
import bisect
import math
from collections import defaultdict
from itertools import chain, repeat

from core.utils.data import Subset
from core.utils.data.sampler import BatchSampler, Sampler
from vision.datasets import CocoDetection, Shapes


class GroupedBatchSampler(BatchSampler):
    """Batches of `batch_size` indices of `sampler` with the same group id. Each group's batch is
    yielded when full; at the end, the fullest incomplete batches are topped up with samples of
    their own group until there are len(sampler) // batch_size batches, as every epoch has."""

    def __init__(self, sampler, group_ids, batch_size):
        if not isinstance(sampler, Sampler):
            raise ValueError(f"sampler should be an instance of core.utils.data.Sampler, but got sampler={sampler}")
        self.sampler = sampler
        self.group_ids = group_ids
        self.batch_size = batch_size

    def __iter__(self):
        buffers, seen = defaultdict(list), defaultdict(list)
        num_batches = 0
        for index in self.sampler:
            group = self.group_ids[index]
            buffers[group].append(index)
            seen[group].append(index)
            if len(buffers[group]) == self.batch_size:
                yield buffers.pop(group)
                num_batches += 1
        missing = len(self) - num_batches
        for group, buffer in sorted(buffers.items(), key=lambda item: len(item[1]), reverse=True):
            if missing <= 0:
                break
            needed = self.batch_size - len(buffer)
            yield buffer + _repeat_to_at_least(seen[group], needed)[:needed]
            missing -= 1

    def __len__(self):
        return len(self.sampler) // self.batch_size


def _repeat_to_at_least(iterable, n):
    repeats = math.ceil(n / len(iterable))
    return list(chain.from_iterable(repeat(iterable, repeats)))


def compute_aspect_ratios(dataset, indices=None):
    """width / height of every image of the dataset (read from the annotations where possible)."""
    if indices is None:
        indices = range(len(dataset))
    if isinstance(dataset, Subset):
        return compute_aspect_ratios(dataset.dataset, [dataset.indices[i] for i in indices])
    if isinstance(dataset, CocoDetection):
        images = [dataset.coco.imgs[dataset.ids[i]] for i in indices]
        return [float(img["width"]) / float(img["height"]) for img in images]
    if isinstance(dataset, Shapes):
        height, width = dataset.image_size
        return [width / height] * len(indices)
    ratios = []
    for i in indices:  # any other dataset: its images, loaded one by one
        image = dataset[i][0]
        height, width = (image.shape[-2:] if hasattr(image, "shape") else (image.height, image.width))
        ratios.append(float(width) / float(height))
    return ratios


def create_aspect_ratio_groups(dataset, k=0):
    """The bin index of each image's aspect ratio: 2k+1 bins spaced log-uniformly in [0.5, 2]."""
    aspect_ratios = compute_aspect_ratios(dataset)
    bins = [2.0 ** (2.0 * i / (2 * k) - 1.0) for i in range(2 * k + 1)] if k > 0 else [1.0]
    groups = [bisect.bisect_right(bins, ratio) for ratio in aspect_ratios]
    counts = [groups.count(i) for i in range(len(bins) + 1)]
    print(f"Using {bins} as bins for aspect ratio quantization")
    print(f"Count of instances per bin: {counts}")
    return groups
