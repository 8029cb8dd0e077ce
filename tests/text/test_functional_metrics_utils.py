"""text.data.functional (sentencepiece when installed, a clear error when not), bleu_score
against hand-computed float32 values, and text.utils (download_from_url, extract_archive,
validate_file, unicode_csv_reader)."""
import hashlib
import io
import math
import os
import sys

import numpy as np
import pytest
import support_text as corpora

import hub
from text.data import functional as F
from text.data.metrics import bleu_score
from text.utils import download_from_url, extract_archive, unicode_csv_reader, validate_file
from text.vocab import Vocab

# ---------------------------------------------------------------- sentencepiece


@pytest.fixture(scope="module")
def sp_model(tmp_path_factory):
    pytest.importorskip("sentencepiece")
    directory = tmp_path_factory.mktemp("spm")
    corpus = directory / "corpus.txt"
    words = ["sentence", "piece", "encode", "pieces", "examples", "try", "token", "vocab", "model", "text"]
    with open(corpus, "w") as f:
        for i in range(400):
            f.write(" ".join(words[(i * k) % len(words)] for k in range(1, 9)) + "\n")
    prefix = str(directory / "m_user")
    F.generate_sp_model(str(corpus), vocab_size=25, model_prefix=prefix)
    assert os.path.exists(prefix + ".model") and os.path.exists(prefix + ".vocab")
    return prefix + ".model"


def test_sentencepiece_round_trip(sp_model):
    model = F.load_sp_model(sp_model)
    with open(sp_model, "rb") as f:
        from_bytes = F.load_sp_model(f)
    lines = ["sentencepiece encode as pieces", "examples to   try!"]
    ids = list(F.sentencepiece_numericalizer(model)(lines))
    pieces = list(F.sentencepiece_tokenizer(model)(lines))
    assert ids == [model.EncodeAsIds(line) for line in lines] == list(F.sentencepiece_numericalizer(from_bytes)(lines))
    assert pieces == [model.EncodeAsPieces(line) for line in lines]
    assert model.DecodePieces(pieces[0]) == lines[0]
    with pytest.raises(TypeError, match="Unsupported type for spm argument: int"):
        F.load_sp_model(3)


def test_sentencepiece_missing_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "sentencepiece", None)
    with pytest.raises(ModuleNotFoundError, match=r"generate_sp_model\(\) needs the sentencepiece package.*"
                                                  r"pip install sentencepiece"):
        F.generate_sp_model(str(tmp_path / "corpus.txt"))
    with pytest.raises(ModuleNotFoundError, match=r"load_sp_model\(\) needs the sentencepiece package"):
        F.load_sp_model("m.model")


def test_custom_replace_and_space_split():
    replace = F.custom_replace([(r"S", "s"), (r"\s+", " ")])
    assert list(replace(["Sentencepiece encode  aS  pieces", "x\t\ty"])) == ["sentencepiece encode as pieces", "x y"]
    assert list(F.simple_space_split(["a b  c", ""])) == [["a", "b", "c"], []]


def test_numericalize_tokens_from_iterator():
    vocab = Vocab(__import__("collections").Counter("aab"))
    out = [list(ids) for ids in F.numericalize_tokens_from_iterator(vocab, [["a", "b"], ["b", "zz", "a"]])]
    assert out == [[2, 3], [3, 0, 2]]
    removed = [list(ids) for ids in F.numericalize_tokens_from_iterator(vocab, [["a", "<pad>", "b"]], ["<pad>"])]
    assert removed == [[2, 3]]


# ---------------------------------------------------------------- bleu_score

def _reference_bleu(clipped, totals, weights, candidate_len, refs_len):
    """Oracle: BLEU from clipped/total n-gram counts, float32 like torchtext."""
    p = np.asarray(clipped, np.float32) / np.asarray(totals, np.float32)
    log_p = np.asarray(weights, np.float32) * np.log(p)
    total = np.float32(0)
    for term in log_p:
        total = np.float32(total + term)
    return math.exp(min(1 - refs_len / candidate_len, 0)) * float(np.exp(total))


