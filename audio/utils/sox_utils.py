"""torchaudio.utils.sox_utils: settings and listings of the sox layer. There is no libsox
here: the effects are tensorzoo's own and I/O is libsndfile's, so the settings that tune
libsox are accepted and have no effect, except the seed of the random effects."""
import core

from audio.backend import _formats

_generator = core.Generator()
_generator.seed()  # sox reseeds per run unless told a seed


def set_seed(seed: int):
    """Seeds the random number generator of the random effects (dither)."""
    _generator.manual_seed(seed)


def generator():
    return _generator


def set_verbosity(verbosity: int):
    """Accepted for compatibility; tensorzoo's effects report through exceptions."""


def set_buffer_size(buffer_size: int):
    """Accepted for compatibility; effects work on whole tensors."""


def set_use_threads(use_threads: bool):
    """Accepted for compatibility; kernels use core's thread pool (core.set_num_threads)."""


def list_effects():
    """{effect name: its usage}."""
    from audio.sox_effects.sox_effects import _EFFECTS

    return {name: (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else "" for name, fn in _EFFECTS.items()}


def list_read_formats():
    """The formats load() and info() read with the installed libsndfile."""
    return _formats.supported_formats()


def list_write_formats():
    """The formats save() writes with the installed libsndfile."""
    return _formats.supported_formats()
