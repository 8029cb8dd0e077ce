"""DistributedSampler: each of `num_replicas` processes visits its own slice of the dataset."""
import math

import core
from core.utils.data import _random
from core.utils.data.sampler import Sampler

__all__ = ["DistributedSampler"]


def _world():
    # Without an initialised process group, num_replicas and rank must be given.
    import core.distributed as dist

    if not dist.is_available() or not dist.is_initialized():
        raise RuntimeError("Requires distributed package to be available")
    return dist


class DistributedSampler(Sampler):
    """Indices of rank `rank` out of `num_replicas`: a permutation seeded by `seed + epoch`
    (when shuffling), padded by wrapping around (or truncated with `drop_last`) to a multiple of
    num_replicas, then every num_replicas-th index from `rank`. Call `set_epoch` every epoch."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False):
        if num_replicas is None:
            num_replicas = _world().get_world_size()
        if rank is None:
            rank = _world().get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        if drop_last and len(dataset) % num_replicas != 0:
            self.num_samples = math.ceil((len(dataset) - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(len(dataset) / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            g = core.Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = _random.randperm(n, g)
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            padding = self.total_size - len(indices)
            indices += (indices * math.ceil(padding / len(indices)))[:padding] if padding > 0 else []
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        self.epoch = epoch
