"""Box utilities in (x1, y1, x2, y2) absolute coordinates: NMS, areas, IoUs, conversions."""
import core
from vision.ops import _ops

__all__ = ["nms", "batched_nms", "remove_small_boxes", "clip_boxes_to_image", "box_convert", "box_area", "box_iou",
           "generalized_box_iou"]


def nms(boxes, scores, iou_threshold):
    """Non-maximum suppression: the indices (int64) of the kept boxes, by decreasing score.

    A box is discarded when its IoU with a higher-scoring kept box is > iou_threshold.

    Args:
        boxes (Tensor[N, 4]): (x1, y1, x2, y2) with 0 <= x1 < x2 and 0 <= y1 < y2.
        scores (Tensor[N]): a score per box.
        iou_threshold (float): discards overlapping boxes with IoU > iou_threshold.
    """
    return _ops.nms(boxes, scores, float(iou_threshold))


def batched_nms(boxes, scores, idxs, iou_threshold):
    """NMS per category `idxs` (boxes of different categories never suppress each other):
    the boxes are offset per category so that they cannot overlap, then one nms runs."""
    if boxes.numel() == 0:
        return core.empty((0,), dtype=core.int64)
    max_coordinate = boxes.max()
    offsets = idxs.to(boxes.dtype) * (max_coordinate + 1)
    boxes_for_nms = boxes + offsets[:, None]
    return nms(boxes_for_nms, scores, iou_threshold)


def remove_small_boxes(boxes, min_size):
    """Indices of the boxes whose width and height are both >= min_size."""
    ws, hs = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    keep = (ws >= min_size) & (hs >= min_size)
    return core.where(keep)[0]


def clip_boxes_to_image(boxes, size):
    """Clamps boxes [..., 4] to an image of `size` (height, width)."""
    dim = boxes.dim()
    height, width = size
    boxes_x = boxes[..., 0::2].clamp(min=0, max=width)
    boxes_y = boxes[..., 1::2].clamp(min=0, max=height)
    return core.stack((boxes_x, boxes_y), dim=dim).reshape(boxes.shape)


def _xywh_to_xyxy(boxes):
    x, y, w, h = boxes.unbind(-1)
    return core.stack([x, y, x + w, y + h], dim=-1)


def _xyxy_to_xywh(boxes):
    x1, y1, x2, y2 = boxes.unbind(-1)
    return core.stack([x1, y1, x2 - x1, y2 - y1], dim=-1)


def _cxcywh_to_xyxy(boxes):
    cx, cy, w, h = boxes.unbind(-1)
    return core.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)


def _xyxy_to_cxcywh(boxes):
    x1, y1, x2, y2 = boxes.unbind(-1)
    return core.stack([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1], dim=-1)


_TO_XYXY = {"xyxy": lambda b: b, "xywh": _xywh_to_xyxy, "cxcywh": _cxcywh_to_xyxy}
_FROM_XYXY = {"xyxy": lambda b: b, "xywh": _xyxy_to_xywh, "cxcywh": _xyxy_to_cxcywh}


def box_convert(boxes, in_fmt, out_fmt):
    """Converts boxes [N, 4] between 'xyxy', 'xywh' (corner, size) and 'cxcywh' (center, size)."""
    if in_fmt not in _TO_XYXY or out_fmt not in _TO_XYXY:
        raise ValueError("Unsupported Bounding Box Conversions for given in_fmt and out_fmt")
    if in_fmt == out_fmt:
        return boxes.clone()
    return _FROM_XYXY[out_fmt](_TO_XYXY[in_fmt](boxes))


def _upcast(t):
    """Products of coordinates without overflow: floats to >= float32, ints to >= int32."""
    if t.is_floating_point():
        return t if t.dtype in (core.float32, core.float64) else t.float()
    return t if t.dtype in (core.int32, core.int64) else t.int()


def box_area(boxes):
    """Areas of boxes [N, 4] in (x1, y1, x2, y2) format."""
    boxes = _upcast(boxes)
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def _box_inter_union(boxes1, boxes2):
    area1, area2 = box_area(boxes1), box_area(boxes2)
    lt = core.maximum(boxes1[:, None, :2], boxes2[:, :2])
    rb = core.minimum(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = _upcast(rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    return inter, area1[:, None] + area2 - inter


def box_iou(boxes1, boxes2):
    """Intersection over union [N, M] of boxes1 [N, 4] and boxes2 [M, 4] (x1, y1, x2, y2)."""
    inter, union = _box_inter_union(boxes1, boxes2)
    return inter / union


def generalized_box_iou(boxes1, boxes2):
    """Generalized IoU (Rezatofighi et al. 2019) [N, M]; boxes must have x2 >= x1 and y2 >= y1."""
    assert (boxes1[:, 2:] >= boxes1[:, :2]).all()
    assert (boxes2[:, 2:] >= boxes2[:, :2]).all()
    inter, union = _box_inter_union(boxes1, boxes2)
    iou = inter / union
    lti = core.minimum(boxes1[:, None, :2], boxes2[:, :2])
    rbi = core.maximum(boxes1[:, None, 2:], boxes2[:, 2:])
    whi = _upcast(rbi - lti).clamp(min=0)
    areai = whi[:, :, 0] * whi[:, :, 1]
    return iou - (areai - union) / areai
