"""core.save: PyTorch's zip checkpoint format (or the legacy format on request)."""
import io
import os
import pickle
import struct
import sys

from core.serialization._io import archive_name, open_sink
from core.serialization._legacy import MAGIC_NUMBER, PROTOCOL_VERSION
from core.serialization._pickler import CheckpointPickler, StorageTable
from core.serialization._zip import ZipWriter

DEFAULT_PROTOCOL = 2


def save(obj, f, pickle_module=None, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True, _disable_byteorder_record=False):
    """Saves `obj` (tensors, state dicts, nested containers, any picklable object) to a path,
    pathlib.Path or writable binary file-like object, in the format torch.save writes: a zip
    archive with data.pkl, one record per storage (64-byte aligned), byteorder and version.
    Tensors sharing a storage stay shared. A path is written atomically (temp file + rename);
    a file-like object is written front to back in one pass, without seeking."""
    if pickle_module not in (None, pickle):
        raise ValueError("save(): only the standard pickle module is supported")
    if not 2 <= pickle_protocol <= pickle.HIGHEST_PROTOCOL:
        raise ValueError(f"save(): pickle_protocol must be in [2, {pickle.HIGHEST_PROTOCOL}], "
                         f"got {pickle_protocol}")
    storages = StorageTable()
    buffer = io.BytesIO()
    CheckpointPickler(buffer, pickle_protocol, storages,
                      legacy=not _use_new_zipfile_serialization).dump(obj)
    with open_sink(f) as stream:
        if _use_new_zipfile_serialization:
            _write_zip(stream, archive_name(f), buffer.getvalue(), storages, _disable_byteorder_record)
        else:
            _write_legacy(stream, buffer.getvalue(), storages, pickle_protocol)


def _write_zip(stream, prefix, data_pkl, storages, disable_byteorder, extra_records=()):
    """extra_records: (name, bytes) pairs written after data.pkl (core.jit's graph record)."""
    writer = ZipWriter(stream, prefix)
    writer.write_record("data.pkl", data_pkl)
    for name, payload in extra_records:
        writer.write_record(name, payload)
    writer.write_record(".format_version", b"1")
    writer.write_record(".storage_alignment", b"64")
    if not disable_byteorder:
        writer.write_record("byteorder", sys.byteorder.encode("ascii"))
    for key, payload in storages.payloads():
        writer.write_record(f"data/{key}", payload)
    writer.write_record("version", b"3\n")
    serial = "".join(str(b % 10) for b in os.urandom(40))
    writer.write_record(".data/serialization_id", serial.encode("ascii"))
    writer.close()


def _write_legacy(stream, data_pkl, storages, protocol):
    sys_info = {"protocol_version": PROTOCOL_VERSION, "little_endian": sys.byteorder == "little",
                "type_sizes": {"short": 2, "int": 4, "long": 4}}
    for header in (MAGIC_NUMBER, PROTOCOL_VERSION, sys_info):
        pickle.dump(header, stream, protocol=protocol)
    stream.write(data_pkl)
    pickle.dump([s.key for s in storages.storages], stream, protocol=protocol)
    for saved, (_, payload) in zip(storages.storages, storages.payloads()):
        stream.write(struct.pack("<q", saved.numel))
        stream.write(memoryview(payload))
