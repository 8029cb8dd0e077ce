"""Kaldi-compatible feature extraction (torchaudio.compliance)."""
from audio.compliance import kaldi  # noqa: F401
