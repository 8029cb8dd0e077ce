"""core.jit.optimize_for_inference / core.compile: the C++ inference programs agree with eager."""
import io

import pytest

import core
import core.jit as jit
import core.nn.functional as F
from core import nn
from core.jit import _compile
from graph_helpers import assert_close_relative as assert_close, randomised


_MODELS = ["mobilenet_v3_large", "mobilenet_v3_small", "mobilenet_v2", "resnet18", "resnet50"]


@pytest.mark.parametrize("name", _MODELS)
def test_vision_models_match_eager(name):
    import vision

    model = randomised(getattr(vision.models, name)(num_classes=10))
    compiled = core.compile(model, core.randn(1, 3, 64, 64))
    for batch in (1, 8) if name != "resnet50" else (1, 2):
        for layout in (core.contiguous_format, core.channels_last):
            x = core.randn(batch, 3, 64, 64).contiguous(memory_format=layout)
            before = x.clone()
            with core.no_grad():
                want = model(x)
            assert_close(compiled(x), want)
            assert core.equal(x, before)  # the input is never written
    assert len(compiled._programs) == 2  # one per input shape


@pytest.mark.parametrize("name", ["lraspp_mobilenet_v3_large", "deeplabv3_mobilenet_v3_large"])
def test_segmentation_models_match_eager(name):
    """Dict outputs, dilated convolutions, bilinear upsampling to the input's size."""
    import vision

    model = randomised(getattr(vision.models.segmentation, name)(pretrained_backbone=False, num_classes=5))
    compiled = core.compile(model, core.randn(1, 3, 48, 48))
    for batch in (1, 2):
        for layout in (core.contiguous_format, core.channels_last):
            x = core.randn(batch, 3, 48, 48).contiguous(memory_format=layout)
            with core.no_grad():
                want = model(x)
            got = compiled(x)
            assert got.keys() == want.keys()
            for key in want:
                assert_close(got[key], want[key])


def test_passes_fold_and_fuse():
    import vision

    model = randomised(vision.models.mobilenet_v3_small(num_classes=10))
    x = core.randn(1, 3, 32, 32)
    from core.jit._trace import OpTracer, trace_graph

    _, graph = trace_graph(model, (x,), OpTracer)
    ops = [getattr(n.target, "__name__", n.target) for n in graph.nodes if n.op.startswith("call")]
    program = core.compile(model, x).program_for(x)
    assert "native_batch_norm" in ops
    assert len(program) < len(ops) - ops.count("native_batch_norm")  # every BN and its [0] are gone


def test_steps_after_passes():
    import vision

    model = randomised(vision.models.resnet18(num_classes=10))
    steps = _steps_after_passes(model, core.randn(1, 3, 32, 32))
    ops = [step.op for step in steps]
    assert "native_batch_norm" not in ops and "take" not in ops
    # every conv but the 3 downsampling ones takes its ReLU (and residual add) into its kernels;
    # the stride-1 3x3 ones writing 8x8 and 4x4 images (layer1, 2) run Winograd on a weight
    # transformed once; the 1x1 ones (layer4's downsampling one too, writing one pixel) and the
    # others writing 4x4 and 2x2 images (layer2 and 3) take a packed weight, not the 3x3 ones
    # writing one pixel (layer4)
    assert ops.count("_conv2d_fused") == 12 and ops.count("_conv2d_prepacked") == 8 and ops.count("conv2d") == 0
    assert sum(1 for step in steps if step.op == "_conv2d_fused" and len(step.args) == 10) == 7
    assert "relu_" not in ops and "add_" not in ops and "add" not in ops
    assert ops[:2] == ["input", "_conv2d_fused"]  # the stem reads the input as it is, writes channels-last


@pytest.mark.parametrize("packed", [True, False])
def test_excitation_folds_into_the_next_pointwise_weight_at_batch_1(packed):
    from vision.models.mobilenetv3 import SqueezeExcitation

    model = randomised(nn.Sequential(nn.Conv2d(16, 32, 1), SqueezeExcitation(32), nn.Conv2d(32, 48, 1), nn.ReLU())).eval()
    passes = _compile.PASSES if packed else tuple(p for p in _compile.PASSES if p is not _compile.prepack)
    for batch, folds in ((1, True), (2, False)):
        steps = _steps_after_passes(model, core.randn(batch, 16, 16, 16), passes)
        ops = [step.op for step in steps]
        conv = steps[-1]
        assert conv.op == ("_conv2d_prepacked" if packed else "_conv2d_fused")
        # folded: the only mul scales the weight, which the convolution then reads (the packed
        # weight along its channel dim, or the (C, O) rows, transposed back after); else x
        assert ops.count("mul") + ops.count("mul_") == 1 and ("t" in ops) == (folds and not packed)
        assert isinstance(conv.args[1], _compile.Step) == folds
        assert (conv.args[0].op in ("mul", "mul_")) == (not folds)


