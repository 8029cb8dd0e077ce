"""The worker processes of one DataLoader iterator: start, talk to, watch, and shut down.

Each worker gets its tasks on its own queue and answers them, in order, on its own pipe. The
main process waits on that pipe together with the workers' process sentinels, so a worker that
dies is noticed at once instead of after a polling interval.

Shutdown runs from a weakref.finalize on the iterator, not from __del__: an iterator dropped in
a reference cycle (an exception's traceback holds one) is collected by the garbage collector,
which may first finalize the queues and processes it holds; the finalizer keeps them reachable,
so they are intact when it runs. It also runs at interpreter exit.
"""
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import time
import weakref

from core.utils.data import _shared_memory, _worker

# How long shutdown waits for workers to finish their current task before terminating them.
JOIN_TIMEOUT = 2.0


def default_context():
    # fork on Linux unless the program chose a start method itself.
    method = multiprocessing.get_start_method(allow_none=True)
    if method is None and "fork" in multiprocessing.get_all_start_methods():
        method = "fork"
    return multiprocessing.get_context(method)


class WorkerPool:
    def __init__(self, context, num_workers, worker_args, owner):
        """Starts `num_workers` processes running _worker.worker_loop(*worker_args, ...); shuts
        them down when `owner` is garbage collected."""
        self._owner_pid = os.getpid()
        self._prefix = _shared_memory.iterator_prefix()
        self.receiver = _shared_memory.Receiver(num_workers)
        self._done_event = context.Event()
        self._processes, self._queues, self._conns = [], [], []
        self._stopped = set()  # workers sent the final None
        self.shutdown = weakref.finalize(owner, self._shutdown)
        try:
            for worker_id in range(num_workers):
                queue = context.Queue()
                queue.cancel_join_thread()
                reader, writer = context.Pipe(duplex=False)
                process = context.Process(
                    target=_worker.worker_loop, daemon=True,
                    args=(*worker_args, queue, writer, self._done_event, worker_id, num_workers, self._prefix))
                self._queues.append(queue)
                self._conns.append(reader)
                try:
                    process.start()
                finally:
                    writer.close()
                self._processes.append(process)
        except BaseException:
            self.shutdown()
            raise

    def send(self, worker_id, message):
        self._queues[worker_id].put(message)

    def receive(self, worker_id, timeout):
        """The next reply of `worker_id`, watching every worker's liveness and the timeout."""
        conn = self._conns[worker_id]
        deadline = time.monotonic() + timeout if timeout > 0 else None
        while True:
            watched = [conn] + [p.sentinel for i, p in enumerate(self._processes) if i not in self._stopped]
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = multiprocessing.connection.wait(watched, remaining)
            if conn in ready:
                try:
                    return pickle.loads(conn.recv_bytes())
                except EOFError:
                    self._raise_dead()
            if ready:
                self._raise_dead()
            elif deadline is not None and time.monotonic() >= deadline:
                raise RuntimeError(f"DataLoader timed out after {timeout} seconds")

    def _raise_dead(self):
        dead = [p for i, p in enumerate(self._processes) if i not in self._stopped and not p.is_alive()]
        if not dead:
            return
        reasons = []
        for p in dead:
            if p.exitcode is not None and p.exitcode < 0:
                reasons.append(f"DataLoader worker (pid {p.pid}) is killed by signal: {signal.strsignal(-p.exitcode)}.")
            else:
                reasons.append(f"DataLoader worker (pid {p.pid}) exited unexpectedly with exit code {p.exitcode}.")
        self.shutdown()
        raise RuntimeError(" ".join(reasons))

    def stop(self, worker_id):
        """Tells a worker to exit once it has nothing left to do."""
        if worker_id not in self._stopped:
            self._stopped.add(worker_id)
            self._queues[worker_id].put(None)

    def _shutdown(self):
        if os.getpid() != self._owner_pid:  # a forked child's copy
            return
        try:
            self._done_event.set()
            for worker_id in range(len(self._processes)):
                self.stop(worker_id)
            deadline = time.monotonic() + JOIN_TIMEOUT
            for p in self._processes:
                p.join(max(0.0, deadline - time.monotonic()))
        finally:
            for p in self._processes:
                if p.is_alive():
                    p.terminate()
                    p.join(JOIN_TIMEOUT)
                if p.is_alive():
                    p.kill()
                    p.join()
            for queue in self._queues:
                queue.cancel_join_thread()
                queue.close()
            for conn in self._conns:
                conn.close()
            self.receiver.close()
            # After the workers are gone: whatever they made that nobody received.
            _shared_memory.sweep(self._prefix)
