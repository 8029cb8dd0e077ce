"""references/classification/train.py --test-only --pretrained against torchvision: torchvision's
MobileNetV3-Small (random weights and BN statistics, the classifier narrowed to the folder's 3
classes so Acc@1 is not trivially 0) is torch.save'd into a local hub mirror under its sha256
name; the script evaluates a small generated ImageFolder with it. Its logits (Resize 256 ->
CenterCrop 224 -> normalise, through the script's own data path) match torchvision's on the same
images with torchvision's transforms, and its Acc@1 / Acc@5 are torchvision's."""
import numpy as np
import pytest
from PIL import Image

torch = pytest.importorskip("torch")

import core  # noqa: E402
from parity.test_vision_models_parity import _publish, _torchvision_model, tv  # noqa: E402,F401
from support_references import load_script, run_script  # noqa: E402

CLASSES = ["ant", "bee", "cat"]


def _image_folder(root):
    rng = np.random.default_rng(0)
    for split in ("train", "val"):
        for c, name in enumerate(CLASSES):
            (root / split / name).mkdir(parents=True)
            for i in range(4):
                h, w = int(rng.integers(240, 330)), int(rng.integers(240, 330))
                coarse = rng.integers(0, 256, (h // 16 + 1, w // 16 + 1, 3), dtype=np.uint8)
                image = Image.fromarray(coarse).resize((w, h), Image.BILINEAR)
                image.save(root / split / name / f"{c}_{i}.png")
    return root


def _torchvision_logits(tv, model, root):
    from torchvision import datasets, transforms
    preset = transforms.Compose([transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor(),
                                 transforms.Normalize((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))])
    dataset = datasets.ImageFolder(str(root / "val"), transform=preset)
    images = torch.stack([dataset[i][0] for i in range(len(dataset))])
    targets = torch.tensor(dataset.targets)
    with torch.no_grad():
        return model.eval()(images), targets


def test_test_only_pretrained_reproduces_torchvision(tv, mirror, monkeypatch, tmp_path):
    theirs = _torchvision_model(tv, "mobilenet_v3_small")
    with torch.no_grad():  # only the folder's classes can win, at varied margins
        theirs.classifier[-1].weight[len(CLASSES):] = 0
        theirs.classifier[-1].bias[len(CLASSES):] = -1e4
        theirs.classifier[-1].bias[:len(CLASSES)] = torch.tensor([0.0, 0.5, -0.5])
    _publish(mirror, monkeypatch, "mobilenet_v3_small", theirs)
    root = _image_folder(tmp_path / "folder")
    their_logits, targets = _torchvision_logits(tv, theirs, root)

    train = load_script("classification")
    argv = ["--data-path", str(root), "--model", "mobilenet_v3_small", "--test-only", "--pretrained", "-b", "5",
            "-j", "0", "--output-dir", ""]
    args = train.get_args_parser().parse_args(argv)
    args.distributed, args.rank, args.world_size = False, 0, 1
    _, dataset_test, _, _, _ = train.load_data(args)
    model = train.build_model(args, len(CLASSES)).eval()
    with core.no_grad():
        ours = model(core.stack([dataset_test[i][0] for i in range(len(dataset_test))]))
    np.testing.assert_allclose(ours.numpy(), their_logits.numpy(), rtol=0, atol=1e-4)

    metrics = run_script(train, *argv)
    top1 = float((their_logits.argmax(1) == targets).float().mean() * 100)
    assert 0 < top1 < 100  # a non-trivial accuracy to reproduce
    assert metrics["acc1"] == pytest.approx(top1, abs=1e-4)
    assert metrics["acc5"] == pytest.approx(100.0)
