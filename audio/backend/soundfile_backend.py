"""The soundfile backend: info/load/save on libsndfile with the sox_io signatures and
defaults (torchaudio 0.8's soundfile backend, new interface)."""
import contextlib
import io
import os
import re
import warnings

import soundfile

import core
from core._budget import get_decode_budget
from hub._atomic import atomic_open

from audio.backend import _formats
from audio.backend._streams import ReadAdapter
from audio.backend.common import AudioMetaData

__all__ = ["info", "load", "save", "load_wav"]

# What libsndfile logs when a header promises more audio than the file holds (it then
# quietly returns what is there): WAV-family data chunks, AIFF chunks, Ogg streams.
_WAV_DATA = re.compile(r"data\s*:\s*(\d+) \(should be (\d+)\)")
_CHUNK_PAST_END = re.compile(r"Chunk size (\d+) > file length (\d+)")
_OGG_CUT = "File ended unexpectedly"
_STREAMING_SIZES = (0, 0xFFFFFFFF)  # sizes streaming writers put in headers: not a truncation
_MPEG_FRAME = 1152  # mp3 lengths from a header estimate may be off by up to a frame


def _describe(filepath):
    return repr(os.fspath(filepath)) if isinstance(filepath, (str, os.PathLike)) else "the file-like object"


def _source(filepath, op):
    if isinstance(filepath, (str, os.PathLike)):
        path = os.fspath(filepath)
        if not os.path.exists(path):
            raise FileNotFoundError(f"{op}(): no such file: {path!r}")
        return path, None
    if hasattr(filepath, "read"):
        adapter = ReadAdapter(filepath, op)
        return adapter, adapter
    raise TypeError(f"{op}(): filepath must be a path or a file-like object with read(), "
                    f"got {type(filepath).__name__}")


def _check_complete(f, what, op):
    log = f.extra_info
    m = _WAV_DATA.search(log)
    if m and int(m.group(1)) not in _STREAMING_SIZES and int(m.group(1)) > int(m.group(2)) + 1:
        raise RuntimeError(f"{op}(): {what} is truncated: its header declares {m.group(1)} bytes of audio, "
                           f"the file holds {m.group(2)}")
    m = _CHUNK_PAST_END.search(log)
    if m:
        raise RuntimeError(f"{op}(): {what} is truncated: a {m.group(1)}-byte chunk runs past the "
                           f"end of the file ({m.group(2)} bytes)")
    if _OGG_CUT in log:
        raise RuntimeError(f"{op}(): {what} is truncated: the Ogg stream ends without its last page")


@contextlib.contextmanager
def _open(filepath, format, op):
    """An open soundfile.SoundFile; decoding failures become RuntimeErrors that name the file."""
    if format is not None:
        _formats.resolve(format, op)  # a hint only: libsndfile recognises the container itself
    source, adapter = _source(filepath, op)
    what = _describe(filepath)
    try:
        f = soundfile.SoundFile(source)
    except (soundfile.LibsndfileError, RuntimeError) as e:
        if adapter is not None:
            adapter.raise_error()
        message = getattr(e, "error_string", None) or str(e)
        raise RuntimeError(f"{op}(): cannot decode {what}: {message}") from None
    try:
        with f:
            _check_complete(f, what, op)
            yield f, what
    except soundfile.LibsndfileError as e:
        if adapter is not None:
            adapter.raise_error()
        raise RuntimeError(f"{op}(): cannot decode {what}: {e.error_string}") from None
    if adapter is not None:
        adapter.raise_error()


def info(filepath, format=None) -> AudioMetaData:
    """Sample rate, length, channels, bits per sample and encoding of an audio file (a path,
    os.PathLike or a binary file-like object, seekable or not)."""
    with _open(filepath, format, "info") as (f, _):
        encoding, bits = _formats.describe(f.subtype, f.format)
        return AudioMetaData(f.samplerate, f.frames, f.channels, bits, encoding)


# normalize=False keeps integer WAV samples as integers (8-bit unsigned as uint8, 24-bit
# left-aligned in int32, like sox); every other case loads float32 in [-1, 1].
_INTEGER_WAV = {"PCM_16": ("int16", core.int16), "PCM_24": ("int32", core.int32),
                "PCM_32": ("int32", core.int32), "PCM_U8": ("int16", core.int16)}


def load(filepath, frame_offset: int = 0, num_frames: int = -1, normalize: bool = True,
         channels_first: bool = True, format=None):
    """(waveform, sample_rate): float32 [channel, time] in [-1, 1] by default. Only the
    frames asked for are decoded, and a file-like object is read only as far as needed."""
    if not isinstance(frame_offset, int) or frame_offset < 0:
        raise ValueError(f"load(): frame_offset must be a non-negative integer, got {frame_offset!r}")
    if not isinstance(num_frames, int) or (num_frames <= 0 and num_frames != -1):
        raise ValueError(f"load(): num_frames must be -1 (everything) or positive, got {num_frames!r}")
    with _open(filepath, format, "load") as (f, what):
        read_as, dtype = "float32", core.float32
        if not normalize and f.format in ("WAV", "WAVEX", "W64", "RF64") and f.subtype in _INTEGER_WAV:
            read_as, dtype = _INTEGER_WAV[f.subtype]
        start = min(frame_offset, f.frames)
        count = f.frames - start if num_frames == -1 else min(num_frames, f.frames - start)
        if start and count > 0:
            f.seek(start)
        data, got = _read_frames(f, count, read_as, dtype, channels_first)
        slack = _MPEG_FRAME if f.format == "MP3" else 0
        if got < count - slack:
            raise RuntimeError(f"load(): {what} is truncated: got {got} of the {count} frames its header "
                               f"announces from frame {start}")
        sample_rate, u8 = f.samplerate, f.subtype == "PCM_U8" and dtype == core.int16
    waveform = data[:, :got] if channels_first else data[:got]
    if u8:  # libsndfile widens unsigned 8-bit to (u - 128) << 8
        waveform = ((waveform.to(core.int32) >> 8) + 128).to(core.uint8)
    return waveform.contiguous(), sample_rate


