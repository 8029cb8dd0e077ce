"""The dataset object of torchtext 0.9's raw datasets: an IterableDataset over one split.

Like torchtext's _RawTextIterableDataset it is an iterator (``next(ds)`` works, a loop
consumes it: single pass), ``len()`` is the split's nominal line count, ``pos()`` the index
of the last item returned, and ``str()`` the dataset's name. Unlike it, the items come from
a reader that is only opened on the first ``next()``, so the dataset pickles, and inside a
DataLoader worker each worker reads every num_workers-th item starting at its id: together
the workers yield each item exactly once.
"""
import itertools
import os

from core.utils.data import IterableDataset, get_worker_info

__all__ = ["RawTextIterableDataset"]


class RawTextIterableDataset(IterableDataset):
    """One split of a raw text dataset.

    Args:
        description (str): the dataset's name.
        full_num_lines (int): the split's nominal number of items (what len() reports; the
            reader is never read past it).
        reader: a picklable zero-argument callable returning an iterator over the items.
    """

    def __init__(self, description, full_num_lines, reader):
        super().__init__()
        if not callable(reader):
            raise TypeError(f"RawTextIterableDataset(): reader must be a callable returning an iterator, "
                            f"got {type(reader).__name__}")
        self.description = description
        self.full_num_lines = self.num_lines = full_num_lines
        self._reader = reader
        self._iterator = None
        self._owner_pid = None
        self.current_pos = None

    def _start(self):
        items = itertools.islice(self._reader(), self.num_lines)
        worker = get_worker_info()
        if worker is not None and worker.num_workers > 1:
            items = itertools.islice(items, worker.id, None, worker.num_workers)
        self._iterator, self._owner_pid = items, os.getpid()

    def __iter__(self):
        return self

    def __next__(self):
        if self._iterator is None or self._owner_pid != os.getpid():  # a forked worker starts its own reader
            self._start()
            self.current_pos = None
        item = next(self._iterator)
        self.current_pos = 0 if self.current_pos is None else self.current_pos + 1
        return item

    def __len__(self):
        return self.num_lines

    def pos(self):
        """The position of the last item returned (None before the first)."""
        return self.current_pos

    def __str__(self):
        return self.description

    def __repr__(self):
        return f"{type(self).__name__}({self.description!r}, num_lines={self.num_lines})"

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_iterator"], state["_owner_pid"] = None, None  # an open reader does not travel
        return state
