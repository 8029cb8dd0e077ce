"""SummaryWriter: every kind of event read back with TensorBoard's own EventAccumulator."""
import glob
import io
import os
import re
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import core
import core.nn as nn
from core.utils.tensorboard._record import read_records
from support import child_process_options

pytest.importorskip("tensorboard")
from tensorboard.backend.event_processing import event_accumulator as ea
from tensorboard.util import tensor_util

from core.utils.tensorboard import SummaryWriter

KEEP_ALL = {ea.SCALARS: 0, ea.HISTOGRAMS: 0, ea.IMAGES: 0, ea.TENSORS: 0, ea.GRAPH: 0}


def accumulate(path):
    acc = ea.EventAccumulator(str(path), size_guidance=KEEP_ALL)
    acc.Reload()
    return acc


def test_scalars_round_trip(tmp_path):
    with SummaryWriter(tmp_path) as w:
        for step in range(5):
            w.add_scalar("loss", core.tensor(1.0 / (step + 1)), step, walltime=100.0 + step)
            w.add_scalar("lr", 0.1 * step, global_step=core.tensor(step))
        w.add_scalar("exact", 0.1, 7, new_style=True, double_precision=True)
    acc = accumulate(tmp_path)
    loss = acc.Scalars("loss")
    assert [e.step for e in loss] == list(range(5))
    assert [e.wall_time for e in loss] == [100.0 + s for s in range(5)]
    np.testing.assert_allclose([e.value for e in loss], [1.0 / (s + 1) for s in range(5)], rtol=1e-7)
    np.testing.assert_allclose([e.value for e in acc.Scalars("lr")], [0.1 * s for s in range(5)], rtol=1e-7)
    (exact,) = acc.Tensors("exact")
    assert exact.step == 7 and tensor_util.make_ndarray(exact.tensor_proto) == 0.1  # float64 kept
    assert acc.SummaryMetadata("exact").plugin_data.plugin_name == "scalars"


def test_add_scalars_writes_one_run_per_series(tmp_path):
    with SummaryWriter(tmp_path) as w:
        for step in range(3):
            w.add_scalars("run/loss", {"train": step * 2.0, "val": step * 3.0}, step)
    for series, factor in (("train", 2.0), ("val", 3.0)):
        events = accumulate(tmp_path / f"run_loss_{series}").Scalars("run/loss")
        assert [(e.step, e.value) for e in events] == [(s, s * factor) for s in range(3)]


def recount(histogram, values):
    # numpy's bins: bucket i holds the values in [limit[i-1], limit[i]).
    limits = np.array(histogram.bucket_limit)
    return np.bincount(np.searchsorted(limits, values, side="right"), minlength=len(limits) + 1)


@pytest.mark.parametrize("bins, max_bins", [("tensorflow", None), (30, None), (64, 10), ("auto", None)])
def test_histogram_round_trip(tmp_path, bins, max_bins):
    values = core.randn(1000, dtype=core.float64) * 3 + 1
    with SummaryWriter(tmp_path) as w:
        w.add_histogram("weights", values, 3, bins=bins, max_bins=max_bins)
    (event,) = accumulate(tmp_path).Histograms("weights")
    h, v = event.histogram_value, values.numpy()
    assert event.step == 3
    assert (h.min, h.max, h.num) == (v.min(), v.max(), v.size)
    np.testing.assert_allclose([h.sum, h.sum_squares], [v.sum(), (v * v).sum()], rtol=1e-12)
    assert h.bucket[0] == 0 and h.bucket_limit[0] <= v.min() and h.bucket_limit[-1] >= v.max()
    assert sum(h.bucket) == v.size
    assert np.all(np.diff(h.bucket_limit) > 0)
    if max_bins is not None:
        assert len(h.bucket) <= max_bins + 1
    if bins != "auto":  # numpy's closed last bin aside, buckets match the values
        np.testing.assert_array_equal(recount(h, v)[1:-2], np.array(h.bucket)[1:-1])


def test_histogram_rejects_empty_and_nan(tmp_path):
    with SummaryWriter(tmp_path) as w:
        with pytest.raises(ValueError, match="empty"):
            w.add_histogram("h", core.zeros(0))
        with pytest.raises(ValueError, match="NaN"):
            w.add_histogram("h", core.tensor([1.0, float("nan")]))


def decode(image_event):
    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(image_event.encoded_image_string)))


