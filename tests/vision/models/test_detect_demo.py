"""The detection demo (python -m vision.models.detection.detect) on a Shapes image, and
draw_bounding_boxes on its detections."""
import numpy as np
from PIL import Image

import core
from core import nn
from vision.datasets import Shapes
from vision.models import detection
from vision.models.detection import detect as demo
from vision.models.detection import faster_rcnn
from vision.utils import draw_bounding_boxes


def _shapes_image(tmp_path):
    image, target = Shapes(split="val", size=4, image_size=96, task="detection", seed=3)[1]
    path = tmp_path / "shapes.png"
    image.save(path)
    return path, image, target


def test_draw_bounding_boxes_on_a_shapes_detection(tmp_path):
    _, image, target = _shapes_image(tmp_path)
    pixels = core.tensor(np.asarray(image).transpose(2, 0, 1).copy())
    boxes = target["boxes"]
    drawn = draw_bounding_boxes(pixels, boxes, colors=["red"] * len(boxes))  # box pixels only (no font)
    assert drawn.dtype == core.uint8 and drawn.shape == pixels.shape
    out = drawn.numpy()
    for x1, y1, x2, y2 in boxes.numpy().astype(np.int64).tolist():
        # the outline is red on all four sides
        for y, x in [(y1, (x1 + x2) // 2), (y2, (x1 + x2) // 2), ((y1 + y2) // 2, x1), ((y1 + y2) // 2, x2)]:
            assert out[:, y, x].tolist() == [255, 0, 0]
    # away from every box the image is unchanged
    mask = np.ones(out.shape[1:], bool)
    for x1, y1, x2, y2 in boxes.numpy().astype(np.int64).tolist():
        mask[max(y1 - 1, 0):y2 + 2, max(x1 - 1, 0):x2 + 2] = False
    assert np.array_equal(out[:, mask], pixels.numpy()[:, mask])


def test_demo_prints_detections_and_writes_the_image(tmp_path, mirror, capsys):
    _, publish = mirror
    core.manual_seed(0)
    model = detection.fasterrcnn_mobilenet_v3_large_320_fpn(pretrained_backbone=False)
    with core.no_grad():  # activations of order 0.1-1 and confident classes: the random model detects things
        for m in model.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                m.weight.copy_(core.randn(m.weight.shape) / m.weight[0].numel() ** 0.5)
                if m.bias is not None:
                    m.bias.copy_(core.randn(m.bias.shape) * 0.1)
        model.roi_heads.box_predictor.cls_score.weight.mul_(30)
    publish(faster_rcnn, "fasterrcnn_mobilenet_v3_large_320_fpn_coco", model)
    path, image, _ = _shapes_image(tmp_path)
    output = tmp_path / "out.png"
    assert demo.main([str(path), "--threshold", "0.0", "--output", str(output), "--no-progress"]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[-1].endswith(f"detection(s); wrote {output}")
    found = int(printed[-1].split()[0])
    assert found == len(printed) - 1 and found > 0
    with Image.open(output) as written:
        assert written.size == image.size
        drawn = np.asarray(written.convert("RGB"))
    assert (drawn == [255, 0, 0]).all(axis=2).any()  # red box outlines
    assert demo.main([str(tmp_path / "missing.png"), "--no-progress"]) == 1
