"""tensorzoo audio: load/save/info, sox effects and spectral transforms (mirrors torchaudio 0.8)."""
import core  # noqa: F401

from audio import compliance, functional, transforms  # noqa: F401, E402
