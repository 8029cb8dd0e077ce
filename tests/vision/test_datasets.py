"""vision.datasets on synthetic on-disk layouts; downloads from a local http.server on
127.0.0.1; archive extraction refusing paths that escape; Shapes determinism."""
import gzip
import hashlib
import http.server
import io
import json
import os
import pickle
import shutil
import tarfile
import threading
import zipfile

import numpy as np
import pytest
from PIL import Image

import core
import hub
from vision import datasets as D
from vision import transforms as T
from vision.datasets.utils import (UnsafeArchiveError, check_integrity, download_url, extract_archive,
                                   verify_str_arg)
from support import run_python

RNG = np.random.default_rng(0)


def md5(path):
    return hashlib.md5(open(path, "rb").read()).hexdigest()


def save_image(path, size=(8, 6), mode="RGB", color=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    arr = RNG.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    img = Image.fromarray(arr) if color is None else Image.new(mode, size, color)
    img.convert(mode).save(path)


@pytest.fixture
def server(tmp_path):
    """(directory served, base URL, list of requested paths)."""
    root = tmp_path / "www"
    root.mkdir()
    requests_seen = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, *args):  # keep the test output clean
            pass

        def do_GET(self):  # noqa: N802
            requests_seen.append(self.path)
            super().do_GET()

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{httpd.server_address[1]}/", requests_seen
    finally:
        httpd.shutdown()
        httpd.server_close()


# ---------------------------------------------------------------- folders

def test_image_folder(tmp_path):
    root = tmp_path / "imgs"
    save_image(str(root / "dog" / "b.png"))
    save_image(str(root / "cat" / "z.jpg"))
    save_image(str(root / "cat" / "sub" / "a.PNG"))
    (root / "cat" / "notes.txt").write_text("not an image")
    (root / "empty_class").mkdir()
    ds = D.ImageFolder(str(root), transform=T.ToTensor())
    assert ds.classes == ["cat", "dog", "empty_class"]
    assert ds.class_to_idx == {"cat": 0, "dog": 1, "empty_class": 2}
    assert [os.path.relpath(p, root) for p, _ in ds.samples] == ["cat/z.jpg", "cat/sub/a.PNG", "dog/b.png"]
    assert ds.targets == [0, 0, 1] and ds.imgs is ds.samples
    x, y = ds[2]
    assert tuple(x.shape) == (3, 6, 8) and y == 1
    assert "Number of datapoints: 3" in repr(ds) and "ToTensor()" in repr(ds)
    only_png = D.DatasetFolder(str(root), loader=lambda p: p, is_valid_file=lambda p: p.endswith(".png"))
    assert len(only_png) == 1
    with pytest.raises(ValueError, match="Both extensions and is_valid_file"):
        D.DatasetFolder(str(root), loader=lambda p: p)
    with pytest.raises(RuntimeError, match="Found 0 files"):
        D.DatasetFolder(str(root), loader=lambda p: p, extensions=(".bmp",))
    (tmp_path / "noclasses").mkdir()
    with pytest.raises(FileNotFoundError, match="class folder"):
        D.ImageFolder(str(tmp_path / "noclasses"))


def test_fake_data():
    ds = D.FakeData(size=4, image_size=(3, 5, 6), num_classes=3, transform=T.PILToTensor())
    core.manual_seed(123)
    before = core.rand(1).item()
    core.manual_seed(123)
    a, ya = ds[2]
    assert core.rand(1).item() == before  # the global RNG state is restored
    b, yb = ds[2]
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert ya == yb and 0 <= ya < 3 and tuple(a.shape) == (3, 5, 6)
    core.manual_seed(2)
    img = core.randn(3, 5, 6)
    target = core.randint(0, 3, (1,)).item()
    ref = (np.asarray(img.numpy()) * np.float32(255)).astype(np.int64).astype(np.uint8)
    np.testing.assert_array_equal(a.numpy(), ref)
    assert ya == target
    with pytest.raises(IndexError):
        ds[4]


# ---------------------------------------------------------------- CIFAR

