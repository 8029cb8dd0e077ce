"""audio.functional (torchaudio.functional): the spectral functions (audio/functional/functional.py)
and Kaldi's pitch tracker (audio/functional/kaldi_pitch.py)."""
from audio.functional.functional import (  # noqa: F401
    DB_to_amplitude,
    amplitude_to_DB,
    angle,
    complex_norm,
    compute_deltas,
    create_dct,
    create_fb_matrix,
    detect_pitch_frequency,
    griffinlim,
    magphase,
    mask_along_axis,
    mask_along_axis_iid,
    melscale_fbanks,
    phase_vocoder,
    resample,
    sliding_window_cmn,
    spectral_centroid,
    spectrogram,
)
from audio.functional.kaldi_pitch import compute_kaldi_pitch  # noqa: F401, E402