def test_depthwise_weights_are_stored_taps_major():
    import vision

    model = randomised(vision.models.mobilenet_v3_small(num_classes=10))
    steps = _steps_after_passes(model, core.randn(2, 3, 64, 64))
    depthwise = [step.args[5] for step in steps if step.op == "_conv2d_inverted_residual"]
    depthwise += [step.args[1] for step in steps if step.op == "_conv2d_fused" and step.args[6] > 1]
    assert len(depthwise) == 11  # every block's
    assert all(w.permute(1, 2, 3, 0).is_contiguous() for w in depthwise)


class _ScaleAfterPool(nn.Module):
    def __init__(self, view_read_after):
        super().__init__()
        self.conv, self.view_read_after = nn.Conv2d(8, 16, 3, padding=1), view_read_after

    def forward(self, x):
        y = F.relu(self.conv(x))
        scale = core.sigmoid(F.adaptive_avg_pool2d(y, 1))  # reads y first: a new tensor
        rows = y.flatten(2)  # a view of y
        scaled = y * scale
        return (scaled, rows.sum(-1)) if self.view_read_after else scaled


@pytest.mark.parametrize("view_read_after", [False, True])
def test_in_place_once_the_other_readers_have_run(view_read_after):
    """A mul writes over y once y's other readers have run, unless one made a view of it that
    is read later."""
    model = randomised(_ScaleAfterPool(view_read_after)).eval()
    ops = _ops_after_passes(model, core.randn(2, 8, 10, 10))
    assert ("mul" in ops) == view_read_after and ("mul_" in ops) == (not view_read_after)


def test_prepack_takes_1x1_convolutions_and_small_images():
    model = randomised(nn.Sequential(nn.Conv2d(3, 40, 3, padding=1), nn.Conv2d(40, 240, 1), nn.ReLU(),
                                     nn.Conv2d(240, 40, 1), nn.Conv2d(40, 16, 1, stride=2), nn.ReLU(),
                                     nn.Conv2d(16, 64, 3, padding=1), nn.Conv2d(64, 32, 3, stride=2, padding=1),
                                     nn.Conv2d(32, 32, 3, padding=2, dilation=2)))
    ops = _ops_after_passes(model, core.randn(2, 3, 24, 24))
    # every 1x1 (with its ReLU where it has one) and the 3x3 writing 6x6; not the 3x3 ones writing
    # 24x24 and 12x12, nor the dilated one; the stride-1 16 -> 64 at 12x12 runs Winograd on a
    # weight transformed once (the stem's 3 input channels are too few for it)
    assert ops.count("_conv2d_prepacked") == 4 and ops.count("_conv2d_fused") == 1 and ops.count("conv2d") == 2


@pytest.mark.parametrize("dtype", [core.float32, core.float64])
def test_linear_layers_over_rows_run_as_packed_1x1_convolutions(dtype):
    layers = (nn.Linear(40, 24), nn.Hardswish(), nn.Linear(24, 10), nn.Linear(10, 7, bias=False))
    model = randomised(nn.Sequential(*layers)).to(dtype)
    for batch, as_conv in ((1, False), (2, True), (7, True)):
        steps = _steps_after_passes(model, core.randn(batch, 40, dtype=dtype))
        ops = [step.op for step in steps]
        # over several rows each is viewed as (N, C, 1, 1), convolved and viewed back (the
        # Hardswish applied after, in place); one row stays on addmm (matmul without a bias)
        assert ops.count("_conv2d_prepacked") == (3 if as_conv else 0)
        assert ops.count("addmm") == (0 if as_conv else 2) and ops.count("matmul") == (0 if as_conv else 1)
        for step in steps:
            if step.op == "_conv2d_prepacked":
                assert step.args[0].op == "reshape" and step.users[0].op == "reshape"


def test_linear_as_conv_leaves_other_matrix_products():
    class Products(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(12, 5)
            self.weight = nn.Parameter(core.randn(12, 5))

        def forward(self, x, y):
            return (self.fc(x),  # 3-d rows: matmul, not addmm
                    core.addmm(self.fc.bias, y, self.weight, beta=0.5),  # scaled: not a Linear layer
                    core.addmm(y @ self.weight, y, self.weight),  # a bias the program computes
                    y.int() @ self.weight.int())  # not float

    steps = _steps_after_passes(Products().eval(), (core.randn(2, 3, 12), core.randn(4, 12)))
    ops = [step.op for step in steps]
    # only y @ weight (rows by a constant) runs as a convolution; the 3-d and integer matmuls stay
    assert ops.count("_conv2d_prepacked") == 1 and ops.count("addmm") == 2 and ops.count("matmul") == 2


def _steps_after_passes(model, x, passes=_compile.PASSES):
    """The steps the passes leave, after checking the compiled model against eager."""
    captured = {}

    def capture(steps, outputs):
        captured["steps"] = list(steps)
        return steps, outputs

    compiled = _compile.CompiledModule(model, passes=(*passes, capture))
    inputs = x if isinstance(x, tuple) else (x,)
    with core.no_grad():
        got, want = compiled(*inputs), model(*inputs)
    for g, w in zip(got, want) if isinstance(want, tuple) else ((got, want),):
        assert_close(g, w)
    return captured["steps"]


def _ops_after_passes(model, x):
    """The op of every step the passes leave, after checking the compiled model against eager."""
    return [step.op for step in _steps_after_passes(model, x)]


class _Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 4 * 4, 6)

    def forward(self, x, scale=0.5):
        y = F.max_pool2d(F.relu6(self.bn(self.conv(x))), 2)
        z = self.fc(core.flatten(y, 1))
        return F.softmax(z, -1), core.sigmoid(z) * scale - 1, y.mean(dim=(2, 3))


