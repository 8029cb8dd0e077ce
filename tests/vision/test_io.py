"""vision.io: the PNG mode matrix (8/16-bit, gray, gray-alpha, RGB, RGBA, palette,
interlaced), ImageReadMode conversions, JPEG, corrupt and truncated data, atomic writes."""
import io
import os
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

import core
from vision.io import (ImageReadMode, decode_image, decode_jpeg, decode_png, encode_jpeg, encode_png, read_file,
                       read_image, write_file, write_jpeg, write_png)
from vision.io import _png16

RNG = np.random.default_rng(5)
CHANNELS_TO_MODE = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}


def as_bytes_tensor(data):
    return core.from_numpy(np.frombuffer(bytes(data), dtype=np.uint8).copy())


def pil_png(img, **kw):
    buf = io.BytesIO()
    img.save(buf, format="PNG", **kw)
    return as_bytes_tensor(buf.getvalue())


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
@pytest.mark.parametrize("level", [0, 6, 9])
def test_png_round_trip_8bit(channels, level):
    a = RNG.integers(0, 256, (channels, 13, 21), dtype=np.uint8)
    enc = encode_png(core.from_numpy(a), compression_level=level)
    assert enc.dtype == core.uint8 and enc.ndim == 1
    np.testing.assert_array_equal(decode_png(enc).numpy(), a)
    # Pillow reads what we wrote
    img = Image.open(io.BytesIO(enc.numpy().tobytes()))
    assert img.mode == CHANNELS_TO_MODE[channels]


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", [np.int32, np.int16])
def test_png_round_trip_16bit(channels, dtype):
    high = 65536 if dtype == np.int32 else 32768
    a = RNG.integers(0, high, (channels, 9, 14)).astype(dtype)
    a[0, 0, 0], a[-1, -1, -1] = 0, high - 1
    enc = encode_png(core.from_numpy(a))
    out = decode_png(enc)
    assert out.dtype == core.int32
    np.testing.assert_array_equal(out.numpy(), a)
    _, _, depth, ctype, _ = _png16.header(enc.numpy().tobytes())
    assert depth == 16 and ctype == {1: 0, 2: 4, 3: 2, 4: 6}[channels]


def test_png16_read_from_pillow_and_pillow_reads_ours():
    g = RNG.integers(0, 65536, (11, 7)).astype(np.uint16)
    np.testing.assert_array_equal(decode_png(pil_png(Image.fromarray(g))).numpy()[0], g)
    enc = encode_png(core.from_numpy(g.astype(np.int32)[None]))
    back = Image.open(io.BytesIO(enc.numpy().tobytes()))
    np.testing.assert_array_equal(np.asarray(back).astype(np.uint16), g)


def _png_chunk(ctype, payload):
    return struct.pack(">I", len(payload)) + ctype + payload + struct.pack(">I", zlib.crc32(ctype + payload))


def _filtered_png16(a, filters, interlace=False):
    """A 16-bit PNG of a (H, W, C) uint16 array with the given filter type per row (a
    reference encoder for the decoder's filter and Adam7 paths)."""
    h, w, c = a.shape
    bpp = 2 * c

    def encode_rows(img):
        raw = b""
        prev = np.zeros(img.shape[1] * bpp, dtype=np.int64)
        for y, row in enumerate(img.astype(">u2").reshape(img.shape[0], -1).view(np.uint8).astype(np.int64)):
            f = filters[y % len(filters)]
            left = np.concatenate([np.zeros(bpp, np.int64), row[:-bpp]])
            up_left = np.concatenate([np.zeros(bpp, np.int64), prev[:-bpp]])
            if f == 0:
                out = row
            elif f == 1:
                out = row - left
            elif f == 2:
                out = row - prev
            elif f == 3:
                out = row - (left + prev) // 2
            else:
                p = left + prev - up_left
                pa, pb, pc = abs(p - left), abs(p - prev), abs(p - up_left)
                pred = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, prev, up_left))
                out = row - pred
            raw += bytes([f]) + (out % 256).astype(np.uint8).tobytes()
            prev = row
        return raw

    if interlace:
        raw = b""
        for x0, y0, dx, dy in _png16._ADAM7:
            sub = a[y0::dy, x0::dx]
            if sub.size:
                raw += encode_rows(sub)
    else:
        raw = encode_rows(a)
    ihdr = struct.pack(">IIBBBBB", w, h, 16, {1: 0, 2: 4, 3: 2, 4: 6}[c], 0, 0, int(interlace))
    return _png16.SIGNATURE + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", zlib.compress(raw)) + \
        _png_chunk(b"IEND", b"")


@pytest.mark.parametrize("interlace", [False, True])
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_png16_all_filters_and_adam7(interlace, channels):
    a = RNG.integers(0, 65536, (10, 13, channels)).astype(np.uint16)
    data = _filtered_png16(a, [0, 1, 2, 3, 4], interlace)
    np.testing.assert_array_equal(decode_png(as_bytes_tensor(data)).numpy().transpose(1, 2, 0), a)


