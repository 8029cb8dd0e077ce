"""CocoDetection / CocoCaptions. pycocotools is used when installed; otherwise a small
built-in index of the annotation JSON answers the same four queries."""
import json
import os
from collections import defaultdict

from PIL import Image

from vision.datasets.vision import VisionDataset


class _CocoIndex:
    """The subset of pycocotools.coco.COCO the datasets use: imgs, anns, getAnnIds,
    loadAnns, loadImgs."""

    def __init__(self, annotation_file):
        with open(annotation_file) as f:
            dataset = json.load(f)
        if not isinstance(dataset, dict):
            raise RuntimeError(f"annotation file {annotation_file} is not a COCO JSON object")
        self.dataset = dataset
        self.imgs = {img["id"]: img for img in dataset.get("images", [])}
        self.anns = {}
        self.imgToAnns = defaultdict(list)
        for ann in dataset.get("annotations", []):
            self.anns[ann["id"]] = ann
            self.imgToAnns[ann["image_id"]].append(ann)
        self.cats = {cat["id"]: cat for cat in dataset.get("categories", [])}

    @staticmethod
    def _as_list(ids):
        return list(ids) if isinstance(ids, (list, tuple)) else [ids]

    def getAnnIds(self, imgIds=()):  # noqa: N802,N803 - pycocotools' names
        return [ann["id"] for img_id in self._as_list(imgIds) for ann in self.imgToAnns.get(img_id, [])]

    def loadAnns(self, ids=()):  # noqa: N802
        return [self.anns[i] for i in self._as_list(ids)]

    def loadImgs(self, ids=()):  # noqa: N802
        return [self.imgs[i] for i in self._as_list(ids)]


def _coco(annotation_file):
    try:
        from pycocotools.coco import COCO
    except ImportError:
        return _CocoIndex(annotation_file)
    return COCO(annotation_file)


class CocoDetection(VisionDataset):
    """(RGB image, list of annotation dicts) for every image id, in sorted id order."""

    def __init__(self, root, annFile, transform=None, target_transform=None, transforms=None):  # noqa: N803
        super().__init__(root, transforms, transform, target_transform)
        self.coco = _coco(annFile)
        self.ids = list(sorted(self.coco.imgs.keys()))

    def _load_image(self, img_id):
        path = self.coco.loadImgs(img_id)[0]["file_name"]
        return Image.open(os.path.join(self.root, path)).convert("RGB")

    def _load_target(self, img_id):
        return self.coco.loadAnns(self.coco.getAnnIds(imgIds=img_id))

    def __getitem__(self, index):
        img_id = self.ids[index]
        img = self._load_image(img_id)
        target = self._load_target(img_id)
        return self._apply_transforms(img, target)

    def __len__(self):
        return len(self.ids)


class CocoCaptions(CocoDetection):
    """(RGB image, list of caption strings)."""

    def _load_target(self, img_id):
        return [ann["caption"] for ann in super()._load_target(img_id)]
