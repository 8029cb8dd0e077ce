"""vision.models vs torchvision on the same weights: inference and one training step.

    python benchmarks/bench_vision_models.py [--threads N] [--repeats R] [--models a,b]

Rows: eval forward under no_grad of 1 and 8 images at 224x224 (the classify demo is batch 1),
and, for the --train models (default mobilenet_v3_small), one training step of the MobileNetV3
recipe at batch 32: forward, label-smoothed cross-entropy, backward, RMSprop step (alpha 0.9,
eps 0.0316, momentum 0.9). torchvision is optional (the yardstick): without it only our
numbers print.
"""
import argparse
import os
import sys

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

DEFAULT_MODELS = "mobilenet_v3_large,mobilenet_v3_small,mobilenet_v2,resnet18,resnet50"


def _pair(name, torch, tv):
    """(ours, theirs or None) with identical weights."""
    import core
    import vision.models as models

    ours = getattr(models, name)()
    if tv is None:
        return ours, None
    theirs = getattr(tv.models, name)()
    state = {k: torch.from_numpy(np.array(v.detach().numpy())) for k, v in ours.state_dict().items()}
    theirs.load_state_dict(state)
    core.manual_seed(0)
    return ours, theirs


def _inference(lib, model, x):
    model.eval()

    def run():
        with lib.no_grad():
            return model(x)
    return run


def _train_step(lib, model, x, target):
    model.train()
    optimizer = lib.optim.RMSprop(model.parameters(), lr=0.064, alpha=0.9, eps=0.0316, momentum=0.9,
                                  weight_decay=1e-5)

    def run():
        optimizer.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), target, label_smoothing=0.1)
        loss.backward()
        optimizer.step()
        return loss
    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=5, help="timed samples per library (median)")
    parser.add_argument("--models", default=DEFAULT_MODELS, help="comma-separated model names")
    parser.add_argument("--train", default="mobilenet_v3_small", help="models that also time a training step")
    args = parser.parse_args(argv)

    import harness
    import core

    torch = harness.torch
    tv = harness.import_torchvision()
    if tv is not None:
        import torchvision.models  # noqa: F401
    harness.set_threads(args.threads)
    print(harness.header(args.threads))
    if tv is None:
        print("torchvision not importable: ours only\n")
    rng = np.random.default_rng(0)
    images = {n: rng.standard_normal((n, 3, 224, 224)).astype(np.float32) for n in (1, 8, 32)}
    target = rng.integers(0, 1000, 32)
    rows = [("case", "ours", "torchvision", "ours/torchvision")]
    for name in args.models.split(","):
        ours, theirs = _pair(name, torch, tv)
        cases = {f"eval {n}x224": ({"ours": _inference(core, ours, core.tensor(images[n]))},
                                   lambda n=n: _inference(torch, theirs, torch.from_numpy(images[n])))
                 for n in (1, 8)}
        if name in args.train.split(","):
            cases["train step 32x224 (RMSprop, smoothed CE)"] = (
                {"ours": _train_step(core, ours, core.tensor(images[32]), core.tensor(target))},
                lambda: _train_step(torch, theirs, torch.from_numpy(images[32]), torch.from_numpy(target)))
        for case, (fns, make_theirs) in cases.items():
            if theirs is not None:
                fns["pytorch"] = make_theirs()
            seconds = harness.time_interleaved(fns, repeats=args.repeats)
            ours_s, theirs_s = seconds["ours"], seconds.get("pytorch")
            rows.append((f"{name} {case}", harness.format_seconds(ours_s), harness.format_seconds(theirs_s),
                         harness.format_ratio(ours_s, theirs_s)))
    harness.print_rows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
