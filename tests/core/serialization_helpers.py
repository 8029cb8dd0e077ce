"""Raw pickle opcodes and zip archives for crafting (malicious) checkpoints in tests."""
import io
import pickle
import struct

from core.serialization._zip import ZipWriter


def glob(module, name):
    return pickle.GLOBAL + f"{module}\n{name}\n".encode()


def uni(text):
    data = text.encode()
    return pickle.BINUNICODE + struct.pack("<I", len(data)) + data


def num(value):
    if -(1 << 31) <= value < (1 << 31):
        return pickle.BININT + struct.pack("<i", value)
    data = value.to_bytes((value.bit_length() + 8) // 8, "little", signed=True)
    return pickle.LONG1 + bytes([len(data)]) + data


def tup(*parts):
    return pickle.MARK + b"".join(parts) + pickle.TUPLE


def storage_pid(key, numel, kind="FloatStorage", location="cpu"):
    return tup(uni("storage"), glob("torch", kind), uni(key), uni(location), num(numel)) + pickle.BINPERSID


def rebuild_v2(key, numel, offset, size, stride, kind="FloatStorage"):
    """Opcodes pushing torch._utils._rebuild_tensor_v2(storage, offset, size, stride, False, {})."""
    return (glob("torch._utils", "_rebuild_tensor_v2")
            + tup(storage_pid(key, numel, kind), num(offset), tup(*map(num, size)),
                  tup(*map(num, stride)), pickle.NEWFALSE, pickle.EMPTY_DICT)
            + pickle.REDUCE)


def program(body):
    return pickle.PROTO + b"\x02" + body + pickle.STOP


def archive(data_pkl, storages=None, byteorder=b"little", prefix="archive"):
    """A zip checkpoint with the given data.pkl and {key: bytes} storage records."""
    out = io.BytesIO()
    writer = ZipWriter(out, prefix)
    writer.write_record("data.pkl", data_pkl)
    if byteorder is not None:
        writer.write_record("byteorder", byteorder)
    for key, payload in (storages or {}).items():
        writer.write_record(f"data/{key}", payload)
    writer.write_record("version", b"3\n")
    writer.close()
    return out.getvalue()
