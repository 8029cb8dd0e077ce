"""references/detection: train.py on a few Shapes images (COCO mAP through pycocotools, checkpoints,
resume), the evaluation skipped with a message without pycocotools, aspect-ratio grouping and the
warm-up factor."""
import os

import pytest

import core
from core.utils.data import SequentialSampler
from support_references import load_script, run_script

TINY = ["--dataset", "shapes", "--model", "fasterrcnn_mobilenet_v3_large_320_fpn", "--shapes-train-size", 4,
        "--shapes-val-size", 2, "--shapes-image-size", 64, "-b", 2, "-j", 0, "--print-freq", 1, "--seed", 0,
        "--no-tensorboard"]


@pytest.fixture(scope="module")
def train():
    return load_script("detection")


def test_training_run_evaluates_coco_map_and_resumes(train, tmp_path):
    pytest.importorskip("pycocotools")
    metrics = run_script(train, *TINY, "--epochs", 1, "--output-dir", tmp_path)
    assert set(metrics) == {"bbox_mAP", "bbox_mAP_50", "bbox_mAP_75"}
    assert all(-1.0 <= v <= 1.0 for v in metrics.values())
    checkpoint = core.load(str(tmp_path / "checkpoint.pth"))
    assert checkpoint["epoch"] == 0 and {"model", "optimizer", "lr_scheduler"} <= set(checkpoint)
    assert {"model_0.pth", "checkpoint.pth", "log.csv"} <= set(os.listdir(tmp_path))
    again = run_script(train, *TINY, "--test-only", "--resume", tmp_path / "checkpoint.pth", "--output-dir", "")
    assert again == pytest.approx(metrics)


def test_without_pycocotools_training_runs_and_evaluation_says_why(train, tmp_path, monkeypatch):
    monkeypatch.setattr(train, "have_pycocotools", lambda: False)
    assert run_script(train, *TINY, "--shapes-train-size", 2, "--epochs", 1, "--output-dir", tmp_path) == {}
    with pytest.raises(ImportError, match=r"pip install 'tensorzoo\[detection\]'"):
        run_script(train, *TINY, "--test-only", "--output-dir", "")


def test_grouped_batches_keep_groups_and_the_epoch_length():
    grouping = load_script("detection", "group_by_aspect_ratio")
    group_ids = [0, 1, 0, 1, 1, 0, 2, 1, 0, 1]
    sampler = grouping.GroupedBatchSampler(SequentialSampler(range(10)), group_ids, 3)
    batches = list(sampler)
    assert len(batches) == len(sampler) == 3
    assert batches[0] == [1, 3, 4] and batches[1] == [0, 2, 5]  # the first full batch of each group
    assert all(len({group_ids[i] for i in batch}) == 1 for batch in batches)
    assert all(len(batch) == 3 for batch in batches)
    with pytest.raises(ValueError, match="Sampler"):
        grouping.GroupedBatchSampler(list(range(10)), group_ids, 3)


def test_warmup_factor_rises_linearly_to_one():
    engine = load_script("detection", "engine")
    optimizer = core.optim.SGD([core.zeros(1, requires_grad=True)], lr=1.0)
    scheduler = engine.warmup_lr_scheduler(optimizer, warmup_iters=4, warmup_factor=0.001)
    lrs = []
    for _ in range(6):
        lrs.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    assert lrs == pytest.approx([0.001, 0.25075, 0.5005, 0.75025, 1.0, 1.0])