def test_images_in_every_layout(tmp_path):
    chw = core.rand(3, 5, 7)
    gray = core.rand(5, 7)
    rgba = (core.rand(5, 7, 4) * 255).to(core.uint8)
    batch = core.rand(10, 1, 4, 6)
    with SummaryWriter(tmp_path) as w:
        w.add_image("chw", chw, 1)
        w.add_image("hw", gray, 2, dataformats="HW")
        w.add_image("hwc", rgba, 3, dataformats="HWC")
        w.add_images("batch", batch, 4)
    acc = accumulate(tmp_path)
    as_uint8 = lambda a: (a.astype(np.float32) * 255).clip(0, 255).astype(np.uint8)

    (e,) = acc.Images("chw")
    assert (e.step, e.width, e.height) == (1, 7, 5)
    np.testing.assert_array_equal(decode(e), as_uint8(chw.numpy().transpose(1, 2, 0)))
    (e,) = acc.Images("hw")
    np.testing.assert_array_equal(decode(e), np.repeat(as_uint8(gray.numpy())[:, :, None], 3, axis=2))
    (e,) = acc.Images("hwc")
    np.testing.assert_array_equal(decode(e), rgba.numpy())
    (e,) = acc.Images("batch")
    grid = decode(e)
    assert grid.shape == (8, 48, 3)  # 10 images, 8 per row: 2 rows
    b = as_uint8(batch.numpy())
    np.testing.assert_array_equal(grid[:4, 6:12, 0], b[1, 0])
    np.testing.assert_array_equal(grid[4:, 6:12, 2], b[9, 0])
    np.testing.assert_array_equal(grid[4:, 12:], 0)


def test_image_layout_errors(tmp_path):
    with SummaryWriter(tmp_path) as w:
        with pytest.raises(ValueError, match="dataformats"):
            w.add_image("x", core.rand(3, 4, 4), dataformats="HW")
        with pytest.raises(ValueError, match="channels"):
            w.add_image("x", core.rand(2, 4, 4))
        with pytest.raises(ValueError, match="batch"):
            w.add_images("x", core.rand(3, 4, 4), dataformats="CHW")


def test_text(tmp_path):
    with SummaryWriter(tmp_path) as w:
        w.add_text("notes", "**loss** went down — ok", 5)
    (e,) = accumulate(tmp_path).Tensors("notes/text_summary")
    assert e.step == 5
    assert e.tensor_proto.string_val == ["**loss** went down — ok".encode()]


def test_pr_curve_matches_thresholding(tmp_path):
    g = np.random.default_rng(0)
    labels = g.random(200) < 0.4
    predictions = np.clip(labels * 0.3 + g.random(200) * 0.7, 0, 1)
    with SummaryWriter(tmp_path) as w:
        w.add_pr_curve("pr", core.tensor(labels), core.tensor(predictions), 2, num_thresholds=11)
    (e,) = accumulate(tmp_path).Tensors("pr")
    data = tensor_util.make_ndarray(e.tensor_proto)
    assert data.shape == (6, 11)
    for i in range(11):
        positive = predictions * 10 >= i
        tp, fp = np.sum(positive & labels), np.sum(positive & ~labels)
        fn, tn = np.sum(~positive & labels), np.sum(~positive & ~labels)
        np.testing.assert_allclose(data[:4, i], [tp, fp, tn, fn])
        np.testing.assert_allclose(data[4:, i], [tp / max(tp + fp, 1e-7), tp / max(tp + fn, 1e-7)], rtol=1e-6)


def test_hparams_session(tmp_path):
    from tensorboard.plugins.hparams import plugin_data_pb2
    with SummaryWriter(tmp_path) as w:
        w.add_hparams({"lr": 0.1, "bs": 32, "opt": "sgd", "nesterov": True, "skip": None},
                      {"hparam/accuracy": 0.75}, hparam_domain_discrete={"opt": ["sgd", "adam"]},
                      run_name="trial")
    acc = accumulate(tmp_path / "trial")
    content = acc.PluginTagToContent("hparams")
    start = plugin_data_pb2.HParamsPluginData.FromString(content["_hparams_/session_start_info"])
    hp = start.session_start_info.hparams
    assert (hp["lr"].number_value, hp["bs"].number_value) == (0.1, 32)
    assert (hp["opt"].string_value, hp["nesterov"].bool_value) == ("sgd", True)
    assert "skip" not in hp
    experiment = plugin_data_pb2.HParamsPluginData.FromString(content["_hparams_/experiment"]).experiment
    assert [m.name.tag for m in experiment.metric_infos] == ["hparam/accuracy"]
    opt = next(i for i in experiment.hparam_infos if i.name == "opt")
    assert list(opt.domain_discrete) == ["sgd", "adam"]
    end = plugin_data_pb2.HParamsPluginData.FromString(content["_hparams_/session_end_info"])
    assert end.session_end_info.status == 1  # STATUS_SUCCESS
    assert acc.Scalars("hparam/accuracy")[0].value == 0.75
    with SummaryWriter(tmp_path) as w, pytest.raises(ValueError, match="'fn' is a builtin_function"):
        w.add_hparams({"fn": print}, {})


