"""text against torchtext where torchtext imports: basic_english, ngrams_iterator, bleu_score,
the vocabularies, and the parsing of the same dataset files by torchtext 0.9's readers.
Skipped when torchtext is absent (it needs a matching torch; 0.9 needs Python <= 3.9)."""
import collections
import random

import pytest
import support_text as corpora


def _import_torchtext():
    try:
        import torchtext
        import torchtext.data.utils  # noqa: F401
    except Exception as e:  # noqa: BLE001 - not installed, or built for another torch
        pytest.skip(f"torchtext is not importable here ({type(e).__name__}: {e})")
    return torchtext


@pytest.fixture(scope="module")
def torchtext():
    return _import_torchtext()


def _lines():
    rng = random.Random(0)
    alphabet = list("abcXYZ '\".,()!?;:<>/br \t\n\u00a0É") + ["<br />", "<br \"/>", "<br;/>"]
    lines = ["It's 5 p.m.; the \"end\": (really)?! Yes...", "a<br />b<BR />c", "Café naïve"]
    return lines + ["".join(rng.choice(alphabet) for _ in range(rng.randrange(40))) for _ in range(500)]


def test_basic_english(torchtext):
    from text.data import get_tokenizer

    theirs, ours = torchtext.data.utils.get_tokenizer("basic_english"), get_tokenizer("basic_english")
    for line in _lines():
        assert ours(line) == theirs(line), repr(line)


def test_ngrams_iterator(torchtext):
    from text.data import ngrams_iterator

    tokens = "the quick brown fox jumps".split()
    for n in (1, 2, 3, 6):
        assert list(ngrams_iterator(tokens, n)) == list(torchtext.data.utils.ngrams_iterator(tokens, n))


def test_bleu_score(torchtext):
    from torchtext.data.metrics import bleu_score as theirs

    from text.data.metrics import bleu_score as ours

    rng = random.Random(1)
    words = "a b c d e f g".split()
    for _ in range(20):
        cands = [[rng.choice(words) for _ in range(rng.randint(4, 9))] for _ in range(3)]
        refs = [[[rng.choice(words) for _ in range(rng.randint(4, 9))] for _ in range(2)] for _ in range(3)]
        assert ours(cands, refs) == pytest.approx(theirs(cands, refs), rel=3e-7)


def test_vocabularies(torchtext):
    from text.vocab import Vocab, vocab

    counter = collections.Counter("the cat sat on the mat with the other cat".split())
    legacy = getattr(torchtext.vocab, "Vocab", None)
    if legacy is not None and "counter" in legacy.__init__.__code__.co_varnames:  # 0.9
        for kwargs in ({}, {"min_freq": 2}, {"max_size": 3}, {"specials_first": False}, {"specials": ["<pad>"]}):
            theirs, ours = legacy(counter, **kwargs), Vocab(counter, **kwargs)
            assert ours.itos == theirs.itos and dict(ours.stoi) == dict(theirs.stoi)
            assert ours["zzz"] == theirs["zzz"]
    if hasattr(torchtext.vocab, "vocab"):
        ordered = collections.OrderedDict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))
        theirs, ours = torchtext.vocab.vocab(ordered, min_freq=1), vocab(ordered, min_freq=1)
        assert ours.get_itos() == theirs.get_itos() and ours.get_stoi() == theirs.get_stoi()


def test_dataset_readers(torchtext, tmp_path):
    utils = pytest.importorskip("torchtext.data.datasets_utils")
    if not hasattr(utils, "_create_data_from_csv"):
        pytest.skip("this torchtext reads datasets through torchdata, not 0.9's readers")
    from text.datasets import _common

    csv_path = tmp_path / "train.csv"
    csv_path.write_bytes(corpora.csv_file(corpora.CLASSIFICATION_ROWS, columns=3))
    assert list(_common.read_labelled_csv(str(csv_path))) == list(utils._create_data_from_csv(str(csv_path)))
    files, _ = corpora.conll_files()
    iob = tmp_path / "train.txt"
    iob.write_bytes(__import__("gzip").decompress(files["train"]))
    assert list(_common.read_iob(str(iob), " ")) == list(utils._create_data_from_iob(str(iob), " "))
    squad, _ = corpora.squad_file(2)
    json_path = tmp_path / "dev-v2.0.json"
    json_path.write_bytes(squad)
    assert list(_common.read_squad(str(json_path))) == list(utils._create_data_from_json(str(json_path)))
