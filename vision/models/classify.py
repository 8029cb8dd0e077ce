"""Classify an image with an ImageNet model from the hub and print the top-5 classes.

    python -m vision.models.classify IMAGE [--model mobilenet_v3_large] [--topk 5]

Weights come through hub.load (cache under $TENSORZOO_HOME/hub; $TENSORZOO_HUB_MIRROR for
offline sites). Preprocessing is the evaluation protocol of the published accuracies:
resize 256, center crop 224, ImageNet mean/std normalisation.
"""
import argparse
import sys

__all__ = ["preprocess", "classify", "main"]

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)


def preprocess(image):
    """A PIL image -> normalised float tensor [1, 3, 224, 224]."""
    import vision.transforms as T

    transform = T.Compose([T.Resize(256), T.CenterCrop(224), T.ToTensor(), T.Normalize(IMAGENET_MEAN, IMAGENET_STD)])
    return transform(image.convert("RGB")).unsqueeze(0)


def classify(model, image, topk=5):
    """[(class name, probability)] of the `topk` most likely classes for a PIL image."""
    import core
    from vision.models._meta import imagenet_categories

    model.eval()
    with core.no_grad():
        probabilities = core.softmax(model(preprocess(image)), dim=1)[0]
    values, indices = core.topk(probabilities, topk)
    names = imagenet_categories()
    return [(names[i], p) for i, p in zip(indices.tolist(), values.tolist())]


def main(argv=None):
    import hub
    from PIL import Image

    parser = argparse.ArgumentParser(prog="python -m vision.models.classify", description=__doc__.splitlines()[0])
    parser.add_argument("image", help="path of the image to classify")
    parser.add_argument("--model", default="mobilenet_v3_large", help=f"one of: {', '.join(hub.list())}")
    parser.add_argument("--topk", type=int, default=5, help="how many classes to print (default 5)")
    parser.add_argument("--no-progress", action="store_true", help="no download progress bar")
    args = parser.parse_args(argv)
    try:
        model = hub.load(args.model, pretrained=True, progress=not args.no_progress)
        with Image.open(args.image) as image:
            results = classify(model, image, args.topk)
    except (OSError, ValueError, RuntimeError) as e:  # unreadable image, unknown model, download failure
        print(f"error: {e}", file=sys.stderr)
        return 1
    for rank, (name, probability) in enumerate(results, 1):
        print(f"{rank}. {name:<32s} {100 * probability:6.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
