"""TFRecord framing, the container of TensorBoard event files.

Each record: uint64 little-endian length, uint32 masked CRC-32C of those 8 bytes, the data,
uint32 masked CRC-32C of the data.
"""
import struct

from core.utils.tensorboard._crc32c import masked_crc32c

_LENGTH = struct.Struct("<Q")
_CRC = struct.Struct("<I")


def frame_record(data):
    """The bytes of one record holding `data`."""
    length = _LENGTH.pack(len(data))
    return b"".join((length, _CRC.pack(masked_crc32c(length)), data, _CRC.pack(masked_crc32c(data))))


class RecordError(ValueError):
    """A record whose checksum does not match."""


def read_records(path):
    """Yields the data of each complete record in the file at `path`, checking both CRCs.

    A record cut short at the end (a writer killed mid-write) ends the iteration, as
    TensorBoard's reader does; a corrupted one raises RecordError."""
    with open(path, "rb") as f:
        while True:
            header = f.read(_LENGTH.size + _CRC.size)
            if len(header) < _LENGTH.size + _CRC.size:
                return
            length_bytes = header[:_LENGTH.size]
            if _CRC.unpack(header[_LENGTH.size:])[0] != masked_crc32c(length_bytes):
                raise RecordError(f"{path}: bad length checksum at offset {f.tell() - len(header)}")
            (length,) = _LENGTH.unpack(length_bytes)
            body = f.read(length + _CRC.size)
            if len(body) < length + _CRC.size:
                return
            data = body[:length]
            if _CRC.unpack(body[length:])[0] != masked_crc32c(data):
                raise RecordError(f"{path}: bad data checksum in the record of {length} bytes")
            yield data
