"""core.save / core.load: round trips, PyTorch's zip layout, legacy files, map_location, and
a hostile-input suite (disallowed globals, the CVE-2025-32434 / CVE-2026-24747 opcode shapes,
storages shorter than their tensors, truncation, CRC damage)."""
import collections
import io
import os
import pathlib
import pickle
import struct
import tarfile
import zipfile

import numpy as np
import pytest

import core
from serialization_helpers import archive, glob, num, program, rebuild_v2, storage_pid, tup, uni

ALL = [core.bool, core.uint8, core.int8, core.int16, core.int32, core.int64, core.float16,
       core.bfloat16, core.float32, core.float64, core.complex64]
LOAD_ERRORS = (RuntimeError, pickle.UnpicklingError, ValueError)


def _values(dtype, shape):
    n = int(np.prod(shape)) if shape else 1
    t = (core.arange(n) - 2).reshape(shape)
    if dtype == core.complex64:
        return (t * 1.5 + core.tensor(0.5j)).to(dtype)
    if dtype == core.bool:
        return (t % 2) == 0
    return (t * 1.5).to(dtype) if dtype.is_floating_point else t.to(dtype)


def _np(t):
    return (t.to(core.float32) if t.dtype == core.bfloat16 else t).numpy()


def _same(a, b):
    assert type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(_np(a), _np(b))


def _round_trip(obj, **save_kw):
    buffer = io.BytesIO()
    core.save(obj, buffer, **save_kw)
    buffer.seek(0)
    return core.load(buffer)


# ---- round trips

@pytest.mark.parametrize("dtype", ALL, ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3), (2, 0, 3)], ids=str)
def test_every_dtype_and_shape(dtype, shape):
    t = _values(dtype, shape)
    _same(_round_trip(t), t)


def test_nested_containers_and_primitives():
    sd = collections.OrderedDict(w=core.ones(2, 3), b=core.zeros(3))
    sd._metadata = collections.OrderedDict({"": {"version": 1}, "layer": {"version": 2}})
    obj = {"model": sd, "epoch": 7, "lr": 0.1, "name": "run", "flags": (True, False, None),
           "list": [1, [2, [3, core.tensor(4)]]], "tags": {"a", "b"}, "frozen": frozenset({1}),
           "blob": b"\x00\xff", "c": 1 + 2j, "big": 2 ** 80, "shape": core.Size([2, 3]),
           "dtype": core.bfloat16, "counter": collections.Counter(a=2)}
    out = _round_trip(obj)
    assert type(out["model"]) is collections.OrderedDict and list(out["model"]) == ["w", "b"]
    assert out["model"]._metadata == sd._metadata
    for key in ("epoch", "lr", "name", "flags", "tags", "frozen", "blob", "c", "big", "counter"):
        assert out[key] == obj[key] and type(out[key]) is type(obj[key])
    assert type(out["shape"]) is core.Size and out["shape"] == (2, 3)
    assert out["dtype"] is core.bfloat16
    _same(out["list"][1][1][1], core.tensor(4))


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_pickle_protocols(protocol):
    obj = collections.OrderedDict(a=core.arange(6.).reshape(2, 3), b=[core.tensor([1, 2])])
    out = _round_trip(obj, pickle_protocol=protocol)
    _same(out["a"], obj["a"])
    _same(out["b"][0], obj["b"][0])


def test_shared_storage_and_views_stay_shared():
    base = core.arange(20.)
    obj = {"base": base, "slice": base[5:15], "strided": base[1::3], "t": base[:12].reshape(3, 4).t()}
    out = _round_trip(obj)
    for key, t in obj.items():
        _same(out[key], t)
        assert out[key].stride() == t.stride() and out[key].storage_offset() == t.storage_offset()
        assert out[key]._storage_ptr() == out["base"]._storage_ptr()
    out["base"].add_(1)  # one storage: writes show through every view
    np.testing.assert_array_equal(out["slice"].numpy(), np.arange(6., 16.))


def test_non_contiguous_tensors_keep_strides():
    t = core.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)[:, 1:, ::2]
    out = _round_trip(t)
    _same(out, t)
    assert out.stride() == t.stride()


def test_requires_grad_is_kept():
    t = core.ones(3).requires_grad_()
    out = _round_trip({"t": t, "plain": core.ones(2)})
    assert out["t"].requires_grad and out["t"].is_leaf and not out["plain"].requires_grad


