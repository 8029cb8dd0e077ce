"""Faster R-CNN MobileNetV3-Large FPN inference, ours vs torchvision on the same weights.

    python benchmarks/bench_detection.py [--threads 1,2] [--repeats R] [--stages]

One 480x640 image, eval mode under no_grad, for fasterrcnn_mobilenet_v3_large_320_fpn and
fasterrcnn_mobilenet_v3_large_fpn. The weights are random but scaled so that activations are
of order 1 and the box head scores some classes above the 0.05 threshold, so that every stage
(RPN NMS, RoI heads, per-class NMS) does real work. --stages also times each stage alone:
transform, backbone (MobileNetV3 + FPN), RPN (head, anchors, decode, top-n, NMS) and the RoI
heads (MultiScaleRoIAlign, TwoMLPHead, predictor, postprocess with NMS). torchvision needs its
compiled ops (a matching torch/torchvision pair); without it only our numbers print.
"""
import argparse
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

MODELS = ("fasterrcnn_mobilenet_v3_large_320_fpn", "fasterrcnn_mobilenet_v3_large_fpn")


def _ours(name):
    """Our model with the benchmark's weights (see the module docstring)."""
    import core
    from core import nn
    from vision.models import detection

    core.manual_seed(0)
    model = getattr(detection, name)(pretrained_backbone=False).eval()
    with core.no_grad():
        for m in model.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                m.weight.copy_(core.randn(m.weight.shape) / m.weight[0].numel() ** 0.5)
                if m.bias is not None:
                    m.bias.copy_(core.randn(m.bias.shape) * 0.1)
        model.roi_heads.box_predictor.cls_score.weight.mul_(10)
    return model


def _theirs(name, ours, torch, tv):
    """torchvision's model with our weights, FrozenBatchNorm2d in the backbone as in 0.9."""
    model = getattr(tv.models.detection, name)(weights=None, weights_backbone=None).eval()

    def freeze(module):
        for child_name, child in module.named_children():
            if isinstance(child, torch.nn.BatchNorm2d):
                setattr(module, child_name, tv.ops.FrozenBatchNorm2d(child.num_features, eps=child.eps))
            else:
                freeze(child)

    freeze(model)
    state = {k: torch.from_numpy(np.array(v.numpy())) for k, v in ours.state_dict().items()}
    model.load_state_dict(state)  # torchvision upgrades 0.9's FPN/RPN key layout itself
    return model


def _stages(lib, model, image):
    """Closures timing each stage alone on precomputed inputs."""
    with lib.no_grad():
        images, _ = model.transform([image])
        features = model.backbone(images.tensors)
        proposals, _ = model.rpn(images, features)

    def stage(fn):
        def run():
            with lib.no_grad():
                return fn()
        return run

    return {
        "transform": stage(lambda: model.transform([image])),
        "backbone": stage(lambda: model.backbone(images.tensors)),
        "rpn": stage(lambda: model.rpn(images, features)),
        "roi_heads": stage(lambda: model.roi_heads(features, proposals, images.image_sizes)),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--repeats", type=int, default=5, help="timed samples per library (median)")
    parser.add_argument("--stages", action="store_true", help="also time each stage alone")
    args = parser.parse_args(argv)

    import harness

    import core

    torch, tv = harness.torch, None
    if torch is not None:

        tv = harness.import_torchvision()
        try:
            tv.ops.nms(torch.zeros(0, 4), torch.zeros(0), 0.5)
        except Exception:  # noqa: BLE001 - absent, or its C++ ops do not load
            tv = None
    image = np.random.default_rng(0).random((3, 480, 640)).astype(np.float32)
    pairs = {}
    for name in MODELS:
        ours = _ours(name)
        pairs[name] = (ours, _theirs(name, ours, torch, tv) if tv is not None else None)
    for threads in (int(t) for t in args.threads.split(",")):
        harness.set_threads(threads)
        print(harness.header(threads))
        if tv is None:
            print("torchvision with its C++ ops not importable: ours only\n")
        rows = [("case", "ours", "torchvision", "ours/torchvision")]
        for name, (ours, theirs) in pairs.items():
            def infer(lib, model, x):
                def run():
                    with lib.no_grad():
                        return model([x])
                return run

            cases = {"eval 1x480x640": ({"ours": infer(core, ours, core.tensor(image))},
                                        lambda theirs=theirs: infer(torch, theirs, torch.from_numpy(image)))}
            if args.stages:
                ours_stages = _stages(core, ours, core.tensor(image))
                theirs_stages = _stages(torch, theirs, torch.from_numpy(image)) if theirs is not None else {}
                for stage, fn in ours_stages.items():
                    cases[f"  {stage}"] = ({"ours": fn}, lambda stage=stage, t=theirs_stages: t[stage])
            for case, (fns, make_theirs) in cases.items():
                if theirs is not None:
                    fns["pytorch"] = make_theirs()
                seconds = harness.time_interleaved(fns, repeats=args.repeats)
                ours_s, theirs_s = seconds["ours"], seconds.get("pytorch")
                rows.append((f"{name} {case}", harness.format_seconds(ours_s), harness.format_seconds(theirs_s),
                             harness.format_ratio(ours_s, theirs_s)))
        harness.print_rows(rows)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
