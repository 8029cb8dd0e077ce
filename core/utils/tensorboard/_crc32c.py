"""CRC-32C (Castagnoli), the checksum of TFRecord framing, and TensorFlow's masking of it.

Pure Python, slicing-by-8 (eight lookup tables, one step per 8 bytes): about twice the speed
of the byte-at-a-time loop, enough for event records (images are a few hundred KB at most).
"""
import struct

_POLY = 0x82F63B78  # the Castagnoli polynomial, bit-reversed


def _byte_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ (_POLY if crc & 1 else 0)
        table.append(crc)
    return tuple(table)


def _slice_tables(count):
    # Table k: the CRC contribution of a byte followed by k zero bytes.
    tables = [_byte_table()]
    for _ in range(count - 1):
        last = tables[-1]
        tables.append(tuple((last[i] >> 8) ^ tables[0][last[i] & 0xFF] for i in range(256)))
    return tables


_T0, _T1, _T2, _T3, _T4, _T5, _T6, _T7 = _slice_tables(8)


def crc32c(data, crc=0):
    """The CRC-32C of `data` (bytes-like), continuing from `crc` (the value for earlier bytes)."""
    t0, t1, t2, t3, t4, t5, t6, t7 = _T0, _T1, _T2, _T3, _T4, _T5, _T6, _T7
    view = memoryview(data).cast("B")
    whole = len(view) - len(view) % 8
    crc ^= 0xFFFFFFFF
    for lo, hi in struct.iter_unpack("<II", view[:whole]):
        lo ^= crc
        crc = (t7[lo & 0xFF] ^ t6[(lo >> 8) & 0xFF] ^ t5[(lo >> 16) & 0xFF] ^ t4[lo >> 24]
               ^ t3[hi & 0xFF] ^ t2[(hi >> 8) & 0xFF] ^ t1[(hi >> 16) & 0xFF] ^ t0[hi >> 24])
    for byte in view[whole:]:
        crc = t0[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    """TFRecord's masked CRC: rotated right by 15 bits plus a constant, so that data which
    embeds CRCs of itself does not checksum trivially."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF
