"""COCO for the segmentation references: the 20 VOC categories (and background) as a class-id
mask per image, rasterised from the polygons with pycocotools (the `detection` extra); training
keeps the images with more than 1000 annotated pixels."""
import copy
import os

from PIL import Image

import core
from core.utils.data import Subset
from vision.datasets import CocoDetection

import transforms as T

# COCO category ids of background + the 20 VOC classes, in VOC order
CAT_LIST = [0, 5, 2, 16, 9, 44, 6, 3, 17, 62, 21, 67, 18, 19, 4, 1, 64, 20, 63, 7, 72]


def _require_pycocotools():
    try:
        from pycocotools import mask as coco_mask
    except ImportError:
        raise ImportError("COCO segmentation masks need pycocotools: pip install 'tensorzoo[detection]'") from None
    return coco_mask


class FilterAndRemapCocoCategories:
    def __init__(self, categories, remap=True):
        self.categories = categories
        self.remap = remap

    def __call__(self, image, anno):
        anno = [obj for obj in anno if obj["category_id"] in self.categories]
        if not self.remap:
            return image, anno
        anno = copy.deepcopy(anno)
        for obj in anno:
            obj["category_id"] = self.categories.index(obj["category_id"])
        return image, anno


def convert_coco_poly_to_mask(segmentations, height, width):
    """(N, H, W) uint8 masks of the polygon lists."""
    coco_mask = _require_pycocotools()
    masks = []
    for polygons in segmentations:
        rles = coco_mask.frPyObjects(polygons, height, width)
        mask = coco_mask.decode(rles)
        if mask.ndim < 3:
            mask = mask[..., None]
        masks.append(core.from_numpy(mask.any(axis=2).astype("uint8")))
    return core.stack(masks) if masks else core.zeros((0, height, width), dtype=core.uint8)


class ConvertCocoPolysToMask:
    """(image, annotations) -> (image, "L" mask of class ids; 255 where instances of different
    classes overlap)."""

    def __call__(self, image, anno):
        w, h = image.size
        segmentations = [obj["segmentation"] for obj in anno]
        cats = [obj["category_id"] for obj in anno]
        if segmentations:
            masks = convert_coco_poly_to_mask(segmentations, h, w)
            cats = core.tensor(cats, dtype=masks.dtype)
            target, _ = (masks * cats[:, None, None]).max(dim=0)  # the largest class id wins
            target[masks.sum(0) > 1] = 255  # overlapping instances are ambiguous
        else:
            target = core.zeros((h, w), dtype=core.uint8)
        return image, Image.fromarray(target.numpy())


def _coco_remove_images_without_annotations(dataset, cat_list=None):
    """The images whose annotations of `cat_list` cover more than 1000 pixels."""
    ids = []
    for ds_idx, img_id in enumerate(dataset.ids):
        anno = dataset.coco.loadAnns(dataset.coco.getAnnIds(imgIds=img_id))
        if cat_list:
            anno = [obj for obj in anno if obj["category_id"] in cat_list]
        if anno and sum(obj["area"] for obj in anno) > 1000:
            ids.append(ds_idx)
    return Subset(dataset, ids)


class _CocoPairs(CocoDetection):
    def __init__(self, img_folder, ann_file, transforms):
        super().__init__(img_folder, ann_file)
        self._pair_transforms = transforms

    def __getitem__(self, idx):
        image, anno = super().__getitem__(idx)
        return self._pair_transforms(image, anno)


def get_coco(root, image_set, transforms):
    paths = {"train": ("train2017", os.path.join("annotations", "instances_train2017.json")),
             "val": ("val2017", os.path.join("annotations", "instances_val2017.json"))}
    img_folder, ann_file = paths[image_set]
    pair_transforms = T.Compose([FilterAndRemapCocoCategories(CAT_LIST, remap=True), ConvertCocoPolysToMask(),
                                 transforms])
    dataset = _CocoPairs(os.path.join(root, img_folder), os.path.join(root, ann_file), pair_transforms)
    if image_set == "train":
        dataset = _coco_remove_images_without_annotations(dataset, CAT_LIST)
    return dataset
