"""The 19 raw datasets on small files in their real formats, served from 127.0.0.1: the items
each split yields, the calling convention (split as str or tuple, unknown splits), the
iterator semantics (len, pos, single pass) and sharding across DataLoader workers."""
import inspect
import os
import pickle

import pytest
import support_text as corpora

from core.utils.data import DataLoader
from text import datasets

CSV_ARCHIVES = {  # dataset: the folder of its archive (AG_NEWS has one CSV file per split instead)
    "SogouNews": "sogou_news_csv", "DBpedia": "dbpedia_csv", "YelpReviewPolarity": "yelp_review_polarity_csv",
    "YelpReviewFull": "yelp_review_full_csv", "YahooAnswers": "yahoo_answers_csv",
    "AmazonReviewPolarity": "amazon_review_polarity_csv", "AmazonReviewFull": "amazon_review_full_csv",
}
ROWS = {"train": corpora.CLASSIFICATION_ROWS, "test": corpora.CLASSIFICATION_ROWS[::-1][:3]}


def test_tables_cover_the_19_datasets():
    names = {"AG_NEWS", "SogouNews", "DBpedia", "YelpReviewPolarity", "YelpReviewFull", "YahooAnswers",
             "AmazonReviewPolarity", "AmazonReviewFull", "IMDB", "WikiText2", "WikiText103", "PennTreebank", "EnWik9",
             "UDPOS", "CoNLL2000Chunking", "IWSLT2016", "IWSLT2017", "SQuAD1", "SQuAD2"}
    assert set(datasets.DATASETS) == set(datasets.URLS) == set(datasets.MD5) == set(datasets.NUM_LINES) == names
    assert names < set(datasets.__all__)
    assert datasets.NUM_LINES["AG_NEWS"] == {"train": 120000, "test": 7600}
    assert datasets.MD5["IMDB"] == "7c2ac02c03563afcf9b574c7e56c153a"
    assert datasets.NUM_LINES["IWSLT2016"]["valid"]["tst2013"][("de", "en")] == 993
    for name, fn in datasets.DATASETS.items():
        params = inspect.signature(fn).parameters
        assert list(params)[:2] == ["root", "split"] and params["root"].default == ".data", name
        assert getattr(datasets, name) is fn and fn.__name__ == name and "Number of lines" in fn.__doc__


def test_ag_news(serve, root):
    serve("AG_NEWS", {split: corpora.csv_file(rows) for split, rows in ROWS.items()})
    train, test = datasets.AG_NEWS(root=root)
    assert len(train) == 120000 and len(test) == 7600 and str(train) == "AG_NEWS"
    assert train.pos() is None
    first = next(train)
    assert first == (3, 'Wall St. Bears Claw Back Into the Black (Reuters) Reuters - Short-sellers, Wall Street\'s '
                        '"dwindling"\\band.')
    assert isinstance(first[0], int) and train.pos() == 0
    assert [first] + list(train) == corpora.classification_items(ROWS["train"])
    assert list(train) == [] and train.pos() == len(ROWS["train"]) - 1  # single pass
    assert list(test) == corpora.classification_items(ROWS["test"])
    assert sorted(os.listdir(root)) == ["test.csv", "train.csv"]  # files land in root itself, as in 0.9


@pytest.mark.parametrize("name", sorted(CSV_ARCHIVES))
def test_csv_archive_datasets(serve, root, name):
    folder = CSV_ARCHIVES[name]
    archive = corpora.tar_bytes([(f"{folder}/", b""), (f"{folder}/readme.txt", b"x"), (f"{folder}/classes.txt", b"c")]
                                + [(f"{folder}/{split}.csv", corpora.csv_file(rows, columns=4))
                                   for split, rows in ROWS.items()])
    serve(name, archive)
    test = datasets.DATASETS[name](root=root, split="test")  # a str split: one dataset, not a tuple
    assert len(test) == datasets.NUM_LINES[name]["test"]
    assert list(test) == corpora.classification_items(ROWS["test"])
    (train,) = datasets.DATASETS[name](root=root, split=("train",))
    assert list(train) == corpora.classification_items(ROWS["train"])