def test_tensor_attributes_round_trip():
    t = core.ones(2)
    t.tag = "kept"
    out = _round_trip(t)
    assert out.tag == "kept"


def test_one_storage_as_two_dtypes_is_refused():
    c = core.tensor([1 + 2j, 3 + 4j])
    with pytest.raises(RuntimeError, match="different types"):
        core.save([c, core.view_as_real(c)], io.BytesIO())


def test_save_paths_and_streams(tmp_path):
    obj = {"x": core.arange(4)}
    core.save(obj, str(tmp_path / "a.pt"))
    core.save(obj, tmp_path / "b.pth")
    for f in (str(tmp_path / "a.pt"), tmp_path / "b.pth", open(tmp_path / "a.pt", "rb")):
        _same(core.load(f)["x"], obj["x"])

    class WriteOnly:  # no seek, no tell: the archive goes out in one pass
        def __init__(self):
            self.parts = []

        def write(self, data):
            self.parts.append(bytes(data))
            return len(data)

    sink = WriteOnly()
    core.save(obj, sink)

    class ReadOnly(io.RawIOBase):  # a non-seekable source is buffered
        def __init__(self, data):
            self.stream = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, b):
            return self.stream.readinto(b)

    _same(core.load(ReadOnly(b"".join(sink.parts)))["x"], obj["x"])
    assert os.stat(tmp_path / "a.pt").st_mode & 0o777 == 0o666 & ~_umask()


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_failed_save_leaves_the_old_file(tmp_path):
    path = tmp_path / "ckpt.pt"
    core.save({"x": core.ones(2)}, path)
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        core.save({"x": core.zeros(2), "bad": lambda: 0}, path)
    _same(core.load(path)["x"], core.ones(2))
    assert sorted(os.listdir(tmp_path)) == ["ckpt.pt"]  # no temp file left behind


def test_zip_layout_matches_torch(tmp_path):
    path = tmp_path / "model.pt"
    core.save({"a": core.ones(3), "b": core.zeros(5, dtype=core.int64)}, path)
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None  # every CRC is right
        names = z.namelist()
        assert all(n.startswith("model/") for n in names)
        for name in ("data.pkl", "byteorder", "version", "data/0", "data/1", ".data/serialization_id"):
            assert f"model/{name}" in names
        assert z.read("model/byteorder") == b"little" and z.read("model/version") == b"3\n"
        raw = path.read_bytes()
        for info in z.infolist():
            start = info.header_offset + 30 + len(info.filename.encode()) + \
                struct.unpack_from("<H", raw, info.header_offset + 28)[0]
            if "/data/" in info.filename or info.filename.endswith("data.pkl"):
                assert start % 64 == 0, info.filename
            assert info.compress_type == zipfile.ZIP_STORED


def test_map_location_forms():
    buffer = io.BytesIO()
    core.save({"x": core.arange(3.)}, buffer)
    cpu_file = buffer.getvalue()
    cuda_file = _relocate(cpu_file, "cuda:0")
    for ml in (None, "cpu", "cpu:0", {"cpu": "cpu"}, lambda s, loc: s, lambda s, loc: None):
        _same(core.load(io.BytesIO(cpu_file), map_location=ml)["x"], core.arange(3.))
    for ml in ("cpu", {"cuda:0": "cpu"}, lambda s, loc: s.cpu()):
        _same(core.load(io.BytesIO(cuda_file), map_location=ml)["x"], core.arange(3.))
    with pytest.raises(RuntimeError, match="map_location='cpu'"):
        core.load(io.BytesIO(cuda_file))
    with pytest.raises(RuntimeError, match="CPU only"):
        core.load(io.BytesIO(cpu_file), map_location="cuda")
    seen = []
    core.load(io.BytesIO(cuda_file), map_location=lambda s, loc: seen.append((s.dtype, s.size(), loc)) or s)
    assert seen == [(core.float32, 3, "cuda:0")]


def _relocate(zip_bytes, location):
    # Rewrites the storage location inside data.pkl (same archive otherwise).
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as z:
        records = {n.split("/", 1)[1]: z.read(n) for n in z.namelist()}
    pkl = records.pop("data.pkl").replace(uni("cpu"), uni(location))
    return archive(pkl, {k[5:]: v for k, v in records.items() if k.startswith("data/")})


