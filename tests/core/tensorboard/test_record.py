"""TFRecord framing and CRC-32C of event files: no tensorboard package needed."""
import os
import struct

import pytest

from core.utils.tensorboard._crc32c import crc32c, masked_crc32c
from core.utils.tensorboard._event_file import EventFileWriter
from core.utils.tensorboard._record import RecordError, frame_record, read_records


def bitwise_crc32c(data):
    # The definition, one bit at a time (reflected, initial and final xor 0xFFFFFFFF).
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 * (crc & 1))
    return crc ^ 0xFFFFFFFF


@pytest.mark.parametrize("data, expected", [
    (b"", 0x00000000),
    (b"123456789", 0xE3069283),                # the CRC catalogue's check value
    (bytes(32), 0x8A9136AA),                   # RFC 3720 B.4 test vectors
    (b"\xff" * 32, 0x62A8AB43),
    (bytes(range(32)), 0x46DD794E),
    (bytes(range(31, -1, -1)), 0x113FDB5C),
])
def test_crc32c_known_values(data, expected):
    assert crc32c(data) == expected


@pytest.mark.parametrize("length", list(range(18)) + [1000, 1003])
def test_crc32c_matches_the_bitwise_definition_for_every_tail_length(length):
    data = bytes((i * 37 + 11) % 256 for i in range(length))
    assert crc32c(data) == bitwise_crc32c(data)


def test_crc32c_continues_across_chunks():
    data = os.urandom(1031)
    assert crc32c(data[500:], crc32c(data[:500])) == crc32c(data)


def test_masked_crc_is_rotated_and_offset():
    for data in (b"", b"abc", os.urandom(100)):
        crc = bitwise_crc32c(data)
        rotated = ((crc >> 15) | (crc << 17)) & 0xFFFFFFFF
        assert masked_crc32c(data) == (rotated + 0xA282EAD8) & 0xFFFFFFFF


def test_frame_layout():
    data = b"an event"
    record = frame_record(data)
    assert len(record) == 8 + 4 + len(data) + 4
    assert struct.unpack("<Q", record[:8])[0] == len(data)
    assert struct.unpack("<I", record[8:12])[0] == masked_crc32c(record[:8])
    assert record[12:-4] == data
    assert struct.unpack("<I", record[-4:])[0] == masked_crc32c(data)


def test_records_read_back_and_a_truncated_tail_is_skipped(tmp_path):
    path = tmp_path / "records"
    payloads = [b"", b"x", os.urandom(300), b"last"]
    framed = b"".join(frame_record(p) for p in payloads)
    path.write_bytes(framed)
    assert list(read_records(path)) == payloads
    for cut in (1, 5, 10):  # a writer killed mid-record
        path.write_bytes(framed[:-cut])
        assert list(read_records(path)) == payloads[:-1]


def test_corruption_is_detected(tmp_path):
    path = tmp_path / "records"
    record = bytearray(frame_record(b"payload"))
    record[14] ^= 1
    path.write_bytes(bytes(record))
    with pytest.raises(RecordError, match="data checksum"):
        list(read_records(path))
    record = bytearray(frame_record(b"payload"))
    record[0] ^= 1
    path.write_bytes(bytes(record))
    with pytest.raises(RecordError, match="length checksum"):
        list(read_records(path))


def test_event_file_batches_until_max_queue_or_flush(tmp_path):
    writer = EventFileWriter(tmp_path, max_queue=3, flush_secs=3600, filename_suffix=".test")
    name = os.path.basename(writer.path)
    assert name.startswith("events.out.tfevents.") and name.endswith(".test")
    assert len(name.split(".")[3]) == 10  # zero-padded unix time
    writer.add_event(b"a")
    writer.add_event(b"b")
    assert list(read_records(writer.path)) == []
    writer.add_event(b"c")  # the queue is full: all three go out together
    assert list(read_records(writer.path)) == [b"a", b"b", b"c"]
    writer.add_event(b"d")
    writer.flush()
    assert list(read_records(writer.path)) == [b"a", b"b", b"c", b"d"]
    writer.add_event(b"e")
    writer.close()
    assert list(read_records(writer.path)) == [b"a", b"b", b"c", b"d", b"e"]
    with pytest.raises(RuntimeError, match="closed"):
        writer.add_event(b"f")


def test_event_file_flushes_every_flush_secs(tmp_path):
    import time
    writer = EventFileWriter(tmp_path, max_queue=100, flush_secs=0.05)
    writer.add_event(b"timed")
    deadline = time.time() + 10
    while not list(read_records(writer.path)) and time.time() < deadline:
        time.sleep(0.02)
    assert list(read_records(writer.path)) == [b"timed"]
    writer.close()