def _write_cifar(base, files, label_key, meta_name, meta_key, n=4):
    os.makedirs(base, exist_ok=True)
    for name in files:
        data = RNG.integers(0, 256, (n, 3072), dtype=np.uint8)
        with open(os.path.join(base, name), "wb") as f:
            pickle.dump({"data": data, label_key: list(range(n))}, f)
    with open(os.path.join(base, meta_name), "wb") as f:
        pickle.dump({meta_key: [f"class{i}" for i in range(10)]}, f)


def _cifar10_class(base_url=None, root=None, archive_md5=None):
    base = os.path.join(root, "cifar-10-batches-py")
    attrs = {
        "train_list": [[n, md5(os.path.join(base, n))] for n, _ in D.CIFAR10.train_list],
        "test_list": [["test_batch", md5(os.path.join(base, "test_batch"))]],
        "meta": dict(D.CIFAR10.meta, md5=md5(os.path.join(base, "batches.meta"))),
    }
    if base_url is not None:
        attrs.update(url=base_url + "cifar-10-python.tar.gz", tgz_md5=archive_md5)
    return type("LocalCIFAR10", (D.CIFAR10,), attrs)


def test_cifar10_and_100(tmp_path):
    base = tmp_path / "cifar-10-batches-py"
    _write_cifar(str(base), [n for n, _ in D.CIFAR10.train_list] + ["test_batch"], "labels", "batches.meta",
                 "label_names")
    cls = _cifar10_class(root=str(tmp_path))
    train, test = cls(str(tmp_path)), cls(str(tmp_path), train=False)
    assert len(train) == 20 and len(test) == 4
    img, y = train[5]
    assert img.size == (32, 32) and y == 1 and train.classes[0] == "class0"
    assert "Split: Test" in repr(test)
    with pytest.raises(RuntimeError, match="not found or corrupted"):
        D.CIFAR10(str(tmp_path))  # the real md5s do not match the synthetic files
    base100 = tmp_path / "cifar-100-python"
    _write_cifar(str(base100), ["train", "test"], "fine_labels", "meta", "fine_label_names")
    c100 = type("LocalCIFAR100", (D.CIFAR100,), {
        "train_list": [["train", md5(str(base100 / "train"))]], "test_list": [["test", md5(str(base100 / "test"))]],
        "meta": dict(D.CIFAR100.meta, md5=md5(str(base100 / "meta")))})
    assert c100(str(tmp_path))[3][1] == 3


def test_cifar10_download_from_local_server(tmp_path, server):
    www, url, seen = server
    staging = tmp_path / "staging"
    _write_cifar(str(staging / "cifar-10-batches-py"), [n for n, _ in D.CIFAR10.train_list] + ["test_batch"],
                 "labels", "batches.meta", "label_names")
    archive = www / "cifar-10-python.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(staging / "cifar-10-batches-py", arcname="cifar-10-batches-py")
    cls = _cifar10_class(url, str(staging), md5(archive))
    dest = tmp_path / "dest"
    ds = cls(str(dest), download=True)
    assert len(ds) == 20 and seen == ["/cifar-10-python.tar.gz"]
    cls(str(dest), download=True)  # verified files: no second request
    assert len(seen) == 1


# ---------------------------------------------------------------- MNIST

def _idx(array):
    header = bytes([0, 0, 8, array.ndim]) + b"".join(int(s).to_bytes(4, "big") for s in array.shape)
    return header + array.astype(np.uint8).tobytes()


def _mnist_files(n_train=6, n_test=3):
    return {
        "train-images-idx3-ubyte": _idx(RNG.integers(0, 256, (n_train, 28, 28))),
        "train-labels-idx1-ubyte": _idx(np.arange(n_train) % 10),
        "t10k-images-idx3-ubyte": _idx(RNG.integers(0, 256, (n_test, 28, 28))),
        "t10k-labels-idx1-ubyte": _idx(np.arange(n_test) % 10),
    }


