"""Box-argument helpers shared by the RoI ops."""
import core
from core.fx import Proxy


def is_tensor(value):
    """A tensor, or its stand-in while a model is traced (core.jit.trace, core.onnx.export)."""
    return isinstance(value, (core.Tensor, Proxy))


def _cat(tensors, dim=0):
    """core.cat that skips the copy for a single tensor."""
    if len(tensors) == 1:
        return tensors[0]
    return core.cat(tensors, dim)


def convert_boxes_to_roi_format(boxes):
    """A list of per-image boxes [L_i, 4] -> one [K, 5] tensor whose column 0 is the image index."""
    concat_boxes = _cat(list(boxes), dim=0)
    ids = _cat([core.full_like(b[:, :1], i) for i, b in enumerate(boxes)], dim=0)
    return core.cat([ids, concat_boxes], dim=1)


def check_roi_boxes_shape(boxes):
    """torchvision's assertion on the `boxes` argument of the RoI ops."""
    if isinstance(boxes, (list, tuple)):
        for _tensor in boxes:
            assert _tensor.size(1) == 4, \
                "The shape of the tensor in the boxes list is not correct as List[Tensor[L, 4]]"
    elif is_tensor(boxes):
        assert boxes.size(1) == 5, "The boxes tensor shape is not correct as Tensor[K, 5]"
    else:
        assert False, "boxes is expected to be a Tensor[L, 5] or a List[Tensor[K, 4]]"


def as_rois(boxes):
    """The `boxes` argument of the RoI ops (Tensor[K, 5] or List[Tensor[L, 4]]) as Tensor[K, 5]."""
    check_roi_boxes_shape(boxes)
    if is_tensor(boxes):
        return boxes
    return convert_boxes_to_roi_format(boxes)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)
