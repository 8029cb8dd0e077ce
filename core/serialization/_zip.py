"""PyTorch's zip container: stored (uncompressed) records whose payloads start on 64-byte
boundaries, all under one "<archive>/" directory; zip64 when sizes or offsets need it.

The writer streams records in one pass (CRC and sizes are known up front, so no data
descriptors and no seeking). The reader parses the central directory with explicit bounds
checks against the real file size, verifies each record's local header and CRC-32, and
reads payloads straight into the caller's buffer.
"""
import struct
import zlib

from core._budget import over_budget
from core.serialization._errors import corrupt

ALIGNMENT = 64
_LOCAL = struct.Struct("<IHHHHHIIIHH")          # local file header, 30 bytes
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")   # central directory header, 46 bytes
_EOCD = struct.Struct("<IHHHHIIH")              # end of central directory, 22 bytes
_EOCD64 = struct.Struct("<IQHHIIQQQQ")          # zip64 end of central directory, 56 bytes
_LOCATOR64 = struct.Struct("<IIQI")             # zip64 end of central directory locator, 20 bytes
_LOCAL_SIG, _CENTRAL_SIG, _EOCD_SIG = 0x04034B50, 0x02014B50, 0x06054B50
_EOCD64_SIG, _LOCATOR64_SIG = 0x06064B50, 0x07064B50
_U32, _U16 = 0xFFFFFFFF, 0xFFFF
_DOS_DATE = (0 << 9) | (1 << 5) | 1  # 1980-01-01: fixed, so equal objects give equal files
_UTF8_FLAG = 0x800


class ZipWriter:
    """Writes records to a binary stream sequentially; call close() to add the directory."""

    def __init__(self, stream, prefix):
        self.stream = stream
        self.prefix = prefix
        self.offset = 0
        self.entries = []

    def _put(self, data):
        self.stream.write(data)
        self.offset += len(data)

    def write_record(self, name, payload):
        """One record "<prefix>/<name>" holding `payload` (bytes or a C-contiguous buffer)."""
        data = memoryview(payload).cast("B")
        full = f"{self.prefix}/{name}".encode("utf-8")
        size, crc, header_at = data.nbytes, zlib.crc32(data), self.offset
        big = size >= _U32 or header_at >= _U32
        extra = struct.pack("<HHQQ", 1, 16, size, size) if big else b""
        unpadded = header_at + _LOCAL.size + len(full) + len(extra)
        if unpadded % ALIGNMENT:
            pad = -(unpadded + 4) % ALIGNMENT
            extra += struct.pack("<HH", 0x4246, pad) + b"Z" * pad  # "FB" field, as torch writes
        version = 45 if big else 20
        small = _U32 if big else size
        self._put(_LOCAL.pack(_LOCAL_SIG, version, _UTF8_FLAG, 0, 0, _DOS_DATE, crc, small, small,
                              len(full), len(extra)) + full + extra)
        self._put(data)
        self.entries.append((full, size, crc, header_at))

    def close(self):
        directory_at = self.offset
        for full, size, crc, header_at in self.entries:
            fields = []
            if size >= _U32:
                fields += [size, size]
            if header_at >= _U32:
                fields.append(header_at)
            extra = struct.pack(f"<HH{len(fields)}Q", 1, 8 * len(fields), *fields) if fields else b""
            version = 45 if fields else 20
            self._put(_CENTRAL.pack(_CENTRAL_SIG, version, version, _UTF8_FLAG, 0, 0, _DOS_DATE, crc,
                                    min(size, _U32), min(size, _U32), len(full), len(extra), 0, 0, 0,
                                    0, min(header_at, _U32)) + full + extra)
        directory_size = self.offset - directory_at
        count = len(self.entries)
        if count >= _U16 or directory_at >= _U32 or directory_size >= _U32:
            eocd64_at = self.offset
            self._put(_EOCD64.pack(_EOCD64_SIG, 44, 45, 45, 0, 0, count, count, directory_size,
                                   directory_at))
            self._put(_LOCATOR64.pack(_LOCATOR64_SIG, 0, eocd64_at, 1))
        self._put(_EOCD.pack(_EOCD_SIG, 0, 0, min(count, _U16), min(count, _U16),
                             min(directory_size, _U32), min(directory_at, _U32), 0))


