"""Issue 27: audio.load's memory follows the audio a file holds, not the frame count its
header declares (a 100-byte FLAC may claim 2**36 frames): counts beyond the decode budget
are read in budget-sized blocks."""
import io

import numpy as np
import pytest
import soundfile

import audio
import core


def _encoded(frames, fmt="FLAC", channels=2):
    signal = np.random.default_rng(0).uniform(-0.5, 0.5, size=(frames, channels)).astype(np.float32)
    buf = io.BytesIO()
    soundfile.write(buf, signal, 8000, format=fmt, subtype="PCM_16")
    return buf.getvalue()


def _flac_declaring(data, total_frames):
    """`data` (a FLAC) with STREAMINFO's 36-bit total sample count set to `total_frames`."""
    raw = bytearray(data)
    body = raw.index(b"fLaC") + 8  # the STREAMINFO block's body follows its 4-byte header
    packed = int.from_bytes(raw[body + 10:body + 18], "big")
    packed = packed & ~(2**36 - 1) | total_frames
    raw[body + 10:body + 18] = packed.to_bytes(8, "big")
    return bytes(raw)


@pytest.mark.parametrize("declared", [2**36 - 1, 2**27])
def test_a_flac_declaring_far_more_frames_than_it_holds_allocates_little(declared, monkeypatch):
    data = _flac_declaring(_encoded(100), declared)
    assert soundfile.info(io.BytesIO(data)).frames == declared
    requested, empty = [], core.empty

    def recording_empty(size, *args, **kwargs):  # every buffer the loader asks core for
        requested.append(int(np.prod(size)) * kwargs.get("dtype", core.float32).itemsize)
        return empty(size, *args, **kwargs)

    monkeypatch.setattr(core, "empty", recording_empty)
    previous = core.get_decode_budget()
    core.set_decode_budget(1 << 20)
    try:
        with pytest.raises(RuntimeError, match="load\\(\\): .*(truncated|cannot decode)"):
            audio.load(io.BytesIO(data))
    finally:
        core.set_decode_budget(previous)
    assert requested and max(requested) <= 1 << 20  # one block at most, never the declared frames


@pytest.mark.parametrize("channels_first", [True, False])
@pytest.mark.parametrize("normalize", [True, False])
def test_a_file_beyond_a_small_budget_loads_the_same_in_blocks(channels_first, normalize):
    data = _encoded(5000, fmt="WAV")
    whole, rate = audio.load(io.BytesIO(data), normalize=normalize, channels_first=channels_first)
    previous = core.get_decode_budget()
    core.set_decode_budget(1000)  # 250 stereo int16 frames (125 float32 ones) per block
    try:
        blocked, blocked_rate = audio.load(io.BytesIO(data), normalize=normalize, channels_first=channels_first)
        part, _ = audio.load(io.BytesIO(data), frame_offset=333, num_frames=777, channels_first=channels_first)
    finally:
        core.set_decode_budget(previous)
    assert blocked_rate == rate and blocked.dtype == whole.dtype and core.equal(blocked, whole)
    expected_part = whole[:, 333:1110] if channels_first else whole[333:1110]
    if normalize:
        assert core.equal(part, expected_part)
