"""COCO box mAP through pycocotools' COCOeval (the `detection` extra: pip install
'tensorzoo[detection]'). Each rank collects its detections in COCO's result format; they are
gathered on every rank and evaluated once on the whole set."""
import core.distributed as dist

import utils

PYCOCOTOOLS_MISSING = ("COCO mAP needs pycocotools, which is not installed: pip install 'tensorzoo[detection]' "
                       "(or pip install pycocotools)")


def have_pycocotools():
    try:
        import pycocotools.coco  # noqa: F401
        import pycocotools.cocoeval  # noqa: F401
    except ImportError:
        return False
    return True


def _require_pycocotools():
    if not have_pycocotools():
        raise ImportError(PYCOCOTOOLS_MISSING)


def coco_api(dataset_dict):
    """A pycocotools COCO index of an annotation dict (images, annotations, categories)."""
    _require_pycocotools()
    from pycocotools.coco import COCO
    coco = COCO()
    coco.dataset = dataset_dict
    coco.createIndex()
    return coco


class CocoEvaluator:
    """update({image_id: {"boxes", "scores", "labels"}}) per batch, then
    synchronize_between_processes(), accumulate() and summarize(); coco_eval[iou_type].stats
    holds COCO's 12 numbers (stats[0]: AP@[.5:.95], stats[1]: AP@.5)."""

    def __init__(self, coco_gt, iou_types=("bbox",)):
        _require_pycocotools()
        unsupported = set(iou_types) - {"bbox"}
        if unsupported:
            raise ValueError(f"CocoEvaluator: only bbox evaluation is supported, got {sorted(unsupported)}")
        self.coco_gt = coco_gt
        self.iou_types = list(iou_types)
        self.results = []
        self.img_ids = []
        self.coco_eval = {}

    def update(self, predictions):
        for image_id, prediction in predictions.items():
            self.img_ids.append(int(image_id))
            boxes = prediction["boxes"].clone()
            boxes[:, 2:] -= boxes[:, :2]  # xyxy -> xywh
            for box, score, label in zip(boxes.tolist(), prediction["scores"].tolist(), prediction["labels"].tolist()):
                self.results.append({"image_id": int(image_id), "category_id": int(label), "bbox": box,
                                     "score": float(score)})

    def synchronize_between_processes(self):
        if not utils.is_dist_avail_and_initialized():
            return
        gathered = [None] * utils.get_world_size()
        dist.all_gather_object(gathered, (self.img_ids, self.results))
        self.img_ids = sorted({i for ids, _ in gathered for i in ids})
        self.results = [r for _, results in gathered for r in results]

    def accumulate(self):
        from pycocotools.cocoeval import COCOeval
        for iou_type in self.iou_types:
            # loadRes of an empty list fails; no detection at all is evaluated against an empty result
            coco_dt = self.coco_gt.loadRes(self.results) if self.results else _empty_results(self.coco_gt)
            evaluator = COCOeval(self.coco_gt, coco_dt, iouType=iou_type)
            evaluator.params.imgIds = sorted(set(self.img_ids))
            evaluator.evaluate()
            evaluator.accumulate()
            self.coco_eval[iou_type] = evaluator

    def summarize(self):
        for iou_type, evaluator in self.coco_eval.items():
            print(f"IoU metric: {iou_type}")
            evaluator.summarize()


def _empty_results(coco_gt):
    from pycocotools.coco import COCO
    results = COCO()
    results.dataset = {"images": list(coco_gt.dataset["images"]), "categories": list(coco_gt.dataset["categories"]),
                       "annotations": []}
    results.createIndex()
    return results
