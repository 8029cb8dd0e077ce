"""The sequence tagging datasets: UDPOS (English Universal Dependencies v2, word / UD tag /
PTB tag, tab separated) and CoNLL2000Chunking (word / POS tag / chunk tag, space separated).
Each item is one sentence as a list of columns."""
import functools

from text.datasets import _tables
from text.datasets._common import dataset_function, fetch_and_extract, find_file, read_iob
from text.datasets._raw import RawTextIterableDataset

__all__ = ["UDPOS", "CoNLL2000Chunking"]

_tables.register("UDPOS", "https://bitbucket.org/sivareddyg/public/downloads/en-ud-v2.zip",
                 "bdcac7c52d934656bae1699541424545", {"train": 12543, "valid": 2002, "test": 2077})
_CONLL = "https://www.clips.uantwerpen.be/conll2000/chunking/"
_tables.register("CoNLL2000Chunking", {"train": _CONLL + "train.txt.gz", "test": _CONLL + "test.txt.gz"},
                 {"train": "6969c2903a1f19a83569db643e43dcc8", "test": "a916e1c2d83eb3004b38fc6fcd628939"},
                 {"train": 8936, "test": 2012})

_UDPOS_FILES = {"train": "en-ud-tag.v2.train.txt", "valid": "en-ud-tag.v2.dev.txt", "test": "en-ud-tag.v2.test.txt"}


@dataset_function("UDPOS", ("train", "valid", "test"), "English Web Treebank part-of-speech tags (en-ud-v2.zip).",
                  "list of 3 lists of str per sentence: [words, UD tags, PTB tags].")
def UDPOS(root, split):
    files = fetch_and_extract(root, _tables.URLS["UDPOS"], _tables.MD5["UDPOS"])
    path = find_file("UDPOS", files, _UDPOS_FILES[split])
    return RawTextIterableDataset("UDPOS", _tables.NUM_LINES["UDPOS"][split], functools.partial(read_iob, path))


@dataset_function("CoNLL2000Chunking", ("train", "test"), "the CoNLL 2000 chunking shared task (WSJ sections).",
                  "list of 3 lists of str per sentence: [words, POS tags, chunk tags].")
def CoNLL2000Chunking(root, split):
    name = "CoNLL2000Chunking"
    path, = fetch_and_extract(root, _tables.URLS[name][split], _tables.MD5[name][split])
    return RawTextIterableDataset(name, _tables.NUM_LINES[name][split], functools.partial(read_iob, path, " "))
