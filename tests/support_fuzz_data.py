"""DataLoader fuzz family of issue 27: workers that crash or hang, collate functions that fail
or return what cannot be sent, datasets that lie about their length or raise. Each case is
Python source for the fuzz child (tests/support_fuzz.py), run with 0 and 2 workers: it must
end (the child's time limit counts a hang), and a case states the error it expects where the
dataset's own exception must come through unchanged."""

_PRELUDE = r'''
import os, signal, time
import numpy as np
from core.utils.data import DataLoader, Dataset, IterableDataset, TensorDataset

class Items(Dataset):
    """n items; item i is what `make(i)` returns."""
    def __init__(self, make, n=8):
        self.make, self.n = make, n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return self.make(i)

def crash(i, how):
    if i == 3:
        if how == "exit":
            os._exit(3)
        os.kill(os.getpid(), signal.SIGSEGV)
    return core.ones(2)

def raises(exc_type, text, run):
    """run() must raise exc_type with `text` in its message (the dataset's own error, passed on)."""
    try:
        run()
    except exc_type as e:
        assert text in str(e), f"the error lost its message: {e}"
        return
    raise AssertionError(f"{exc_type.__name__} was not raised")

def drain(**kw):
    return [b for b in DataLoader(**kw)]
'''

_BAD_LENGTH = {"negative": "-1", "huge": "2**62", "text": "'x'", "float": "2.5"}


def dataloader_cases():
    """(case id, source) pairs."""
    cases = []
    for workers in (0, 2):
        w = f"num_workers={workers}"
        body = {
            "getitem_raises": f"raises(KeyError, 'boom', lambda: drain(dataset=Items(lambda i: {{}}['boom']), {w}))",
            "collate_raises": f"raises(ValueError, 'bad collate', lambda: drain(dataset=Items(lambda i: i), {w}, "
                              "collate_fn=lambda b: (_ for _ in ()).throw(ValueError('bad collate'))))",
            "mixed_types": f"drain(dataset=Items(lambda i: [1, 'a', None][i % 3]), batch_size=3, {w})",
            "ragged_tensors": f"drain(dataset=Items(lambda i: core.ones(i + 1)), batch_size=4, {w})",
            "object_arrays": f"drain(dataset=Items(lambda i: np.array([object()])), batch_size=2, {w})",
            "huge_item": f"drain(dataset=Items(lambda i: core.empty(2**40)), {w})",
            "index_out_of_range": f"drain(dataset=TensorDataset(core.ones(4)), batch_sampler=[[0, 9]], {w})",
            "text_indices": f"drain(dataset=TensorDataset(core.ones(4)), sampler=['a', 'b'], {w})",
            "empty_iterable": f"assert drain(dataset=type('E', (IterableDataset,), {{'__iter__': lambda s: iter(())}})(), {w}) == []",
            "infinite_iterable_abandoned": (
                f"it = iter(DataLoader(type('Inf', (IterableDataset,), {{'__iter__': lambda s: iter(lambda: core.ones(2), None)}})(), "
                f"batch_size=2, {w}))\nbatches = [next(it) for _ in range(3)]\ndel it\nassert len(batches) == 3"),
        }
        for kind, length in _BAD_LENGTH.items():
            body[f"len_{kind}"] = (f"class L(Items):\n    def __len__(self): return {length}\n"
                                   f"drain(dataset=L(lambda i: core.ones(2)), shuffle=True, batch_size=4, {w})")
        if workers:
            body.update({
                "worker_exit": f"raises(RuntimeError, 'exited unexpectedly', lambda: drain(dataset=Items(lambda i: crash(i, 'exit')), {w}))",
                "worker_segfault": f"raises(RuntimeError, 'killed by signal', lambda: drain(dataset=Items(lambda i: crash(i, 'segv')), {w}))",
                "worker_hang_timeout": (f"start = time.monotonic()\nraises(RuntimeError, 'timed out', lambda: drain("
                                        f"dataset=Items(lambda i: time.sleep(30)), timeout=0.5, {w}))\n"
                                        "assert time.monotonic() - start < 5"),
                "unpicklable_batch": f"raises(RuntimeError, 'must be picklable', lambda: drain(dataset=Items(lambda i: i), "
                                     f"collate_fn=lambda b: (lambda: b), {w}))",
                "worker_init_raises": f"raises(ZeroDivisionError, 'division', lambda: drain(dataset=Items(lambda i: i), "
                                      f"worker_init_fn=lambda k: 1 / 0, {w}))",
            })
        for name, src in body.items():
            cases.append((f"dataloader[{name}:workers={workers}]", _PRELUDE + src))
    return cases
