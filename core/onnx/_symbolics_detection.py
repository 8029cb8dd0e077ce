"""Converters for the detection models' ops: topk, nms (NonMaxSuppression) and roi_align
(RoiAlign)."""
import numpy as np

from core.fx.node import Node
from core.onnx._context import ExportError
from core.onnx._symbolics import REQUIRED, converter, need_opset, rank_of, shape_vector, slice_axis, squeeze, unsqueeze


@converter("method:topk", "op:topk", params=(("input", REQUIRED), ("k", REQUIRED), ("dim", -1), ("largest", True),
                                             ("sorted", True)))
def _topk(ctx, a):
    need_opset(ctx, 11, "topk")
    k = shape_vector(ctx, [a["k"]])  # a computed k (min(n, size)) stays in the graph
    return ctx.emit("TopK", [ctx.name_of(a["input"]), k], n_outputs=2, axis=a["dim"] % rank_of(ctx, a["input"]),
                    largest=int(bool(a["largest"])), sorted=int(bool(a["sorted"])))


@converter("op:nms", params=(("boxes", REQUIRED), ("scores", REQUIRED), ("iou_threshold", REQUIRED)))
def _nms(ctx, a):
    """The kept indices, best score first: NonMaxSuppression of one batch and one class,
    without an output limit, discarding IoU > threshold as torchvision does."""
    need_opset(ctx, 10, "nms (NonMaxSuppression)")
    dtype = ctx.dtype_of(a["boxes"])
    boxes = unsqueeze(ctx, ctx.name_of(a["boxes"]), [0])
    scores = unsqueeze(ctx, ctx.cast(a["scores"], dtype), [0, 1])
    limit = ctx.int64s([np.iinfo(np.int64).max], "max_output_boxes")
    threshold = ctx.constant(np.asarray([a["iou_threshold"]], np.float32), "iou_threshold") \
        if not isinstance(a["iou_threshold"], Node) else ctx.cast(a["iou_threshold"], np.float32)
    selected = ctx.emit("NonMaxSuppression", [boxes, scores, limit, threshold])  # [k, (batch, class, box)]
    return squeeze(ctx, slice_axis(ctx, selected, 1, 2, 3), [1])


@converter("op:roi_align", params=(("input", REQUIRED), ("rois", REQUIRED), ("spatial_scale", 1.0),
                                   ("pooled_height", REQUIRED), ("pooled_width", REQUIRED), ("sampling_ratio", -1),
                                   ("aligned", False)))
def _roi_align(ctx, a):
    """RoiAlign on rois [K, 5] (batch index, x1, y1, x2, y2). aligned=False is the legacy
    "output_half_pixel" rule (the only one before opset 16); aligned=True is "half_pixel"."""
    need_opset(ctx, 10, "roi_align (RoiAlign)")
    extra = {}
    if ctx.opset >= 16:
        extra["coordinate_transformation_mode"] = "half_pixel" if a["aligned"] else "output_half_pixel"
    elif a["aligned"]:
        raise ExportError("onnx.export: roi_align with aligned=True needs opset_version >= 16 "
                          "(RoiAlign's coordinate_transformation_mode)")
    rois = ctx.name_of(a["rois"])
    batch_indices = ctx.emit("Cast", [squeeze(ctx, slice_axis(ctx, rois, 1, 0, 1), [1])], to=7)
    boxes = slice_axis(ctx, rois, 1, 1, 5)
    return ctx.emit("RoiAlign", [ctx.name_of(a["input"]), boxes, batch_indices], mode="avg",
                    output_height=int(a["pooled_height"]), output_width=int(a["pooled_width"]),
                    sampling_ratio=max(int(a["sampling_ratio"]), 0), spatial_scale=float(a["spatial_scale"]), **extra)
