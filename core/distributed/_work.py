"""Work handles and the one thread that runs collectives.

Collectives run in the order they were called, like torch's MPI process group: an async_op=True
call is queued to a worker thread (mpi4py releases the GIL inside MPI, so the caller computes
meanwhile) and returns a Work; a blocking call first waits for the queue to empty, then runs on
the caller's thread, so it costs nothing extra. Point-to-point calls are MPI requests completed
by Work.wait on the caller's thread.
"""
import collections
import threading
import time

from core.distributed import _mpi


def _wrap_error(op_name, exc):
    if isinstance(exc, _mpi.load().Exception):
        return RuntimeError(f"{op_name}: MPI failed: {_mpi.error_text(exc)}")
    return exc


class Work:
    """What an async_op=True call returns (torch.distributed's Work): wait() blocks until the
    operation has finished (and raises its error, if any), is_completed() polls."""

    def __init__(self, op_name, outputs=()):
        self._op_name = op_name
        self._outputs = list(outputs)
        self._done = threading.Event()
        self._exception = None
        self.started = self.finished = None  # perf_counter times of the MPI call (for overlap statistics)

    def is_completed(self):
        return self._done.is_set()

    def is_success(self):
        if not self.is_completed():
            raise RuntimeError(f"{self._op_name}: is_success() called before the work completed")
        return self._exception is None

    def exception(self):
        return self._exception

    def wait(self, timeout=None):
        """Blocks until done; `timeout` (seconds or a timedelta) raises RuntimeError when exceeded."""
        seconds = timeout.total_seconds() if hasattr(timeout, "total_seconds") else timeout
        if not self._done.wait(seconds):
            raise RuntimeError(f"{self._op_name}: operation timed out after {seconds} s")
        if self._exception is not None:
            raise self._exception
        return True

    def result(self):
        """The output tensors of the operation, once it has completed."""
        self.wait()
        return list(self._outputs)

    def _run(self, fn):
        self.started = time.perf_counter()
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - kept for wait() to raise on the caller's thread
            self._exception = _wrap_error(self._op_name, e)
        self.finished = time.perf_counter()
        self._done.set()


class RequestWork(Work):
    """A point-to-point operation: an MPI request, completed by wait()."""

    def __init__(self, op_name, request, outputs=(), group=None, on_done=None):
        super().__init__(op_name, outputs)
        self._request = request
        self._group = group
        self._on_done = on_done
        self._source = -1
        self._lock = threading.Lock()

    def is_completed(self):
        with self._lock:
            if not self._done.is_set():
                status = _mpi.load().Status()
                if self._request.Test(status):
                    self._complete(status)
        return self._done.is_set()

    def wait(self, timeout=None):
        if timeout is not None:
            seconds = timeout.total_seconds() if hasattr(timeout, "total_seconds") else timeout
            deadline = time.monotonic() + seconds
            while not self.is_completed():
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{self._op_name}: operation timed out after {seconds} s")
                time.sleep(1e-4)
        with self._lock:
            if not self._done.is_set():
                status = _mpi.load().Status()
                try:
                    self._request.Wait(status)
                except Exception as e:  # noqa: BLE001
                    self._exception = _wrap_error(self._op_name, e)
                self._complete(status)
        if self._exception is not None:
            raise self._exception
        return True

    def source_rank(self):
        """The (global) rank a recv/irecv got its message from."""
        self.wait()
        return self._source

    def _complete(self, status):
        if self._exception is None:
            if self._group is not None:
                self._source = self._group.global_rank(status.Get_source())
            if self._on_done is not None:
                self._on_done()
        self._done.set()


class Worker:
    """The thread that runs queued collectives in call order."""

    def __init__(self):
        self._queue = collections.deque()
        self._cond = threading.Condition()
        self.pending = 0
        self._thread = None
        self._stopping = False

    def submit(self, work, fn):
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="core.distributed", daemon=True)
                self._thread.start()
            self._queue.append((work, fn))
            self.pending += 1
            self._cond.notify_all()
        return work

    def drain(self):
        """Waits until every queued operation has run."""
        if not self.pending:  # the common case of a blocking call: skip the lock
            return
        with self._cond:
            while self.pending:
                self._cond.wait()

    def stop(self):
        self.drain()
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join()

    def _loop(self):
        while True:
            with self._cond:
                while not self._queue and not self._stopping:
                    self._cond.wait()
                if not self._queue:
                    return
                work, fn = self._queue.popleft()
            work._run(fn)
            with self._cond:
                self.pending -= 1
                self._cond.notify_all()


def run(worker, op_name, fn, async_op, outputs=()):
    """Runs `fn` (the MPI calls of one operation): queued when async_op, else inline."""
    if async_op:
        return worker.submit(Work(op_name, outputs), fn)
    worker.drain()
    try:
        fn()
    except Exception as e:
        raise _wrap_error(op_name, e) from e
    return None
