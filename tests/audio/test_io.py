"""audio.load / save / info on libsndfile: every format x encoding x width it has, file-like
objects (seekable or not, an HTTP response body), partial reads, broken files, atomic saves."""
import http.server
import io
import os
import threading

import numpy as np
import pytest
import soundfile

import audio
import core
from audio.backend import _formats, soundfile_backend

SR = 8000


def _signal(channels=2, frames=1200, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(frames) / SR
    x = np.stack([0.6 * np.sin(2 * np.pi * (300 + 200 * c) * t) for c in range(channels)])
    return core.from_numpy((x + 0.05 * rng.standard_normal(x.shape)).astype(np.float32))


# Every (format name, encoding, bits) the installed libsndfile can write, from the same tables
# save() uses; lossy codecs are listed without encoding.
def _combinations():
    out = []
    for name in ["wav", "flac", "aiff", "au", "sph", "w64", "caf", "rf64", "wavex", "ircam", "voc", "avr", "paf"]:
        if name not in _formats.supported_formats():
            continue
        major, _ = _formats._NAMES[name]
        for subtype in soundfile.available_subtypes(major):
            if subtype in _formats._PCM_SUBTYPES:
                out.append((name,) + _formats._PCM_SUBTYPES[subtype])
    return out


# quantisation step of each encoding, for the round-trip tolerance
_STEP = {("PCM_S", 8): 2 ** -7, ("PCM_U", 8): 2 ** -7, ("PCM_S", 16): 2 ** -15, ("PCM_S", 24): 2 ** -23,
         ("PCM_S", 32): 2 ** -31, ("PCM_F", 32): 1e-7, ("PCM_F", 64): 1e-12, ("ULAW", 8): 0.035, ("ALAW", 8): 0.035}


@pytest.mark.parametrize("name,encoding,bits", _combinations())
def test_round_trip_every_pcm_encoding(tmp_path, name, encoding, bits):
    x = _signal()
    path = tmp_path / f"x.{name}"
    audio.save(path, x, SR, encoding=encoding, bits_per_sample=bits)
    meta = audio.info(path)
    expected_encoding = "FLAC" if name == "flac" else encoding
    assert (meta.sample_rate, meta.num_frames, meta.num_channels) == (SR, 1200, 2)
    assert (meta.encoding, meta.bits_per_sample) == (expected_encoding, bits)
    y, sr = audio.load(path)
    assert sr == SR and y.dtype == core.float32 and tuple(y.shape) == (2, 1200)
    assert np.abs(y.numpy() - x.numpy()).max() <= 1.01 * _STEP[(encoding, bits)] + 1e-7


@pytest.mark.parametrize("name", ["ogg", "vorbis", "opus", "mp3"])
def test_lossy_codecs_round_trip(tmp_path, name):
    if name not in _formats.supported_formats():
        pytest.skip(f"the installed libsndfile has no {name}")
    rate = 16000  # opus takes 8/12/16/24/48 kHz only
    x = _signal(frames=16000)
    path = tmp_path / f"x.{name}"
    audio.save(path, x, rate)
    meta = audio.info(path)
    assert meta.bits_per_sample == 0 and meta.encoding == {"mp3": "MP3", "opus": "OPUS"}.get(name, "VORBIS")
    y, sr = audio.load(path)
    assert sr == rate and y.shape[0] == 2
    n = min(y.shape[1], x.shape[1])
    # codec delay and padding aside, the signal comes back (correlation with the original)
    a, b = x.numpy()[0, :n], y.numpy()[0, :n]
    best = max(np.corrcoef(a[: n - lag], b[lag:])[0, 1] for lag in range(0, 1200, 1))
    assert best > 0.9


def test_save_defaults_follow_dtype_and_format(tmp_path):
    x = _signal()
    cases = [(x, "wav", ("PCM_F", 32)), ((x * 32767).to(core.int16), "wav", ("PCM_S", 16)),
             ((x * 2 ** 30).to(core.int32), "wav", ("PCM_S", 32)), (x, "flac", ("FLAC", 24)),
             (x, "sph", ("PCM_S", 16))]
    u8 = ((x * 127) + 128).to(core.uint8)
    cases.append((u8, "wav", ("PCM_U", 8)))
    for i, (src, fmt, expected) in enumerate(cases):
        path = tmp_path / f"d{i}.{fmt}"
        audio.save(path, src, SR)
        meta = audio.info(path)
        assert (meta.encoding, meta.bits_per_sample) == expected, (src.dtype, fmt)
    audio.save(tmp_path / "b8.wav", x, SR, bits_per_sample=8)
    assert audio.info(tmp_path / "b8.wav").encoding == "PCM_U"
    audio.save(tmp_path / "ul.wav", x, SR, encoding="ULAW")
    assert audio.info(tmp_path / "ul.wav").bits_per_sample == 8


def test_normalize_false_keeps_integer_wav_samples(tmp_path):
    x = _signal()
    for dtype, scale in [(core.int16, 32767), (core.int32, 2 ** 31 - 1)]:
        src = (x * scale).to(dtype)
        audio.save(tmp_path / "i.wav", src, SR)
        y, _ = audio.load(tmp_path / "i.wav", normalize=False)
        assert y.dtype == dtype and bool((y == src).all())
    u8 = ((x * 127) + 128).to(core.uint8)
    audio.save(tmp_path / "u.wav", u8, SR)
    y, _ = audio.load(tmp_path / "u.wav", normalize=False)
    assert y.dtype == core.uint8 and bool((y == u8).all())
    audio.save(tmp_path / "f.flac", x, SR, bits_per_sample=16)  # not WAV: float32 whatever normalize says
    assert audio.load(tmp_path / "f.flac", normalize=False)[0].dtype == core.float32
    audio.save(tmp_path / "p24.wav", x, SR, bits_per_sample=24)  # 24-bit comes left-aligned in int32
    y24, _ = audio.load(tmp_path / "p24.wav", normalize=False)
    assert y24.dtype == core.int32 and np.abs(y24.numpy() / 2 ** 31 - x.numpy()).max() < 2 ** -22


def test_partial_reads_and_layout(tmp_path):
    x = _signal(frames=5000)
    path = tmp_path / "p.wav"
    audio.save(path, x, SR)
    y, _ = audio.load(path, frame_offset=1000, num_frames=300)
    assert np.array_equal(y.numpy(), x.numpy()[:, 1000:1300])
    tail, _ = audio.load(path, frame_offset=4900)
    assert tuple(tail.shape) == (2, 100)
    past, _ = audio.load(path, frame_offset=6000)
    assert tuple(past.shape) == (2, 0)
    t, _ = audio.load(path, num_frames=10, channels_first=False)
    assert np.array_equal(t.numpy(), x.numpy()[:, :10].T)
    for bad in [dict(frame_offset=-1), dict(num_frames=0), dict(num_frames=-2)]:
        with pytest.raises(ValueError, match="load"):
            audio.load(path, **bad)


class _CountingStream(io.RawIOBase):
    """A read-only, non-seekable stream that counts the bytes taken from it."""

    def __init__(self, data):
        self._data, self.taken = data, 0

    def readable(self):
        return True

    def read(self, n=-1):
        n = len(self._data) - self.taken if n is None or n < 0 else n
        chunk = self._data[self.taken:self.taken + n]
        self.taken += len(chunk)
        return chunk


def _wav_bytes(frames):
    buffer = io.BytesIO()
    audio.save(buffer, _signal(frames=frames), SR, format="wav", bits_per_sample=16)
    return buffer.getvalue()


def test_file_like_objects(tmp_path):
    x = _signal()
    for fmt in ["wav", "flac", "ogg"]:
        buffer = io.BytesIO()
        audio.save(buffer, x, SR, format=fmt)
        buffer.seek(0)
        meta = audio.info(buffer)
        assert (meta.sample_rate, meta.num_channels) == (SR, 2)
        buffer.seek(0)
        y, sr = audio.load(buffer)
        assert sr == SR and y.shape[0] == 2
    # a stream positioned past a prefix: the audio starts where it stands
    data = _wav_bytes(400)
    prefixed = io.BytesIO(b"JUNK" * 10 + data)
    prefixed.seek(40)
    assert audio.info(prefixed).num_frames == 400
    with pytest.raises(ValueError, match="format is required"):
        audio.save(io.BytesIO(), x, SR)
    with pytest.raises(TypeError, match="binary"):
        audio.load(io.StringIO("RIFF"))


def test_non_seekable_stream_is_read_only_as_far_as_needed():
    data = _wav_bytes(200000)  # 800 kB
    stream = _CountingStream(data)
    y, _ = audio.load(stream, num_frames=100)
    assert tuple(y.shape) == (2, 100)
    # the length query drains an unannounced stream, so everything was read here...
    assert stream.taken == len(data)
    full = _CountingStream(data)
    z, _ = audio.load(full, frame_offset=1000, num_frames=10)
    assert np.array_equal(z.numpy(), audio.load(io.BytesIO(data), frame_offset=1000, num_frames=10)[0].numpy())


class _Handler(http.server.BaseHTTPRequestHandler):
    payload = b""

    def do_GET(self):  # noqa: N802 - the http.server API
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.payload)))
        self.end_headers()
        try:
            self.wfile.write(self.payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: that is the point

    def log_message(self, *args):
        pass


def test_http_response_body_is_read_partially():
    requests = pytest.importorskip("requests")
    _Handler.payload = _wav_bytes(400000)  # 1.6 MB
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/a.wav"
        with requests.get(url, stream=True, timeout=10) as response:
            y, sr = audio.load(response.raw, num_frames=1000)
            assert sr == SR and tuple(y.shape) == (2, 1000)
            assert response.raw.tell() < len(_Handler.payload) // 4  # the announced length spares the rest
        with requests.get(url, stream=True, timeout=10) as response:
            assert audio.info(response.raw).num_frames == 400000
    finally:
        server.shutdown()
        server.server_close()


def test_corrupt_and_truncated_files_raise(tmp_path):
    x = _signal(frames=4000)
    for fmt in ["wav", "flac", "aiff"]:
        path = tmp_path / f"t.{fmt}"
        audio.save(path, x, SR, bits_per_sample=16)
        data = path.read_bytes()
        cut = tmp_path / f"cut.{fmt}"
        cut.write_bytes(data[: len(data) // 2])
        with pytest.raises(RuntimeError, match="truncated|cannot decode"):
            audio.load(cut)
        with pytest.raises(RuntimeError, match="truncated|cannot decode"):
            audio.load(io.BytesIO(data[: len(data) // 2]))
    garbage = tmp_path / "g.wav"
    garbage.write_bytes(b"RIFF\x10\x00\x00\x00WAVEfmt garbage" * 3)
    with pytest.raises(RuntimeError, match="cannot decode"):
        audio.info(garbage)
    empty = tmp_path / "e.wav"
    empty.write_bytes(b"")
    with pytest.raises(RuntimeError, match="cannot decode"):
        audio.load(empty)
    with pytest.raises(FileNotFoundError):
        audio.load(tmp_path / "missing.wav")


def test_errors_name_the_format_and_the_problem(tmp_path):
    x = _signal()
    with pytest.raises(ValueError, match="format 'amr-nb' is not supported"):
        audio.save(tmp_path / "a.amr-nb", x, SR)
    with pytest.raises(ValueError, match="format 'xyz'"):
        audio.save(tmp_path / "a.wav", x, SR, format="xyz")
    with pytest.raises(ValueError, match="wav.*PCM_S at 8 bits"):
        audio.save(tmp_path / "a.wav", x, SR, encoding="PCM_S", bits_per_sample=8)
    with pytest.raises(ValueError, match="flac compression"):
        audio.save(tmp_path / "a.flac", x, SR, compression=9)
    with pytest.raises(ValueError, match="2-D"):
        audio.save(tmp_path / "a.wav", x[0], SR)
    with pytest.raises(ValueError, match="unknown encoding"):
        audio.save(tmp_path / "a.wav", x, SR, encoding="PCM_X")


def test_saves_are_atomic(tmp_path):
    x = _signal()
    target = tmp_path / "keep.opus"
    target.write_bytes(b"previous contents")
    if "opus" in _formats.supported_formats():
        with pytest.raises(ValueError, match="opus"):
            audio.save(target, x, 44100)  # opus refuses 44.1 kHz once the file is being written
        assert target.read_bytes() == b"previous contents"
    fresh = tmp_path / "fresh.wav"
    with pytest.raises(ValueError):
        audio.save(fresh, x, SR, encoding="PCM_S", bits_per_sample=8)
    assert not fresh.exists()
    assert sorted(os.listdir(tmp_path)) == ["keep.opus"]  # no temp files left behind
    audio.save(fresh, x, SR)
    assert audio.info(fresh).num_frames == x.shape[1]


def test_backends_and_metadata():
    assert audio.list_audio_backends() == ["soundfile"]
    assert audio.get_audio_backend() == "soundfile"
    try:
        audio.set_audio_backend(None)
        assert audio.get_audio_backend() is None
        with pytest.raises(RuntimeError, match="no audio backend"):
            audio.load("x.wav")
    finally:
        audio.set_audio_backend("soundfile")
    with pytest.raises(RuntimeError, match="sox_io"):
        audio.set_audio_backend("sox_io")
    assert audio.load is soundfile_backend.load
    meta = audio.AudioMetaData(8000, 10, 1, 16, "PCM_S")
    assert meta == audio.AudioMetaData(8000, 10, 1, 16, "PCM_S") and "PCM_S" in repr(meta)
    assert {"wav", "flac"} <= set(audio.utils.sox_utils.list_read_formats())
