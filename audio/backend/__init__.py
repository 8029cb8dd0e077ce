"""I/O backends behind audio.load/save/info: soundfile (libsndfile), the default, or none."""
from audio.backend import utils  # noqa: F401
from audio.backend.common import AudioMetaData  # noqa: F401
