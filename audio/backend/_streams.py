"""File-like objects as libsndfile sees them.

libsndfile reads through seek/tell/read callbacks that soundfile calls from C, where an
exception cannot propagate (it is printed and the call returns nothing). `ReadAdapter`
catches what the caller's stream raises, keeps the first error for `load`/`info` to raise
afterwards, and makes a stream that cannot seek (a pipe, an HTTP response body) seekable by
keeping the bytes read so far: libsndfile then reads only as far as it needs.
"""
import io

_CHUNK = 1 << 16


def _known_length(stream):
    """The byte count of a response body whose length the server announced (urllib3/requests
    `raw`, undecoded), else None."""
    headers = getattr(stream, "headers", None)
    if headers is None or not hasattr(headers, "get") or headers.get("Content-Encoding"):
        return None
    length = headers.get("Content-Length")
    return int(length) if length is not None and str(length).isdigit() else None


def _seekable(stream):
    try:
        return bool(stream.seekable()) and hasattr(stream, "seek") and hasattr(stream, "tell")
    except (AttributeError, OSError, ValueError):
        return False


class ReadAdapter:
    """What soundfile reads from: seek/tell/read/readinto over the caller's stream."""

    def __init__(self, stream, op):
        self._stream = stream
        self._op = op
        self.error = None
        self._pos = 0
        if _seekable(stream):
            self._base = stream.tell()  # the audio starts where the stream stands
            self._buffer = None
        else:
            self._base = None
            self._buffer = bytearray()
            self._eof = False
            self._length = _known_length(stream)

    # -- reading the caller's stream, remembering the first failure
    def _pull(self, n):
        try:
            data = self._stream.read(n)
        except Exception as e:  # noqa: BLE001 - re-raised by raise_error() after libsndfile returns
            self.error = self.error or e
            return b""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            self.error = self.error or TypeError(
                f"{self._op}(): the file-like object must be opened in binary mode (read() returned "
                f"{type(data).__name__})")
            return b""
        return data

    def _fill(self, upto=None):
        """Reads ahead until `upto` bytes are buffered (None: to the end of the stream)."""
        while (upto is None or len(self._buffer) < upto) and not self._eof:
            data = self._pull(_CHUNK if upto is None else max(_CHUNK, upto - len(self._buffer)))
            if not data:
                self._eof = True
            self._buffer += data

    def _size(self):
        if self._length is not None:
            return self._length
        self._fill()  # the length of an unannounced stream is known only at its end
        return len(self._buffer)

    # -- the interface soundfile calls
    def seekable(self):
        return True

    def tell(self):
        return self._pos

    def seek(self, offset, whence=io.SEEK_SET):
        if self._buffer is None:
            try:
                if whence == io.SEEK_END:
                    end = self._stream.seek(0, io.SEEK_END)
                    self._pos = end - self._base + offset
                else:
                    self._pos = (self._pos if whence == io.SEEK_CUR else 0) + offset
            except Exception as e:  # noqa: BLE001
                self.error = self.error or e
            return self._pos
        target = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos}.get(whence)
        target = (self._size() if target is None else target) + offset
        if target >= 0:  # a negative position is refused: the position stays
            self._pos = target
        return self._pos

    def readinto(self, view):
        view = memoryview(view).cast("B")
        n = view.nbytes
        if self._buffer is None:
            try:
                self._stream.seek(self._base + self._pos)
                data = self._stream.read(n)
            except Exception as e:  # noqa: BLE001
                self.error = self.error or e
                return 0
            if not isinstance(data, (bytes, bytearray, memoryview)):
                self.error = self.error or TypeError(f"{self._op}(): the file-like object must be opened "
                                                     "in binary mode")
                return 0
        else:
            self._fill(self._pos + n)
            data = memoryview(self._buffer)[self._pos:self._pos + n]
        got = len(data)
        view[:got] = data
        self._pos += got
        return got

    def read(self, n):
        buffer = bytearray(max(0, n))
        got = self.readinto(buffer)
        return bytes(buffer[:got])

    def raise_error(self):
        """Raises what the caller's stream raised while libsndfile read it, if anything."""
        if self.error is not None:
            raise self.error
