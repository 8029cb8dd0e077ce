"""DataLoader: batches from a dataset, in the main process or in worker processes."""
import itertools
import math
import multiprocessing
import os
import warnings
from typing import Generic, TypeVar

from core.utils.data import _fetch, _pool, _random, _worker
from core.utils.data._collate import default_collate, default_convert
from core.utils.data._worker import get_worker_info
from core.utils.data.dataset import IterableDataset
from core.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info", "default_collate", "default_convert"]

T_co = TypeVar("T_co", covariant=True)


class _InfiniteConstantSampler(Sampler):
    """None forever: the 'indices' of an IterableDataset."""

    def __iter__(self):
        while True:
            yield None


def _cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count()


class DataLoader(Generic[T_co]):
    """Iterates over `dataset` in batches, as torch.utils.data.DataLoader.

    `num_workers > 0` loads in that many worker processes (fork by default, or the given
    `multiprocessing_context`); batches come back through shared memory. Each iterator draws a
    base seed from `generator` (or the default generator); worker i seeds `random` and core's
    default generator with `base_seed + i`, and numpy's global RNG with torch 2.x's hash of
    (base_seed, i) (torch 1.8 left numpy unseeded, so forked workers repeated each other's numpy
    draws). `pin_memory` is accepted and does nothing (CPU only).
    """

    __initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=2, persistent_workers=False):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor not in (None, 2):
            raise ValueError("prefetch_factor option could only be specified in multiprocessing. "
                             "let num_workers > 0 to enable multiprocessing.")
        if prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        if num_workers > 0 and prefetch_factor is None:  # torch 2.x's default spelling
            prefetch_factor = 2
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context

        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (False, None):
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, "
                                 f"but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, "
                                 f"but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                                 f"but got batch_sampler={batch_sampler}")
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")

        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()

    @property
    def multiprocessing_context(self):
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context):
        if context is not None:
            if self.num_workers == 0:
                raise ValueError("multiprocessing_context can only be used with multi-process loading "
                                 f"(num_workers > 0), but got num_workers={self.num_workers}")
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError(f"multiprocessing_context option should specify a valid start method in "
                                     f"{methods!r}, but got multiprocessing_context={context!r}")
                context = multiprocessing.get_context(context)
            if not isinstance(context, multiprocessing.context.BaseContext):
                raise TypeError("multiprocessing_context option should be a valid context object or a string "
                                f"specifying the start method, but got multiprocessing_context={context}")
        self.__multiprocessing_context = context

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                                           "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {type(self).__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        return _MultiProcessingDataLoaderIter(self)  # the worker count was checked once, in __init__

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None or not self._iterator._alive:  # none yet, or shut down by an error
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def __len__(self):
        if not self._iterable:
            return len(self._index_sampler)
        length = self._IterableDataset_len_called = len(self.dataset)
        if self.batch_size is not None:
            length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
        return length

    def check_worker_number_rationality(self):
        cpus = _cpu_count()
        if self.num_workers and cpus is not None and self.num_workers > cpus:
            warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in total. Our suggested "
                          f"max number of worker in current system is {cpus}, which is smaller than what this "
                          "DataLoader is going to create. Please be aware that excessive worker creation might get "
                          "DataLoader running slow or even freeze, lower the worker number to avoid potential "
                          "slowness/freeze if necessary.", stacklevel=3)


class _BaseDataLoaderIter:
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._iterable = loader._iterable
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._persistent_workers = loader.persistent_workers
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._sampler_iter = iter(self._index_sampler)
        # Drawn before the sampler's first draw, as torch does (it matters for shuffled orders).
        self._base_seed = _random.random_seed(loader.generator)
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        if (self._iterable and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            warnings.warn(f"Length of IterableDataset {self._dataset} was reported to be "
                          f"{self._IterableDataset_len_called} (when accessing len(dataloader)), but "
                          f"{self._num_yielded} samples have been fetched. For multiprocessing data-loading, this "
                          "could be caused by not properly configuring the IterableDataset replica at each worker.",
                          stacklevel=2)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError(f"{type(self).__name__} cannot be pickled")


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        if self._timeout != 0:
            raise ValueError("timeout option needs multi-process loading (num_workers > 0)")
        self._fetcher = _fetch.create_fetcher(self._iterable, self._dataset, self._auto_collation,
                                              self._collate_fn, self._drop_last)

    def _next_data(self):
        return self._fetcher.fetch(self._next_index())  # either may raise StopIteration


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Sends (task number, indices) to workers round-robin, at most prefetch_factor tasks per
    worker ahead, and returns their batches in task order. Each worker answers its own tasks in
    order, so the next batch is always the next reply of one known worker."""

    def __init__(self, loader):
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        if self._prefetch_factor <= 0:
            raise ValueError("prefetch_factor must be positive with num_workers > 0")
        worker_args = (self._iterable, self._dataset, self._auto_collation, self._collate_fn, self._drop_last,
                       self._base_seed, loader.worker_init_fn)
        self._pool = _pool.WorkerPool(loader.multiprocessing_context or _pool.default_context(), self._num_workers,
                                      worker_args, owner=self)
        self._receiver = self._pool.receiver
        try:
            self._reset(loader, first_iter=True)
        except BaseException:
            self._shutdown_workers()
            raise

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._send_idx = 0  # next task number to send
        self._rcvd_idx = 0  # next task number to return
        self._task_worker = {}  # unanswered task number -> worker
        self._workers_status = [True] * self._num_workers  # False: its IterableDataset copy ended
        self._worker_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            for worker_id in range(self._num_workers):
                self._pool.send(worker_id, _worker.ResumeIteration())
            for worker_id in range(self._num_workers):
                # Replies still in flight from an epoch left early come first: drop them.
                while True:
                    _, kind, body = self._pool.receive(worker_id, self._timeout)
                    if kind == _worker.RESUMED:
                        break
                    if kind == _worker.BATCH:
                        self._receiver.discard(worker_id, body)
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_put_index(self):
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):  # the next worker still producing, if any
            worker_id = next(self._worker_cycle)
            if self._workers_status[worker_id]:
                break
        else:
            return
        self._pool.send(worker_id, (self._send_idx, index, self._receiver.take_released(worker_id)))
        self._task_worker[self._send_idx] = worker_id
        self._send_idx += 1

    def _next_data(self):
        if not self._alive:  # ended, or shut down by a worker's error
            raise StopIteration
        while True:
            # Skip tasks sent to workers whose iterable has ended: they will never be answered.
            while self._rcvd_idx < self._send_idx and not self._workers_status[self._task_worker[self._rcvd_idx]]:
                del self._task_worker[self._rcvd_idx]
                self._rcvd_idx += 1
            if self._rcvd_idx >= self._send_idx:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            worker_id = self._task_worker[self._rcvd_idx]
            number, kind, body = self._pool.receive(worker_id, self._timeout)
            if number != self._rcvd_idx:
                raise RuntimeError(f"DataLoader: worker {worker_id} answered task {number}, expected {self._rcvd_idx}")
            del self._task_worker[number]
            self._rcvd_idx += 1
            if kind == _worker.STOP:
                self._workers_status[worker_id] = False
                if not self._persistent_workers:
                    self._pool.stop(worker_id)
                self._try_put_index()
                continue
            self._try_put_index()
            if kind == _worker.ERROR:
                self._shutdown_workers()  # now, not when the garbage collector finds the iterator
                body.reraise()
            return self._receiver.unpack(worker_id, body)

    @property
    def _alive(self):
        return self._pool.shutdown.alive

    def _shutdown_workers(self):
        self._pool.shutdown()
