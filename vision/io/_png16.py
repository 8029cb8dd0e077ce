"""A small PNG codec for 16-bit images, which Pillow cannot hold in colour (it keeps only
the high byte of 16-bit RGB/RGBA). Handles colour types 0, 2, 4 and 6 at bit depth 16,
all five scanline filters and Adam7 interlacing; checks every chunk CRC."""
import struct
import zlib

import numpy as np

from core._budget import over_budget

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type -> samples per pixel
_COLOR_TYPE = {1: 0, 3: 2, 2: 4, 4: 6}  # channels -> colour type
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


class PNGError(ValueError):
    """Malformed or truncated PNG data."""


class PNGSizeError(PNGError):
    """A header declaring more than its data can hold or the decode budget allows; the message
    names the input and the field."""


def read_chunks(data):
    """[(type, payload)] of a PNG byte string, CRCs verified, up to IEND."""
    if data[:8] != SIGNATURE:
        raise PNGError("not a PNG file (bad signature)")
    pos, chunks = 8, []
    while True:
        if pos + 8 > len(data):
            raise PNGError("truncated: missing IEND chunk")
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        end = pos + 8 + length + 4
        if end > len(data):
            raise PNGError(f"truncated inside chunk {ctype!r}")
        payload = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[end - 4:end])
        if zlib.crc32(ctype + payload) & 0xFFFFFFFF != crc:
            raise PNGError(f"CRC mismatch in chunk {ctype!r}")
        chunks.append((ctype, payload))
        pos = end
        if ctype == b"IEND":
            return chunks


def header(data):
    """(width, height, bit_depth, color_type, interlace) from the IHDR chunk."""
    if data[:8] != SIGNATURE or len(data) < 33 or data[12:16] != b"IHDR":
        raise PNGError("not a PNG file (bad signature or IHDR)")
    width, height, depth, ctype, _comp, _filt, interlace = struct.unpack(">IIBBBBB", data[16:29])
    return width, height, depth, ctype, interlace


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def _unfilter(raw, width, height, bpp):
    """Reconstructs (height, width * bpp) bytes from filtered scanlines."""
    stride = width * bpp
    rows = np.frombuffer(raw, dtype=np.uint8)
    if rows.size < height * (stride + 1):
        raise PNGError("truncated image data")
    rows = rows[:height * (stride + 1)].reshape(height, stride + 1)
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.uint8)
    for y in range(height):
        ftype, cur = rows[y, 0], rows[y, 1:]
        if ftype == 0:
            line = cur.copy()
        elif ftype == 1:  # Sub: running sum over each byte lane, modulo 256
            line = np.cumsum(cur.reshape(width, bpp), axis=0, dtype=np.uint8).reshape(stride)
        elif ftype == 2:  # Up
            line = cur + prev
        elif ftype in (3, 4):  # Average / Paeth depend on the reconstructed left pixel
            line = np.empty(stride, dtype=np.uint8)
            left = np.zeros(bpp, dtype=np.int32)
            up_left = np.zeros(bpp, dtype=np.int32)
            cur32, prev32 = cur.astype(np.int32), prev.astype(np.int32)
            for x in range(0, stride, bpp):
                up = prev32[x:x + bpp]
                pred = (left + up) >> 1 if ftype == 3 else _paeth(left, up, up_left)
                left = (cur32[x:x + bpp] + pred) & 0xFF
                line[x:x + bpp] = left
                up_left = up
        else:
            raise PNGError(f"unknown filter type {ftype}")
        out[y] = line
        prev = line
    return out


