"""references/classification/train_quantization.py on a few Shapes images: post-training
quantization and quantization-aware training of MobileNetV3-Large started from a train.py
checkpoint, the int8 model evaluated and checkpointed; --test-only on the QAT checkpoint."""
import os

import pytest

import core
from support_references import load_script, run_script

DATA = ["--dataset", "shapes", "--shapes-train-size", 8, "--shapes-val-size", 4, "--shapes-image-size", 32,
        "-j", 0, "--print-freq", 1, "--seed", 0, "--no-tensorboard"]


@pytest.fixture(scope="module")
def float_checkpoint(tmp_path_factory):
    directory = tmp_path_factory.mktemp("float")
    run_script(load_script("classification"), *DATA, "--model", "mobilenet_v3_large", "-b", 4, "--epochs", 1,
               "--lr", 0.01, "--output-dir", directory)
    return directory / "checkpoint.pth"


@pytest.fixture(scope="module")
def quant():
    return load_script("classification", "train_quantization")


def test_post_training_quantization(quant, float_checkpoint, tmp_path):
    metrics = run_script(quant, *DATA, "-b", 4, "--num-calibration-batches", 2, "--post-training-quantize",
                         "--float-checkpoint", float_checkpoint, "--output-dir", tmp_path, "--backend", "fbgemm")
    assert 0.0 <= metrics["acc1"] <= 100.0
    state = core.load(str(tmp_path / "quantized_post_train_model.pth"))
    assert any(v.is_quantized for v in state.values() if isinstance(v, core.Tensor))


def test_quantization_aware_training_then_test_only(quant, float_checkpoint, tmp_path):
    metrics = run_script(quant, *DATA, "-b", 4, "--eval-batch-size", 4, "--epochs", 2, "--lr", 0.001,
                         "--num-observer-update-epochs", 1, "--num-batch-norm-update-epochs", 0,
                         "--float-checkpoint", float_checkpoint, "--output-dir", tmp_path)
    assert set(metrics) == {"qat", "int8"}
    checkpoint = core.load(str(tmp_path / "checkpoint.pth"))
    assert {"model", "eval_model", "optimizer", "lr_scheduler", "epoch", "args"} <= set(checkpoint)
    assert any(k.endswith("weight_fake_quant.scale") for k in checkpoint["model"])
    assert {"model_0.pth", "model_1.pth", "log.csv"} <= set(os.listdir(tmp_path))
    again = run_script(quant, *DATA, "--eval-batch-size", 4, "--test-only", "--resume", tmp_path / "checkpoint.pth",
                       "--output-dir", "")
    assert again["acc1"] == pytest.approx(metrics["int8"]["acc1"])


def test_bad_arguments(quant, tmp_path):
    with pytest.raises(RuntimeError, match="Quantized backend not supported"):
        run_script(quant, *DATA, "--backend", "arm", "--output-dir", tmp_path)
    with pytest.raises(RuntimeError, match="no such quantizable model"):
        run_script(quant, *DATA, "--model", "resnet18", "--output-dir", tmp_path, "--post-training-quantize")
