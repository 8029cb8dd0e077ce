"""references/classification: train.py end to end on a few Shapes batches (logs, checkpoints,
EMA, averaging, mixup/cutmix, warm-up), --resume continuing bit for bit, --test-only, the
data-parallel run under mpiexec, and the helpers (accuracy, average_checkpoints,
store_model_weights, the optimizer and schedules, mixup/cutmix)."""
import csv
import hashlib
import os

import pytest

import core
from support_mpi import requires_mpi, run_ranks
from support_references import REFERENCES, load_script, run_script

TINY = ["--dataset", "shapes", "--model", "mobilenet_v3_small", "--shapes-train-size", 48, "--shapes-val-size", 24,
        "--shapes-image-size", 32, "-b", 16, "-j", 0, "--print-freq", 2, "--opt", "rmsprop", "--lr", 0.064,
        "--wd", 1e-5, "--seed", 0, "--no-tensorboard"]


@pytest.fixture(scope="module")
def train():
    return load_script("classification")


def _read_log(directory):
    with open(os.path.join(directory, "log.csv"), newline="") as f:
        return list(csv.DictReader(f))


def test_training_run_writes_checkpoints_logs_and_averaged_weights(train, tmp_path):
    metrics = run_script(train, *TINY, "--epochs", 2, "--output-dir", tmp_path, "--model-ema", "--model-ema-steps", 1,
                         "--label-smoothing", 0.1, "--lr-warmup-epochs", 1, "--lr-warmup-method", "linear",
                         "--auto-augment", "imagenet", "--random-erase", 0.2, "--mixup-alpha", 0.2,
                         "--cutmix-alpha", 1.0, "--average-checkpoints", 3)
    assert 0.0 <= metrics["acc1"] <= 100.0 and metrics["acc5"] == 100.0  # 3 classes: the top 5 hold them all
    assert set(metrics["ema"]) == {"loss", "acc1", "acc5"} and "averaged" in metrics
    files = set(os.listdir(tmp_path))
    assert {"model_0.pth", "model_1.pth", "checkpoint.pth", "log.csv", "model_averaged.pth"} <= files
    checkpoint = core.load(str(tmp_path / "checkpoint.pth"))
    assert checkpoint["epoch"] == 1 and checkpoint["args"]["model"] == "mobilenet_v3_small"
    assert {"model", "optimizer", "lr_scheduler", "model_ema", "rng_state", "best"} <= set(checkpoint)
    assert "n_averaged" in checkpoint["model_ema"]
    rows = _read_log(tmp_path)
    assert [row["epoch"] for row in rows] == ["0", "1"]
    assert float(rows[0]["lr"]) == pytest.approx(0.064 * 0.01)  # linear warm-up from lr * 0.01
    assert float(rows[1]["lr"]) == pytest.approx(0.064)
    assert {"train_loss", "test_acc1", "test_acc5", "ema_acc1"} <= set(rows[0])
    weights = [f for f in files if f.startswith("weights-")]
    assert len(weights) == 1
    digest = hashlib.sha256((tmp_path / weights[0]).read_bytes()).hexdigest()
    assert weights[0] == f"weights-{digest[:8]}.pth"


def test_resume_continues_bit_for_bit(train, tmp_path):
    common = [*TINY, "-j", 2, "--auto-augment", "imagenet", "--random-erase", 0.5, "--lr-step-size", 1]
    straight, split = tmp_path / "straight", tmp_path / "split"
    run_script(train, *common, "--epochs", 2, "--output-dir", straight)
    run_script(train, *common, "--epochs", 1, "--output-dir", split)
    run_script(train, *common, "--epochs", 2, "--output-dir", split, "--resume", split / "checkpoint.pth")
    full, resumed = core.load(str(straight / "checkpoint.pth")), core.load(str(split / "checkpoint.pth"))
    assert resumed["epoch"] == 1
    for key, value in full["model"].items():
        assert core.equal(value, resumed["model"][key]), key
    for index, state in full["optimizer"]["state"].items():
        for name, value in state.items():
            assert core.equal(value, resumed["optimizer"]["state"][index][name]), (index, name)
    assert full["lr_scheduler"] == resumed["lr_scheduler"]
    assert _read_log(straight) == _read_log(split)