def _read_frames(f, count, read_as, dtype, channels_first):
    """(tensor, frames read): [channel, time] or [time, channel]. libsndfile returns
    interleaved frames, which one transposed copy (on core's threads) de-interleaves; reading
    in cache-sized chunks instead was faster on one thread only (measured: 11 vs 13 ms for
    60 s of stereo, but 16 vs 13.5 ms on two threads, where each chunk's copy paid the
    pool's hand-off). A count beyond the decode budget is read in budget-sized blocks, so
    memory follows the audio the file holds, not what its header declares."""
    block = max(1, get_decode_budget() // (f.channels * dtype.itemsize))
    blocks, got = [], 0
    while True:
        want = min(block, count - got)
        data = core.empty((want, f.channels), dtype=dtype)
        n = len(f.read(want, dtype=read_as, out=data.numpy())) if want > 0 else 0
        blocks.append(data if n == want else data[:n])
        got += n
        if n < want or got == count:
            break
    data = blocks[0] if len(blocks) == 1 else core.cat(blocks)
    return (data.t() if channels_first else data), got


def load_wav(filepath, frame_offset: int = 0, num_frames: int = -1, channels_first: bool = True):
    """Deprecated (torchaudio 0.8): load(..., normalize=False)."""
    warnings.warn("load_wav is deprecated; use load(filepath, normalize=False)", UserWarning, stacklevel=2)
    return load(filepath, frame_offset, num_frames, normalize=False, channels_first=channels_first)


_INTEGER_SUBTYPES = ("PCM_S8", "PCM_16", "PCM_24", "PCM_32", "PCM_U8", "ULAW", "ALAW")
_SAVE_DTYPES = {core.float32: "float32", core.float64: "float64", core.int32: "int32",
                core.int16: "int16", core.uint8: "uint8"}


def _frames_for_writing(src, channels_first, subtype):
    """src as a C-contiguous (time, channel) array of a dtype soundfile writes."""
    frames = src.detach().t() if channels_first else src.detach()
    if src.dtype == core.uint8:  # soundfile writes no uint8: widen as libsndfile would narrow it
        frames = (frames.to(core.int16) - 128) << 8
    elif src.is_floating_point() and subtype in _INTEGER_SUBTYPES:
        frames = frames.clamp(-1.0, 1.0)  # libsndfile wraps out-of-range floats around
    return frames.contiguous().numpy()


def save(filepath, src, sample_rate: int, channels_first: bool = True, compression=None,
         format=None, encoding=None, bits_per_sample=None):
    """Writes a 2-D tensor ([channel, time], or [time, channel] with channels_first=False).
    A path is written atomically (a temp file renamed over it); a file-like object needs
    `format` and receives the encoded bytes in one write."""
    if not isinstance(src, core.Tensor) or src.dim() != 2:
        raise ValueError(f"save(): src must be a 2-D tensor, got "
                         f"{src.dim() if isinstance(src, core.Tensor) else type(src).__name__}"
                         f"{'-D' if isinstance(src, core.Tensor) else ''}")
    if src.dtype not in _SAVE_DTYPES:
        raise ValueError(f"save(): src dtype must be float32, float64, int32, int16 or uint8, got {src.dtype}")
    if not isinstance(sample_rate, int) or sample_rate <= 0:
        raise ValueError(f"save(): sample_rate must be a positive integer, got {sample_rate!r}")
    is_path = isinstance(filepath, (str, os.PathLike))
    if not is_path and not hasattr(filepath, "write"):
        raise TypeError(f"save(): filepath must be a path or a file-like object with write(), "
                        f"got {type(filepath).__name__}")
    if format is None:
        if not is_path:
            raise ValueError("save(): format is required when saving to a file-like object")
        format = os.path.splitext(os.fspath(filepath))[1].lstrip(".")
        if not format:
            raise ValueError(f"save(): cannot tell the format of {os.fspath(filepath)!r}: give format=")
    major, codec = _formats.resolve(format, "save")
    subtype = _formats.choose_subtype(format, major, codec, encoding, bits_per_sample, _SAVE_DTYPES[src.dtype])
    level, bitrate_mode = _formats.compression_settings(format, major, codec, compression, sample_rate)
    frames = _frames_for_writing(src, channels_first, subtype)
    settings = dict(mode="w", samplerate=sample_rate, channels=frames.shape[1], subtype=subtype, format=major,
                    compression_level=level, bitrate_mode=bitrate_mode)

    def encode(target, **extra):
        try:
            with soundfile.SoundFile(target, **settings, **extra) as f:
                f.write(frames)
        except (soundfile.LibsndfileError, RuntimeError) as e:
            message = getattr(e, "error_string", None) or str(e)
            raise ValueError(f"save(): cannot write {format} ({subtype}, {sample_rate} Hz, "
                             f"{frames.shape[1]} channels): {message}") from None

    if is_path:
        with atomic_open(filepath, "wb") as stream:  # temp file + rename; removed if encoding fails
            encode(stream.fileno(), closefd=False)
    else:
        buffer = io.BytesIO()  # encode fully first: a failure writes nothing to the caller's stream
        encode(buffer)
        filepath.write(buffer.getvalue())
