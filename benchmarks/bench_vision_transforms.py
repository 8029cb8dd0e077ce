"""The ImageNet training preset, vision.transforms vs torchvision, images per second:

    python benchmarks/bench_vision_transforms.py [--threads N] [--repeats R]

The preset of references/classification/presets.py (v0.9) with the MobileNetV3 recipe's
options: RandomResizedCrop(224), RandomHorizontalFlip(0.5), AutoAugment(imagenet),
ToTensor, Normalize(ImageNet mean/std), RandomErasing(p=0.2). Input: a 500x375 RGB JPEG,
measured (a) from the decoded PIL image and (b) from the JPEG bytes (PIL decode included,
as an ImageFolder loader does). Each call re-seeds the library's generator from a cycle of
64 seeds, so both libraries run the same crops, flips and sub-policies. torchvision is
optional (it is the yardstick): without it only our numbers print.
"""
import argparse
import glob
import io
import itertools
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
sys.path.insert(0, _HERE)  # harness
sys.path.insert(1, os.path.join(_ROOT, "tests"))  # parity._torchvision: the shared import workaround
if glob.glob(os.path.join(_ROOT, "core", "_C*.so")):
    sys.path.insert(1, _ROOT)  # an in-place build (tools/dev_build.sh) wins over an installed one

MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


def make_jpeg():
    """A 500x375 photo-like JPEG: smooth gradients plus texture (deterministic)."""
    from PIL import Image

    yy, xx = np.mgrid[0:375, 0:500].astype(np.float32)
    rng = np.random.default_rng(0)
    noise = rng.normal(0, 12, (375, 500, 3)).astype(np.float32)
    rgb = np.stack([120 + 80 * np.sin(xx / 37.0), 110 + 70 * np.cos(yy / 23.0), 90 + 60 * np.sin((xx + yy) / 51.0)],
                   axis=-1) + noise
    buf = io.BytesIO()
    Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8)).save(buf, format="JPEG", quality=90)
    return buf.getvalue()


def preset(T, autoaugment_module):
    return T.Compose([
        T.RandomResizedCrop(224),
        T.RandomHorizontalFlip(0.5),
        autoaugment_module.AutoAugment(autoaugment_module.AutoAugmentPolicy("imagenet")),
        T.ToTensor(),
        T.Normalize(mean=MEAN, std=STD),
        T.RandomErasing(p=0.2),
    ])


def _runner(pipeline, seed_fn, source, decode):
    from PIL import Image

    seeds = itertools.cycle(range(64))

    def run():
        seed_fn(next(seeds))
        img = Image.open(io.BytesIO(source)).convert("RGB") if decode else source
        return pipeline(img)
    return run


def _import_torchvision():
    """torchvision's transforms (through the shared import workaround of tests/parity), or None."""
    from parity._torchvision import import_torchvision

    if import_torchvision() is None:
        return None
    import torchvision.transforms as TT
    import torchvision.transforms.autoaugment as TA
    return TT, TA


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=1, help="threads for core and PyTorch (default 1: one "
                                                               "data-loading worker's view)")
    parser.add_argument("--repeats", type=int, default=9, help="timed samples per library (median)")
    args = parser.parse_args(argv)

    import harness
    import core
    import vision.transforms as T
    import vision.transforms.autoaugment as A
    from PIL import Image

    torch = harness.torch
    harness.set_threads(args.threads)
    print(harness.header(args.threads))
    jpeg = make_jpeg()
    pil = Image.open(io.BytesIO(jpeg)).convert("RGB")
    print(f"input: {pil.size[0]}x{pil.size[1]} JPEG ({len(jpeg)} bytes); preset: RandomResizedCrop(224), "
          "RandomHorizontalFlip, AutoAugment(imagenet), ToTensor, Normalize, RandomErasing(0.2)\n")
    ours_pipeline = preset(T, A)
    theirs = _import_torchvision() if torch is not None else None
    if theirs is None:
        print("torchvision not importable: ours only\n")
    rows = [("case", "ours", "torchvision", "ours/torchvision", "ours img/s", "torchvision img/s")]
    for decode in (False, True):
        source = jpeg if decode else pil
        fns = {"ours": _runner(ours_pipeline, core.manual_seed, source, decode)}
        if theirs is not None:
            fns["pytorch"] = _runner(preset(*theirs), torch.manual_seed, source, decode)
        seconds = harness.time_interleaved(fns, repeats=args.repeats)
        ours_s, theirs_s = seconds["ours"], seconds.get("pytorch")
        rows.append(("decode+preset" if decode else "preset", harness.format_seconds(ours_s),
                     harness.format_seconds(theirs_s), harness.format_ratio(ours_s, theirs_s), f"{1 / ours_s:.0f}",
                     f"{1 / theirs_s:.0f}" if theirs_s else "n/a"))
    harness.print_rows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
