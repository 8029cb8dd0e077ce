"""core.utils.data against torch.utils.data: sample orders for the same seeds, worker seeds,
collated batches."""
import collections
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import torch.utils.data as tud  # noqa: E402

import core  # noqa: E402
import core.utils.data as cud  # noqa: E402
from core.utils.data import _random, _worker  # noqa: E402

SEEDS = [0, 1, 7, 12345, 2**40 + 3]


def _gens(seed):
    return core.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)


class Numbers:
    """Index i -> i (usable as a dataset by both libraries)."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


@pytest.mark.parametrize("seed", SEEDS)
def test_base_seed_draw(seed):
    ours, theirs = _gens(seed)
    assert [_random.random_seed(ours) for _ in range(3)] == \
        [torch.empty((), dtype=torch.int64).random_(generator=theirs).item() for _ in range(3)]
    core.manual_seed(seed)
    torch.manual_seed(seed)
    assert _random.random_seed() == torch.empty((), dtype=torch.int64).random_().item()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n, num_samples", [(1, None), (7, None), (100, None), (5, 13), (10, 3)])
def test_random_sampler(seed, n, num_samples):
    ours, theirs = _gens(seed)
    a = cud.RandomSampler(range(n), num_samples=num_samples, generator=ours)
    b = tud.RandomSampler(range(n), num_samples=num_samples, generator=theirs)
    assert [list(a), list(a)] == [list(b), list(b)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n, num_samples", [(5, 70), (1000, 33), (3, 1)])
def test_random_sampler_with_replacement(seed, n, num_samples):
    ours, theirs = _gens(seed)
    assert list(cud.RandomSampler(range(n), True, num_samples, generator=ours)) == \
        list(tud.RandomSampler(range(n), True, num_samples, generator=theirs))


@pytest.mark.parametrize("seed", SEEDS)
def test_random_sampler_without_generator_uses_the_default_one(seed):
    core.manual_seed(seed)
    torch.manual_seed(seed)
    a, b = cud.RandomSampler(range(50)), tud.RandomSampler(range(50))
    assert [list(a), list(a)] == [list(b), list(b)]


@pytest.mark.parametrize("seed", SEEDS)
def test_subset_random_sampler(seed):
    ours, theirs = _gens(seed)
    indices = [3, 9, 27, 81, 243, 7]
    assert list(cud.SubsetRandomSampler(indices, ours)) == list(tud.SubsetRandomSampler(indices, theirs))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("replacement, num_samples", [(True, 1), (True, 50), (False, 1), (False, 6)])
def test_weighted_random_sampler(seed, replacement, num_samples):
    weights = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]
    ours, theirs = _gens(seed)
    assert list(cud.WeightedRandomSampler(weights, num_samples, replacement, ours)) == \
        list(tud.WeightedRandomSampler(weights, num_samples, replacement, theirs))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("lengths", [[3, 7], [0.5, 0.3, 0.2], [1, 1, 8]])
def test_random_split(seed, lengths):
    ours, theirs = _gens(seed)
    a = cud.random_split(Numbers(10), lengths, generator=ours)
    b = tud.random_split(Numbers(10), lengths, generator=theirs)
    assert [list(s.indices) for s in a] == [list(s.indices) for s in b]


@pytest.mark.parametrize("n, replicas, shuffle, drop_last", [
    (10, 3, True, False), (10, 3, True, True), (10, 3, False, False), (2, 5, True, False), (64, 4, True, False)])
def test_distributed_sampler(n, replicas, shuffle, drop_last):
    for rank in range(replicas):
        a = cud.DistributedSampler(range(n), replicas, rank, shuffle=shuffle, seed=5, drop_last=drop_last)
        b = tud.DistributedSampler(range(n), replicas, rank, shuffle=shuffle, seed=5, drop_last=drop_last)
        for epoch in range(3):
            a.set_epoch(epoch)
            b.set_epoch(epoch)
            assert list(a) == list(b) and len(a) == len(b)


@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.parametrize("seed", [0, 99])
def test_dataloader_shuffled_order(workers, seed):
    ours, theirs = _gens(seed)
    a = cud.DataLoader(Numbers(23), batch_size=4, shuffle=True, num_workers=workers, generator=ours)
    b = tud.DataLoader(Numbers(23), batch_size=4, shuffle=True, num_workers=workers, generator=theirs)
    for _ in range(2):  # two epochs: the generator state carries over identically
        assert [x.tolist() for x in a] == [x.tolist() for x in b]


class Randomness:
    """What a worker's seeding produces, in a form both libraries collate alike."""

    def __len__(self):
        return 6

    def __getitem__(self, i):
        info = (_worker.get_worker_info() or tud.get_worker_info())
        return [info.id, info.seed, random.random(), float(np.random.rand())]


