"""DataLoader: batching, ordering, shuffling, samplers, argument checks, len()."""
import numpy as np
import pytest

import core
from core.utils.data import BatchSampler, DataLoader, SequentialSampler, SubsetRandomSampler
from data_helpers import RangeIterable, SquaresDataset, no_leaks  # noqa: F401  (fixture)

pytestmark = pytest.mark.usefixtures("no_leaks")


def _labels(loader):
    return [labels.tolist() for _, labels in loader]


@pytest.mark.parametrize("workers", [0, 2])
def test_batches_come_in_order(workers):
    loader = DataLoader(SquaresDataset(10), batch_size=4, num_workers=workers)
    batches = list(loader)
    assert [b[1].tolist() for b in batches] == [[0, 1, 4, 9], [16, 25, 36, 49], [64, 81]]
    images = batches[0][0]
    assert images.shape == (4, 2, 3) and images.dtype == core.float32
    np.testing.assert_array_equal(images.numpy()[:, 0, 0], [0, 1, 2, 3])


@pytest.mark.parametrize("workers", [0, 2])
def test_drop_last(workers):
    loader = DataLoader(SquaresDataset(10), batch_size=4, drop_last=True, num_workers=workers)
    assert len(loader) == 2
    assert _labels(loader) == [[0, 1, 4, 9], [16, 25, 36, 49]]


def test_len():
    assert len(DataLoader(SquaresDataset(10), batch_size=3)) == 4
    assert len(DataLoader(SquaresDataset(10), batch_size=None)) == 10
    assert len(DataLoader(RangeIterable(0, 10), batch_size=3)) == 4
    assert len(DataLoader(RangeIterable(0, 10), batch_size=3, drop_last=True)) == 3


@pytest.mark.parametrize("workers", [0, 2])
def test_shuffle_is_reproducible_with_a_generator(workers):
    def order(seed):
        loader = DataLoader(SquaresDataset(12), batch_size=5, shuffle=True, num_workers=workers,
                            generator=core.Generator().manual_seed(seed))
        return [x for batch in _labels(loader) for x in batch]

    first = order(0)
    assert sorted(first) == sorted(i * i for i in range(12))
    assert order(0) == first
    assert order(1) != first


def test_shuffle_reshuffles_every_epoch():
    loader = DataLoader(SquaresDataset(20), batch_size=20, shuffle=True, generator=core.Generator().manual_seed(0))
    assert _labels(loader) != _labels(loader)


def test_without_batching_samples_are_converted_not_collated():
    loader = DataLoader(SquaresDataset(3), batch_size=None)
    image, label = next(iter(loader))
    assert image.shape == (2, 3) and label == 0  # default_convert keeps the int


def test_custom_sampler_and_batch_sampler():
    loader = DataLoader(SquaresDataset(6), batch_size=2, sampler=[5, 4, 3, 2, 1, 0])
    assert _labels(loader) == [[25, 16], [9, 4], [1, 0]]
    loader = DataLoader(SquaresDataset(6), batch_sampler=[[0, 5], [2]])
    assert _labels(loader) == [[0, 25], [4]]
    loader = DataLoader(SquaresDataset(6), batch_sampler=BatchSampler(SequentialSampler(range(6)), 4, False))
    assert len(loader) == 2 and _labels(loader) == [[0, 1, 4, 9], [16, 25]]
    sampler = SubsetRandomSampler([1, 3], generator=core.Generator().manual_seed(0))
    assert sorted(x for b in _labels(DataLoader(SquaresDataset(6), sampler=sampler)) for x in b) == [1, 9]


def test_collate_fn_is_used():
    loader = DataLoader(SquaresDataset(4), batch_size=2, collate_fn=lambda b: tuple(zip(*b)))
    images, labels = next(iter(loader))
    assert labels == (0, 1) and len(images) == 2


def test_pin_memory_is_accepted():
    assert _labels(DataLoader(SquaresDataset(2), batch_size=2, pin_memory=True)) == [[0, 1]]


def test_iterable_dataset_single_process():
    loader = DataLoader(RangeIterable(0, 7), batch_size=3)
    assert [b.tolist() for b in loader] == [[0, 1, 2], [3, 4, 5], [6]]
    loader = DataLoader(RangeIterable(0, 7), batch_size=3, drop_last=True)
    assert [b.tolist() for b in loader] == [[0, 1, 2], [3, 4, 5]]


def test_iterable_dataset_longer_than_its_len_warns():
    class Liar(RangeIterable):
        def __len__(self):
            return 2

    loader = DataLoader(Liar(0, 3), batch_size=1)
    assert len(loader) == 2
    with pytest.warns(UserWarning, match="was reported to be 2"):
        list(loader)


def test_argument_errors():
    ds = SquaresDataset(4)
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        DataLoader(ds, num_workers=-1)
    with pytest.raises(ValueError, match="timeout option should be non-negative"):
        DataLoader(ds, timeout=-1)
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(ds, shuffle=True, sampler=[0])
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive"):
        DataLoader(ds, batch_size=2, batch_sampler=[[0]])
    with pytest.raises(ValueError, match="mutually exclusive with drop_last"):
        DataLoader(ds, batch_size=None, drop_last=True)
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        DataLoader(ds, persistent_workers=True)
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified in multiprocessing"):
        DataLoader(ds, prefetch_factor=4)
    with pytest.raises(ValueError, match="multiprocessing_context can only be used with multi-process loading"):
        DataLoader(ds, multiprocessing_context="spawn")
    with pytest.raises(ValueError, match="should specify a valid start method"):
        DataLoader(ds, num_workers=1, multiprocessing_context="teleport")
    with pytest.raises(TypeError, match="should be a valid context object"):
        DataLoader(ds, num_workers=1, multiprocessing_context=3)
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(RangeIterable(0, 3), shuffle=True)
    with pytest.raises(ValueError, match="expected unspecified sampler option"):
        DataLoader(RangeIterable(0, 3), sampler=[0])
    with pytest.raises(ValueError, match="expected unspecified batch_sampler option"):
        DataLoader(RangeIterable(0, 3), batch_sampler=[[0]])
    with pytest.raises(ValueError, match="timeout option needs multi-process loading"):
        iter(DataLoader(ds, timeout=1))


def test_attributes_are_frozen_after_init():
    loader = DataLoader(SquaresDataset(4), batch_size=2)
    with pytest.raises(ValueError, match="batch_size attribute should not be set after DataLoader is initialized"):
        loader.batch_size = 3
    loader.num_workers = 0  # other attributes may change


def test_iterator_cannot_be_pickled():
    import pickle

    with pytest.raises(NotImplementedError):
        pickle.dumps(iter(DataLoader(SquaresDataset(2))))


def test_reachable_from_core_like_torch_utils_data():
    import core.utils.data.dataloader as module

    assert core.utils.data.DataLoader is DataLoader
    assert module.default_collate is core.utils.data.default_collate
