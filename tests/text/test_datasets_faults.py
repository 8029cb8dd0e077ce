"""Datasets when things go wrong: an md5 mismatch, a corrupt archive, an archive with a member
escaping the root, an HTTP error, an interrupted download resumed by the next call, a
corrupt file already in root. Each gives a clear error and leaves nothing partial behind."""
import hashlib
import os

import pytest
import support_text as corpora

import hub
from text import datasets

ROWS = corpora.CLASSIFICATION_ROWS


def _files(root):
    out = []
    for dirpath, _, files in os.walk(root):
        out += [os.path.relpath(os.path.join(dirpath, f), root) for f in files]
    return sorted(out)


def test_md5_mismatch(serve, root):
    serve("WikiText2", corpora.wikitext_archive("wikitext-2"), md5="0" * 32)
    with pytest.raises(hub.HashMismatchError, match='invalid hash value .*its md5 does not match') as info:
        datasets.WikiText2(root=root, split="train")
    assert "wikitext-2-v1.zip" in str(info.value)
    assert _files(root) == []  # no archive, no .part file, nothing extracted


def test_corrupt_archive(serve, root):
    good = corpora.wikitext_archive("wikitext-2")
    corrupt = good[:len(good) // 2] + bytes(len(good) - len(good) // 2)  # the right md5 is the corrupt file's
    serve("WikiText2", corrupt)
    with pytest.raises(hub.ArchiveError, match="corrupt or truncated"):
        datasets.WikiText2(root=root, split="train")
    assert _files(root) == ["wikitext-2-v1.zip"]  # the download itself, but nothing extracted from it


def test_truncated_tar_gz(serve, root):
    archive, _ = corpora.imdb_archive()
    serve("IMDB", archive[:-200])
    with pytest.raises(hub.ArchiveError, match="corrupt or truncated"):
        datasets.IMDB(root=root, split="train")
    assert _files(root) == ["aclImdb_v1.tar.gz"]


@pytest.mark.parametrize("bad_name", ["aclImdb/../../escaped.txt", "/tmp/absolute.txt"])
def test_path_traversal_is_refused(serve, root, tmp_path, bad_name):
    archive = corpora.tar_bytes([("aclImdb/train/pos/0_9.txt", b"fine"), (bad_name, b"evil")])
    serve("IMDB", archive)
    with pytest.raises(hub.UnsafeArchiveError, match="refusing"):
        datasets.IMDB(root=root, split="train")
    assert _files(root) == ["aclImdb_v1.tar.gz"]  # not even the harmless member
    assert not (tmp_path / "escaped.txt").exists()


def test_http_error(serve, root):
    urls = serve("AG_NEWS", {"train": 404, "test": 404}, mode="status", md5={"train": "0" * 32, "test": "0" * 32})
    with pytest.raises(hub.DownloadError, match="HTTP 404") as info:
        datasets.AG_NEWS(root=root, split="train")
    assert urls["train"] in str(info.value)
    assert _files(root) == []


def test_interrupted_download_resumes_on_the_next_call(serve, root, server):
    archive, expected = corpora.imdb_archive()
    archive += bytes(100_000)  # zero blocks after the end-of-archive marker: a tar reader ignores them
    serve("IMDB", archive, mode="drip")  # every connection drops after a few kilobytes
    with pytest.raises(hub.DownloadError, match="calling again resumes"):
        datasets.IMDB(root=root, split="train")
    part = hub.partial_path(os.path.join(root, "aclImdb_v1.tar.gz"))
    assert _files(root) == [os.path.basename(part)]  # only the resumable bytes, clearly named
    kept = os.path.getsize(part)
    serve("IMDB", archive)
    train = datasets.IMDB(root=root, split="train")
    assert server.ranges[-1] == f"bytes={kept}-"  # the second call continued, it did not start over
    assert list(train) == expected["train"]
    assert not os.path.exists(part)


def test_download_cut_once_is_resumed_within_the_call(serve, root, server):
    files = {split: corpora.csv_file(ROWS * 200) for split in ("train", "test")}  # larger than one cut
    serve("AG_NEWS", files, mode="cut_once")
    train = datasets.AG_NEWS(root=root, split="train")
    assert len(list(train)) == len(ROWS) * 200
    assert [r for r in server.ranges if r] != []


def test_corrupt_file_in_root_is_reported(serve, root):
    serve("AG_NEWS", {split: corpora.csv_file(ROWS) for split in ("train", "test")})
    os.makedirs(root)
    with open(os.path.join(root, "train.csv"), "wb") as f:
        f.write(b"damaged")
    with pytest.raises(hub.CorruptCacheError, match="Delete the file manually and retry"):
        datasets.AG_NEWS(root=root, split="train")


def test_mirror_through_the_tables(root, tmp_path, monkeypatch):
    """A directory of files is a mirror: point URLS at it (file:// URLs or paths)."""
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    data = corpora.csv_file(ROWS)
    (mirror / "train.csv").write_bytes(data)
    monkeypatch.setitem(datasets.URLS, "AG_NEWS", {"train": (mirror / "train.csv").as_uri(), "test": ""})
    monkeypatch.setitem(datasets.MD5, "AG_NEWS", {"train": hashlib.md5(data).hexdigest(), "test": ""})
    assert list(datasets.AG_NEWS(root=root, split="train")) == corpora.classification_items(ROWS)