def test_mnist_raw_files(tmp_path):
    raw = tmp_path / "FashionMNIST" / "raw"
    raw.mkdir(parents=True)
    files = _mnist_files()
    for name, data in files.items():
        (raw / name).write_bytes(data)
    ds = D.FashionMNIST(str(tmp_path))
    assert len(ds) == 6 and ds.data.dtype == core.uint8 and ds.targets.dtype == core.int64
    img, y = ds[4]
    assert img.mode == "L" and img.size == (28, 28) and y == 4
    np.testing.assert_array_equal(np.asarray(img), np.frombuffer(files["train-images-idx3-ubyte"][16:],
                                                                 np.uint8).reshape(6, 28, 28)[4])
    assert len(D.FashionMNIST(str(tmp_path), train=False)) == 3
    assert ds.class_to_idx["Bag"] == 8
    with pytest.raises(RuntimeError, match="Dataset not found"):
        D.MNIST(str(tmp_path))
    (raw / "train-labels-idx1-ubyte").write_bytes(b"\x00\x00\x08\x01\x00\x00\x00\x03" + bytes(3))
    with pytest.raises(RuntimeError, match="6 images but 3 labels"):
        D.FashionMNIST(str(tmp_path))


def test_mnist_download_with_mirror_fallback(tmp_path, server):
    www, url, seen = server
    resources = []
    for name, data in _mnist_files().items():
        gz = www / "mirror2" / (name + ".gz")
        gz.parent.mkdir(exist_ok=True)
        gz.write_bytes(gzip.compress(data))
        resources.append((name + ".gz", md5(gz)))
    cls = type("LocalMNIST", (D.MNIST,), {"mirrors": [url + "missing/", url + "mirror2/"], "resources": resources})
    ds = cls(str(tmp_path / "data"), download=True)
    assert len(ds) == 6 and ds[1][1] == 1
    assert seen[0].startswith("/missing/") and seen[1].startswith("/mirror2/")


# ---------------------------------------------------------------- VOC, COCO, WIDERFace

def test_voc_segmentation(tmp_path):
    voc = tmp_path / "VOCdevkit" / "VOC2012"
    for name in ("a", "b"):
        save_image(str(voc / "JPEGImages" / f"{name}.jpg"), size=(10, 7))
        mask = Image.fromarray(RNG.integers(0, 21, (7, 10), dtype=np.uint8), "L").convert("P")
        os.makedirs(voc / "SegmentationClass", exist_ok=True)
        mask.save(voc / "SegmentationClass" / f"{name}.png")
    (voc / "ImageSets" / "Segmentation").mkdir(parents=True)
    (voc / "ImageSets" / "Segmentation" / "train.txt").write_text("a\nb\n")
    ds = D.VOCSegmentation(str(tmp_path), image_set="train")
    img, target = ds[1]
    assert len(ds) == 2 and img.mode == "RGB" and target.mode == "P" and target.size == (10, 7)
    with pytest.raises(ValueError, match="Unknown value 'test' for argument image_set"):
        D.VOCSegmentation(str(tmp_path), image_set="test")
    with pytest.raises(ValueError, match="not found"):
        D.VOCSegmentation(str(tmp_path), image_set="val")
    with pytest.raises(RuntimeError, match="Dataset not found"):
        D.VOCSegmentation(str(tmp_path), year="2007")


def test_coco_detection_without_pycocotools(tmp_path):
    save_image(str(tmp_path / "img" / "1.jpg"))
    save_image(str(tmp_path / "img" / "2.jpg"))
    ann = {"images": [{"id": 7, "file_name": "2.jpg"}, {"id": 3, "file_name": "1.jpg"}],
           "annotations": [{"id": 1, "image_id": 7, "bbox": [1, 1, 2, 2], "category_id": 1, "caption": "x"},
                           {"id": 2, "image_id": 3, "bbox": [0, 0, 1, 1], "category_id": 2, "caption": "y"},
                           {"id": 5, "image_id": 7, "bbox": [2, 2, 3, 3], "category_id": 1, "caption": "z"}],
           "categories": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}
    (tmp_path / "ann.json").write_text(json.dumps(ann))
    ds = D.CocoDetection(str(tmp_path / "img"), str(tmp_path / "ann.json"))
    assert ds.ids == [3, 7]
    img, target = ds[1]
    assert img.mode == "RGB" and [a["id"] for a in target] == [1, 5]
    caps = D.CocoCaptions(str(tmp_path / "img"), str(tmp_path / "ann.json"))
    assert caps[1][1] == ["x", "z"]
    with pytest.raises(ValueError, match="Only transforms or transform/target_transform"):
        D.CocoDetection(str(tmp_path), str(tmp_path / "ann.json"), transform=T.ToTensor(),
                        transforms=lambda a, b: (a, b))


