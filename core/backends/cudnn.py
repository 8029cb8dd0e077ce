"""core.backends.cudnn: torch.backends.cudnn's settable flags. No cuDNN is present, so they change
nothing, but programs may set and read them as they do with PyTorch."""
import contextlib

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available():
    return False


def version():
    return None


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, deterministic=False, allow_tf32=True):
    """Sets the flags inside a `with` block and restores them after it."""
    module = globals()
    saved = {k: module[k] for k in ("enabled", "benchmark", "deterministic", "allow_tf32")}
    module.update(enabled=enabled, benchmark=benchmark, deterministic=deterministic, allow_tf32=allow_tf32)
    try:
        yield
    finally:
        module.update(saved)
