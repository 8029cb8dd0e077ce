"""Detect objects in an image with a COCO Faster R-CNN from the hub, print them and write the
image with the boxes drawn.

    python -m vision.models.detection.detect IMAGE [--model fasterrcnn_mobilenet_v3_large_320_fpn]
        [--threshold 0.5] [--output OUT.png]

Weights come through hub.load (cache under $TENSORZOO_HOME/hub; $TENSORZOO_HUB_MIRROR for
offline sites). The model resizes and normalises internally; boxes are printed in the input
image's pixel coordinates.
"""
import argparse
import os
import sys

__all__ = ["detect", "main"]

MODELS = ("fasterrcnn_mobilenet_v3_large_320_fpn", "fasterrcnn_mobilenet_v3_large_fpn", "fasterrcnn_resnet50_fpn")


def detect(model, image, threshold=0.5):
    """[(category name, score, [x1, y1, x2, y2])] of the detections scoring >= threshold in a
    PIL image, best first."""
    import core
    import vision.transforms.functional as TF
    from vision.models.detection._meta import COCO_CATEGORIES

    model.eval()
    with core.no_grad():
        result = model([TF.to_tensor(image.convert("RGB"))])[0]
    found = []
    for box, label, score in zip(result["boxes"].tolist(), result["labels"].tolist(), result["scores"].tolist()):
        if score >= threshold:
            name = COCO_CATEGORIES[label] if label < len(COCO_CATEGORIES) else str(label)
            found.append((name, score, box))
    return found


def _draw(image, found, path):
    import core
    import vision.transforms.functional as TF
    from vision.io import write_png
    from vision.utils import draw_bounding_boxes

    pixels = TF.pil_to_tensor(image.convert("RGB"))
    boxes = core.tensor([box for _, _, box in found], dtype=core.float32).reshape(-1, 4)
    labels = [f"{name} {score:.2f}" for name, score, _ in found]
    drawn = draw_bounding_boxes(pixels, boxes, labels=labels, colors=["red"] * len(found), width=2)
    write_png(drawn, path)


def main(argv=None):
    from PIL import Image

    import hub

    parser = argparse.ArgumentParser(prog="python -m vision.models.detection.detect",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("image", help="path of the image")
    parser.add_argument("--model", default=MODELS[0], choices=MODELS, help="the COCO detector (default: %(default)s)")
    parser.add_argument("--threshold", type=float, default=0.5, help="the lowest score shown (default 0.5)")
    parser.add_argument("--output", help="where to write the image with boxes (default IMAGE_detections.png)")
    parser.add_argument("--no-progress", action="store_true", help="no download progress bar")
    args = parser.parse_args(argv)
    output = args.output or os.path.splitext(args.image)[0] + "_detections.png"
    try:
        model = hub.load(args.model, pretrained=True, progress=not args.no_progress)
        with Image.open(args.image) as image:
            found = detect(model, image, args.threshold)
            _draw(image, found, output)
    except (OSError, ValueError, RuntimeError) as e:  # unreadable image, download failure, bad weights
        print(f"error: {e}", file=sys.stderr)
        return 1
    for name, score, (x1, y1, x2, y2) in found:
        print(f"{name:<16s} {score:5.3f}  ({x1:7.1f}, {y1:7.1f}, {x2:7.1f}, {y2:7.1f})")
    print(f"{len(found)} detection(s); wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