def test_tensorboard_event_files_hold_the_logged_epochs(train, tmp_path):
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing import event_accumulator
    tiny = [a for a in TINY if a != "--no-tensorboard"]
    run_script(train, *tiny, "--epochs", 1, "--output-dir", tmp_path)
    run_script(train, *tiny, "--epochs", 2, "--output-dir", tmp_path, "--resume", tmp_path / "checkpoint.pth")
    log_dir = tmp_path / "tensorboard"
    assert [f for f in os.listdir(log_dir) if f.startswith("events.out.tfevents.")]
    events = event_accumulator.EventAccumulator(str(log_dir), size_guidance={event_accumulator.SCALARS: 0})
    events.Reload()
    rows = _read_log(tmp_path)
    assert {"epoch/train_loss", "epoch/test_acc1", "epoch/lr"} <= set(events.Tags()["scalars"])
    for name in ("train_loss", "test_acc1", "test_acc5", "lr"):
        scalars = events.Scalars(f"epoch/{name}")
        assert [s.step for s in scalars] == [0, 1], name  # the resumed run continues the same series
        assert [s.value for s in scalars] == pytest.approx([float(row[name]) for row in rows], rel=1e-6), name


def test_test_only_evaluates_a_checkpoint(train, tmp_path):
    run_script(train, *TINY, "--epochs", 1, "--output-dir", tmp_path)
    trained = core.load(str(tmp_path / "checkpoint.pth"))
    metrics = run_script(train, *TINY, "--test-only", "--resume", tmp_path / "checkpoint.pth", "--output-dir", "")
    rows = _read_log(tmp_path)
    assert metrics["acc1"] == pytest.approx(float(rows[0]["test_acc1"]))
    assert trained["epoch"] == 0


def test_bad_arguments_raise_clear_errors(train, tmp_path):
    with pytest.raises(RuntimeError, match="Invalid optimizer adagrad"):
        run_script(train, *TINY, "--opt", "adagrad", "--epochs", 1, "--output-dir", tmp_path)
    with pytest.raises(RuntimeError, match="Invalid model"):
        run_script(train, *TINY, "--model", "no_such_net", "--epochs", 1, "--output-dir", tmp_path)
    with pytest.raises(RuntimeError, match="CPU only"):
        run_script(train, *TINY, "--device", "cuda", "--output-dir", tmp_path)


def test_optimizer_and_schedules_follow_the_recipe(train):
    args = train.get_args_parser().parse_args(["--opt", "rmsprop", "--lr", "0.064", "--wd", "0.00001",
                                               "--lr-step-size", "2", "--lr-gamma", "0.973", "--epochs", "600"])
    model = core.nn.Linear(2, 2)
    optimizer = train.build_optimizer(args, model.parameters())
    group = optimizer.param_groups[0]
    assert isinstance(optimizer, core.optim.RMSprop)
    assert (group["lr"], group["eps"], group["alpha"], group["momentum"], group["weight_decay"]) == \
        (0.064, 0.0316, 0.9, 0.9, 0.00001)
    scheduler = train.build_lr_scheduler(args, optimizer)
    lrs = []
    for _ in range(4):
        lrs.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    assert lrs == pytest.approx([0.064, 0.064, 0.064 * 0.973, 0.064 * 0.973])
    args = train.get_args_parser().parse_args(["--lr-warmup-epochs", "2", "--lr-warmup-decay", "0.1", "--lr", "1"])
    optimizer = train.build_optimizer(args, model.parameters())
    scheduler = train.build_lr_scheduler(args, optimizer)
    lrs = []
    for _ in range(3):
        lrs.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    assert lrs == pytest.approx([0.1, 0.1, 1.0])  # constant warm-up, then StepLR
    with pytest.raises(RuntimeError, match="Invalid warmup lr method"):
        args.lr_warmup_method = "cubic"
        train.build_lr_scheduler(args, optimizer)


def test_accuracy_counts_top_k(train):
    utils = train.utils
    output = core.tensor([[0.1, 0.7, 0.2], [0.8, 0.1, 0.1], [0.3, 0.3, 0.4], [0.2, 0.5, 0.3]])
    target = core.tensor([1, 2, 0, 2])
    acc1, acc2, acc5 = utils.accuracy(output, target, topk=(1, 2, 5))
    assert acc1.item() == pytest.approx(25.0)
    assert acc2.item() == pytest.approx(75.0)
    assert acc5.item() == pytest.approx(100.0)


