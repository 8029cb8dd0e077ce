"""The DataLoader worker process: seeding, get_worker_info(), the fetch loop, error forwarding."""
import os
import pickle
import queue
import random
import sys
import traceback
from dataclasses import dataclass

import numpy as np

import core
from core.utils.data import _fetch, _shared_memory

# How often an idle worker checks that the main process is still alive and wants it.
POLL_INTERVAL = 0.5
# Reply kinds sent to the main process.
BATCH, ERROR, STOP, RESUMED = range(4)


@dataclass(frozen=True)
class WorkerInfo:
    """What get_worker_info() returns inside a worker: id, num_workers, seed, and dataset (this
    worker's own copy)."""

    id: int
    num_workers: int
    seed: int
    dataset: object


_worker_info = None
_arena = None  # the worker's shared-memory allocator; None in the main process


def get_worker_info():
    """Information about the current DataLoader worker process; None in the main process."""
    return _worker_info


def empty_batch(shape, dtype):
    """Room for a collated batch: shared memory inside a worker, private memory elsewhere."""
    return np.empty(shape, dtype) if _arena is None else _arena.empty(shape, dtype)


def numpy_seed(base_seed, worker_id):
    # torch >= 1.9 seeds numpy's global RNG in each worker with four 32-bit words hashed from
    # (worker_id, base_seed) the way numpy's SeedSequence hashes its entropy; ask numpy for them.
    entropy = [worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]
    return np.random.SeedSequence(entropy).generate_state(4)


def seed_worker(base_seed, worker_id):
    """Seeds python's `random`, core's default generator and numpy's global RNG, as torch 2.x."""
    seed = base_seed + worker_id
    random.seed(seed)
    core.manual_seed(seed)
    np.random.seed(numpy_seed(base_seed, worker_id))
    return seed


class KeyErrorMessage(str):
    # KeyError repr()s its argument; this keeps the traceback readable.
    def __repr__(self):
        return self


class ExceptionWrapper:
    """An exception with its formatted traceback, to be raised again in another process."""

    def __init__(self, exc_info=None, where="in background"):
        exc_type, exc, tb = exc_info or sys.exc_info()
        self.exc_type = exc_type
        self.exc_name = exc_type.__name__
        self.exc_msg = "".join(traceback.format_exception(exc_type, exc, tb))
        self.where = where

    def __getstate__(self):
        state = dict(self.__dict__)
        try:
            pickle.dumps(self.exc_type)
        except Exception:  # a class the main process could not import: raised as RuntimeError
            state["exc_type"] = RuntimeError
        return state

    def reraise(self):
        msg = f"Caught {self.exc_name} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        try:
            exception = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        raise exception


@dataclass(frozen=True)
class ResumeIteration:
    """Sent to persistent workers at the start of each new epoch."""


def _send(conn, reply):
    conn.send_bytes(pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))


def worker_loop(iterable, dataset, auto_collation, collate_fn, drop_last, base_seed, init_fn, index_queue, result_conn,
                done_event, worker_id, num_workers, shm_prefix):
    """Fetches tasks (number, index, segments released by the main process) until it receives
    None; replies in task order. Exits too when its parent (the main process, or the fork
    server that started it, which lives as long as the main process) is gone."""
    global _worker_info, _arena
    parent = os.getppid()
    arena = None
    try:
        core.set_num_threads(1)  # as torch: workers don't compete with each other for cores
        seed = seed_worker(base_seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
        arena = _arena = _shared_memory.WorkerArena(f"{shm_prefix}{worker_id}.")
        where = f"in DataLoader worker process {worker_id}"
        fetcher, init_error = None, None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = _fetch.create_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_error = ExceptionWrapper(where=where)
        ended = False
        while os.getppid() == parent:
            try:
                task = index_queue.get(timeout=POLL_INTERVAL)
            except queue.Empty:
                if done_event.is_set():
                    break
                continue
            if task is None:
                break
            if isinstance(task, ResumeIteration):
                ended = False
                if init_error is None:
                    fetcher = _fetch.create_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
                reply = (None, RESUMED, None)
            else:
                number, index, released = task
                arena.release(released)
                if done_event.is_set() or ended:
                    continue
                if init_error is not None:  # every task reports it: there is nothing to fetch with
                    reply = (number, ERROR, init_error)
                else:
                    reply = _run(fetcher, index, number, arena, iterable, worker_id, where)
                    ended = reply[1] == STOP
            try:
                _send(result_conn, reply)
            except OSError:  # the main process is gone
                break
            del reply
    except KeyboardInterrupt:
        pass
    finally:
        if arena is not None and os.getppid() != parent:
            _shared_memory.sweep(arena.prefix)  # nobody is left to receive what we made


def _run(fetcher, index, number, arena, iterable, worker_id, where):
    try:
        batch = fetcher.fetch(index)
    except StopIteration:
        arena.discard()
        if iterable:
            return number, STOP, worker_id
        return number, ERROR, ExceptionWrapper(where=where)
    except Exception:
        arena.discard()
        return number, ERROR, ExceptionWrapper(where=where)
    try:
        return number, BATCH, arena.pack(batch)
    except Exception as e:  # pickle cannot carry it (a lambda, a lock, an open file), or no shared memory
        arena.discard()
        error = RuntimeError(f"the batch cannot be sent to the main process ({type(e).__name__}: {e}); a dataset's "
                             "items and collate_fn's result must be picklable")
        return number, ERROR, ExceptionWrapper((RuntimeError, error, e.__traceback__), where=where)
