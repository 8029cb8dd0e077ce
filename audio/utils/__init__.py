"""audio.utils (torchaudio.utils)."""
from audio.utils import sox_utils  # noqa: F401
