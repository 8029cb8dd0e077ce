"""WIDERFace: face boxes with attributes (root/widerface/{WIDER_<split>, wider_face_split})."""
import os

from PIL import Image

import core
from vision.datasets.utils import (download_and_extract_archive, download_file_from_google_drive, extract_archive,
                                   verify_str_arg)
from vision.datasets.vision import VisionDataset


class WIDERFace(VisionDataset):
    """(image, target) with target a dict of int64 tensors: bbox (N, 4) as x, y, w, h, and
    blur, expression, illumination, occlusion, pose, invalid (N,); None for the test split."""
    BASE_FOLDER = "widerface"
    FILE_LIST = [
        # Google Drive file id, md5, file name
        ("0B6eKvaijfFUDQUUwd21EckhUbWs", "3fedf70df600953d25982bcd13d91ba2", "WIDER_train.zip"),
        ("0B6eKvaijfFUDd3dIRmpvSk8tLUk", "dfa7d7e790efa35df3788964cf0bbaea", "WIDER_val.zip"),
        ("0B6eKvaijfFUDbW4tdGpaYjgzZkU", "e5d8f4248ed24c334bbd12f49c29dd40", "WIDER_test.zip"),
    ]
    ANNOTATIONS_FILE = ("http://shuoyang1213.me/WIDERFACE/support/bbx_annotation/wider_face_split.zip",
                        "0e3767bcf0e326556d407bf5bff5d27c", "wider_face_split.zip")
    _FIELDS = ("blur", "expression", "illumination", "occlusion", "pose", "invalid")

    def __init__(self, root, split="train", transform=None, target_transform=None, download=False):
        super().__init__(os.path.join(os.fspath(root), self.BASE_FOLDER), transform=transform,
                         target_transform=target_transform)
        self.split = verify_str_arg(split, "split", ("train", "val", "test"))
        if download:
            self.download()
        if not self._check_integrity():
            raise RuntimeError("Dataset not found or corrupted. You can use download=True to download and prepare it")
        self.img_info = []
        if self.split in ("train", "val"):
            self.parse_train_val_annotations_file()
        else:
            self.parse_test_annotations_file()

    def __getitem__(self, index):
        img = Image.open(self.img_info[index]["img_path"]).convert("RGB")
        target = None if self.split == "test" else self.img_info[index]["annotations"]
        return self._apply_transforms(img, target)

    def __len__(self):
        return len(self.img_info)

    def extra_repr(self):
        return f"Split: {self.split}"

    def _annotations(self, rows):
        labels = core.tensor(rows, dtype=core.int64).reshape(-1, 10)
        ann = {"bbox": labels[:, 0:4].clone()}
        for k, name in enumerate(self._FIELDS):
            ann[name] = labels[:, 4 + k].clone()
        return ann

    def parse_train_val_annotations_file(self):
        """Blocks of: image path, box count, then that many lines of 10 integers (an image
        with 0 boxes still has one all-zero line, which is read as its box, as upstream)."""
        filename = "wider_face_train_bbx_gt.txt" if self.split == "train" else "wider_face_val_bbx_gt.txt"
        filepath = os.path.join(self.root, "wider_face_split", filename)
        with open(filepath) as f:
            lines = [line.rstrip() for line in f]
        pos = 0
        try:
            while pos < len(lines):
                if not lines[pos]:
                    pos += 1
                    continue
                img_path = os.path.abspath(os.path.join(self.root, "WIDER_" + self.split, "images", lines[pos]))
                num_boxes = int(lines[pos + 1])
                count = max(num_boxes, 1)
                rows = [[int(x) for x in lines[pos + 2 + k].split()] for k in range(count)]
                if any(len(r) != 10 for r in rows):
                    raise ValueError("a box line does not hold 10 integers")
                self.img_info.append({"img_path": img_path, "annotations": self._annotations(rows)})
                pos += 2 + count
        except (IndexError, ValueError) as e:
            raise RuntimeError(f"Error parsing annotation file {filepath} near line {pos + 1}: {e}") from None

    def parse_test_annotations_file(self):
        filepath = os.path.join(self.root, "wider_face_split", "wider_face_test_filelist.txt")
        with open(filepath) as f:
            for line in f:
                line = line.rstrip()
                if line:
                    self.img_info.append({"img_path": os.path.abspath(os.path.join(self.root, "WIDER_test", "images",
                                                                                   line))})

    def _check_integrity(self):
        # the extracted folders must be there (the zip files may have been removed)
        for _, _, filename in self.FILE_LIST + [self.ANNOTATIONS_FILE]:
            if not os.path.isdir(os.path.join(self.root, os.path.splitext(filename)[0])):
                return False
        return True

    def download(self):
        if self._check_integrity():
            print("Files already downloaded and verified")
            return
        for file_id, md5, filename in self.FILE_LIST:
            download_file_from_google_drive(file_id, self.root, filename, md5)
            extract_archive(os.path.join(self.root, filename))
        download_and_extract_archive(url=self.ANNOTATIONS_FILE[0], download_root=self.root,
                                     md5=self.ANNOTATIONS_FILE[1])
