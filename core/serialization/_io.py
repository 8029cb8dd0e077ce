"""Where bytes come from and go to: paths, pathlib.Path and binary file-like objects.

Reading goes through a `Source` with a fixed size and bounds-checked positional reads, so a
truncated file raises instead of returning short data. Writing to a path is atomic: a temp
file in the target directory, fsync, then os.replace.
"""
import contextlib
import io
import mmap as _mmap
import os
import tempfile

from core.serialization._errors import corrupt


class BufferSource:
    """Bytes already in memory (a non-seekable stream read to its end, or an mmap)."""

    def __init__(self, buffer):
        self.buffer = memoryview(buffer).cast("B")
        self.size = self.buffer.nbytes

    def _check(self, offset, n, what="data"):
        if offset < 0 or n < 0 or offset + n > self.size:
            raise corrupt(f"unexpected end of file: {what} at byte {offset} needs {n} bytes, "
                          f"but the file has {self.size} (truncated?)")

    def read(self, offset, n):
        self._check(offset, n)
        return bytes(self.buffer[offset:offset + n])

    def read_into(self, offset, view):
        self._check(offset, view.nbytes)
        view[:] = self.buffer[offset:offset + view.nbytes]

    def view(self, offset, n):
        self._check(offset, n)
        return self.buffer[offset:offset + n]


class FileSource:
    """A seekable binary file, read at explicit offsets from where it was positioned."""

    def __init__(self, stream):
        self.stream = stream
        self.base = stream.tell()
        self.size = stream.seek(0, io.SEEK_END) - self.base
        stream.seek(self.base)

    def read(self, offset, n):
        buffer = bytearray(n)
        self.read_into(offset, memoryview(buffer))
        return bytes(buffer)

    def read_into(self, offset, view):
        n = view.nbytes
        if offset < 0 or n < 0 or offset + n > self.size:
            raise corrupt(f"unexpected end of file: data at byte {offset} needs {n} bytes, "
                          f"but the file has {self.size} (truncated?)")
        self.stream.seek(self.base + offset)
        done = 0
        while done < n:
            got = self.stream.readinto(view[done:])
            if not got:
                raise corrupt(f"unexpected end of file after {offset + done} bytes (truncated?)")
            done += got

    def view(self, offset, n):
        return None


def _is_path(f):
    return isinstance(f, (str, os.PathLike))


@contextlib.contextmanager
def open_source(f, use_mmap=False):
    """A Source over `f`; mmap=True maps a path copy-on-write (tensors then view the file)."""
    if _is_path(f):
        with open(f, "rb") as stream:
            if use_mmap:
                if os.fstat(stream.fileno()).st_size == 0:
                    raise corrupt(f"{os.fspath(f)!r} is empty")
                yield BufferSource(_mmap.mmap(stream.fileno(), 0, access=_mmap.ACCESS_COPY))
            else:
                yield FileSource(stream)
        return
    if use_mmap:
        raise ValueError("load(): f must be a file path in order to use the mmap argument")
    if not hasattr(f, "read"):
        raise TypeError(f"load(): f must be a path or a binary file-like object, got {type(f).__name__}")
    seekable = False
    try:
        seekable = f.seekable() and hasattr(f, "readinto")
    except (AttributeError, OSError, ValueError):
        pass
    if seekable:
        yield FileSource(f)
    else:  # a pipe, a socket, a response body: buffer it all
        data = f.read()
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("load(): f must be opened in binary mode")
        yield BufferSource(data)


def archive_name(f):
    """The zip archive's directory name: the file's stem, as torch writes it, or "archive"."""
    if _is_path(f):
        stem = os.path.splitext(os.path.basename(os.fspath(f)))[0]
        if stem and all(c.isalnum() or c in "_-." for c in stem) and stem not in (".", ".."):
            return stem
    return "archive"


def _file_mode():
    # mkstemp creates 0600 files; a saved checkpoint gets the mode open() would give it.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except OSError:
        pass
    return 0o644


@contextlib.contextmanager
def open_sink(f):
    """A binary stream to write to; for a path, a temp file renamed over it on success."""
    if not _is_path(f):
        if not hasattr(f, "write"):
            raise TypeError(f"save(): f must be a path or a binary file-like object, got {type(f).__name__}")
        yield f
        return
    path = os.fspath(f)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"save(): parent directory {directory} does not exist.")
    fd, temp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
            os.fchmod(stream.fileno(), _file_mode())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
