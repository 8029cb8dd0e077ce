"""Segmentation inference, ours vs torchvision on the same weights, in one run.

    python benchmarks/bench_segmentation.py [--threads 1,2] [--repeats R] [--size 520]
                                            [--models lraspp_mobilenet_v3_large,...] [--channels-last]

One normalised 3xSxS image (S=520, the evaluation size of the published weights), eval mode
under no_grad; by default LR-ASPP and DeepLabV3 on MobileNetV3-Large (both with their auxiliary
configuration as pretrained=True builds them; the auxiliary head does run in eval). The weights
are ours (random init, random BN statistics), copied into torchvision's model. --channels-last
converts both models and the image. Prints the median time per call and ours / torchvision
(below 1: we are faster). The dilated layers alone: benchmarks/bench_conv_dilated.py.
"""
import argparse
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

MODELS = ("lraspp_mobilenet_v3_large", "deeplabv3_mobilenet_v3_large")


def _ours(name):
    import core
    from core import nn
    from vision.models import segmentation

    core.manual_seed(0)
    kwargs = {} if name.startswith("lraspp") else {"aux_loss": True}
    model = getattr(segmentation, name)(pretrained_backbone=False, **kwargs).eval()
    with core.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.copy_(core.randn(m.num_features) * 0.1)
                m.running_var.copy_(core.rand(m.num_features) * 0.5 + 0.75)
    return model


def _theirs(name, ours, torch, tv):
    kwargs = {} if name.startswith("lraspp") else {"aux_loss": True}
    model = getattr(tv.models.segmentation, name)(weights=None, weights_backbone=None, **kwargs).eval()
    model.load_state_dict({k: torch.from_numpy(np.array(v.numpy())) for k, v in ours.state_dict().items()})
    return model


def _infer(lib, model, x):
    def run():
        with lib.no_grad():
            return model(x)["out"]
    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--repeats", type=int, default=5, help="timed samples per library (median)")
    parser.add_argument("--size", type=int, default=520, help="image height and width")
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated builder names")
    parser.add_argument("--channels-last", action="store_true", help="models and image in channels-last memory")
    args = parser.parse_args(argv)

    import harness

    import core

    torch = harness.torch
    tv = None
    if torch is not None:

        tv = harness.import_torchvision()
    image = np.random.default_rng(0).standard_normal((1, 3, args.size, args.size)).astype(np.float32)
    x_ours, x_theirs = core.tensor(image), torch.from_numpy(image) if tv is not None else None
    pairs = {}
    for name in args.models.split(","):
        ours = _ours(name)
        theirs = _theirs(name, ours, torch, tv) if tv is not None else None
        if args.channels_last:
            ours = ours.to(memory_format=core.channels_last)
            theirs = theirs.to(memory_format=torch.channels_last) if theirs is not None else None
        pairs[name] = (ours, theirs)
    if args.channels_last:
        x_ours = x_ours.contiguous(memory_format=core.channels_last)
        x_theirs = x_theirs.contiguous(memory_format=torch.channels_last) if x_theirs is not None else None
    layout = "NHWC" if args.channels_last else "NCHW"
    for threads in (int(t) for t in args.threads.split(",")):
        harness.set_threads(threads)
        print(harness.header(threads))
        if tv is None:
            print("torchvision not importable: ours only\n")
        rows = [("model", "ours", "torchvision", "ours/torchvision")]
        for name, (ours, theirs) in pairs.items():
            fns = {"ours": _infer(core, ours, x_ours)}
            if theirs is not None:
                fns["pytorch"] = _infer(torch, theirs, x_theirs)
                diff = float(np.abs(fns["ours"]().numpy() - fns["pytorch"]().numpy()).max())
                assert diff < 1e-2, f"{name}: outputs differ by {diff}"
            seconds = harness.time_interleaved(fns, repeats=args.repeats)
            ours_s, theirs_s = seconds["ours"], seconds.get("pytorch")
            rows.append((f"{name} 1x3x{args.size}x{args.size} {layout}", harness.format_seconds(ours_s),
                         harness.format_seconds(theirs_s), harness.format_ratio(ours_s, theirs_s)))
        harness.print_rows(rows)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