def test_worker_seeds_and_their_python_and_numpy_draws():
    ours, theirs = _gens(2024)
    a = cud.DataLoader(Randomness(), batch_size=None, num_workers=2, generator=ours)
    b = tud.DataLoader(Randomness(), batch_size=None, num_workers=2, generator=theirs)
    assert [[float(v) for v in sample] for sample in a] == [[float(v) for v in sample] for sample in b]


@pytest.mark.parametrize("base_seed", [0, 1, 2**32 + 5, 2**63 - 1])
@pytest.mark.parametrize("worker_id", [0, 3])
def test_numpy_worker_seed_words(base_seed, worker_id):
    from torch.utils.data._utils.worker import _generate_state

    assert _worker.numpy_seed(base_seed, worker_id).tolist() == _generate_state(base_seed, worker_id)


def _to_plain(obj):
    # A comparable picture of a collated batch: containers by type name, tensors by dtype + values.
    if isinstance(obj, (core.Tensor, torch.Tensor)):
        return ("tensor", str(obj.dtype).split(".")[-1], tuple(obj.shape), obj.tolist())
    if isinstance(obj, dict):
        return (type(obj).__name__, {k: _to_plain(v) for k, v in obj.items()})
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return (type(obj).__name__, [_to_plain(v) for v in obj])
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [_to_plain(v) for v in obj])
    return obj


Pair = collections.namedtuple("Pair", ["left", "right"])


def _samples(library):
    tensor = library.from_numpy
    return [{"image": tensor(np.full((2, 3), i, np.float32)), "label": i, "weight": 0.5 * i, "flag": i % 2 == 0,
             "name": f"s{i}", "np": np.arange(3, dtype=np.int16) + i, "np_scalar": np.float64(i) / 3,
             "pair": Pair(i, [i, -i]), "tuple": (i, "x"),
             "ordered": collections.OrderedDict(b=tensor(np.array([i], np.int32)))}
            for i in range(3)]


def test_default_collate_matches_torch():
    assert _to_plain(cud.default_collate(_samples(core))) == _to_plain(tud.default_collate(_samples(torch)))


def test_default_collate_of_mixed_dtypes_promotes_like_torch():
    def batch(library):
        return [library.tensor([1.5, 2.0]), library.tensor([3, 4]), library.tensor([True, False])]

    assert _to_plain(cud.default_collate(batch(core))) == _to_plain(tud.default_collate(batch(torch)))


def test_default_convert_matches_torch():
    sample = {"a": np.arange(3, dtype=np.float64), "b": (np.int32(4), "s"), "c": Pair(np.zeros(2, np.int64), 1),
              "d": [np.float32(1.5)], "e": np.array(["x"])}
    ours, theirs = cud.default_convert(sample), tud.default_collate.__globals__["default_convert"](sample)
    ours["e"], theirs["e"] = ours["e"].tolist(), theirs["e"].tolist()
    assert _to_plain(ours) == _to_plain(theirs)


def test_iterable_dataset_sharding_and_len_match_torch():
    class Shards(cud.IterableDataset):
        def __len__(self):
            return 11

        def __iter__(self):
            info = cud.get_worker_info() or tud.get_worker_info()
            return iter(range(info.id, 11, info.num_workers))

    class TorchShards(Shards, tud.IterableDataset):
        pass

    a = cud.DataLoader(Shards(), batch_size=3, num_workers=2)
    b = tud.DataLoader(TorchShards(), batch_size=3, num_workers=2)
    assert len(a) == len(b)
    assert [x.tolist() for x in a] == [x.tolist() for x in b]
