"""core.utils.data samplers."""
from unittest import mock

import pytest

import core
from core.utils.data import (BatchSampler, DistributedSampler, RandomSampler, Sampler, SequentialSampler,
                             SubsetRandomSampler, WeightedRandomSampler)
from core.utils.data import _random


def _gen(seed):
    return core.Generator().manual_seed(seed)


def test_sequential_sampler():
    sampler = SequentialSampler(range(5))
    assert list(sampler) == [0, 1, 2, 3, 4]
    assert len(sampler) == 5


def test_sampler_base_class():
    with pytest.raises(NotImplementedError):
        iter(Sampler(None))


def test_random_sampler_is_a_permutation_reproducible_with_a_generator():
    first = list(RandomSampler(range(20), generator=_gen(3)))
    assert sorted(first) == list(range(20))
    assert list(RandomSampler(range(20), generator=_gen(3))) == first
    assert list(RandomSampler(range(20), generator=_gen(4))) != first


def test_random_sampler_generator_advances_between_epochs():
    sampler = RandomSampler(range(20), generator=_gen(3))
    assert list(sampler) != list(sampler)


def test_random_sampler_without_generator_follows_the_default_generator():
    core.manual_seed(11)
    first = list(RandomSampler(range(30)))
    core.manual_seed(11)
    assert list(RandomSampler(range(30))) == first


def test_random_sampler_num_samples_without_replacement_repeats_permutations():
    order = list(RandomSampler(range(4), num_samples=10, generator=_gen(0)))
    assert len(order) == 10
    assert sorted(order[:4]) == sorted(order[4:8]) == [0, 1, 2, 3]
    assert set(order[8:]) <= {0, 1, 2, 3}


def test_random_sampler_with_replacement():
    sampler = RandomSampler(range(5), replacement=True, num_samples=70, generator=_gen(1))
    order = list(sampler)
    assert len(sampler) == len(order) == 70
    assert set(order) <= set(range(5)) and len(set(order)) == 5  # all values show up in 70 draws
    assert order == list(RandomSampler(range(5), replacement=True, num_samples=70, generator=_gen(1)))


def test_random_sampler_argument_errors():
    with pytest.raises(TypeError, match="replacement should be a boolean value"):
        RandomSampler(range(3), replacement=1)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        RandomSampler(range(3), num_samples=0)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        RandomSampler([])


def test_subset_random_sampler():
    sampler = SubsetRandomSampler([10, 20, 30, 40], generator=_gen(2))
    order = list(sampler)
    assert sorted(order) == [10, 20, 30, 40]
    assert len(sampler) == 4
    assert list(SubsetRandomSampler([10, 20, 30, 40], generator=_gen(2))) == order


def test_weighted_random_sampler_follows_the_weights():
    sampler = WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], num_samples=400, generator=_gen(0))
    order = list(sampler)
    assert len(order) == len(sampler) == 400
    assert set(order) == {1, 3}
    assert 0.6 < order.count(3) / 400 < 0.9


def test_weighted_random_sampler_without_replacement():
    order = list(WeightedRandomSampler([1, 2, 3, 4, 5], num_samples=5, replacement=False, generator=_gen(0)))
    assert sorted(order) == [0, 1, 2, 3, 4]
    # like torch 2.x: zero-weight categories come last once the others are exhausted
    assert sorted(WeightedRandomSampler([1, 0, 1], num_samples=3, replacement=False)) == [0, 1, 2]


def test_weighted_random_sampler_errors():
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        WeightedRandomSampler([1.0], num_samples=0)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        WeightedRandomSampler([1.0], num_samples=True)
    with pytest.raises(ValueError, match="replacement should be a boolean value"):
        WeightedRandomSampler([1.0], num_samples=1, replacement=None)
    with pytest.raises(ValueError, match="weights should be a 1d sequence"):
        WeightedRandomSampler([[1.0, 2.0]], num_samples=1)
    with pytest.raises(RuntimeError, match="invalid multinomial distribution \\(encountering probability entry < 0\\)"):
        list(WeightedRandomSampler([1.0, -1.0], num_samples=2))


def test_weighted_random_sampler_accepts_a_tensor():
    sampler = WeightedRandomSampler(core.tensor([0.0, 2.0]), num_samples=3)
    assert sampler.weights.dtype == core.float64
    assert list(sampler) == [1, 1, 1]


@pytest.mark.parametrize("drop_last, expected", [
    (False, [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]),
    (True, [[0, 1, 2], [3, 4, 5], [6, 7, 8]]),
])
def test_batch_sampler(drop_last, expected):
    sampler = BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=drop_last)
    assert list(sampler) == expected
    assert len(sampler) == len(expected)


def test_batch_sampler_over_any_iterable():
    assert list(BatchSampler(iter([5, 6, 7]), 2, False)) == [[5, 6], [7]]


def test_batch_sampler_errors():
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        BatchSampler(range(3), 0, False)
    with pytest.raises(ValueError, match="drop_last should be a boolean value"):
        BatchSampler(range(3), 2, 0)


def test_distributed_sampler_partitions_with_padding():
    ranks = [list(DistributedSampler(range(10), num_replicas=3, rank=r, shuffle=False)) for r in range(3)]
    assert ranks == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]  # padded by wrapping around
    assert len(DistributedSampler(range(10), num_replicas=3, rank=0)) == 4


def test_distributed_sampler_drop_last():
    ranks = [list(DistributedSampler(range(10), num_replicas=3, rank=r, shuffle=False, drop_last=True))
             for r in range(3)]
    assert ranks == [[0, 3, 6], [1, 4, 7], [2, 5, 8]]


def test_distributed_sampler_pads_more_than_the_dataset():
    ranks = [list(DistributedSampler(range(2), num_replicas=5, rank=r, shuffle=False)) for r in range(5)]
    assert ranks == [[0], [1], [0], [1], [0]]


def test_distributed_sampler_shuffles_per_epoch_identically_on_every_rank():
    samplers = [DistributedSampler(range(12), num_replicas=2, rank=r, seed=7) for r in range(2)]
    epoch0 = [list(s) for s in samplers]
    assert sorted(epoch0[0] + epoch0[1]) == list(range(12))
    assert [list(s) for s in samplers] == epoch0  # same epoch, same order
    for s in samplers:
        s.set_epoch(1)
    epoch1 = [list(s) for s in samplers]
    assert sorted(epoch1[0] + epoch1[1]) == list(range(12))
    assert epoch1 != epoch0


def test_distributed_sampler_errors():
    with pytest.raises(ValueError, match=r"Invalid rank 2, rank should be in the interval \[0, 1\]"):
        DistributedSampler(range(4), num_replicas=2, rank=2)
    with pytest.raises(RuntimeError, match="Requires distributed package to be available"):
        DistributedSampler(range(4))


