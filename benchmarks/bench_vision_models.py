"""vision.models vs torchvision on the same weights: inference and one training step.

    python benchmarks/bench_vision_models.py [--threads N] [--repeats R] [--models a,b]

Rows: eval forward of a 1x3x224x224 image under no_grad (what the classify demo does), and a
training step (forward, cross-entropy, backward) on a 4x3x128x128 batch. torchvision is
optional (the yardstick): without it only our numbers print.
"""
import argparse
import glob
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
sys.path.insert(0, _HERE)  # harness
sys.path.insert(1, os.path.join(_ROOT, "tests"))  # parity._torchvision: the shared import workaround
if glob.glob(os.path.join(_ROOT, "core", "_C*.so")):
    sys.path.insert(1, _ROOT)  # an in-place build (tools/dev_build.sh) wins over an installed one

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


def _train_step(lib, functional, model, x, target):
    model.train()

    def run():
        model.zero_grad()
        loss = functional.cross_entropy(model(x), target)
        loss.backward()
        return loss
    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=5, help="timed samples per library (median)")
    parser.add_argument("--models", default=DEFAULT_MODELS, help="comma-separated model names")
    args = parser.parse_args(argv)

    import harness
    import core
    import core.nn.functional as F

    torch = harness.torch
    tv = None
    if torch is not None:
        from parity._torchvision import import_torchvision

        tv = import_torchvision()
        if tv is not None:
            import torchvision.models  # noqa: F401
    harness.set_threads(args.threads)
    print(harness.header(args.threads))
    if tv is None:
        print("torchvision not importable: ours only\n")
    rng = np.random.default_rng(0)
    image = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
    batch = rng.standard_normal((4, 3, 128, 128)).astype(np.float32)
    target = rng.integers(0, 1000, 4)
    rows = [("case", "ours", "torchvision", "ours/torchvision")]
    for name in args.models.split(","):
        ours, theirs = _pair(name, torch, tv)
        cases = {
            "eval 1x224": ({"ours": _inference(core, ours, core.tensor(image))},
                           lambda: _inference(torch, theirs, torch.from_numpy(image))),
            "train step 4x128": ({"ours": _train_step(core, F, ours, core.tensor(batch), core.tensor(target))},
                                 lambda: _train_step(torch, torch.nn.functional, theirs, torch.from_numpy(batch),
                                                     torch.from_numpy(target))),
        }
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