def test_imdb(serve, root):
    archive, expected = corpora.imdb_archive()
    serve("IMDB", archive)
    train, test = datasets.IMDB(root=root)
    assert len(train) == 25000
    assert list(train) == expected["train"]  # string labels, archive order; urls/unsup/vocab files skipped
    assert list(test) == expected["test"]


@pytest.mark.parametrize("name,folder", [("WikiText2", "wikitext-2"), ("WikiText103", "wikitext-103")])
def test_wikitext(serve, root, name, folder):
    serve(name, corpora.wikitext_archive(folder))
    splits = datasets.DATASETS[name](root=root)
    for split, ds in zip(("train", "valid", "test"), splits):
        assert len(ds) == datasets.NUM_LINES[name][split]
        assert list(ds) == corpora.WIKI_LINES[split]  # raw lines: newline kept, empty lines kept


def test_penn_treebank(serve, root):
    files, lines = corpora.ptb_files()
    serve("PennTreebank", files)
    for split, ds in zip(("train", "valid", "test"), datasets.PennTreebank(root=root)):
        assert list(ds) == lines[split]
    assert sorted(os.listdir(root)) == ["ptb.test.txt", "ptb.train.txt", "ptb.valid.txt"]


def test_enwik9(serve, root):
    text = "<mediawiki>\n  <page>\n\n  </page>\n"
    serve("EnWik9", corpora.zip_bytes([("enwik9", text.encode())]))
    (train,) = datasets.EnWik9(root=root)  # the default split is the tuple ('train',)
    assert len(train) == 13147026
    assert list(train) == text.splitlines(keepends=True)
    with pytest.raises(TypeError, match="not supported for dataset EnWik9"):
        datasets.EnWik9(root=root, split="test")


def test_udpos(serve, root):
    archive, expected = corpora.udpos_archive()
    serve("UDPOS", archive)
    for split, ds in zip(("train", "valid", "test"), datasets.UDPOS(root=root)):
        assert list(ds) == expected[split]


def test_conll2000(serve, root):
    files, expected = corpora.conll_files()
    serve("CoNLL2000Chunking", files)
    train, test = datasets.CoNLL2000Chunking(root=root)
    assert list(train) == expected["train"] and list(test) == expected["test"]
    assert {"train.txt", "test.txt"} <= set(os.listdir(root))


@pytest.mark.parametrize("version", [1, 2])
def test_squad(serve, root, version):
    name = f"SQuAD{version}"
    data, expected = corpora.squad_file(version)
    serve(name, {"train": data, "dev": data})
    train, dev = datasets.DATASETS[name](root=root)
    assert list(train) == expected and list(dev) == expected
    assert len(dev) == {1: 10570, 2: 11873}[version]


def test_iwslt2016(serve, root):
    archive, expected = corpora.iwslt_archive(16)
    serve("IWSLT2016", archive)
    train, valid, test = datasets.IWSLT2016(root=root)
    assert len(train) == 196884 and len(valid) == 993 and len(test) == 1305
    assert list(train) == expected["train"]  # the .tags metadata lines dropped, sentences stripped
    assert list(valid) == expected["valid"] and list(test) == expected["test"]  # from the XML <seg>s
    # the cleaned files sit beside the raw ones and are reused
    pair_dir = os.path.join(root, "2016-01", "texts", "de", "en", "de-en")
    assert {"train.de-en.de", "train.de-en.en", "IWSLT16.TED.tst2013.de-en.de"} <= set(os.listdir(pair_dir))
    (again,) = datasets.IWSLT2016(root=root, split=("valid",), valid_set="dev2010")
    assert list(again) == expected["valid"] and len(again) == 887


