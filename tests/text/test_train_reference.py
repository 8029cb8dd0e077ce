"""references/text/train.py runs end to end (briefly) on its synthetic AG_NEWS-style corpus
and learns: the tutorial's EmbeddingBag model well above chance after two epochs."""
import importlib.util
import os

from text import datasets

_SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "references", "text", "train.py")


def _load_script():
    spec = importlib.util.spec_from_file_location("text_reference_train", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_reference_learns(tmp_path, monkeypatch, capsys):
    for table in (datasets.URLS, datasets.MD5):  # the script points AG_NEWS at its corpus: restore afterwards
        monkeypatch.setitem(table, "AG_NEWS", table["AG_NEWS"])
    train = _load_script()
    accuracy = train.main(["--train-rows", "3000", "--test-rows", "400", "--epochs", "2",
                           "--output-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "| epoch   2 |" in out and "test accuracy" in out
    assert accuracy > 0.7  # chance is 0.25
    assert sorted(os.listdir(tmp_path / "data")) == ["test.csv", "train.csv"]  # fetched through AG_NEWS


def test_synthetic_rows_are_ag_news_like():
    train = _load_script()
    rows = train.synthetic_rows(50, seed=3)
    assert rows == train.synthetic_rows(50, seed=3)  # deterministic
    assert {label for label, _, _ in rows} == {1, 2, 3, 4}
    assert all(isinstance(title, str) and isinstance(text, str) for _, title, text in rows)
