"""core.utils.safetensors: the file layout, round trips and validation of malformed files."""
import json
import struct

import numpy as np
import pytest

import core
from core.utils import safetensors as st

ALL = [core.bool, core.uint8, core.int8, core.int16, core.int32, core.int64, core.float16,
       core.bfloat16, core.float32, core.float64, core.complex64]


def _np(t):
    return (t.to(core.float32) if t.dtype == core.bfloat16 else t).numpy()


def _values(dtype, shape):
    n = int(np.prod(shape)) if shape else 1
    t = (core.arange(n) - 2).reshape(shape)
    if dtype == core.bool:
        return (t % 2) == 0
    if dtype == core.complex64:
        return (t * 1.5 + core.tensor(0.5j)).to(dtype)
    return (t * 1.5).to(dtype) if dtype.is_floating_point else t.to(dtype)


def _header(data):
    (n,) = struct.unpack("<Q", data[:8])
    return n, json.loads(data[8:8 + n])


def _file(header, payload=b"", pad=True):
    text = json.dumps(header).encode()
    if pad:
        text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + payload


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3)], ids=str)
def test_round_trip_every_dtype(shape, tmp_path):
    tensors = {str(d): _values(d, shape) for d in ALL}
    for out in (st.load(st.save(tensors)), _via_file(tensors, tmp_path)):
        assert list(out) == list(_header(st.save(tensors))[1])
        for name, t in tensors.items():
            assert out[name].dtype == t.dtype and out[name].shape == t.shape
            np.testing.assert_array_equal(_np(out[name]), _np(t))


def _via_file(tensors, tmp_path):
    st.save_file(tensors, tmp_path / "t.safetensors")
    return st.load_file(str(tmp_path / "t.safetensors"))


def test_layout_matches_the_reference_writer():
    data = st.save({"b": core.ones(3), "a": core.zeros(2, dtype=core.float16), "c": core.tensor([True]),
                    "z": core.ones(1, dtype=core.int64)}, metadata={"format": "pt"})
    n, header = _header(data)
    assert n % 8 == 0 and data[8:8 + n].endswith(b"}" + b" " * (n - len(data[8:8 + n].rstrip())))
    assert list(header) == ["__metadata__", "z", "b", "a", "c"]  # larger dtypes first, then by name
    assert header["b"] == {"dtype": "F32", "shape": [3], "data_offsets": [8, 20]}
    assert header["__metadata__"] == {"format": "pt"}
    assert data[8 + n:8 + n + 8] == struct.pack("<q", 1)
    assert b", " not in data[8:8 + n]  # compact JSON


def test_non_contiguous_is_saved_contiguous():
    t = core.arange(12.).reshape(3, 4).t()[::2]
    out = st.load(st.save({"t": t}))["t"]
    assert out.is_contiguous()
    np.testing.assert_array_equal(out.numpy(), t.numpy())


def test_shared_memory_is_refused_but_disjoint_slices_are_fine():
    base = core.arange(10.)
    with pytest.raises(st.SafetensorError, match="share memory"):
        st.save({"a": base, "b": base[2:4]})
    with pytest.raises(st.SafetensorError, match="share memory"):
        st.save({"a": base[:6], "b": base[5:]})
    out = st.load(st.save({"a": base[:5], "b": base[5:]}))
    np.testing.assert_array_equal(out["b"].numpy(), np.arange(5., 10.))


def test_safe_open_is_lazy_and_has_metadata(tmp_path):
    path = tmp_path / "m.safetensors"
    st.save_file({"w": core.ones(2, 2), "b": core.zeros(2)}, path, metadata={"k": "v"})
    with st.safe_open(path, framework="pt") as f:
        assert sorted(f.keys()) == ["b", "w"] and f.metadata() == {"k": "v"}
        np.testing.assert_array_equal(f.get_tensor("w").numpy(), np.ones((2, 2)))
        with pytest.raises(st.SafetensorError, match="no tensor named"):
            f.get_tensor("nope")


def test_save_errors():
    with pytest.raises(st.SafetensorError, match="not a tensor"):
        st.save({"a": [1, 2]})
    with pytest.raises(st.SafetensorError, match="str -> str"):
        st.save({"a": core.ones(1)}, metadata={"k": 1})
    with pytest.raises(st.SafetensorError, match="names must be str"):
        st.save({1: core.ones(1)})


F4 = np.arange(4, dtype=np.float32).tobytes()


@pytest.mark.parametrize("data, message", [
    (b"\x01\x02", "too small"),
    (struct.pack("<Q", 10 ** 9) + b"{}", "larger than the limit"),
    (struct.pack("<Q", 100) + b"{}", "past the end"),
    (struct.pack("<Q", 2) + b"[]", "not a JSON object"),
    (struct.pack("<Q", 3) + b"{x}", "invalid JSON"),
    (struct.pack("<Q", 2) + b"\xff}", "not a JSON object"),
    (_file({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, F4[:8]), "cover 16 bytes"),
    (_file({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, F4 + b"xx"), "holds 18"),
    (_file({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
            "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}, F4), "gap or overlap"),
    (_file({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}}, F4), "gap or overlap"),
    (_file({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 16]}}, F4), "span 16"),
    (_file({"a": {"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]}}, F4), "non-negative"),
    (_file({"a": {"dtype": "F32", "shape": [4], "data_offsets": [16, 0]}}, F4), "begin <= end"),
    (_file({"a": {"dtype": "X99", "shape": [4], "data_offsets": [0, 16]}}, F4), "unknown dtype"),
    (_file({"a": {"dtype": "F8_E4M3", "shape": [16], "data_offsets": [0, 16]}}, F4), "not supported"),
    (_file({"a": {"dtype": "F32", "shape": [4]}}, F4), "exactly dtype"),
    (_file({"__metadata__": {"k": 1}}), "strings to strings"),
])
def test_malformed_files_are_refused(data, message):
    with pytest.raises(st.SafetensorError, match=message):
        st.load(data)


@pytest.mark.parametrize("eighths", range(8))
def test_truncation_is_an_error(eighths, tmp_path):
    data = st.save({f"t{i}": core.arange(50.) + i for i in range(4)})
    cut = data[:len(data) * eighths // 8]
    with pytest.raises(st.SafetensorError):
        st.load(cut)
    path = tmp_path / "cut.safetensors"
    path.write_bytes(cut)
    with pytest.raises(st.SafetensorError):
        st.load_file(path)
