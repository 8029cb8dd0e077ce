"""The classification references' helpers: top-k accuracy, checkpoint averaging (the
MobileNetV3 recipe averages the last 3 checkpoints that improved Acc@1) and store_model_weights,
which names a weight file by its sha256 prefix as the hub's files are named. The logger and the
data-parallel helpers are the references' shared ones."""
import copy
import hashlib
import os
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from shared_utils import *  # noqa: F401,F403,E402
from shared_utils import mkdir  # noqa: F401,E402

import core  # noqa: E402
from core.nn.modules.utils import consume_prefix_in_state_dict_if_present  # noqa: E402


def accuracy(output, target, topk=(1,)):
    """Top-k accuracies in percent of a batch of logits. A k above the number of classes counts
    every sample as correct (torchvision's would fail; Shapes has 3 classes and Acc@5 is asked)."""
    with core.no_grad():
        maxk = min(max(topk), output.shape[1])
        batch_size = target.shape[0]
        _, pred = output.topk(maxk, 1, True, True)
        correct = pred.t() == target[None]
        return [correct[:k].flatten().sum(dtype=core.float32) * (100.0 / batch_size) for k in topk]


def average_checkpoints(inputs):
    """The checkpoint at inputs[0] with its "model" replaced by the mean of every input's
    (fairseq's average_checkpoints): float tensors are averaged (half upcast to float), integer
    buffers such as num_batches_tracked floor-divided. The inputs' keys must be the same lists."""
    if not inputs:
        raise ValueError("average_checkpoints: no checkpoint given")
    sums, keys, first = OrderedDict(), None, None
    for path in inputs:
        state = core.load(path, map_location="cpu")
        first = state if first is None else first
        params = state["model"]
        if keys is None:
            keys = list(params)
        elif list(params) != keys:
            raise KeyError(f"For checkpoint {path}, expected list of params: {keys}, but found: {list(params)}")
        for key in keys:
            value = params[key].float() if params[key].dtype == core.float16 else params[key]
            if key in sums:
                sums[key] += value
            else:
                sums[key] = value.clone()
    averaged = OrderedDict()
    for key, total in sums.items():
        averaged[key] = total / len(inputs) if total.is_floating_point() else total // len(inputs)
    first["model"] = averaged
    return first


def store_model_weights(model, checkpoint_path, checkpoint_key="model", strict=True):
    """Loads checkpoint[checkpoint_key] into a copy of `model` and saves its state_dict beside
    the checkpoint as weights-<first 8 hex digits of its sha256>.pth; returns that path.

        model = vision.models.mobilenet_v3_large()
        store_model_weights(model, "model_averaged.pth")
        # for a segmentation model whose checkpoint carries an aux classifier:
        store_model_weights(lraspp_mobilenet_v3_large(), "model_29.pth", strict=False)
    """
    checkpoint_path = os.path.abspath(checkpoint_path)
    output_dir = os.path.dirname(checkpoint_path)
    model = copy.deepcopy(model)
    checkpoint = core.load(checkpoint_path, map_location="cpu")
    state = checkpoint[checkpoint_key]
    if checkpoint_key == "model_ema":  # an AveragedModel's state: the counter, then module.<key>
        state = OrderedDict((k, v) for k, v in state.items() if k != "n_averaged")
        consume_prefix_in_state_dict_if_present(state, "module.")
    model.load_state_dict(state, strict=strict)
    temp_path = os.path.join(output_dir, f".weights-{os.getpid()}-{id(model)}.tmp")
    core.save(model.state_dict(), temp_path)
    digest = hashlib.sha256()
    with open(temp_path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    output_path = os.path.join(output_dir, f"weights-{digest.hexdigest()[:8]}.pth")
    os.replace(temp_path, output_path)
    return output_path