def _filtered_size(width, height, bits, interlace):
    """Bytes of the filtered scanlines (a filter byte per row) the header promises, at `bits`
    bits per pixel (rows are padded to whole bytes)."""
    if not interlace:
        return height * ((width * bits + 7) // 8 + 1)
    total = 0
    for x0, y0, dx, dy in _ADAM7:
        pw, ph = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if pw > 0 and ph > 0:
            total += ph * ((pw * bits + 7) // 8 + 1)
    return total


def _check_declared_size(width, height, expected, compressed, where):
    """IHDR's size must be one the IDAT bytes can inflate to, and within the decode budget."""
    if width == 0 or height == 0 or width > 2**31 - 1 or height > 2**31 - 1:
        raise PNGError(f"{where}: IHDR declares an invalid size {width}x{height}")
    if expected > compressed * 1032 + 1024:  # deflate's largest ratio is 1032:1
        raise PNGSizeError(f"{where}: IHDR declares {width}x{height} ({expected} bytes of image data), more than "
                           f"its {compressed} bytes of IDAT can hold")
    message = over_budget(expected, where, f"IHDR ({width}x{height})")
    if message:
        raise PNGSizeError(message)


def check_declared_size(data, where="the PNG data", chunks=None):
    """Bytes of filtered image data the IHDR of a PNG (any bit depth and colour type)
    promises, after checking them against its IDAT bytes and the decode budget. `chunks`:
    read_chunks(data) when the caller has them."""
    chunks = read_chunks(data) if chunks is None else chunks
    width, height, depth, ctype, interlace = header(data)
    samples = 1 if ctype == 3 else _CHANNELS.get(ctype)  # a palette index is one sample
    if samples is None or depth not in (1, 2, 4, 8, 16):
        raise PNGError(f"invalid colour type {ctype} or bit depth {depth}")
    expected = _filtered_size(width, height, samples * depth, interlace)
    _check_declared_size(width, height, expected, sum(len(p) for t, p in chunks if t == b"IDAT"), where)
    return expected


def decode(data, where="the PNG data"):
    """A 16-bit PNG -> uint16 array (H, W, C); `where` names the input in errors."""
    width, height, depth, ctype, interlace = header(data)
    if depth != 16 or ctype not in _CHANNELS:
        raise PNGError(f"_png16 decodes 16-bit gray/RGB(A) only, got depth {depth} colour type {ctype}")
    channels = _CHANNELS[ctype]
    bpp = 2 * channels
    chunks = read_chunks(data)
    expected = check_declared_size(data, where, chunks)
    idat = b"".join(p for t, p in chunks if t == b"IDAT")
    # Inflate no further than the header's size: a bomb stops there, not at the memory's end.
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(idat, expected)
    except zlib.error as e:
        raise PNGError(f"corrupt image data ({e})") from None
    if not interlace:
        image = _unfilter(raw, width, height, bpp)
    else:
        image = np.zeros((height, width * bpp), dtype=np.uint8)
        pos = 0
        for x0, y0, dx, dy in _ADAM7:
            pw, ph = -(-(width - x0) // dx), -(-(height - y0) // dy)
            if pw <= 0 or ph <= 0:
                continue
            size = ph * (pw * bpp + 1)
            sub = _unfilter(raw[pos:pos + size], pw, ph, bpp).reshape(ph, pw, bpp)
            image.reshape(height, width, bpp)[y0::dy, x0::dx] = sub
            pos += size
    return image.reshape(height, width, bpp).view(">u2").astype(np.uint16).reshape(height, width, channels)


def _chunk(ctype, payload):
    return struct.pack(">I", len(payload)) + ctype + payload + struct.pack(">I", zlib.crc32(ctype + payload) & 0xFFFFFFFF)


def encode(array, compression_level=6):
    """uint16-valued array (H, W, C), C in 1..4 -> 16-bit PNG bytes (filter None)."""
    height, width, channels = array.shape
    be = np.ascontiguousarray(array, dtype=">u2").reshape(height, width * channels).view(np.uint8)
    raw = np.concatenate([np.zeros((height, 1), dtype=np.uint8), be], axis=1).tobytes()
    ihdr = struct.pack(">IIBBBBB", width, height, 16, _COLOR_TYPE[channels], 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(raw, compression_level)) + \
        _chunk(b"IEND", b"")