def test_mmap(tmp_path):
    path = tmp_path / "m.pt"
    obj = {"a": core.arange(1000.), "b": core.ones(3, 4, dtype=core.float16)}
    core.save(obj, path)
    out = core.load(path, mmap=True)
    _same(out["a"], obj["a"])
    _same(out["b"], obj["b"])
    out["a"].add_(1)  # copy-on-write: the file is untouched
    _same(core.load(path)["a"], obj["a"])
    with pytest.raises(ValueError, match="file path"):
        core.load(io.BytesIO(path.read_bytes()), mmap=True)


def test_big_endian_byteorder_record_is_byteswapped():
    values = {core.float32: [1.5, -2.0, 3.25], core.int64: [1, -2, 3 << 40],
              core.complex64: [1 + 2j, -3.5j], core.float16: [0.5, -1.0], core.bool: [True, False],
              core.bfloat16: [1.0, -2.5]}
    body, storages = pickle.EMPTY_LIST + pickle.MARK, {}
    for i, (dtype, vals) in enumerate(values.items()):
        kind = core.serialization._storage.STORAGE_NAME_OF[dtype]
        body += rebuild_v2(str(i), len(vals), 0, (len(vals),), (1,), kind)
        little = _np(core.tensor(vals, dtype=dtype if dtype != core.bfloat16 else core.float32))
        if dtype == core.bfloat16:
            little = (little.view(np.uint32) >> 16).astype(np.uint16)
        storages[str(i)] = little.byteswap().tobytes()
    out = core.load(io.BytesIO(archive(program(body + pickle.APPENDS), storages, byteorder=b"big")))
    for t, (dtype, vals) in zip(out, values.items()):
        _same(t, core.tensor(vals, dtype=dtype))
    with pytest.raises(RuntimeError, match="byte order"):
        core.load(io.BytesIO(archive(program(pickle.NONE), byteorder=b"middle")))


# ---- legacy (pre-1.6) files, built here the way torch 1.4's writer laid them out

def _legacy_file(body, storages, keys=None, little_endian=True):
    out = io.BytesIO()
    for header in (0x1950A86A20F9469CFC6C, 1001,
                   {"protocol_version": 1001, "little_endian": little_endian,
                    "type_sizes": {"short": 2, "int": 4, "long": 4}}):
        pickle.dump(header, out, protocol=2)
    out.write(program(body))
    pickle.dump(list(storages) if keys is None else keys, out, protocol=2)
    for key, (numel, payload) in storages.items():
        out.write(struct.pack("<q", numel) + payload)
    return out.getvalue()


def _legacy_pid(key, numel, view=None, kind="FloatStorage"):
    view_md = pickle.NONE if view is None else tup(uni(view[0]), num(view[1]), num(view[2]))
    return tup(uni("storage"), glob("torch", kind), uni(key), uni("cpu"), num(numel), view_md) + pickle.BINPERSID


def _legacy_tensor(pid, offset, size, stride):
    return (glob("torch._utils", "_rebuild_tensor_v2")
            + tup(pid, num(offset), tup(*map(num, size)), tup(*map(num, stride)), pickle.NEWFALSE,
                  glob("collections", "OrderedDict") + pickle.EMPTY_TUPLE + pickle.REDUCE)
            + pickle.REDUCE)


def test_legacy_format_is_read():
    w = np.arange(6, dtype=np.float32)
    body = (pickle.EMPTY_DICT + pickle.MARK
            + uni("w") + _legacy_tensor(_legacy_pid("140", 6), 0, (2, 3), (3, 1))
            + uni("wt") + _legacy_tensor(_legacy_pid("140", 6), 1, (2, 2), (1, 3))
            + uni("view") + _legacy_tensor(_legacy_pid("140", 6, view=("141", 2, 4)), 1, (3,), (1,))
            + uni("n") + _legacy_tensor(_legacy_pid("77", 2, kind="LongStorage"), 0, (2,), (1,))
            + pickle.SETITEMS)
    data = _legacy_file(body, {"140": (6, w.tobytes()), "77": (2, np.array([5, -6], np.int64).tobytes())})
    out = core.load(io.BytesIO(data))
    np.testing.assert_array_equal(out["w"].numpy(), w.reshape(2, 3))
    np.testing.assert_array_equal(out["wt"].numpy(), np.array([[1, 4], [2, 5]], np.float32))
    np.testing.assert_array_equal(out["view"].numpy(), w[3:6])
    np.testing.assert_array_equal(out["n"].numpy(), [5, -6])
    assert out["w"]._storage_ptr() == out["wt"]._storage_ptr() == out["view"]._storage_ptr()
    # core.save can also write the legacy format
    buffer = io.BytesIO()
    core.save(out, buffer, _use_new_zipfile_serialization=False)
    again = core.load(io.BytesIO(buffer.getvalue()))
    for key in out:
        _same(again[key], out[key])


def test_legacy_format_errors():
    good_body = _legacy_tensor(_legacy_pid("1", 4), 0, (4,), (1,))
    payload = np.ones(4, np.float32).tobytes()
    with pytest.raises(RuntimeError, match="declared 4 elements"):
        core.load(io.BytesIO(_legacy_file(good_body, {"1": (3, payload[:12])})))
    with pytest.raises(RuntimeError, match="no data"):
        core.load(io.BytesIO(_legacy_file(good_body, {"1": (4, payload)}, keys=[])))
    with pytest.raises(RuntimeError, match="more than the file holds"):
        core.load(io.BytesIO(_legacy_file(_legacy_tensor(_legacy_pid("1", 1 << 40), 0, (4,), (1,)), {})))
    with pytest.raises(RuntimeError, match="big-endian"):
        core.load(io.BytesIO(_legacy_file(good_body, {"1": (4, payload)}, little_endian=False)))
    with pytest.raises(RuntimeError, match="magic number"):
        core.load(io.BytesIO(pickle.dumps(12345, protocol=2)))
    with pytest.raises(RuntimeError, match="not a checkpoint"):
        core.load(io.BytesIO(b"\x00garbage, not a pickle"))


def test_legacy_tar_format_is_refused(tmp_path):
    path = tmp_path / "old.tar"
    with tarfile.open(path, "w") as tar:
        info = tarfile.TarInfo("pickle")
        info.size = 4
        tar.addfile(info, io.BytesIO(b"\x80\x02N."))
    with pytest.raises(RuntimeError, match="tar"):
        core.load(path)


# ---- hostile input

def test_arbitrary_callable_is_refused_and_never_runs(tmp_path):
    sentinel = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {sentinel}",))

    buffer = io.BytesIO()
    core.save({"w": core.ones(2), "x": Evil()}, buffer)
    with pytest.raises(pickle.UnpicklingError, match="system"):
        core.load(io.BytesIO(buffer.getvalue()))
    assert not sentinel.exists()
    core.load(io.BytesIO(buffer.getvalue()), weights_only=False)  # unsafe mode runs it
    assert sentinel.exists()


@pytest.mark.parametrize("name", ["builtins.eval", "builtins.getattr", "os.system", "torch.load",
                                  "subprocess.Popen", "core.serialization._load.load",
                                  "collections.defaultdict", "numpy.core.multiarray._reconstruct"])
def test_disallowed_globals(name):
    module, attr = name.rsplit(".", 1)
    data = archive(program(glob(module, attr) + tup(uni("1")) + pickle.REDUCE))
    with pytest.raises(pickle.UnpicklingError, match=f"refuses the global '{name}'"):
        core.load(io.BytesIO(data))


TENSOR = rebuild_v2("0", 4, 0, (4,), (1,))
FOUR = {"0": np.arange(4, dtype=np.float32).tobytes()}


