"""COCO for the detection references: CocoDetection's annotation lists turned into the target
dicts the models take (boxes xyxy, labels, image_id, area, iscrowd), images without usable
annotations dropped from training, and any detection dataset (Shapes) turned into a COCO index
for the evaluator."""
import os

import core
from core.utils.data import Subset
from vision.datasets import CocoDetection

import transforms as T
from coco_eval import coco_api


class ConvertCocoPolysToMask:
    """(image, [COCO annotations]) -> (image, target dict); crowd regions are dropped, boxes
    converted from xywh to xyxy and clipped to the image, empty boxes removed. (Faster R-CNN takes
    no masks, so the polygons are not rasterised.)"""

    def __call__(self, image, target):
        width, height = image.size
        anno = [obj for obj in target["annotations"] if obj.get("iscrowd", 0) == 0]
        boxes = core.tensor([obj["bbox"] for obj in anno], dtype=core.float32).reshape(-1, 4)
        boxes[:, 2:] += boxes[:, :2]
        boxes[:, 0::2] = boxes[:, 0::2].clamp(min=0, max=width)
        boxes[:, 1::2] = boxes[:, 1::2].clamp(min=0, max=height)
        keep = (boxes[:, 3] > boxes[:, 1]) & (boxes[:, 2] > boxes[:, 0])
        classes = core.tensor([obj["category_id"] for obj in anno], dtype=core.int64)
        area = core.tensor([obj["area"] for obj in anno], dtype=core.float32)
        iscrowd = core.tensor([obj.get("iscrowd", 0) for obj in anno], dtype=core.int64)
        return image, {"boxes": boxes[keep], "labels": classes[keep], "image_id": core.tensor([target["image_id"]]),
                       "area": area[keep], "iscrowd": iscrowd[keep]}


class CocoDetectionWithIds(CocoDetection):
    """CocoDetection whose target is {"image_id", "annotations"}, ready for ConvertCocoPolysToMask."""

    def __init__(self, img_folder, ann_file, transforms):
        super().__init__(img_folder, ann_file)
        self._pair_transforms = transforms

    def __getitem__(self, idx):
        image, annotations = super().__getitem__(idx)
        target = {"image_id": self.ids[idx], "annotations": annotations}
        if self._pair_transforms is not None:
            image, target = self._pair_transforms(image, target)
        return image, target


def _has_valid_annotation(anno):
    """At least one box wider and taller than 1 pixel."""
    return any(all(side > 1 for side in obj["bbox"][2:]) for obj in anno)


def remove_images_without_annotations(dataset, cat_list=None):
    keep = []
    for index, img_id in enumerate(dataset.ids):
        anno = dataset.coco.loadAnns(dataset.coco.getAnnIds(imgIds=img_id))
        if cat_list:
            anno = [obj for obj in anno if obj["category_id"] in cat_list]
        if _has_valid_annotation(anno):
            keep.append(index)
    return Subset(dataset, keep)


def get_coco(root, image_set, transforms):
    """COCO 2017 train / val under `root` (train2017/, val2017/, annotations/instances_*.json)."""
    paths = {"train": ("train2017", os.path.join("annotations", "instances_train2017.json")),
             "val": ("val2017", os.path.join("annotations", "instances_val2017.json"))}
    img_folder, ann_file = paths[image_set]
    pair_transforms = [ConvertCocoPolysToMask()] + ([transforms] if transforms is not None else [])
    dataset = CocoDetectionWithIds(os.path.join(root, img_folder), os.path.join(root, ann_file),
                                   T.Compose(pair_transforms))
    if image_set == "train":
        dataset = remove_images_without_annotations(dataset)
    return dataset


def convert_to_coco_api(dataset):
    """A pycocotools COCO index of a detection dataset's targets (images numbered by image_id)."""
    images, annotations, categories = [], [], set()
    for index in range(len(dataset)):
        image, target = dataset[index]
        image_id = int(target["image_id"].item())
        images.append({"id": image_id, "height": int(image.shape[-2]), "width": int(image.shape[-1])})
        boxes = target["boxes"].clone()
        boxes[:, 2:] -= boxes[:, :2]  # xyxy -> xywh
        labels = target["labels"].tolist()
        areas = target["area"].tolist() if "area" in target else (boxes[:, 2] * boxes[:, 3]).tolist()
        crowd = target["iscrowd"].tolist() if "iscrowd" in target else [0] * len(labels)
        for box, label, area, iscrowd in zip(boxes.tolist(), labels, areas, crowd):
            categories.add(label)
            annotations.append({"id": len(annotations) + 1, "image_id": image_id, "bbox": box,
                                "category_id": label, "area": area, "iscrowd": iscrowd})
    return coco_api({"images": images, "annotations": annotations,
                     "categories": [{"id": c} for c in sorted(categories)]})


def get_coco_api_from_dataset(dataset):
    while isinstance(dataset, Subset):
        dataset = dataset.dataset
    if isinstance(dataset, CocoDetection) and hasattr(dataset.coco, "loadRes"):
        return dataset.coco
    return convert_to_coco_api(dataset)