def is_zip(head):
    return head[:4] == b"PK\x03\x04"


class Record:
    __slots__ = ("name", "method", "crc", "compressed", "size", "header_at")

    def __init__(self, name, method, crc, compressed, size, header_at):
        self.name, self.method, self.crc = name, method, crc
        self.compressed, self.size, self.header_at = compressed, size, header_at


class ZipReader:
    """Random access to the records of a zip archive held by a `source` (see _io.Source)."""

    def __init__(self, source, where="the archive"):
        self.where = where  # the file, for messages
        self.source = source
        self.records = {}
        self._directory_at = self._parse_directory()
        names = list(self.records)
        if not names:
            raise corrupt("the zip archive holds no records")
        self.prefix = names[0].split("/", 1)[0]
        for name in names:
            if not name.startswith(self.prefix + "/"):
                raise corrupt(f"zip record {name!r} is not inside the archive directory "
                              f"{self.prefix!r}/ (not a checkpoint written by torch.save)")

    def _find_eocd(self):
        size = self.source.size
        if size < _EOCD.size:
            raise corrupt(f"zip archive truncated: {size} bytes is too short")
        start = max(0, size - (_EOCD.size + _U16))
        tail = self.source.read(start, size - start)
        at = tail.rfind(b"PK\x05\x06")
        while at >= 0 and at + _EOCD.size > len(tail):
            at = tail.rfind(b"PK\x05\x06", 0, at)
        if at < 0:
            raise corrupt("zip archive truncated or damaged: no end-of-central-directory record")
        return start + at, tail[at:at + _EOCD.size]

    def _parse_directory(self):
        eocd_at, eocd = self._find_eocd()
        _, disk, _, _, count, dir_size, dir_at, _ = _EOCD.unpack(eocd)
        if disk != 0:
            raise corrupt("multi-disk zip archives are not supported")
        if count == _U16 or dir_size == _U32 or dir_at == _U32:
            count, dir_size, dir_at, eocd_at = self._zip64_eocd(eocd_at)
        if dir_at + dir_size > eocd_at:
            raise corrupt("zip archive damaged: the central directory runs past its end record")
        directory = self.source.read(dir_at, dir_size)
        pos = 0
        for _ in range(count):
            if pos + _CENTRAL.size > len(directory):
                raise corrupt("zip archive damaged: central directory truncated")
            (sig, _, _, flags, method, _, _, crc, compressed, size, name_len, extra_len,
             comment_len, _, _, _, header_at) = _CENTRAL.unpack_from(directory, pos)
            if sig != _CENTRAL_SIG:
                raise corrupt("zip archive damaged: bad central directory signature")
            end = pos + _CENTRAL.size + name_len + extra_len + comment_len
            if end > len(directory):
                raise corrupt("zip archive damaged: central directory entry truncated")
            name_bytes = directory[pos + _CENTRAL.size:pos + _CENTRAL.size + name_len]
            extra = directory[pos + _CENTRAL.size + name_len:pos + _CENTRAL.size + name_len + extra_len]
            size, compressed, header_at = _zip64_fields(extra, size, compressed, header_at)
            if flags & 0x1:
                raise corrupt("encrypted zip records are not supported")
            name = name_bytes.decode("utf-8" if flags & _UTF8_FLAG else "cp437", "replace")
            if header_at + _LOCAL.size + compressed > dir_at:
                raise corrupt(f"zip archive damaged: record {name!r} runs past the central directory")
            _check_declared_size(self.where, name, method, compressed, size)
            self.records[name] = Record(name, method, crc, compressed, size, header_at)
            pos = end
        return dir_at

    def _zip64_eocd(self, eocd_at):
        at = eocd_at - _LOCATOR64.size
        if at < 0:
            raise corrupt("zip archive damaged: zip64 locator missing")
        sig, _, eocd64_at, _ = _LOCATOR64.unpack(self.source.read(at, _LOCATOR64.size))
        if sig != _LOCATOR64_SIG or eocd64_at + _EOCD64.size > at:
            raise corrupt("zip archive damaged: bad zip64 end-of-central-directory locator")
        fields = _EOCD64.unpack(self.source.read(eocd64_at, _EOCD64.size))
        if fields[0] != _EOCD64_SIG:
            raise corrupt("zip archive damaged: bad zip64 end-of-central-directory record")
        return fields[7], fields[8], fields[9], eocd64_at

    def has(self, name):
        return f"{self.prefix}/{name}" in self.records

    def get(self, name):
        record = self.records.get(f"{self.prefix}/{name}")
        if record is None:
            raise corrupt(f"the archive has no record {name!r}")
        return record

    def payload_at(self, record):
        """Offset of a stored record's payload, after checking its local header."""
        header = self.source.read(record.header_at, _LOCAL.size)
        sig, _, _, _, _, _, _, _, _, name_len, extra_len = _LOCAL.unpack(header)
        if sig != _LOCAL_SIG:
            raise corrupt(f"zip archive damaged: bad local header for record {record.name!r}")
        start = record.header_at + _LOCAL.size + name_len + extra_len
        if start + record.compressed > self._directory_at:
            raise corrupt(f"zip archive damaged: record {record.name!r} runs past the central directory")
        return start

    def read(self, name):
        """The bytes of a (small) record, CRC-checked."""
        record = self.get(name)
        data = self.source.read(self.payload_at(record), record.compressed)
        if record.method == 8:
            data = _inflate(data, record)
        elif record.method != 0:
            raise corrupt(f"record {record.name!r} uses unsupported zip compression {record.method}")
        self.check_crc(record, data)
        return data

    def read_into(self, record, buffer):
        """Fills `buffer` (exactly record.size bytes) with a record's payload, CRC-checked."""
        view = memoryview(buffer).cast("B")
        if view.nbytes != record.size:
            raise corrupt(f"record {record.name!r} holds {record.size} bytes, expected {view.nbytes}")
        if record.method == 0:
            self.source.read_into(self.payload_at(record), view)
        elif record.method == 8:
            view[:] = _inflate(self.source.read(self.payload_at(record), record.compressed), record)
        else:
            raise corrupt(f"record {record.name!r} uses unsupported zip compression {record.method}")
        self.check_crc(record, view)

    @staticmethod
    def check_crc(record, data):
        if zlib.crc32(data) != record.crc:
            raise corrupt(f"CRC-32 mismatch in record {record.name!r}: the file is corrupt")


