"""vision's C++ ops, bound from the core op table (loading vision._C registers them there)."""
import core
from vision import _C

_ops = {name: core._C._op(name) for name in _C.ops}

nms = _ops["nms"]
roi_align = _ops["roi_align"]
roi_pool = _ops["roi_pool"]
ps_roi_align = _ops["ps_roi_align"]
ps_roi_pool = _ops["ps_roi_pool"]
deform_conv2d = _ops["deform_conv2d"]