class Residual(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        return (self.bn(self.conv(x)) + x).relu()


def small_net():
    return nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), Residual(), nn.AdaptiveAvgPool2d(1),
                         nn.Flatten(), nn.Linear(4, 2))


def test_graph_from_a_forward(tmp_path):
    with SummaryWriter(tmp_path) as w:
        w.add_graph(small_net(), core.randn(2, 3, 8, 8))
    graph = accumulate(tmp_path).Graph()
    nodes = {n.name: n for n in graph.node}
    for n in graph.node:  # every edge points at a node of the graph
        assert all(i in nodes for i in n.input), n
    assert nodes["input/input.0"].op == "IO Node"
    assert nodes["Sequential/Conv2d[0]/weight"].op == "Parameter"
    conv = nodes["Sequential/Conv2d[0]/Conv2d"]
    assert set(conv.input) == {"input/input.0", "Sequential/Conv2d[0]/weight", "Sequential/Conv2d[0]/bias"}
    # The residual add belongs to Residual itself, fed by its BatchNorm and by the first conv.
    add = nodes["Sequential/Residual[1]/Add"]
    assert conv.name in add.input
    assert any(i.startswith("Sequential/Residual[1]/BatchNorm2d[bn]/") for i in add.input)
    assert nodes["Sequential/Residual[1]/Relu"].input == ["Sequential/Residual[1]/Add"]
    assert nodes["output/output.0"].input[0].startswith("Sequential/Linear[4]/")


def test_graph_from_the_module_tree(tmp_path):
    with SummaryWriter(tmp_path) as w:
        w.add_graph(small_net())
    names = {n.name: n.op for n in accumulate(tmp_path).Graph().node}
    assert names["Sequential"] == "Sequential"
    assert names["Sequential/Residual[1]/BatchNorm2d[bn]"] == "BatchNorm2d"
    assert names["Sequential/Linear[4]"] == "Linear"


def test_purge_step_drops_the_earlier_runs_later_steps(tmp_path):
    with SummaryWriter(tmp_path) as w:
        for step in range(10):
            w.add_scalar("x", step, step)
    with SummaryWriter(tmp_path, purge_step=5) as w:
        for step in range(5, 8):
            w.add_scalar("x", 100 + step, step)
    events = accumulate(tmp_path).Scalars("x")
    assert [(e.step, e.value) for e in events] == [(s, s) for s in range(5)] + [(s, 100 + s) for s in range(5, 8)]


def test_file_name_log_dir_and_reopen_after_close(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    w = SummaryWriter(comment="_lr0.1", filename_suffix=".v1")
    assert re.fullmatch(r"runs/[A-Z][a-z]{2}\d{2}_\d{2}-\d{2}-\d{2}_.+_lr0\.1", w.get_logdir())
    w.add_scalar("a", 1.0, 0)
    w.close()
    w.add_scalar("a", 2.0, 1)  # reopens a new file, as PyTorch's writer does
    w.close()
    files = sorted(glob.glob(os.path.join(w.get_logdir(), "events.out.tfevents.*")))
    assert len(files) == 2 and all(f.endswith(".v1") for f in files)
    assert re.fullmatch(rf"events\.out\.tfevents\.\d{{10}}\..+\.{os.getpid()}\.\d+\.v1", os.path.basename(files[0]))
    assert [e.value for e in accumulate(w.get_logdir()).Scalars("a")] == [1.0, 2.0]


def test_figure(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(2, 1), dpi=50)
    plt.plot([0, 1], [1, 0])
    with SummaryWriter(tmp_path) as w:
        w.add_figure("fig", fig, 0)
    (e,) = accumulate(tmp_path).Images("fig")
    assert (e.width, e.height) == (100, 50) and decode(e).shape == (50, 100, 4)


WRITER_SCRIPT = textwrap.dedent("""
    import sys
    from core.utils.tensorboard import SummaryWriter
    w = SummaryWriter(sys.argv[1], max_queue=1)
    step = 0
    while True:
        w.add_scalar("step", step, step)
        w.add_text("t", "x" * 1000, step)
        if step == 50:
            print("ready", flush=True)
        step += 1
""")


def test_a_killed_writer_leaves_a_readable_file(tmp_path):
    child = subprocess.Popen([sys.executable, "-c", WRITER_SCRIPT, str(tmp_path)], stdout=subprocess.PIPE,
                             **child_process_options())
    try:
        assert child.stdout.readline() == b"ready\n"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    (path,) = glob.glob(str(tmp_path / "events.out.tfevents.*"))
    records = list(read_records(path))  # every whole record's checksums hold
    steps = [e.step for e in accumulate(tmp_path).Scalars("step")]
    assert len(steps) > 50 and steps == list(range(len(steps)))
    assert len(records) >= 2 * len(steps)
