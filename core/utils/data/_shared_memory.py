"""Moving batches from DataLoader workers to the main process through shared memory.

A worker writes tensor payloads into segments, files of /dev/shm (one per large collated tensor,
plus one per batch gathering everything smaller), and sends only a small message: the segment
names, one descriptor per array (segment, offset, shape, strides, dtype) and the batch's
structure pickled with the arrays replaced by descriptor numbers. The main process maps the
segments and wraps numpy views of them in tensors, zero-copy.

Segments are reused: fresh tmpfs pages cost a page fault and a zeroing each, more than the
copy itself. Each batch's views hang off a per-batch "lease" array; when the last tensor of
that batch dies, the lease's finalizer queues the segment name, and the next task sent to its
worker hands it back. A worker keeps a few free segments and unlinks the rest (telling the main
process, which then drops its mapping). Every segment name carries the iterator's prefix, so
shutdown (or a worker whose main process died) unlinks whatever is left: nothing outlives the
iterator, and a tensor still alive then keeps its memory through its own mapping.
"""
import collections
import io
import mmap
import os
import pickle
import secrets
import tempfile
import weakref

import numpy as np

import core
from core._native import _C

SHM_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
NAME_PREFIX = "tzdl."
# Payloads smaller than this are gathered into one segment per batch instead of their own.
SMALL_PAYLOAD = 1 << 16
_ALIGN = 64
# Free segments a worker keeps for reuse beyond those in flight.
MAX_FREE_SEGMENTS = 4
_TENSOR, _ARRAY = 0, 1


def iterator_prefix():
    """A name prefix unique to one DataLoader iterator of this process."""
    return f"{NAME_PREFIX}{os.getpid()}.{secrets.token_hex(4)}."


def _path(name):
    return os.path.join(SHM_DIR, name)


def unlink(name):
    try:
        os.unlink(_path(name))
    except FileNotFoundError:
        pass


def sweep(prefix):
    """Unlinks every segment whose name starts with `prefix`."""
    try:
        names = os.listdir(SHM_DIR)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix):
            unlink(name)


def _map(fd, size):
    return mmap.mmap(fd, size, flags=mmap.MAP_SHARED)