def test_small_model_and_python_arguments():
    model = randomised(_Small())
    x = core.randn(2, 3, 8, 8)
    compiled = jit.optimize_for_inference(model)
    with core.no_grad():
        for got, want in zip(compiled(x, 0.25), model(x, 0.25)):
            assert_close(got, want)
    assert not compiled(x)[0].requires_grad


def test_traced_and_loaded_modules_compile():
    model = randomised(_Small())
    x = core.randn(1, 3, 8, 8)
    buffer = io.BytesIO()
    jit.save(jit.trace(model, x), buffer)
    buffer.seek(0)
    compiled = jit.optimize_for_inference(jit.load(buffer))
    with core.no_grad():
        assert_close(compiled(x)[0], model(x)[0])


def test_refusals():
    model = _Small()
    with pytest.raises(RuntimeError, match="training mode"):
        jit.optimize_for_inference(model)

    def indexing(x):
        return x[:, 0] + 1

    with pytest.raises(jit.CompileError, match="indexing"):
        core.compile(indexing, core.randn(2, 3))
    program = core._C._JitProgram(2)
    with pytest.raises(RuntimeError, match="out of range"):
        program.add_call("relu", (core._C._JitSlot(5, core.ones(1)),), {}, 1, -1, [])
    with pytest.raises(RuntimeError, match="no op named"):
        program.add_call("no_such_op", (), {}, 1, -1, [])
    program.add_call("relu", (core._C._JitSlot(0, core.ones(1)),), {}, 1, -1, [])
    program.set_io([0], [1])
    with pytest.raises(TypeError, match="expected 1 inputs"):
        program.run()
    assert core.equal(program.run(core.tensor([-1.0, 2.0]))[0], core.tensor([0.0, 2.0]))


def test_large_first_values_run_over_chunks_of_the_batch():
    """MobileNetV3-Large's stem and first three blocks make values of 256 KiB or more per image:
    at batch 8 they run over four chunks of two images and the chunks' outputs are joined,
    channels-last, with the same bits as the whole batch at once; smaller batches, and batches
    that do not divide into chunks, run whole."""
    import vision

    core.manual_seed(0)
    model = vision.models.mobilenet_v3_large().eval()
    unchunked = tuple(p for p in _compile.PASSES if p is not _compile.chunk_batch)
    for batch, chunks in ((8, 4), (3, 0), (2, 0)):
        x = core.randn(batch, 3, 224, 224)
        ops = [step.op for step in _steps_after_passes(model, x)]
        assert ops.count("narrow") == chunks and ops.count("cat") == (1 if chunks else 0)
        if chunks:
            first = ops.index("cat")
            assert ops[:first].count("_conv2d_fused") == chunks  # the stem, chunk by chunk
            assert ops[:first].count("_conv2d_inverted_residual") == 3 * chunks
            got = core.compile(model, x)(x)
            assert core.equal(got, _compile.CompiledModule(model, passes=unchunked)(x))


def test_batch_chunks_stop_at_values_shared_across_images():
    """An add of a constant that holds a value per image, or a step whose value the chunks'
    end does not carry (read after it), keeps the steps whole."""

    class PerImage(nn.Module):
        def __init__(self, per_image):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(3, 16, 3, padding=1), nn.Conv2d(16, 16, 3, padding=1)
            self.register_buffer("offset", per_image)

        def forward(self, x):
            return self.conv2(self.conv1(x) + self.offset)

    x = core.randn(4, 3, 64, 64)  # 256 KiB per image of 16 channels
    shared = randomised(PerImage(core.randn(1, 16, 1, 1))).eval()
    assert "cat" in [step.op for step in _steps_after_passes(shared, x)]
    per_image = randomised(PerImage(core.randn(4, 16, 1, 1))).eval()
    assert "cat" not in [step.op for step in _steps_after_passes(per_image, x)]

    class ReadsEarlier(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(3, 16, 3, padding=1), nn.Conv2d(16, 16, 3, padding=1)

        def forward(self, x):
            y = self.conv1(x)
            return self.conv2(y) * 2 + y.mean()

    assert "cat" not in [step.op for step in _steps_after_passes(randomised(ReadsEarlier()).eval(), x)]