def test_average_checkpoints_averages_floats_and_floor_divides_integers(train, tmp_path):
    utils = train.utils
    paths = []
    for i, (w, count) in enumerate([(1.0, 3), (2.0, 4), (4.0, 4)]):
        state = {"model": {"w": core.full((2,), w), "h": core.full((1,), w, dtype=core.float16),
                           "num_batches_tracked": core.tensor(count)}, "epoch": i}
        paths.append(str(tmp_path / f"m{i}.pth"))
        core.save(state, paths[-1])
    averaged = utils.average_checkpoints(paths)
    assert averaged["epoch"] == 0  # the first checkpoint's other entries
    assert core.allclose(averaged["model"]["w"], core.full((2,), 7.0 / 3))
    assert averaged["model"]["h"].dtype == core.float32
    assert averaged["model"]["num_batches_tracked"].item() == 11 // 3
    core.save({"model": {"w": core.zeros(2)}}, str(tmp_path / "other.pth"))
    with pytest.raises(KeyError, match="expected list of params"):
        utils.average_checkpoints([paths[0], str(tmp_path / "other.pth")])
    with pytest.raises(ValueError, match="no checkpoint"):
        utils.average_checkpoints([])


def test_store_model_weights_names_the_file_by_its_sha256(train, tmp_path):
    utils = train.utils
    model = core.nn.Sequential(core.nn.Linear(3, 2), core.nn.BatchNorm1d(2))
    ema = train.ExponentialMovingAverage(model, decay=0.5)
    core.save({"model": model.state_dict(), "model_ema": ema.state_dict()}, str(tmp_path / "checkpoint.pth"))
    for key in ("model", "model_ema"):
        path = utils.store_model_weights(model, str(tmp_path / "checkpoint.pth"), checkpoint_key=key)
        digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
        assert os.path.basename(path) == f"weights-{digest[:8]}.pth"
        stored = core.load(path)
        assert set(stored) == set(model.state_dict())
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def test_mixup_and_cutmix_mix_images_and_one_hot_targets():
    transforms = load_script("classification", "transforms")
    core.manual_seed(0)
    batch, target = core.rand(4, 3, 8, 8), core.tensor([0, 1, 2, 0])
    for mix in (transforms.RandomMixup(3, p=1.0, alpha=0.5), transforms.RandomCutmix(3, p=1.0, alpha=0.5)):
        mixed, soft = mix(batch, target)
        assert mixed.shape == batch.shape and soft.shape == (4, 3)
        assert core.allclose(soft.sum(1), core.ones(4))
        assert not core.equal(mixed, batch)
    untouched, one_hot = transforms.RandomMixup(3, p=0.0)(batch, target)
    assert core.equal(untouched, batch) and core.equal(one_hot.argmax(1), target)
    draws = [transforms.sample_beta(0.2) for _ in range(200)]
    assert all(0.0 <= d <= 1.0 for d in draws) and abs(sum(draws) / len(draws) - 0.5) < 0.1
    with pytest.raises(ValueError, match="num_classes"):
        transforms.RandomMixup(0)
    with pytest.raises(TypeError, match="int64"):
        transforms.RandomCutmix(3)(batch, target.float())


@requires_mpi
def test_data_parallel_run_under_mpiexec(tmp_path):
    script = os.path.join(REFERENCES, "classification", "train.py")
    args = [*TINY, "--epochs", 1, "--output-dir", tmp_path, "--sync-bn"]
    result = run_ranks(os.path.relpath(script, os.path.join(os.path.dirname(REFERENCES), "tests", "distributed")),
                       *[str(a) for a in args], ranks=2, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("distributed init") == 2
    assert result.stdout.count("Test: Acc@1") == 1  # rank 0 prints
    checkpoint = core.load(str(tmp_path / "checkpoint.pth"))
    assert len(checkpoint["rng_state"]) == 2
    assert not any(key.startswith("module.") for key in checkpoint["model"])
    assert any("running_mean" in key for key in checkpoint["model"])
    assert len(_read_log(tmp_path)) == 1