@pytest.mark.parametrize("body, message", [
    # CVE-2026-24747 shapes: container opcodes on the wrong kind of object
    (pickle.EMPTY_LIST + num(0) + num(1) + pickle.SETITEM, "SETITEM applied to a list"),
    (TENSOR + num(0) + num(1) + pickle.SETITEM, "SETITEM applied to a Tensor"),
    (TENSOR + pickle.MARK + num(0) + num(1) + pickle.SETITEMS, "SETITEMS applied to a Tensor"),
    (pickle.EMPTY_DICT + num(1) + pickle.APPEND, "APPEND applied to a dict"),
    (TENSOR + pickle.MARK + num(1) + pickle.APPENDS, "APPENDS applied to a Tensor"),
    (pickle.EMPTY_TUPLE + pickle.MARK + num(1) + pickle.ADDITEMS, "ADDITEMS applied to a tuple"),
    # BUILD on a tensor (torch's legacy tensor.set_ path), a storage, an int
    (TENSOR + tup(storage_pid("0", 4), num(0), tup(num(100)), tup(num(1))) + pickle.BUILD,
     "BUILD applied to a Tensor"),
    (storage_pid("0", 4) + pickle.EMPTY_DICT + pickle.BUILD, "BUILD applied to a Storage"),
    (num(5) + pickle.EMPTY_DICT + pickle.BUILD, "BUILD applied to a int"),
    (glob("collections", "OrderedDict") + pickle.EMPTY_TUPLE + pickle.REDUCE
     + pickle.EMPTY_DICT + uni("__class__") + num(1) + pickle.SETITEM + pickle.BUILD, "__class__"),
    # calling what is not an allowlisted function
    (glob("torch", "float32") + pickle.EMPTY_TUPLE + pickle.REDUCE, "only call allowlisted"),
    (pickle.EMPTY_DICT + pickle.EMPTY_TUPLE + pickle.REDUCE, "only call allowlisted"),
    (TENSOR + pickle.EMPTY_TUPLE + pickle.NEWOBJ, "only call allowlisted"),
    (uni("builtins") + uni("eval") + pickle.STACK_GLOBAL, "builtins.eval"),
    (pickle.MARK + uni("x") + b"ios\nsystem\n", "INST"),
    (pickle.MARK + glob("builtins", "set") + pickle.OBJ, "OBJ"),
    (b"\x82\x01", "EXT1"),
    (b"Pfoo\n", "PERSID"),
    (tup(uni("module"), num(1)) + pickle.BINPERSID, "persistent id"),
    (tup(TENSOR) + pickle.BINPERSID, "persistent id"),
    (glob("_codecs", "encode") + tup(uni("a"), TENSOR) + pickle.REDUCE, "_codecs.encode"),
    (glob("torch._tensor", "_rebuild_from_type_v2") + tup(TENSOR, glob("torch", "Tensor"), pickle.EMPTY_TUPLE,
                                                          pickle.EMPTY_DICT) + pickle.REDUCE, "rebuild function"),
    # malformed streams
    (pickle.APPEND, "stack underflow"),
    (pickle.TUPLE, "no MARK"),
    (b"h\x07", "memo entry 7"),
    (pickle.BINUNICODE + struct.pack("<I", 1 << 30) + b"abc", "truncated"),
    (pickle.EMPTY_DICT + pickle.EMPTY_LIST + num(1) + pickle.SETITEM, "unhashable"),
    (b"\x80\x09", "protocol 9"),
])
def test_hostile_opcodes_are_refused(body, message):
    data = archive(program(body), FOUR)
    with pytest.raises(pickle.UnpicklingError, match=message):
        core.load(io.BytesIO(data))


@pytest.mark.parametrize("body, storages, message", [
    # declared element count vs the bytes really present (CVE-2026-24747's second half)
    (rebuild_v2("0", 1000, 0, (1000,), (1,)), FOUR, "declares 1000 elements"),
    (rebuild_v2("0", 4, 0, (4,), (1,)), {"0": b"\x00" * 17}, "holds 17 bytes"),
    (rebuild_v2("0", 4, 0, (4,), (1,)), {}, "no record 'data/0'"),
    # geometry reaching past the storage
    (rebuild_v2("0", 4, 3, (2,), (1,)), FOUR, "reaches element 4"),
    (rebuild_v2("0", 4, 9, (0,), (1,)), FOUR, "reaches element 8"),
    (rebuild_v2("0", 4, 0, (2, 2), (2, 2)), FOUR, "reaches element 4"),
    (rebuild_v2("0", 4, 0, (2,), (1 << 62,)), FOUR, "reaches element"),
    (rebuild_v2("0", 4, 0, (4, 4), (0,)), FOUR, "different lengths"),
    (rebuild_v2("0", 4, 0, (2,), (-1,)), FOUR, "negative"),
    (rebuild_v2("0", 4, -1, (2,), (1,)), FOUR, "negative"),
    (rebuild_v2("0", 4, 0, (4,), (1,), kind="QUInt4x2Storage"), FOUR, "not supported"),
    (rebuild_v2("0", 4, 0, (4,), (1,)) + rebuild_v2("0", 2, 0, (2,), (1,), kind="IntStorage")
     + pickle.TUPLE2, FOUR, "declared twice"),
])
def test_storage_bounds_are_enforced(body, storages, message):
    data = archive(program(body), storages)
    with pytest.raises(LOAD_ERRORS, match=message):
        core.load(io.BytesIO(data))