def test_bleu_score_values():
    candidate = [["My", "full", "pytorch", "test"], ["Another", "Sentence"]]
    references = [[["My", "full", "pytorch", "test"], ["Completely", "Different"]], [["No", "Match"]]]
    assert bleu_score(candidate, references) == 0.8408964276313782  # torchtext's documented value
    assert bleu_score([["a", "b", "c", "d"]], [[["a", "b", "c", "d"]]]) == 1.0
    assert bleu_score([["a", "b", "c", "d"]], [[["e", "f", "g", "h"]]]) == 0.0
    # clipping, several references, brevity penalty (candidate 5 tokens, closest reference 6)
    cand = [["the", "the", "cat", "sat", "on"]]
    refs = [[["the", "cat", "sat", "on", "the", "mat"], ["a", "cat", "sat", "on", "a", "mat", "today"]]]
    # 1-grams: the x2 (clipped 2), cat, sat, on -> 5/5; 2-grams: the the (0), the cat, cat sat, sat on -> 3/4;
    # 3-grams: the cat sat, cat sat on -> 2/3 (the the cat: 0); 4-grams: the cat sat on -> 1/2
    expected = _reference_bleu([5, 3, 2, 1], [5, 4, 3, 2], [0.25] * 4, 5.0, 6.0)
    # float32 arithmetic as in torchtext; log/exp may round differently in the last bit from numpy's
    assert bleu_score(cand, refs) == pytest.approx(expected, rel=3e-7)
    assert bleu_score(cand, refs, max_n=2, weights=[0.5, 0.5]) == pytest.approx(
        _reference_bleu([5, 3], [5, 4], [0.5, 0.5], 5.0, 6.0), rel=3e-7)


def test_bleu_score_argument_checks():
    with pytest.raises(ValueError, match="equal to max_n"):
        bleu_score([["a"]], [[["a"]]], max_n=2)
    with pytest.raises(ValueError, match="same length"):
        bleu_score([["a"]], [])


# ---------------------------------------------------------------- utils

def test_validate_file():
    data = b"some bytes"
    assert validate_file(io.BytesIO(data), hashlib.sha256(data).hexdigest())
    assert validate_file(io.BytesIO(data), hashlib.md5(data).hexdigest(), "md5")
    assert not validate_file(io.BytesIO(data), "0" * 64)
    with pytest.raises(ValueError, match="unsupported hash_type"):
        validate_file(io.BytesIO(data), "x", "crc32")


def test_download_from_url(server, tmp_path):
    data = os.urandom(40_000)
    url = server.add("/files/validation.tar.gz", data)
    root = tmp_path / "dl"
    path = download_from_url(url, root=str(root), hash_value=hashlib.sha256(data).hexdigest())
    assert path == os.path.join(str(root), "validation.tar.gz") and open(path, "rb").read() == data
    assert download_from_url(url, root=str(root)) == path and server.hits == ["/files/validation.tar.gz"]
    download_from_url(url, root=str(root), overwrite=True)
    assert len(server.hits) == 2
    other = download_from_url(url, path=str(tmp_path / "named.bin"), hash_value=hashlib.md5(data).hexdigest(),
                              hash_type="md5")
    assert other == str(tmp_path / "named.bin")
    with pytest.raises(hub.CorruptCacheError, match="does not match"):
        download_from_url(url, path=other, hash_value="0" * 32, hash_type="md5")


def test_download_from_url_google_drive_file_name(server, tmp_path, monkeypatch):
    from hub import _gdrive

    monkeypatch.setattr(_gdrive, "GOOGLE_DRIVE_HOSTS", ("127.0.0.1",))
    data = b"drive bytes"
    server.add("/uc?export=download&id=7", data)
    # the name comes from Content-Disposition; this server sends none, so the URL path's name is used
    assert os.path.basename(download_from_url(server.url + "/uc?export=download&id=7", root=str(tmp_path))) == "uc"


def test_extract_archive_lists_files(tmp_path):
    archive = tmp_path / "a.zip"
    archive.write_bytes(corpora.zip_bytes([("d/", b""), ("d/x.txt", b"x"), ("y.txt", b"y")]))
    assert extract_archive(str(archive)) == [str(tmp_path / "d" / "x.txt"), str(tmp_path / "y.txt")]
    gz = tmp_path / "train.txt.gz"
    gz.write_bytes(corpora.gz_bytes(b"line\n"))
    assert extract_archive(str(gz), str(tmp_path / "out")) == [str(tmp_path / "out" / "train.txt")]


def test_unicode_csv_reader_long_fields():
    long_field = "x" * 1_000_000  # past csv's default 131072-character limit
    rows = list(unicode_csv_reader(io.StringIO(f'1,"{long_field}"\n2,"a, ""b"""\n')))
    assert rows == [["1", long_field], ["2", 'a, "b"']]
