"""The ImageNet training preset and AutoAugment, vision.transforms vs torchvision, in one run:

    python benchmarks/bench_vision_transforms.py [--threads 1,2] [--repeats R]

The preset of references/classification/presets.py (v0.9) with the MobileNetV3 recipe's
options: RandomResizedCrop(224), RandomHorizontalFlip(0.5), AutoAugment(imagenet), then
ToTensor (PIL) or ConvertImageDtype(float) (tensor), Normalize(ImageNet mean/std),
RandomErasing(p=0.2). Cases:
- preset on a 500x375 RGB image: the decoded PIL image, the JPEG bytes (PIL decode included,
  as an ImageFolder loader does), and a uint8 tensor [3, 375, 500] (the tensor path);
- AutoAugment(imagenet) alone on a uint8 tensor image [3, 224, 224] and on a batch [32, 3, 224, 224].
Each call re-seeds the library's generator from a cycle of 64 seeds, so both libraries run the
same crops, flips and sub-policies (torchvision's tensor RandomResizedCrop with antialias=False:
0.9 had no antialiasing). torchvision is optional (it is the yardstick): without it only our
numbers print. Ratio = ours / torchvision (below 1: we are faster).
"""
import argparse
import io
import itertools
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

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


def preset(lib, tensor):
    """The training preset of a library; `tensor`: the uint8-tensor form (ConvertImageDtype
    instead of ToTensor, and torchvision's RandomResizedCrop without antialiasing)."""
    T, A = lib["transforms"], lib["autoaugment"]
    return T.Compose([
        T.RandomResizedCrop(224, **(lib["tensor_crop_args"] if tensor else {})),
        T.RandomHorizontalFlip(0.5),
        A.AutoAugment(A.AutoAugmentPolicy("imagenet")),
        T.ConvertImageDtype(lib["float32"]) if tensor else T.ToTensor(),
        T.Normalize(mean=MEAN, std=STD),
        T.RandomErasing(p=0.2),
    ])


def autoaugment(lib):
    A = lib["autoaugment"]
    return A.AutoAugment(A.AutoAugmentPolicy("imagenet"))


def _runner(fn, make_input, seed_fn):
    seeds = itertools.cycle(range(64))

    def run():
        seed_fn(next(seeds))
        return fn(make_input())
    return run


def _libraries(harness):
    """name -> what the cases need of each library."""
    import core
    import vision.transforms as T
    import vision.transforms.autoaugment as A

    libs = {"ours": {"transforms": T, "autoaugment": A, "seed": core.manual_seed, "float32": core.float32,
                     "tensor": core.tensor, "tensor_crop_args": {}}}
    if harness.import_torchvision() is not None:
        import torchvision.transforms as TT
        import torchvision.transforms.autoaugment as TA

        torch = harness.torch
        libs["pytorch"] = {"transforms": TT, "autoaugment": TA, "seed": torch.manual_seed, "float32": torch.float32,
                           "tensor": lambda a: torch.from_numpy(a.copy()), "tensor_crop_args": {"antialias": False}}
    return libs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts for core and PyTorch "
                                                          "(default 1,2; 1 is one data-loading worker's view)")
    parser.add_argument("--repeats", type=int, default=9, help="timed samples per library (median)")
    args = parser.parse_args(argv)

    import harness
    from PIL import Image

    jpeg = make_jpeg()
    pil = Image.open(io.BytesIO(jpeg)).convert("RGB")
    hwc = np.asarray(pil)
    chw = np.ascontiguousarray(hwc.transpose(2, 0, 1))
    rng = np.random.default_rng(0)
    image = rng.integers(0, 256, (3, 224, 224), dtype=np.uint8)
    batch = rng.integers(0, 256, (32, 3, 224, 224), dtype=np.uint8)
    libs = _libraries(harness)
    cases = (  # name, images per call, lib -> (transform, () -> its input)
        ("preset, PIL image", 1, lambda lib: (preset(lib, False), lambda: pil)),
        ("preset, JPEG decode", 1, lambda lib: (preset(lib, False), lambda: decode(jpeg))),
        ("preset, uint8 tensor", 1, lambda lib: (preset(lib, True), _const(lib["tensor"](chw)))),
        ("AutoAugment, uint8 [3,224,224]", 1, lambda lib: (autoaugment(lib), _const(lib["tensor"](image)))),
        ("AutoAugment, uint8 [32,3,224,224]", 32, lambda lib: (autoaugment(lib), _const(lib["tensor"](batch)))),
    )
    for threads in [int(t) for t in args.threads.split(",")]:
        harness.set_threads(threads)
        print(harness.header(threads))
        print(f"input: {pil.size[0]}x{pil.size[1]} JPEG ({len(jpeg)} bytes)\n")
        if "pytorch" not in libs:
            print("torchvision not importable: ours only\n")
        rows = [("case", "ours", "torchvision", "ours/torchvision", "ours img/s", "torchvision img/s")]
        for name, images, make in cases:
            fns = {lib_name: _runner(*make(lib), lib["seed"]) for lib_name, lib in libs.items()}
            seconds = harness.time_interleaved(fns, repeats=args.repeats)
            ours_s, theirs_s = seconds["ours"], seconds.get("pytorch")
            rows.append((name, harness.format_seconds(ours_s), harness.format_seconds(theirs_s),
                         harness.format_ratio(ours_s, theirs_s), f"{images / ours_s:.0f}",
                         f"{images / theirs_s:.0f}" if theirs_s else "n/a"))
        harness.print_rows(rows)
        print()
    return 0


def _const(value):
    return lambda: value


def decode(jpeg):
    from PIL import Image

    return Image.open(io.BytesIO(jpeg)).convert("RGB")


if __name__ == "__main__":
    sys.exit(main())
