"""What audio.load/save/info are when no backend is selected: they raise."""


def _unavailable(op):
    def fn(*args, **kwargs):
        raise RuntimeError(f"{op}(): no audio backend is selected; call audio.set_audio_backend('soundfile')")

    fn.__name__ = op
    return fn


info = _unavailable("info")
load = _unavailable("load")
save = _unavailable("save")
load_wav = _unavailable("load_wav")
