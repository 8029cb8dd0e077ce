"""Issue 27's PNG decompression bombs: the header's size is checked against the IDAT bytes and
the decode budget before anything is allocated (every bit depth; JPEG's header against the
budget), and our 16-bit inflation stops at the size the header declares. Peak memory is
measured with tracemalloc (numpy and zlib buffers included)."""
import struct
import tracemalloc
import zlib

import numpy as np
import pytest

import core
from vision.io import decode_png
from vision.io import _png16

PEAK_LIMIT = 32 << 20  # far below any of the sizes the bombs declare


def _png(width, height, idat, interlace=0, colour_type=2, depth=16):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, interlace)
    return _png16.SIGNATURE + _png16._chunk(b"IHDR", ihdr) + _png16._chunk(b"IDAT", idat) + _png16._chunk(b"IEND", b"")


def _zero_stream(nbytes, block=1 << 20):
    """A zlib stream inflating to `nbytes` zeros, built without compressing them all: after a
    full flush the compressor starts afresh, so each further block compresses the same."""
    c = zlib.compressobj(9)
    first = c.compress(bytes(block)) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(bytes(block)) + c.flush(zlib.Z_FULL_FLUSH)
    adler = ((nbytes % 65521) << 16) | 1  # Adler-32 of nbytes zeros
    return first + again * (nbytes // block - 1) + b"\x03\x00" + struct.pack(">I", adler)  # empty final block


def _decode_peak(data):
    """(result or exception, peak bytes traced) of decode_png(data)."""
    tensor = core.from_numpy(np.frombuffer(data, dtype=np.uint8).copy())
    tracemalloc.start()
    try:
        try:
            result = decode_png(tensor)
        except RuntimeError as e:
            result = e
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_zero_stream_helper_inflates_to_its_size():
    assert zlib.decompress(_zero_stream(3 << 20)) == bytes(3 << 20)


def test_a_60_byte_interlaced_png_claiming_100000_squared_is_refused_before_allocating():
    data = _png(100000, 100000, zlib.compress(b""), interlace=1)
    assert len(data) < 70
    result, peak = _decode_peak(data)
    assert isinstance(result, RuntimeError)
    assert "IHDR declares 100000x100000" in str(result) and "bytes of IDAT can hold" in str(result)
    assert peak < PEAK_LIMIT


def test_a_1mb_png_inflating_to_1gib_is_refused_by_the_budget_before_inflating():
    idat = _zero_stream(1 << 30)
    assert len(idat) < 1100000
    width = 16384
    height = (1 << 30) // (6 * width + 1)  # RGB16: one filter byte and 6 bytes a pixel per row
    result, peak = _decode_peak(_png(width, height, idat))
    assert isinstance(result, RuntimeError)
    assert f"IHDR ({width}x{height})" in str(result) and "decode budget" in str(result)
    assert peak < PEAK_LIMIT


def test_a_bomb_behind_a_small_header_is_inflated_only_to_the_header_size():
    # The first rows of a stream of zeros are valid (filter None, black pixels); the rest is never inflated.
    result, peak = _decode_peak(_png(64, 32, _zero_stream(1 << 30)))
    assert not isinstance(result, Exception)
    assert tuple(result.shape) == (3, 32, 64) and int(result.abs().sum()) == 0
    assert peak < PEAK_LIMIT


@pytest.mark.parametrize("budget, refused", [(1 << 20, True), (64 << 20, False)])
def test_the_decode_budget_is_configurable(budget, refused):
    previous = core.get_decode_budget()
    core.set_decode_budget(budget)
    try:
        result, _ = _decode_peak(_png(512, 512, _zero_stream(2 << 20)))  # 512 x (512*6 + 1) bytes filtered
    finally:
        core.set_decode_budget(previous)
    assert isinstance(result, RuntimeError) == refused


@pytest.mark.parametrize("depth, colour_type", [(8, 2), (8, 6), (1, 0), (4, 3)])
def test_low_bit_depth_bombs_are_refused_before_pillow_allocates(depth, colour_type):
    data = _png(100000, 100000, zlib.compress(b""), interlace=1, colour_type=colour_type, depth=depth)
    result, peak = _decode_peak(data)
    assert isinstance(result, RuntimeError) and "bytes of IDAT can hold" in str(result)
    assert "corrupt" not in str(result)  # a size refusal says so, naming the input and the field
    assert peak < PEAK_LIMIT


def _pillow_encoded(fmt, array, **options):
    from PIL import Image
    buf = __import__("io").BytesIO()
    Image.fromarray(array).save(buf, fmt, **options)
    return core.tensor(np.frombuffer(buf.getvalue(), dtype=np.uint8).copy())


@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_eight_bit_images_are_held_to_the_decode_budget(fmt):
    from vision.io import decode_image
    data = _pillow_encoded(fmt, np.zeros((600, 800, 3), dtype=np.uint8))
    previous = core.get_decode_budget()
    core.set_decode_budget(1 << 20)  # 800 x 600 x 3 bytes is more
    try:
        with pytest.raises(RuntimeError, match=r"\(800x600\) declares \d+ bytes, more than the decode budget"):
            decode_image(data)
    finally:
        core.set_decode_budget(previous)
    assert tuple(decode_image(data).shape) == (3, 600, 800)


def _packed_gray_png(pixels, bits, interlace):
    """A grayscale PNG at `bits` per pixel (rows packed MSB first, filter None), Adam7-interlaced
    or not, and the exact number of filtered bytes its IDAT inflates to."""
    passes = _png16._ADAM7 if interlace else ((0, 0, 1, 1),)
    raw = b""
    for x0, y0, dx, dy in passes:
        sub = pixels[y0::dy, x0::dx]
        if sub.size == 0:
            continue
        bit_planes = np.unpackbits(sub[..., None], axis=-1)[..., 8 - bits:]  # each pixel's low `bits` bits
        rows = np.packbits(bit_planes.reshape(sub.shape[0], -1), axis=1)
        raw += np.concatenate([np.zeros((sub.shape[0], 1), np.uint8), rows], axis=1).tobytes()
    return _png(pixels.shape[1], pixels.shape[0], zlib.compress(raw), interlace, colour_type=0, depth=bits), len(raw)


@pytest.mark.parametrize("bits", [1, 2, 4, 8])
@pytest.mark.parametrize("interlace", [0, 1])
def test_packed_and_interlaced_pngs_declare_their_exact_size_and_decode(bits, interlace):
    """The declared size of sub-byte rows is rounded up per row and per Adam7 pass."""
    pixels = np.random.default_rng(bits).integers(0, 1 << bits, size=(37, 53)).astype(np.uint8)
    raw, filtered = _packed_gray_png(pixels, bits, interlace)
    assert _png16.check_declared_size(raw) == filtered
    decoded = decode_png(core.tensor(np.frombuffer(raw, dtype=np.uint8).copy()))
    assert tuple(decoded.shape) == (1, 37, 53)
    levels = decoded.numpy()[0].astype(np.int64) * ((1 << bits) - 1)  # gray scaled to 0..255
    assert np.array_equal(levels // 255, pixels) and not (levels % 255).any()


def test_read_image_names_the_file_it_refuses(tmp_path):
    from vision.io import read_image
    path = tmp_path / "bomb.png"
    path.write_bytes(_png(100000, 100000, zlib.compress(b""), depth=8))
    with pytest.raises(RuntimeError, match=r"read_image\(\): '.*bomb\.png': decode_png\(\): IHDR declares 100000x100000"):
        read_image(path)