def test_png_8bit_interlaced_and_optimized_by_pillow():
    a = RNG.integers(0, 256, (17, 23, 3), dtype=np.uint8)
    np.testing.assert_array_equal(decode_png(pil_png(Image.fromarray(a), optimize=True)).numpy(),
                                  a.transpose(2, 0, 1))


def test_palette_png_expands_to_rgb_and_rgba():
    rgb = RNG.integers(0, 256, (8, 9, 3), dtype=np.uint8)
    p = Image.fromarray(rgb).convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
    out = decode_png(pil_png(p))
    assert tuple(out.shape) == (3, 8, 9)
    np.testing.assert_array_equal(out.numpy().transpose(1, 2, 0), np.asarray(p.convert("RGB")))
    transparent = pil_png(p, transparency=0)
    out = decode_png(transparent)
    assert tuple(out.shape) == (4, 8, 9)
    alpha = out.numpy()[3]
    assert set(np.unique(alpha)) <= {0, 255} and (alpha == 0).sum() == (np.asarray(p) == 0).sum()


@pytest.mark.parametrize("src_channels", [1, 2, 3, 4])
@pytest.mark.parametrize("mode, channels", [(ImageReadMode.UNCHANGED, None), (ImageReadMode.GRAY, 1),
                                            (ImageReadMode.GRAY_ALPHA, 2), (ImageReadMode.RGB, 3),
                                            (ImageReadMode.RGB_ALPHA, 4)])
def test_read_mode_matrix(src_channels, mode, channels):
    a = RNG.integers(0, 256, (src_channels, 6, 5), dtype=np.uint8)
    enc = encode_png(core.from_numpy(a))
    out = decode_png(enc, mode).numpy()
    assert out.shape[0] == (channels or src_channels)
    pil = Image.open(io.BytesIO(enc.numpy().tobytes()))
    if channels is not None:  # the conversion PIL makes
        ref = np.asarray(pil.convert(CHANNELS_TO_MODE[channels]))
        np.testing.assert_array_equal(out.transpose(1, 2, 0).reshape(ref.shape), ref)
    # 16-bit: the same channel counts, values kept in 16 bits
    a16 = (a.astype(np.int32) * 257)
    out16 = decode_png(encode_png(core.from_numpy(a16)), mode).numpy()
    assert out16.shape[0] == (channels or src_channels) and out16.dtype == np.int32
    if channels in (3, 4) and src_channels in (1, 2):
        np.testing.assert_array_equal(out16[0], a16[0])
    if channels in (2, 4):
        expect_alpha = a16[-1] if src_channels in (2, 4) else np.full_like(a16[0], 65535)
        np.testing.assert_array_equal(out16[-1], expect_alpha)


def test_read_mode_by_int_and_bad_mode():
    enc = encode_png(core.zeros(3, 2, 2, dtype=core.uint8))
    assert decode_png(enc, 1).shape[0] == 1
    with pytest.raises(ValueError, match="ImageReadMode"):
        decode_png(enc, 9)


def test_jpeg_round_trip_and_modes():
    yy, xx = np.mgrid[0:32, 0:48]
    a = np.stack([xx * 5, yy * 7, (xx + yy) * 3]).astype(np.uint8)
    enc = encode_jpeg(core.from_numpy(a), quality=95)
    out = decode_jpeg(enc)
    assert tuple(out.shape) == (3, 32, 48) and out.dtype == core.uint8
    assert np.abs(out.numpy().astype(int) - a).mean() < 3
    assert tuple(decode_jpeg(enc, ImageReadMode.GRAY).shape) == (1, 32, 48)
    gray = encode_jpeg(core.from_numpy(a[:1].copy()))
    assert tuple(decode_image(gray).shape) == (1, 32, 48)
    assert tuple(decode_image(gray, ImageReadMode.RGB).shape) == (3, 32, 48)
    with pytest.raises(ValueError, match="not supported for JPEG"):
        decode_jpeg(enc, ImageReadMode.RGB_ALPHA)
    lo, hi = encode_jpeg(core.from_numpy(a), 5), encode_jpeg(core.from_numpy(a), 100)
    assert lo.numel() < hi.numel()