def test_widerface(tmp_path):
    root = tmp_path / "widerface"
    for split in ("train", "val", "test"):
        save_image(str(root / f"WIDER_{split}" / "images" / "0--Parade" / "a.jpg"))
        save_image(str(root / f"WIDER_{split}" / "images" / "0--Parade" / "b.jpg"))
    split_dir = root / "wider_face_split"
    split_dir.mkdir()
    gt = "0--Parade/a.jpg\n2\n1 2 3 4 0 0 0 0 0 0\n5 6 7 8 1 0 1 0 0 1\n0--Parade/b.jpg\n0\n0 0 0 0 0 0 0 0 0 0\n"
    (split_dir / "wider_face_train_bbx_gt.txt").write_text(gt)
    (split_dir / "wider_face_val_bbx_gt.txt").write_text(gt)
    (split_dir / "wider_face_test_filelist.txt").write_text("0--Parade/a.jpg\n0--Parade/b.jpg\n")
    ds = D.WIDERFace(str(tmp_path), split="train")
    assert len(ds) == 2
    img, target = ds[0]
    assert img.mode == "RGB"
    assert target["bbox"].tolist() == [[1, 2, 3, 4], [5, 6, 7, 8]] and target["invalid"].tolist() == [0, 1]
    assert target["bbox"].dtype == core.int64 and ds[1][1]["bbox"].tolist() == [[0, 0, 0, 0]]
    test = D.WIDERFace(str(tmp_path), split="test")
    assert len(test) == 2 and test[1][1] is None
    (split_dir / "wider_face_val_bbx_gt.txt").write_text("0--Parade/a.jpg\n2\n1 2 3 4 0 0 0 0 0 0\n")
    with pytest.raises(RuntimeError, match="Error parsing annotation file"):
        D.WIDERFace(str(tmp_path), split="val")
    with pytest.raises(RuntimeError, match="Dataset not found"):
        D.WIDERFace(str(tmp_path / "nowhere"))


# ---------------------------------------------------------------- downloads and archives

def test_download_url_md5(tmp_path, server):
    www, url, seen = server
    (www / "f.bin").write_bytes(b"hello")
    good = hashlib.md5(b"hello").hexdigest()
    download_url(url + "f.bin", str(tmp_path / "d"), md5=good)
    assert check_integrity(str(tmp_path / "d" / "f.bin"), good)
    download_url(url + "f.bin", str(tmp_path / "d"), md5=good)
    assert seen == ["/f.bin"]  # the verified file is reused
    with pytest.raises(hub.HashMismatchError, match=f'expected "{"0" * 32}", got "{good}"'):
        download_url(url + "f.bin", str(tmp_path / "e"), filename="g.bin", md5="0" * 32)
    assert os.listdir(tmp_path / "e") == []  # nothing kept, no temp file
    with pytest.raises(hub.DownloadError, match="HTTP 404"):
        download_url(url + "absent.bin", str(tmp_path / "e"))
    assert os.listdir(tmp_path / "e") == []


