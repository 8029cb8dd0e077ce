"""An append-only TensorBoard event file: records are queued and written in whole batches.

A batch goes to the OS in one write, so a writer killed at any moment leaves whole records
followed at most by a partial one, which readers skip: the file stays readable.
"""
import itertools
import os
import socket
import threading
import time

from core.utils.tensorboard._record import frame_record

_file_numbers = itertools.count()  # tells apart the files one process opens in the same second


def event_file_name(filename_suffix=""):
    """events.out.tfevents.<unix time>.<hostname>.<pid>.<n><suffix>, TensorBoard's naming."""
    return (f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}.{os.getpid()}."
            f"{next(_file_numbers)}{filename_suffix}")


class EventFileWriter:
    """Writes serialized Event protos to a new file under `log_dir`.

    Records wait in memory until `max_queue` of them are pending, `flush_secs` have passed
    (a daemon thread flushes), or flush()/close() is called."""

    def __init__(self, log_dir, max_queue=10, flush_secs=120, filename_suffix=""):
        os.makedirs(log_dir, exist_ok=True)
        self.path = os.path.join(log_dir, event_file_name(filename_suffix))
        self._file = open(self.path, "ab", buffering=0)
        self._max_queue = max(1, int(max_queue))
        self._pending = []
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._flusher = threading.Thread(target=self._flush_every, args=(flush_secs,),
                                         name="tensorboard-flush", daemon=True)
        self._flusher.start()

    def add_event(self, serialized_event):
        with self._lock:
            if self._closed.is_set():
                raise RuntimeError(f"the event file {self.path} is closed")
            self._pending.append(frame_record(serialized_event))
            if len(self._pending) >= self._max_queue:
                self._write_pending()

    def flush(self):
        with self._lock:
            self._write_pending()

    def close(self):
        with self._lock:
            if self._closed.is_set():
                return
            self._write_pending()
            self._closed.set()
            self._file.close()
        self._flusher.join()

    def _write_pending(self):
        if not self._pending or self._file.closed:
            return
        batch = memoryview(b"".join(self._pending))
        self._pending.clear()
        while batch:  # an unbuffered write may take part of the batch
            batch = batch[self._file.write(batch):]

    def _flush_every(self, seconds):
        while not self._closed.wait(seconds):
            self.flush()
