"""references/segmentation: the confusion matrix and pair transforms; train.py on a few Shapes
masks with LR-ASPP (poly lr per iteration, checkpoints, --test-only) where
vision.models.segmentation is present."""
import math
import os

import pytest

import core
from support_references import load_script, run_script

TINY = ["--dataset", "shapes", "--model", "lraspp_mobilenet_v3_large", "--shapes-train-size", 4,
        "--shapes-val-size", 2, "--shapes-image-size", 48, "-b", 2, "-j", 0, "--print-freq", 1, "--seed", 0,
        "--no-tensorboard"]


def test_confusion_matrix_accuracy_and_iou():
    utils = load_script("segmentation", "utils")
    confmat = utils.ConfusionMatrix(3)
    target = core.tensor([0, 0, 1, 1, 2, 255])
    prediction = core.tensor([0, 1, 1, 1, 0, 2])
    confmat.update(target, prediction)
    assert confmat.mat.tolist() == [[1, 1, 0], [0, 2, 0], [1, 0, 0]]
    acc_global, acc, iu = confmat.compute()
    assert acc_global.item() == pytest.approx(3 / 5)
    assert acc.tolist() == pytest.approx([0.5, 1.0, 0.0])
    assert iu.tolist() == pytest.approx([1 / 3, 2 / 3, 0.0])
    assert "mean IoU: 33.3" in str(confmat)


def test_collate_pads_images_with_zero_and_masks_with_255():
    utils = load_script("segmentation", "utils")
    images, masks = utils.collate_fn([(core.ones(3, 2, 3), core.zeros(2, 3, dtype=core.int64)),
                                      (core.ones(3, 3, 2), core.ones(3, 2, dtype=core.int64))])
    assert images.shape == (2, 3, 3, 3) and masks.shape == (2, 3, 3)
    assert images[0, :, 2].sum().item() == 0 and masks[0, 2].tolist() == [255, 255, 255]
    assert masks[1, :, 2].tolist() == [255, 255, 255]


def test_training_run_with_poly_lr(tmp_path):
    pytest.importorskip("vision.models.segmentation")
    train = load_script("segmentation")
    metrics = run_script(train, *TINY, "--epochs", 2, "--lr", 0.01, "--output-dir", tmp_path)
    assert set(metrics) == {"pixel_acc", "mIoU"} and 0.0 <= metrics["pixel_acc"] <= 100.0
    checkpoint = core.load(str(tmp_path / "checkpoint.pth"))
    assert checkpoint["epoch"] == 1
    assert {"model_0.pth", "model_1.pth", "log.csv"} <= set(os.listdir(tmp_path))
    lrs = [float(line.split(",")[1]) for line in open(tmp_path / "log.csv").read().splitlines()[1:]]
    assert lrs == pytest.approx([0.01, 0.01 * (1 - 2 / 4) ** 0.9])  # 2 iterations per epoch, 4 in all
    again = run_script(train, *TINY, "--test-only", "--resume", tmp_path / "checkpoint.pth", "--output-dir", "")
    assert again["pixel_acc"] == pytest.approx(metrics["pixel_acc"])
    assert math.isnan(again["mIoU"]) == math.isnan(metrics["mIoU"])
