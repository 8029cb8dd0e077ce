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
    # The writer's pid is in the name, so a later writer can tell a dead one's leftovers.
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.{os.getpid()}-", suffix=".tmp")
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


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def remove_stale_temps(path):
    """Removes the temporary files of writers of `path` that died mid-write (killed, say,
    with SIGKILL, which no cleanup survives); those of live writers stay."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    prefix = f".{os.path.basename(path)}."
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid = name[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(directory, name))
