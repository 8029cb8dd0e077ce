"""The text classification datasets: AG_NEWS, SogouNews, DBpedia, YelpReviewPolarity,
YelpReviewFull, YahooAnswers, AmazonReviewPolarity, AmazonReviewFull (CSV files: a 1-based
class label, then text columns) and IMDB (aclImdb_v1.tar.gz: one review per file, labels
'pos' / 'neg' as strings)."""
import functools
import io
import os

from text.datasets import _tables
from text.datasets._common import dataset_function, fetch, fetch_and_extract, find_file, read_labelled_csv
from text.datasets._raw import RawTextIterableDataset

__all__ = ["AG_NEWS", "SogouNews", "DBpedia", "YelpReviewPolarity", "YelpReviewFull", "YahooAnswers",
           "AmazonReviewPolarity", "AmazonReviewFull", "IMDB"]

_SPLITS = ("train", "test")


def _drive(file_id):
    return "https://drive.google.com/uc?export=download&id=" + file_id


# name: (url, md5, archive file name or None for per-split CSV files, lines per split, classes, content)
_CSV_DATASETS = {
    "AG_NEWS": ({"train": "https://raw.githubusercontent.com/mhjabreel/CharCnn_Keras/master/data/ag_news_csv/train.csv",
                 "test": "https://raw.githubusercontent.com/mhjabreel/CharCnn_Keras/master/data/ag_news_csv/test.csv"},
                {"train": "b1a00f826fdfbd249f79597b59e1dc12", "test": "d52ea96a97a2d943681189a97654912d"},
                None, {"train": 120000, "test": 7600}, 4, "news title and description"),
    "SogouNews": (_drive("0Bz8a_Dbh9QhbUkVqNEszd0pHaFE"), "0c1700ba70b73f964dd8de569d3fd03e",
                  "sogou_news_csv.tar.gz", {"train": 450000, "test": 60000}, 5, "news title and content (pinyin)"),
    "DBpedia": (_drive("0Bz8a_Dbh9QhbQ2Vic1kxMmZZQ1k"), "dca7b1ae12b1091090db52aa7ec5ca64",
                "dbpedia_csv.tar.gz", {"train": 560000, "test": 70000}, 14, "article title and abstract"),
    "YelpReviewPolarity": (_drive("0Bz8a_Dbh9QhbNUpYQ2N3SGlFaDg"), "620c8ae4bd5a150b730f1ba9a7c6a4d3",
                           "yelp_review_polarity_csv.tar.gz", {"train": 560000, "test": 38000}, 2, "review"),
    "YelpReviewFull": (_drive("0Bz8a_Dbh9QhbZlU4dXhHTFhZQU0"), "f7ddfafed1033f68ec72b9267863af6c",
                       "yelp_review_full_csv.tar.gz", {"train": 650000, "test": 50000}, 5, "review"),
    "YahooAnswers": (_drive("0Bz8a_Dbh9Qhbd2JNdDBsQUdocVU"), "f3f9899b997a42beb24157e62e3eea8d",
                     "yahoo_answers_csv.tar.gz", {"train": 1400000, "test": 60000}, 10,
                     "question title, question content and best answer"),
    "AmazonReviewPolarity": (_drive("0Bz8a_Dbh9QhbaW12WVVZS2drcnM"), "fe39f8b653cada45afd5792e0f0e8f9b",
                             "amazon_review_polarity_csv.tar.gz", {"train": 3600000, "test": 400000}, 2,
                             "review title and text"),
    "AmazonReviewFull": (_drive("0Bz8a_Dbh9QhbZVhsUnRWRDhETzA"), "57d28bd5d930e772930baddf36641c7c",
                         "amazon_review_full_csv.tar.gz", {"train": 3000000, "test": 650000}, 5,
                         "review title and text"),
}


def _csv_path(name, root, split, archive):
    url, md5 = _tables.URLS[name], _tables.MD5[name]
    if archive is None:  # one CSV file per split
        return fetch(root, url[split], md5[split])
    return find_file(name, fetch_and_extract(root, url, md5, archive), split + ".csv")


def _make_csv_dataset(name, spec):
    url, md5, archive, num_lines, classes, content = spec
    _tables.register(name, url, md5, num_lines)

    @dataset_function(name, _SPLITS, f"{classes} classes, CSV rows of a label and the {content}.",
                      f"(int label in 1..{classes}, str text): the text columns joined by a space.")
    def make(root, split):
        path = _csv_path(name, root, split, archive)
        return RawTextIterableDataset(name, _tables.NUM_LINES[name][split], functools.partial(read_labelled_csv, path))

    return make


AG_NEWS, SogouNews, DBpedia, YelpReviewPolarity, YelpReviewFull, YahooAnswers, AmazonReviewPolarity, \
    AmazonReviewFull = (_make_csv_dataset(name, spec) for name, spec in _CSV_DATASETS.items())


# ---------------------------------------------------------------- IMDB

_tables.register("IMDB", "http://ai.stanford.edu/~amaas/data/sentiment/aclImdb_v1.tar.gz",
                 "7c2ac02c03563afcf9b574c7e56c153a", {"train": 25000, "test": 25000})


def _read_reviews(paths):
    for path, label in paths:
        with io.open(path, encoding="utf8") as f:
            yield label, f.read()


def _reviews(root, files, split):
    """(path, label) of aclImdb/<split>/{pos,neg}/*.txt, in archive order."""
    out = []
    for path in files:
        parts = os.path.relpath(path, root).split(os.sep)
        if len(parts) == 4 and parts[0] == "aclImdb" and parts[1] == split and parts[2] in ("pos", "neg"):
            out.append((path, parts[2]))
    return out


@dataset_function("IMDB", _SPLITS, "movie reviews with a binary sentiment (aclImdb_v1.tar.gz).",
                  "(str label 'pos' or 'neg', str review).")
def IMDB(root, split):
    files = fetch_and_extract(root, _tables.URLS["IMDB"], _tables.MD5["IMDB"])
    return RawTextIterableDataset("IMDB", _tables.NUM_LINES["IMDB"][split],
                                  functools.partial(_read_reviews, _reviews(root, files, split)))

