"""core.utils.data datasets: TensorDataset, ConcatDataset, ChainDataset, Subset, StackDataset,
random_split."""
import numpy as np
import pytest

import core
from core.utils.data import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset,
                             TensorDataset, random_split)
from data_helpers import RangeIterable


class ListDataset(Dataset):
    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class BatchedDataset(ListDataset):
    """Also serves whole batches, recording that it did."""

    def __init__(self, items):
        super().__init__(items)
        self.batched_calls = 0

    def __getitems__(self, indices):
        self.batched_calls += 1
        return [self.items[i] for i in indices]


def test_base_classes_raise_until_implemented():
    with pytest.raises(NotImplementedError):
        Dataset()[0]
    with pytest.raises(NotImplementedError):
        iter(IterableDataset())


def test_tensor_dataset_rows():
    x = core.from_numpy(np.arange(12, dtype=np.float32).reshape(4, 3))
    y = core.tensor([10, 11, 12, 13])
    ds = TensorDataset(x, y)
    assert len(ds) == 4
    row, label = ds[2]
    np.testing.assert_array_equal(row.numpy(), [6, 7, 8])
    assert int(label) == 12


def test_tensor_dataset_size_mismatch():
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(core.zeros(3), core.zeros(4))


def test_concat_dataset_indexing():
    ds = ConcatDataset([ListDataset("abc"), ListDataset("de"), ListDataset("f")])
    assert len(ds) == 6
    assert [ds[i] for i in range(6)] == list("abcdef")
    assert ds[-1] == "f" and ds[-6] == "a"
    assert ds.cumulative_sizes == [3, 5, 6]
    with pytest.raises(ValueError, match="absolute value of index"):
        ds[-7]
    assert [x for x in (ListDataset("ab") + ListDataset("c"))] == ["a", "b", "c"]


def test_concat_dataset_rejects_bad_inputs():
    with pytest.raises(AssertionError, match="should not be an empty iterable"):
        ConcatDataset([])
    with pytest.raises(AssertionError, match="does not support IterableDataset"):
        ConcatDataset([RangeIterable(0, 3)])


def test_chain_dataset():
    ds = ChainDataset([RangeIterable(0, 3), RangeIterable(10, 12)])
    assert list(ds) == [0, 1, 2, 10, 11]
    assert list(ds) == [0, 1, 2, 10, 11]  # a new pass each time
    assert len(ds) == 5
    assert list(RangeIterable(0, 2) + RangeIterable(5, 6)) == [0, 1, 5]
    with pytest.raises(AssertionError, match="only supports IterableDataset"):
        list(ChainDataset([ListDataset("ab")]))


def test_subset():
    base = BatchedDataset("abcdef")
    sub = Subset(base, [5, 0, 2])
    assert len(sub) == 3
    assert [sub[i] for i in range(3)] == ["f", "a", "c"]
    assert sub.__getitems__([0, 2]) == ["f", "c"]
    assert base.batched_calls == 1


def test_stack_dataset_tuple_and_dict():
    a, b = ListDataset([1, 2, 3]), BatchedDataset("xyz")
    stacked = StackDataset(a, b)
    assert len(stacked) == 3
    assert stacked[1] == (2, "y")
    assert stacked.__getitems__([2, 0]) == [(3, "z"), (1, "x")]
    named = StackDataset(num=a, letter=b)
    assert named[0] == {"num": 1, "letter": "x"}
    assert named.__getitems__([1]) == [{"num": 2, "letter": "y"}]


def test_stack_dataset_errors():
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        StackDataset(ListDataset("ab"), ListDataset("abc"))
    with pytest.raises(ValueError, match="both types are given"):
        StackDataset(ListDataset("ab"), b=ListDataset("ab"))
    with pytest.raises(ValueError, match="At least one dataset"):
        StackDataset()


def _split_indices(parts):
    return [list(p.indices) for p in parts]


def test_random_split_lengths_partition_the_dataset():
    ds = ListDataset(range(10))
    parts = random_split(ds, [3, 7], generator=core.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [3, 7]
    assert sorted(i for p in _split_indices(parts) for i in p) == list(range(10))
    assert [parts[0][i] for i in range(3)] == parts[0].indices


def test_random_split_is_reproducible_with_a_generator():
    ds = ListDataset(range(50))
    first = _split_indices(random_split(ds, [20, 30], generator=core.Generator().manual_seed(5)))
    second = _split_indices(random_split(ds, [20, 30], generator=core.Generator().manual_seed(5)))
    other = _split_indices(random_split(ds, [20, 30], generator=core.Generator().manual_seed(6)))
    assert first == second
    assert first != other


def test_random_split_fractions():
    ds = ListDataset(range(11))
    parts = random_split(ds, [0.5, 0.3, 0.2], generator=core.Generator().manual_seed(1))
    # floor(5.5, 3.3, 2.2) = 5, 3, 2; the one left over goes to the first split
    assert [len(p) for p in parts] == [6, 3, 2]
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        random_split(ListDataset(range(2)), [0.99, 0.01], generator=core.Generator().manual_seed(1))


def test_random_split_errors():
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(ListDataset(range(5)), [2, 2])
    with pytest.raises(ValueError, match="Fraction at index 2 is not between 0 and 1"):
        random_split(ListDataset(range(5)), [0.5, 0.7, -0.2])
