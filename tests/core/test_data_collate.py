"""default_collate / default_convert."""
import collections

import numpy as np
import pytest

import core
from core.utils.data import default_collate, default_convert
from core.utils.data._collate import collate, default_collate_fn_map

Point = collections.namedtuple("Point", ["x", "y"])


def _t(values, dtype=np.float32):
    return core.from_numpy(np.asarray(values, dtype=dtype))


def test_tensors_stack_along_a_new_first_dimension():
    batch = default_collate([_t([[1, 2], [3, 4]]), _t([[5, 6], [7, 8]])])
    assert batch.shape == (2, 2, 2)
    assert batch.dtype == core.float32
    np.testing.assert_array_equal(batch.numpy(), [[[1, 2], [3, 4]], [[5, 6], [7, 8]]])


def test_non_contiguous_tensors_stack():
    base = np.arange(12, dtype=np.int32).reshape(3, 4)
    batch = default_collate([core.from_numpy(base).transpose(0, 1), core.from_numpy(base + 1).transpose(0, 1)])
    np.testing.assert_array_equal(batch.numpy(), np.stack([base.T, base.T + 1]))


def test_stacking_does_not_alias_the_samples():
    sample = _t([1, 2])
    batch = default_collate([sample, sample])
    batch.fill_(0)
    np.testing.assert_array_equal(sample.numpy(), [1, 2])


def test_numbers_become_tensors_like_torch():
    floats = default_collate([1.5, 2.5])
    ints = default_collate([1, 2])
    bools = default_collate([True, False])
    assert floats.dtype == core.float64 and floats.tolist() == [1.5, 2.5]
    assert ints.dtype == core.int64 and ints.tolist() == [1, 2]
    assert bools.dtype == core.bool and bools.tolist() == [True, False]


def test_numpy_arrays_and_scalars_keep_their_dtype():
    arrays = default_collate([np.zeros(3, np.int16), np.ones(3, np.int16)])
    assert arrays.dtype == core.int16 and arrays.shape == (2, 3)
    scalars = default_collate([np.float64(1.0), np.float64(2.0)])
    assert scalars.dtype == core.float64 and scalars.tolist() == [1.0, 2.0]
    assert default_collate([np.int32(3), np.int32(4)]).dtype == core.int32
    assert default_collate([np.bool_(True), np.bool_(False)]).dtype == core.bool


def test_strings_stay_lists():
    assert default_collate(["a", "b"]) == ["a", "b"]
    assert default_collate([b"a", b"b"]) == [b"a", b"b"]


def test_nested_structures():
    samples = [{"image": _t([i, i]), "meta": {"id": i, "name": f"s{i}"}, "pair": (i, 2.0 * i), "pt": Point(i, [i])}
               for i in range(3)]
    batch = default_collate(samples)
    assert set(batch) == {"image", "meta", "pair", "pt"}
    np.testing.assert_array_equal(batch["image"].numpy(), [[0, 0], [1, 1], [2, 2]])
    assert batch["meta"]["id"].tolist() == [0, 1, 2]
    assert batch["meta"]["name"] == ["s0", "s1", "s2"]
    assert isinstance(batch["pair"], list)  # tuples become lists, as in torch
    assert batch["pair"][0].tolist() == [0, 1, 2] and batch["pair"][1].dtype == core.float64
    assert isinstance(batch["pt"], Point)
    assert batch["pt"].x.tolist() == [0, 1, 2]
    assert isinstance(batch["pt"].y, list) and batch["pt"].y[0].tolist() == [0, 1, 2]


def test_mapping_subclass_is_kept():
    batch = default_collate([collections.OrderedDict(a=1), collections.OrderedDict(a=2)])
    assert isinstance(batch, collections.OrderedDict)
    assert batch["a"].tolist() == [1, 2]


def test_sample_tuples_transpose_into_lists():
    images, labels = default_collate([(_t([1.0]), 0), (_t([2.0]), 1)])
    assert images.shape == (2, 1) and labels.tolist() == [0, 1]


def test_errors():
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [3]])
    with pytest.raises(RuntimeError, match=r"stack expects each tensor to be equal size, but got \[2\] at entry 0 "
                                           r"and \[3\] at entry 1"):
        default_collate([_t([1, 2]), _t([1, 2, 3])])
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors, numpy arrays, numbers"):
        default_collate([object(), object()])
    with pytest.raises(TypeError, match="default_collate: batch must contain"):
        default_collate([np.array(["a"]), np.array(["b"])])


def test_bfloat16_tensors_collate():
    batch = default_collate([_t([1.0, 2.0]).to(core.bfloat16), _t([3.0, 4.0]).to(core.bfloat16)])
    assert batch.dtype == core.bfloat16
    assert batch.to(core.float32).tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_custom_collate_fn_map():
    def collate_point(batch, *, collate_fn_map=None):
        return "points"

    assert collate([Point(1, 2), Point(3, 4)], collate_fn_map={Point: collate_point}) == "points"
    merged = {**default_collate_fn_map, str: lambda batch, *, collate_fn_map=None: "".join(batch)}
    assert collate([("a", 1), ("b", 2)], collate_fn_map=merged) == ["ab", _any()]


class _any:
    def __eq__(self, other):
        return True


def test_default_convert():
    array = np.arange(3, dtype=np.float32)
    converted = default_convert(array)
    assert isinstance(converted, core.Tensor) and converted.dtype == core.float32
    converted.fill_(7)
    assert array.tolist() == [7, 7, 7]  # shares memory, as torch.as_tensor
    assert default_convert(np.float64(2.5)).dtype == core.float64
    strings = np.array(["a"])
    assert default_convert(strings) is strings
    out = default_convert({"a": np.zeros(2), "b": (np.ones(1), "s"), "p": Point(np.zeros(1), 3)})
    assert isinstance(out["a"], core.Tensor)
    assert isinstance(out["b"], list) and isinstance(out["b"][0], core.Tensor) and out["b"][1] == "s"
    assert isinstance(out["p"], Point) and isinstance(out["p"].x, core.Tensor) and out["p"].y == 3
    tensor = _t([1])
    assert default_convert(tensor) is tensor
    assert default_convert("text") == "text"
