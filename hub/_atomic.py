"""Atomic file writes: write a temporary file next to the target, then rename it over."""
import contextlib
import os
import tempfile


def _current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()  # read once: os.umask can only be queried by setting it


@contextlib.contextmanager
def atomic_open(path, mode="wb"):
    """A file object for writing `path`; the file appears (complete) only when the block
    exits without an exception. A failed write leaves any previous file untouched."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, mode) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path, data):
    with atomic_open(path, "wb") as f:
        f.write(data)
