"""The question answering datasets SQuAD1 (v1.1) and SQuAD2 (v2.0, with unanswerable
questions): one item per question."""
import functools

from text.datasets import _tables
from text.datasets._common import dataset_function, fetch, read_squad
from text.datasets._raw import RawTextIterableDataset

__all__ = ["SQuAD1", "SQuAD2"]

_BASE = "https://rajpurkar.github.io/SQuAD-explorer/dataset/"
_tables.register("SQuAD1", {"train": _BASE + "train-v1.1.json", "dev": _BASE + "dev-v1.1.json"},
                 {"train": "981b29407e0affa3b1b156f72073b945", "dev": "3e85deb501d4e538b6bc56f786231552"},
                 {"train": 87599, "dev": 10570})
_tables.register("SQuAD2", {"train": _BASE + "train-v2.0.json", "dev": _BASE + "dev-v2.0.json"},
                 {"train": "62108c273c268d70893182d5cf8df740", "dev": "246adae8b7002f8679c027697b0b7cf8"},
                 {"train": 130319, "dev": 11873})

_YIELDS = ("(str context, str question, list of str answers, list of int answer starts); a question "
           "without answers gives [''] and [-1].")


def _squad(name, root, split):
    path = fetch(root, _tables.URLS[name][split], _tables.MD5[name][split])
    return RawTextIterableDataset(name, _tables.NUM_LINES[name][split], functools.partial(read_squad, path))


@dataset_function("SQuAD1", ("train", "dev"), "the Stanford Question Answering Dataset v1.1.", _YIELDS)
def SQuAD1(root, split):
    return _squad("SQuAD1", root, split)


@dataset_function("SQuAD2", ("train", "dev"), "the Stanford Question Answering Dataset v2.0.", _YIELDS)
def SQuAD2(root, split):
    return _squad("SQuAD2", root, split)