def _tar_with(path, entries):
    """entries: (name, kind, payload) with kind file/symlink/hardlink/fifo."""
    with tarfile.open(path, "w") as tar:
        for name, kind, payload in entries:
            info = tarfile.TarInfo(name)
            if kind == "file":
                info.size = len(payload)
                tar.addfile(info, io.BytesIO(payload))
                continue
            info.type = {"symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE, "fifo": tarfile.FIFOTYPE}[kind]
            info.linkname = payload or ""
            tar.addfile(info)


@pytest.mark.parametrize("entries, why", [
    ([("ok.txt", "file", b"1"), ("../evil.txt", "file", b"2")], "escapes"),
    ([("a/../../evil.txt", "file", b"2")], "escapes"),
    ([("/tmp/evil_abs.txt", "file", b"2")], "absolute path"),
    ([("link", "symlink", "../../outside")], "is a link"),
    ([("link", "symlink", "/etc/passwd")], "is a link"),
    ([("hard", "hardlink", "../outside")], "is a link"),
    ([("pipe", "fifo", None)], "is a device or special file"),
])
def test_tar_traversal_refused(tmp_path, entries, why):
    archive = tmp_path / "bad.tar"
    _tar_with(archive, entries)
    dest = tmp_path / "out"
    with pytest.raises(UnsafeArchiveError, match=why):
        extract_archive(str(archive), str(dest))
    assert not os.path.exists(tmp_path / "evil.txt")
    assert os.listdir(dest) == []  # checked before anything was written


def test_zip_traversal_refused(tmp_path):
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("fine.txt", "ok")
        zf.writestr("../evil.txt", "x")
    with pytest.raises(UnsafeArchiveError, match="escapes"):
        extract_archive(str(archive), str(tmp_path / "out"))
    assert not os.path.exists(tmp_path / "evil.txt") and os.listdir(tmp_path / "out") == []


def test_extract_formats(tmp_path):
    src = tmp_path / "src"
    (src / "d").mkdir(parents=True)
    (src / "d" / "a.txt").write_text("A")
    for fmt, suffix in (("gztar", ".tar.gz"), ("xztar", ".tar.xz"), ("zip", ".zip"), ("tar", ".tar")):
        archive = shutil.make_archive(str(tmp_path / f"arc_{fmt}"), fmt, root_dir=src)
        assert archive.endswith(suffix)
        out = tmp_path / f"out_{fmt}"
        extract_archive(archive, str(out), remove_finished=True)
        assert (out / "d" / "a.txt").read_text() == "A" and not os.path.exists(archive)
    gz = tmp_path / "single.bin.gz"
    gz.write_bytes(gzip.compress(b"payload"))
    extract_archive(str(gz))
    assert (tmp_path / "single.bin").read_bytes() == b"payload"
    with pytest.raises(ValueError, match="not supported"):
        extract_archive(str(tmp_path / "x.rar"))


def test_verify_str_arg():
    assert verify_str_arg("a", "x", ("a", "b")) == "a"
    with pytest.raises(ValueError, match="Unknown value 'c' for argument x. Valid values are {'a', 'b'}."):
        verify_str_arg("c", "x", ("a", "b"))
    with pytest.raises(ValueError, match="Expected type str"):
        verify_str_arg(3, "x")


# ---------------------------------------------------------------- Shapes

def _sample_bytes(ds, i):
    img, target = ds[i]
    parts = [img.tobytes()]
    if isinstance(target, dict):
        parts += [v.numpy().tobytes() for _, v in sorted(target.items())]
    elif isinstance(target, Image.Image):
        parts.append(target.tobytes())
    else:
        parts.append(str(target).encode())
    return hashlib.sha256(b"".join(parts)).hexdigest()


@pytest.mark.parametrize("task", ["classification", "detection", "segmentation"])
def test_shapes_deterministic(task):
    a = D.Shapes(task=task, size=20, image_size=48, seed=3)
    b = D.Shapes(task=task, size=20, image_size=48, seed=3)
    forward = [_sample_bytes(a, i) for i in range(20)]
    backward = [_sample_bytes(b, i) for i in reversed(range(20))][::-1]
    assert forward == backward
    assert forward != [_sample_bytes(D.Shapes(task=task, size=20, image_size=48, seed=4), i) for i in range(20)]
    assert forward != [_sample_bytes(D.Shapes(split="val", task=task, size=20, image_size=48, seed=3), i)
                       for i in range(20)]


def test_shapes_same_in_a_fresh_interpreter():
    here = [hashlib.sha256(D.Shapes(task="detection", size=5, seed=9)[i][0].tobytes()).hexdigest()
            for i in range(5)]
    code = ("import hashlib\nfrom vision.datasets import Shapes\nds = Shapes(task='detection', size=5, seed=9)\n"
            "print(','.join(hashlib.sha256(ds[i][0].tobytes()).hexdigest() for i in range(5)))")
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().split(",") == here


def test_shapes_layout_is_pinned():
    """The layout comes from a counter-based integer hash, not numpy: pinned values."""
    background, placed = D.Shapes(task="detection", size=1, seed=0)._layout(0)
    assert background == (42, 79, 105)
    assert [p[0] for p in placed] == [2]
    assert [round(v, 3) for v in placed[0][1:4]] == [43.609, 35.697, 13.208]


def test_shapes_targets_consistent():
    det = D.Shapes(task="detection", size=30, image_size=(40, 56), max_shapes=4, seed=1)
    seg = D.Shapes(task="segmentation", size=30, image_size=(40, 56), max_shapes=4, seed=1)
    counts = set()
    for i in range(30):
        img, t = det[i]
        n = t["labels"].shape[0]
        counts.add(n)
        assert img.size == (56, 40) and 1 <= n <= 4
        masks, boxes = t["masks"].numpy(), t["boxes"].numpy()
        assert masks.shape == (n, 40, 56) and masks.dtype == np.uint8 and boxes.dtype == np.float32
        assert set(t["labels"].tolist()) <= {1, 2, 3} and t["iscrowd"].tolist() == [0] * n
        for m, (x1, y1, x2, y2), area in zip(masks, boxes, t["area"].tolist()):
            ys, xs = np.nonzero(m)
            assert (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1) == (x1, y1, x2, y2) and m.sum() == area
            assert 0 <= x1 < x2 <= 56 and 0 <= y1 < y2 <= 40
        assert masks.sum(axis=0).max() == 1  # no overlaps
        seg_img, seg_t = seg[i]
        assert seg_img.tobytes() == img.tobytes() and seg_t.mode == "P"
        ids = np.asarray(seg_t)
        expected = np.zeros_like(ids)
        for m, label in zip(masks, t["labels"].tolist()):
            expected[m > 0] = label
        np.testing.assert_array_equal(ids, expected)
        # the shapes' pixels carry their colour, the rest the background colour
        pixels = np.asarray(img).reshape(-1, 3)[masks.sum(axis=0).ravel() == 0]
        assert len(np.unique(pixels, axis=0)) == 1
    assert len(counts) > 2
    cls = D.Shapes(size=50, seed=2)
    labels = [cls[i][1] for i in range(50)]
    assert set(labels) == {0, 1, 2} and cls.classes == ["circle", "square", "triangle"]
    with pytest.raises(IndexError):
        cls[50]
    with pytest.raises(ValueError, match="task"):
        D.Shapes(task="depth")
    assert "Task: classification" in repr(cls)


def test_shapes_radius_range_and_upright_shapes():
    default = D.Shapes(task="detection", size=12, image_size=64, seed=5)
    big = D.Shapes(task="detection", size=12, image_size=64, seed=5, radius=(0.25, 0.3))
    upright = D.Shapes(task="detection", size=12, image_size=64, seed=5, rotate=False)
    squares = 0
    for i in range(12):
        for _, _, _, r, _, _ in big._layout(i)[1]:
            assert 0.25 * 64 <= r <= 0.3 * 64
        turned, straight = default._layout(i), upright._layout(i)
        # the same draws, only the angles are zero
        assert [p[:4] + p[5:] for p in turned[1]] == [p[:4] + p[5:] for p in straight[1]]
        assert all(p[4] == 0.0 for p in straight[1])
        _, target = upright[i]
        for label, mask in zip(target["labels"].tolist(), target["masks"].numpy()):
            if label == 2:  # an axis-aligned square fills its box
                squares += 1
                ys, xs = np.nonzero(mask)
                assert mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1].all()
    assert squares > 0
    with pytest.raises(ValueError, match="radius"):
        D.Shapes(radius=(0.3, 0.2))
    with pytest.raises(ValueError, match="radius"):
        D.Shapes(radius=(0.1, 0.6))


def test_shapes_in_a_dataloader():
    from core.utils.data import DataLoader

    ds = D.Shapes(size=8, image_size=32, transform=T.ToTensor())
    images, labels = next(iter(DataLoader(ds, batch_size=4)))
    assert tuple(images.shape) == (4, 3, 32, 32) and labels.tolist() == [ds[i][1] for i in range(4)]


def test_dataset_repr_with_transforms():
    ds = D.Shapes(size=2, transform=T.Compose([T.ToTensor()]), target_transform=T.Lambda(int))
    assert repr(ds) == ("Dataset Shapes\n    Number of datapoints: 2\n    Split: train\n    Task: classification\n"
                        "    Image size: (64, 64)\n    StandardTransform\nTransform: Compose(\n"
                        "               ToTensor()\n           )\nTarget transform: Lambda()")
