"""What the raw datasets share: the split argument, generated docstrings, fetching files
into `root` (md5-checked, resumable) and the readers of each file format."""
import functools
import inspect
import io
import json
import os

from text.datasets import _tables
from text.utils import download_from_url, extract_archive, unicode_csv_reader

__all__ = ["dataset_function", "fetch", "fetch_and_extract", "find_file", "read_lines", "read_labelled_csv",
           "read_iob", "read_squad"]


def _selected_splits(name, split, splits):
    chosen = (split,) if isinstance(split, str) else split
    if not isinstance(chosen, (tuple, list)) or not all(isinstance(s, str) for s in chosen):
        raise TypeError(f"{name}: split must be a str or a tuple of str, got {split!r}")
    unknown = [s for s in chosen if s not in splits]
    if unknown:
        raise TypeError(f"Given selection {tuple(chosen)} of splits is not supported for dataset {name}. "
                        f"Please choose from {splits}.")
    return tuple(chosen)


def _docstring(name, splits, summary, yields, extra_args=""):
    lines = [f"{name} dataset: {summary}", ""]
    lines.append("Downloads (md5-checked, resumable) and extracts into `root` on the first call; returns one "
                 "dataset per split: a single-pass iterator whose len() is the split's nominal line count, "
                 "sharded across DataLoader workers.")
    lines += ["", "Number of lines per split:"]
    for split in splits:
        count = _tables.NUM_LINES[name].get(split)
        lines.append(f"    {split}: {count if isinstance(count, int) else 'depends on the sets chosen'}")
    lines += ["", "Args:", "    root: the directory where the files are saved (default '.data').",
              f"    split: a split name or a tuple of them (default {splits!r}); a str returns one dataset, "
              f"a tuple a tuple of datasets in the same order."]
    if extra_args:
        lines.append(extra_args)
    lines += ["", f"Yields: {yields}"]
    return "\n".join(lines)


def dataset_function(name, splits, summary, yields, extra_args=""):
    """Turns `make(root, split, **options) -> RawTextIterableDataset` into torchtext 0.9's
    `NAME(root='.data', split=splits, **options)`, registered in the tables."""
    def decorator(make):
        @functools.wraps(make)
        def dataset(root=".data", split=splits, **options):
            root = os.path.expanduser(os.fspath(root))
            made = tuple(make(root, s, **options) for s in _selected_splits(name, split, splits))
            return made[0] if isinstance(split, str) else made

        params = list(inspect.signature(make).parameters.values())
        dataset.__signature__ = inspect.Signature(
            [params[0].replace(default=".data"), params[1].replace(default=splits)] + params[2:])
        dataset.__name__ = dataset.__qualname__ = name
        dataset.__doc__ = _docstring(name, splits, summary, yields, extra_args)
        _tables.DATASETS[name] = dataset
        return dataset
    return decorator


def fetch(root, url, md5, filename=None):
    """The path of a dataset file in `root`, downloaded unless already there with the right md5."""
    path = os.path.join(root, filename) if filename else None
    return download_from_url(url, path=path, root=root, hash_value=md5, hash_type="md5")


def fetch_and_extract(root, url, md5, filename=None):
    """Downloads an archive into `root`, extracts it beside itself, returns the paths of its files."""
    return extract_archive(fetch(root, url, md5, filename))


def find_file(name, files, basename):
    """The first path in `files` whose last part is `basename`."""
    for path in files:
        if os.path.basename(path) == basename:
            return path
    raise RuntimeError(f"{name}: the downloaded archive holds no file named {basename!r} "
                       f"(files: {[os.path.basename(f) for f in files[:10]]}{'...' if len(files) > 10 else ''})")


# ---------------------------------------------------------------- readers (picklable with functools.partial)

def read_lines(path):
    """The file's lines, each with its newline (empty lines kept)."""
    with io.open(path, encoding="utf8") as f:
        yield from f


def read_labelled_csv(path):
    """(int label, the other columns joined by a space) per CSV row."""
    with io.open(path, encoding="utf8") as f:
        for row in unicode_csv_reader(f):
            yield int(row[0]), " ".join(row[1:])


def read_iob(path, separator="\t"):
    """One list of columns per blank-line separated sentence (each column a list of str)."""
    with io.open(path, encoding="utf-8") as f:
        columns = []
        for line in f:
            line = line.strip()
            if not line:
                if columns:
                    yield columns
                columns = []
                continue
            for i, value in enumerate(line.split(separator)):
                if len(columns) <= i:
                    columns.append([])
                columns[i].append(value)
        if columns:
            yield columns


def read_squad(path):
    """(context, question, answers, answer starts) per question; no answer gives [""] and [-1]."""
    with io.open(path, encoding="utf-8") as f:
        articles = json.load(f)["data"]
    for article in articles:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                answers = [a["text"] for a in qa["answers"]] or [""]
                starts = [a["answer_start"] for a in qa["answers"]] or [-1]
                yield paragraph["context"], qa["question"], answers, starts
