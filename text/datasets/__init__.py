"""torchtext 0.9's raw datasets: ``NAME(root='.data', split=...)`` downloads (md5-checked,
resumable, atomic), extracts safely and returns one iterable dataset per split.

    >>> from text.datasets import AG_NEWS
    >>> train = AG_NEWS(split="train")
    >>> label, line = next(train)            # (3, "Wall St. Bears Claw Back Into the Black ...")

The tables ``DATASETS`` (name -> function), ``URLS``, ``MD5`` and ``NUM_LINES`` are read at call
time: assign to them to fetch a dataset from a mirror (a ``file://`` URL or a local path works
too). Files already in ``root`` with the right md5 are used as they are, so an offline
machine only needs the files copied there.
"""
from text.datasets._raw import RawTextIterableDataset
from text.datasets._tables import DATASETS, MD5, NUM_LINES, URLS
from text.datasets.language_modeling import EnWik9, PennTreebank, WikiText2, WikiText103
from text.datasets.question_answer import SQuAD1, SQuAD2
from text.datasets.sequence_tagging import UDPOS, CoNLL2000Chunking
from text.datasets.text_classification import (AG_NEWS, IMDB, AmazonReviewFull, AmazonReviewPolarity, DBpedia,
                                               SogouNews, YahooAnswers, YelpReviewFull, YelpReviewPolarity)
from text.datasets.translation import IWSLT2016, IWSLT2017

__all__ = ["AG_NEWS", "AmazonReviewFull", "AmazonReviewPolarity", "CoNLL2000Chunking", "DBpedia", "EnWik9", "IMDB",
           "IWSLT2016", "IWSLT2017", "PennTreebank", "SQuAD1", "SQuAD2", "SogouNews", "UDPOS", "WikiText103",
           "WikiText2", "YahooAnswers", "YelpReviewFull", "YelpReviewPolarity",
           "DATASETS", "URLS", "MD5", "NUM_LINES", "RawTextIterableDataset"]