def test_iwslt2016_argument_checks(root):
    with pytest.raises(ValueError, match="src_language 'xx' is not valid"):
        datasets.IWSLT2016(root=root, language_pair=("xx", "en"))
    with pytest.raises(ValueError, match="tgt_language 'de' is not valid"):
        datasets.IWSLT2016(root=root, language_pair=("fr", "de"))
    with pytest.raises(ValueError, match="test_set 'tst2014' is not valid"):
        datasets.IWSLT2016(root=root, language_pair=("cs", "en"))
    with pytest.raises(ValueError, match="only 2 elements"):
        datasets.IWSLT2016(root=root, language_pair=("de", "en", "fr"))
    assert not os.path.exists(root)  # refused before anything was fetched


def test_iwslt2017(serve, root):
    archive, expected = corpora.iwslt_archive(17)
    serve("IWSLT2017", archive)
    train, valid, test = datasets.IWSLT2017(root=root)
    assert (len(train), len(valid), len(test)) == (206112, 888, 1568)
    assert list(train) == expected["train"]
    assert list(valid) == expected["valid"] and list(test) == expected["test"]


# ---------------------------------------------------------------- calling convention and iterator semantics

def test_unknown_split_is_a_type_error(root):
    with pytest.raises(TypeError, match=r"Given selection \('dev',\) of splits is not supported for dataset AG_NEWS"):
        datasets.AG_NEWS(root=root, split="dev")
    with pytest.raises(TypeError, match="split must be a str or a tuple"):
        datasets.AG_NEWS(root=root, split=3)
    with pytest.raises(TypeError):
        datasets.WikiText2(root=root, no_such_option=1)


def test_split_order_follows_the_request(serve, root):
    serve("AG_NEWS", {split: corpora.csv_file(rows) for split, rows in ROWS.items()})
    test, train = datasets.AG_NEWS(root=root, split=("test", "train"))
    assert str(test) == "AG_NEWS" and len(test) == 7600 and len(train) == 120000


def test_existing_files_are_used_without_network(serve, root, server):
    serve("AG_NEWS", {split: corpora.csv_file(rows) for split, rows in ROWS.items()})
    datasets.AG_NEWS(root=root)
    server.close()  # offline now: the md5-checked files in root are enough
    assert list(datasets.AG_NEWS(root=root, split="test")) == corpora.classification_items(ROWS["test"])


def test_dataset_pickles_and_restarts(serve, root):
    serve("AG_NEWS", {split: corpora.csv_file(rows) for split, rows in ROWS.items()})
    train = datasets.AG_NEWS(root=root, split="train")
    next(train)
    copy = pickle.loads(pickle.dumps(train))  # an open reader does not travel: the copy starts over
    assert list(copy) == corpora.classification_items(ROWS["train"])
    assert len(list(train)) == len(ROWS["train"]) - 1


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
@pytest.mark.parametrize("workers", [2, 3])
def test_dataloader_workers_share_the_items_without_duplicates(serve, root, workers):
    rows = [(1 + i % 4, f"title {i}", f"text {i}") for i in range(37)]
    serve("AG_NEWS", {"train": corpora.csv_file(rows), "test": corpora.csv_file(rows[:2])})
    train = datasets.AG_NEWS(root=root, split="train")
    loader = DataLoader(train, batch_size=None, num_workers=workers)
    seen = [(int(label), line) for label, line in loader]
    expected = corpora.classification_items(rows)
    assert sorted(seen) == sorted(expected) and len(seen) == len(expected)


def test_nominal_length_caps_the_reader(serve, root, monkeypatch):
    rows = [(1, f"t{i}", "x") for i in range(10)]
    serve("AG_NEWS", {"train": corpora.csv_file(rows), "test": corpora.csv_file(rows)})
    monkeypatch.setitem(datasets.NUM_LINES, "AG_NEWS", {"train": 4, "test": 4})
    train = datasets.AG_NEWS(root=root, split="train")
    assert len(train) == 4 and len(list(train)) == 4  # never read past the nominal count


def test_raw_dataset_rejects_an_iterator():
    with pytest.raises(TypeError, match="reader must be a callable"):
        datasets.RawTextIterableDataset("X", 3, iter([1, 2, 3]))
