"""MNIST and FashionMNIST read from the IDX files in root/<ClassName>/raw.

torchvision 0.9 converted the raw files into processed/*.pt (torch.save) files; this
version reads the raw IDX files directly (as later torchvision does), so no pickle of
tensors is involved.
"""
import os

import numpy as np
from PIL import Image

import core
from vision.datasets.utils import check_integrity, download_and_extract_archive
from vision.datasets.vision import VisionDataset

# IDX type byte -> big-endian numpy dtype
_IDX_TYPES = {8: np.dtype(">u1"), 9: np.dtype(">i1"), 11: np.dtype(">i2"), 12: np.dtype(">i4"),
              13: np.dtype(">f4"), 14: np.dtype(">f8")}


def read_idx(path, strict=True):
    """An IDX ('Pascal Vincent' SN3) file as a numpy array in native byte order."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[0] != 0 or data[1] != 0:
        raise RuntimeError(f"read_idx(): {path} is not an IDX file")
    ty, nd = data[2], data[3]
    if ty not in _IDX_TYPES or not 1 <= nd <= 3:
        raise RuntimeError(f"read_idx(): {path} has an unsupported type {ty} or rank {nd}")
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(nd)]
    dtype = _IDX_TYPES[ty]
    flat = np.frombuffer(data, dtype=dtype, offset=4 * (nd + 1))
    count = int(np.prod(shape))
    if flat.size < count or (strict and flat.size != count):
        raise RuntimeError(f"read_idx(): {path} holds {flat.size} values, its header says {count}")
    return flat[:count].astype(dtype.newbyteorder("="), copy=True).reshape(shape)


def read_label_file(path):
    x = read_idx(path, strict=False)
    if x.dtype != np.uint8 or x.ndim != 1:
        raise RuntimeError(f"read_label_file(): expected a 1-D uint8 label file, got {x.dtype} {x.shape}")
    return core.tensor(x, dtype=core.int64)


def read_image_file(path):
    x = read_idx(path, strict=False)
    if x.dtype != np.uint8 or x.ndim != 3:
        raise RuntimeError(f"read_image_file(): expected a 3-D uint8 image file, got {x.dtype} {x.shape}")
    return core.tensor(x)


class MNIST(VisionDataset):
    """MNIST digits, 28x28 grayscale; images are PIL 'L', targets ints."""
    mirrors = ["http://yann.lecun.com/exdb/mnist/", "https://ossci-datasets.s3.amazonaws.com/mnist/"]
    resources = [
        ("train-images-idx3-ubyte.gz", "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
        ("train-labels-idx1-ubyte.gz", "d53e105ee54ea40749a09fcbcd1e9432"),
        ("t10k-images-idx3-ubyte.gz", "9fb629c4189551a2d022fa330f9573f3"),
        ("t10k-labels-idx1-ubyte.gz", "ec29112dd5afa0611ce80d1b7f02629c"),
    ]
    classes = ["0 - zero", "1 - one", "2 - two", "3 - three", "4 - four", "5 - five", "6 - six", "7 - seven",
               "8 - eight", "9 - nine"]

    def __init__(self, root, train=True, transform=None, target_transform=None, download=False):
        super().__init__(root, transform=transform, target_transform=target_transform)
        self.train = train
        if download:
            self.download()
        if not self._check_exists():
            raise RuntimeError("Dataset not found. You can use download=True to download it")
        prefix = "train" if self.train else "t10k"
        self.data = read_image_file(os.path.join(self.raw_folder, f"{prefix}-images-idx3-ubyte"))
        self.targets = read_label_file(os.path.join(self.raw_folder, f"{prefix}-labels-idx1-ubyte"))
        if self.data.shape[0] != self.targets.shape[0]:
            raise RuntimeError(f"{type(self).__name__}: {self.data.shape[0]} images but {self.targets.shape[0]} labels")

    @property
    def raw_folder(self):
        return os.path.join(self.root, self.__class__.__name__, "raw")

    @property
    def class_to_idx(self):
        return {_class: i for i, _class in enumerate(self.classes)}

    def _raw_files(self):
        return [os.path.join(self.raw_folder, os.path.splitext(name)[0]) for name, _ in self.resources]

    def _check_exists(self):
        return all(check_integrity(path) for path in self._raw_files())

    def download(self):
        if self._check_exists():
            return
        os.makedirs(self.raw_folder, exist_ok=True)
        for filename, md5 in self.resources:
            errors = []
            for mirror in self.mirrors:
                url = f"{mirror}{filename}"
                try:
                    download_and_extract_archive(url, download_root=self.raw_folder, filename=filename, md5=md5)
                    break
                except Exception as error:  # noqa: BLE001 - try the next mirror
                    errors.append(f"{url}: {error}")
            else:
                raise RuntimeError(f"Error downloading {filename}:\n" + "\n".join(errors))

    def __getitem__(self, index):
        img, target = self.data[index], int(self.targets[index].item())
        img = Image.fromarray(img.numpy())
        img, target = self._apply_transforms(img, target)
        return img, target

    def __len__(self):
        return len(self.data)

    def extra_repr(self):
        return "Split: {}".format("Train" if self.train is True else "Test")


class FashionMNIST(MNIST):
    """Fashion-MNIST: Zalando's article images in MNIST's format."""
    mirrors = ["http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"]
    resources = [
        ("train-images-idx3-ubyte.gz", "8d4fb7e6c68d591d4c3dfef9ec88bf0d"),
        ("train-labels-idx1-ubyte.gz", "25c81989df183df01b3e8a0aad5dffbe"),
        ("t10k-images-idx3-ubyte.gz", "bef4ecab320f06d8554ea6380940ec79"),
        ("t10k-labels-idx1-ubyte.gz", "bb300cfdad3c16e7a12a480ee83cd310"),
    ]
    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
               "Ankle boot"]


__all__ = ["MNIST", "FashionMNIST", "read_idx", "read_image_file", "read_label_file"]