def _zip64_fields(extra, size, compressed, header_at):
    pos = 0
    while pos + 4 <= len(extra):
        tag, length = struct.unpack_from("<HH", extra, pos)
        body = extra[pos + 4:pos + 4 + length]
        if tag == 1:
            values = list(struct.unpack_from(f"<{len(body) // 8}Q", body))
            if size == _U32 and values:
                size = values.pop(0)
            if compressed == _U32 and values:
                compressed = values.pop(0)
            if header_at == _U32 and values:
                header_at = values.pop(0)
        pos += 4 + length
    return size, compressed, header_at


# Deflate's best case turns 1 byte into at most 1032 (RFC 1951's longest match per code).
_DEFLATE_MAX_RATIO = 1032


def _check_declared_size(where, name, method, compressed, size):
    """A record's declared size must be possible for its stored bytes and fit the decode
    budget, before anything is allocated for it (a 400-byte file declaring 8 GiB)."""
    if method == 0 and size != compressed:
        raise corrupt(f"{where}: record {name!r} is stored uncompressed with {compressed} bytes but "
                      f"declares a size of {size} bytes")
    if method == 8:
        if size > compressed * _DEFLATE_MAX_RATIO + 64:
            raise corrupt(f"{where}: record {name!r} declares {size} bytes, more than its {compressed} "
                          "compressed bytes can hold")
        message = over_budget(size, where, f"record {name!r}")
        if message:
            raise corrupt(message)


def _inflate(data, record):
    inflater = zlib.decompressobj(-15)
    out = inflater.decompress(data, record.size + 1)  # never more than declared (zip bombs)
    if len(out) != record.size or not inflater.eof:
        raise corrupt(f"record {record.name!r}: compressed data does not match its declared size")
    return out