class _Segment:
    """A new segment, created and mapped by a worker."""

    __slots__ = ("name", "size", "buffer", "address")

    def __init__(self, name, size):
        self.name, self.size = name, size
        fd = os.open(_path(name), os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.ftruncate(fd, size)
            self.buffer = _map(fd, size)
        except BaseException:
            unlink(name)
            raise
        finally:
            os.close(fd)
        self.address = np.frombuffer(self.buffer, np.uint8).ctypes.data

    def holds(self, lo, hi):
        return self.address <= lo and hi <= self.address + self.size

    def fits(self, nbytes):
        # Reuse a free segment for a request of at least half its size.
        return nbytes <= self.size <= 2 * nbytes


def _extent(array):
    # [lo, hi) bytes an array touches, whatever the signs of its strides.
    lo = hi = array.ctypes.data
    if array.size == 0:
        return lo, hi
    for n, stride in zip(array.shape, array.strides):
        if stride < 0:
            lo += (n - 1) * stride
        else:
            hi += (n - 1) * stride
    return lo, hi + array.itemsize


def _as_array(obj):
    # The numpy view of a payload that travels through shared memory, or None to pickle it.
    if type(obj) is core.Tensor:
        if _C._has_names(obj):  # pickled as usual, so that its names travel with it
            return None
        try:
            return obj.numpy()
        except TypeError:  # bfloat16, quantized: no numpy view; pickled as usual
            return None
    if type(obj) is np.ndarray and obj.dtype.kind in "biufc" and obj.nbytes >= SMALL_PAYLOAD:
        return obj
    return None


class _BatchPickler(pickle.Pickler):
    def __init__(self, file):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.payloads = []  # (kind, array, owner) in descriptor order
        self._seen = {}

    def persistent_id(self, obj):
        number = self._seen.get(id(obj))
        if number is not None:
            return number
        array = _as_array(obj)
        if array is None:
            return None
        number = self._seen[id(obj)] = len(self.payloads)
        self.payloads.append((_TENSOR if isinstance(obj, core.Tensor) else _ARRAY, array, obj))
        return number


class WorkerArena:
    """A worker's segments: collate allocates batches here; pack() turns a batch into a message."""

    def __init__(self, prefix):
        self.prefix = prefix
        self._count = 0
        self._free = []  # ready for reuse
        self._in_flight = {}  # name -> segment the main process may still be reading
        self._batch = []  # taken for the batch being built

    def _take(self, nbytes):
        for i, segment in enumerate(self._free):
            if segment.fits(nbytes):
                del self._free[i]
                break
        else:
            segment = _Segment(f"{self.prefix}{self._count}", nbytes)
            self._count += 1
        self._batch.append(segment)
        return segment

    def empty(self, shape, dtype):
        """An uninitialised array; large ones live in a segment of their own."""
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if nbytes < SMALL_PAYLOAD:
            return np.empty(shape, dtype)
        return np.ndarray(shape, dtype, buffer=self._take(nbytes).buffer)

    def release(self, names):
        """Segments the main process no longer reads."""
        for name in names:
            segment = self._in_flight.pop(name, None)
            if segment is not None:
                self._free.append(segment)

    def pack(self, obj):
        """(segments, descriptors, structure, dropped segment names) for `obj`."""
        try:
            body = io.BytesIO()
            pickler = _BatchPickler(body)
            pickler.dump(obj)
            used, descriptors, gathered = [], [], []
            gathered_size = 0
            for kind, array, _ in pickler.payloads:
                lo, hi = _extent(array)
                home = next((s for s in self._batch if s.holds(lo, hi)), None) if array.size else None
                if home is not None:
                    if home not in used:
                        used.append(home)
                    descriptors.append([kind, used.index(home), array.ctypes.data - home.address, array.shape,
                                        array.strides, array.dtype.str])
                elif array.size == 0:
                    descriptors.append([kind, -1, 0, array.shape, None, array.dtype.str])
                else:  # copied, contiguous, into the batch's gathering segment
                    gathered_size = -(-gathered_size // _ALIGN) * _ALIGN
                    gathered.append((len(descriptors), array, gathered_size))
                    descriptors.append([kind, None, gathered_size, array.shape, None, array.dtype.str])
                    gathered_size += array.nbytes
            if gathered:
                segment = self._take(gathered_size)
                for number, array, offset in gathered:
                    np.copyto(np.ndarray(array.shape, array.dtype, buffer=segment.buffer, offset=offset), array)
                    descriptors[number][1] = len(used)
                used.append(segment)
            for segment in used:
                self._in_flight[segment.name] = segment
            return [(s.name, s.size) for s in used], descriptors, body.getvalue(), self._trim()
        finally:
            self.discard()

    def discard(self):
        """Returns the segments of a batch that will not be sent to the free list."""
        self._free.extend(s for s in self._batch if s.name not in self._in_flight)
        self._batch = []

    def _trim(self):
        dropped = []
        while len(self._free) > MAX_FREE_SEGMENTS:
            segment = self._free.pop(0)
            unlink(segment.name)
            dropped.append(segment.name)
        return dropped


class _BatchUnpickler(pickle.Unpickler):
    def __init__(self, body, leases, descriptors):
        super().__init__(io.BytesIO(body))
        self._leases = leases
        self._descriptors = descriptors
        self._built = {}

    def persistent_load(self, number):
        obj = self._built.get(number)
        if obj is None:
            kind, segment, offset, shape, strides, dtype = self._descriptors[number]
            if segment < 0:
                array = np.empty(shape, dtype)
            else:
                array = np.ndarray(shape, dtype, buffer=self._leases[segment], offset=offset, strides=strides)
            obj = self._built[number] = core.from_numpy(array) if kind == _TENSOR else array
        return obj


class Receiver:
    """The main process's side: maps workers' segments once and tracks which are free again."""

    def __init__(self, num_workers):
        self._mappings = {}  # segment name -> mmap
        self._released = [collections.deque() for _ in range(num_workers)]

    def unpack(self, worker_id, message):
        """The batch a worker packed, its arrays viewing the worker's segments."""
        segments, descriptors, body, dropped = message
        for name in dropped:
            self._mappings.pop(name, None)
        leases = []
        try:
            for name, size in segments:
                mapping = self._mappings.get(name)
                if mapping is None:
                    fd = os.open(_path(name), os.O_RDWR)
                    try:
                        mapping = self._mappings[name] = _map(fd, size)
                    finally:
                        os.close(fd)
                lease = np.frombuffer(mapping, np.uint8, count=size)
                # When every view of this batch is gone, the worker may reuse the segment.
                weakref.finalize(lease, self._released[worker_id].append, name).atexit = False
                leases.append(lease)
        except BaseException:
            self.discard(worker_id, message)
            raise
        return _BatchUnpickler(body, leases, descriptors).load()

    def discard(self, worker_id, message):
        """Hands back the segments of a message that will not be unpacked."""
        for name in message[3]:
            self._mappings.pop(name, None)
        self._released[worker_id].extend(name for name, _ in message[0])

    def take_released(self, worker_id):
        released = self._released[worker_id]
        return [released.popleft() for _ in range(len(released))]

    def close(self):
        self._mappings.clear()