@pytest.mark.parametrize("bad, exc, msg", [
    (lambda: encode_png(core.zeros(3, 4, 4)), RuntimeError, "dtype"),
    (lambda: encode_png(core.zeros(4, 4, dtype=core.uint8)), RuntimeError, "3-dimensional"),
    (lambda: encode_png(core.zeros(5, 4, 4, dtype=core.uint8)), RuntimeError, "number of channels"),
    (lambda: encode_png(core.zeros(1, 4, 4, dtype=core.uint8), 10), ValueError, "between 0 and 9"),
    (lambda: encode_png(core.full((1, 2, 2), 70000, dtype=core.int32)), ValueError, "[0, 65535]"),
    (lambda: encode_jpeg(core.zeros(2, 4, 4, dtype=core.uint8)), RuntimeError, "1 or 3"),
    (lambda: encode_jpeg(core.zeros(3, 4, 4, dtype=core.uint8), 0), ValueError, "between 1 and 100"),
    (lambda: decode_png(core.zeros(10)), RuntimeError, "uint8"),
    (lambda: decode_png(core.zeros(0, dtype=core.uint8)), RuntimeError, "non empty"),
    (lambda: decode_png(as_bytes_tensor(b"\xff\xd8\xff\xe0....")), RuntimeError, "not png"),
    (lambda: decode_jpeg(as_bytes_tensor(b"\x89PNG\r\n\x1a\n....")), RuntimeError, "not jpeg"),
    (lambda: decode_image(as_bytes_tensor(b"GIF89a......")), RuntimeError, "Only jpeg and png"),
    (lambda: decode_image(b"\x89PNG"), TypeError, "core.Tensor"),
])
def test_argument_errors(bad, exc, msg):
    with pytest.raises(exc) as info:
        bad()
    assert msg in str(info.value)


@pytest.mark.parametrize("depth16", [False, True])
def test_corrupt_and_truncated_png(depth16):
    a = RNG.integers(0, 256, (3, 12, 12), dtype=np.uint8)
    src = core.from_numpy(a.astype(np.int32) * 257) if depth16 else core.from_numpy(a)
    data = encode_png(src).numpy().tobytes()
    for cut in (1, 12, 30, len(data) - 40):
        with pytest.raises(RuntimeError, match="decode_png\\(\\): corrupt or truncated"):
            decode_png(as_bytes_tensor(data[:-cut]))
    flipped = bytearray(data)
    flipped[50] ^= 0x55
    with pytest.raises(RuntimeError, match="CRC mismatch"):
        decode_png(as_bytes_tensor(flipped))
    # a broken zlib stream behind a valid CRC
    ihdr_end = 8 + 25
    bad_idat = _png_chunk(b"IDAT", b"\x78\x9c garbage that is not deflate")
    forged = data[:ihdr_end] + bad_idat + _png_chunk(b"IEND", b"")
    with pytest.raises(RuntimeError, match="corrupt"):
        decode_png(as_bytes_tensor(forged))


def test_corrupt_and_truncated_jpeg():
    a = RNG.integers(0, 256, (3, 24, 24), dtype=np.uint8)
    data = encode_jpeg(core.from_numpy(a)).numpy().tobytes()
    for cut in (2, 50, len(data) // 2):
        with pytest.raises(RuntimeError, match="decode_jpeg\\(\\): corrupt or truncated"):
            decode_jpeg(as_bytes_tensor(data[:-cut]))


def test_files_read_write_atomic(tmp_path):
    a = RNG.integers(0, 256, (3, 10, 10), dtype=np.uint8)
    path = tmp_path / "x.png"
    write_png(core.from_numpy(a), str(path))
    np.testing.assert_array_equal(read_image(str(path)).numpy(), a)
    np.testing.assert_array_equal(read_image(path, ImageReadMode.GRAY).numpy()[0],
                                  np.asarray(Image.open(path).convert("L")))
    jpath = tmp_path / "x.jpg"
    write_jpeg(core.from_numpy(a), str(jpath), quality=90)
    assert tuple(read_image(str(jpath)).shape) == (3, 10, 10)
    raw = read_file(str(path))
    assert raw.dtype == core.uint8 and raw.numpy().tobytes() == path.read_bytes()
    write_file(str(tmp_path / "copy.png"), raw)
    assert (tmp_path / "copy.png").read_bytes() == path.read_bytes()
    assert oct(os.stat(tmp_path / "copy.png").st_mode & 0o777) != "0o600"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.png", "x.jpg", "x.png"]  # no temp files left
    (tmp_path / "empty").write_bytes(b"")
    with pytest.raises(RuntimeError, match="non empty file"):
        read_file(str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError):
        read_file(str(tmp_path / "missing.png"))
    with pytest.raises(RuntimeError, match="1-dimensional"):
        write_file(str(tmp_path / "y"), core.zeros(2, 2, dtype=core.uint8))


def test_failed_write_keeps_old_file(tmp_path, monkeypatch):
    path = tmp_path / "keep.bin"
    path.write_bytes(b"old")
    import hub._atomic as atomic

    def boom(*_):
        raise OSError("disk full")

    monkeypatch.setattr(atomic.os, "fsync", boom)
    with pytest.raises(OSError, match="disk full"):
        write_file(str(path), core.from_numpy(np.frombuffer(b"new data", np.uint8).copy()))
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.bin"]
