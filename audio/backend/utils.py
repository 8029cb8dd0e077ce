"""Backend selection (torchaudio.backend.utils): which module audio.load/save/info come from."""
import importlib.util
import sys

from audio.backend import no_backend

__all__ = ["list_audio_backends", "get_audio_backend", "set_audio_backend"]

_FUNCTIONS = ("info", "load", "save", "load_wav")


def list_audio_backends():
    """The backends that can be selected here: 'soundfile' when the soundfile module imports
    (libsndfile). There is no libsox in tensorzoo, hence no 'sox' or 'sox_io'."""
    return ["soundfile"] if importlib.util.find_spec("soundfile") is not None else []


def _backend_module(name):
    if name is None:
        return no_backend
    from audio.backend import soundfile_backend

    return soundfile_backend


def set_audio_backend(backend):
    """Rebinds audio.load/save/info/load_wav to `backend` ('soundfile' or None)."""
    if backend is not None and backend not in list_audio_backends():
        raise RuntimeError(f'Backend "{backend}" is not one of available backends: {list_audio_backends()}.')
    module = _backend_module(backend)
    package = sys.modules["audio"]
    for name in _FUNCTIONS:
        setattr(package, name, getattr(module, name))


def get_audio_backend():
    """The selected backend's name, or None; told by which function audio.load is."""
    from audio.backend import soundfile_backend

    load = getattr(sys.modules["audio"], "load", None)
    return "soundfile" if load is soundfile_backend.load else None


def _init_audio_backend():
    backends = list_audio_backends()
    set_audio_backend(backends[0] if backends else None)