def test_deep_nesting_does_not_recurse():
    depth = 100_000
    out = core.load(io.BytesIO(archive(program(pickle.MARK * depth + pickle.LIST * depth))))
    for _ in range(depth - 1):
        out = out[0]
    assert out == []


def _checkpoint_bytes():
    buffer = io.BytesIO()
    core.save(collections.OrderedDict((f"w{i}", core.arange(40.) + i) for i in range(5)), buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("eighths", range(8))
def test_truncated_files_raise(eighths):
    data = _checkpoint_bytes()
    cut = data[:len(data) * eighths // 8]
    with pytest.raises(LOAD_ERRORS, match="load\\(\\)"):
        core.load(io.BytesIO(cut))


@pytest.mark.parametrize("where", ["payload", "pickle"])
def test_bad_crc_raises(where):
    data = bytearray(_checkpoint_bytes())
    at = data.index(struct.pack("<f", 33.0)) if where == "payload" else data.index(b"_rebuild_tensor_v2")
    data[at] ^= 0x01
    with pytest.raises(RuntimeError, match="CRC-32 mismatch"):
        core.load(io.BytesIO(bytes(data)))


def test_every_single_byte_corruption_is_an_error_not_a_crash():
    data = _checkpoint_bytes()
    rng = np.random.default_rng(0)
    for at in rng.choice(len(data), size=300, replace=False):
        broken = bytearray(data)
        broken[at] ^= 0xFF
        try:
            core.load(io.BytesIO(bytes(broken)))
        except LOAD_ERRORS:
            pass


def test_torchscript_and_foreign_zips_are_refused():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("model/constants.pkl", b"\x80\x02).")
        z.writestr("model/data.pkl", b"\x80\x02N.")
    with pytest.raises(RuntimeError, match="TorchScript"):
        core.load(io.BytesIO(out.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("a/data.pkl", b"\x80\x02N.")
        z.writestr("b/other", b"")
    with pytest.raises(RuntimeError, match="archive directory"):
        core.load(io.BytesIO(out.getvalue()))


def test_deflated_records_are_read():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("ckpt/data.pkl", program(rebuild_v2("0", 4, 0, (4,), (1,))))
        z.writestr("ckpt/data/0", FOUR["0"])
    np.testing.assert_array_equal(core.load(io.BytesIO(out.getvalue())).numpy(), np.arange(4.))


def test_argument_errors():
    with pytest.raises(RuntimeError, match="pickle_module"):
        core.load(io.BytesIO(_checkpoint_bytes()), pickle_module=pickle)
    with pytest.raises(TypeError, match="file-like"):
        core.load(12)
    with pytest.raises(ValueError, match="pickle_protocol"):
        core.save(core.ones(1), io.BytesIO(), pickle_protocol=1)
    with pytest.raises(FileNotFoundError):
        core.save(core.ones(1), "/nonexistent-dir/x.pt")


def test_weights_only_false_loads_arbitrary_objects():
    obj = {"model": {"w": core.ones(2)}, "args": pathlib.PurePosixPath("/a/b")}
    buffer = io.BytesIO()
    core.save(obj, buffer)
    with pytest.raises(pickle.UnpicklingError, match="pathlib"):
        core.load(io.BytesIO(buffer.getvalue()))
    out = core.load(io.BytesIO(buffer.getvalue()), weights_only=False)
    assert out["args"] == obj["args"]
    _same(out["model"]["w"], core.ones(2))


def test_parameters_round_trip():
    from core.nn import Parameter

    p = Parameter(core.arange(4.).reshape(2, 2))
    frozen = Parameter(core.ones(2), requires_grad=False)
    out = _round_trip({"p": p, "frozen": frozen, "view": p.detach()[1]})
    assert type(out["p"]) is Parameter and out["p"].requires_grad and out["p"].is_leaf
    assert type(out["frozen"]) is Parameter and not out["frozen"].requires_grad
    np.testing.assert_array_equal(out["p"].detach().numpy(), p.detach().numpy())
    assert out["view"]._storage_ptr() == out["p"]._storage_ptr()  # still one storage
