"""_conv2d_inverted_residual (an inverted-residual block's depthwise convolution with its 1x1
expansion and projection, each optional, in one call, band by band): the same bits as the calls
it replaces, a numpy reference, the compiler's use of it, and its refusals."""
import os
import sys

import numpy as np
import pytest

import core
import vision
from vision.models.mobilenetv3 import SqueezeExcitation

_TESTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(_TESTS, "core"))
sys.path.insert(0, _TESTS)
from op_matrix.refs_conv import conv_ref  # noqa: E402
from support import assert_isa_builds_agree  # noqa: E402

_op = core._C._op("_conv2d_inverted_residual")
_pack = core._C._op("_conv_tile_pack")
_prepacked = core._C._op("_conv2d_prepacked")
_fused = core._C._op("_conv2d_fused")

# (name, input (N, C, H, W), expanded channels, kernel, stride, padding, dilation)
_CASES = [
    ("3x3_stride1", (1, 8, 9, 11), 24, 3, 1, 1, 1),
    ("3x3_stride2", (2, 6, 10, 9), 20, 3, 2, 1, 1),
    ("5x5_stride2", (1, 8, 13, 13), 24, 5, 2, 2, 1),
    ("5x5_stride1", (1, 4, 7, 6), 12, 5, 1, 2, 1),
    ("dilated", (1, 8, 12, 12), 16, 3, 1, 2, 2),
    ("unpadded", (1, 8, 8, 8), 16, 3, 1, 0, 1),
    ("one_pixel", (3, 8, 1, 1), 16, 3, 1, 1, 1),  # every tap but the centre in the padding
    ("wide_rows", (1, 16, 40, 112), 64, 3, 2, 1, 1),  # a band of two output rows: rows kept across bands
    ("tall_rows", (2, 24, 60, 56), 72, 5, 1, 2, 1),  # many bands, each keeping four rows
    ("wide_padding", (1, 4, 3, 3), 8, 3, 1, 3, 1),  # bands with output rows that read no input row
    ("narrow_rows", (1, 8, 5, 3), 16, 3, 1, 1, 1),  # rows of three outputs: one pixel at a time
    ("four_left", (1, 8, 6, 12), 24, 3, 1, 1, 1),  # eight outputs and four after them
    # two threads: halves of images of 4 and 5 rows, three per thread, one scratch re-laid out
    ("row_halves", (3, 8, 9, 9), 48, 3, 1, 1, 1),
    ("rows_dilated", (1, 8, 12, 10), 24, 3, (2, 1), (2, 1), (2, 1)),  # strided and dilated along rows only
]


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


_PARTS = [(True, False), (True, True), (False, True), (False, False)]  # (expansion, projection)
_PART_IDS = ["expand", "expand_project", "project", "depthwise_only"]


def _block(channels, expanded, k, dtype, expand, project, out_channels=12):
    """Packed weights and biases of the parts asked for (None for the others)."""
    core.manual_seed(channels * expanded + k)
    b = dict(dw=core.randn(expanded, 1, k, k, dtype=dtype) * 0.5, db=core.randn(expanded, dtype=dtype),
             ew=None, eb=None, pw=None, pb=None, out=expanded)
    if expand:
        b.update(ew=_pack(core.randn(expanded, channels, 1, 1, dtype=dtype) * 0.5),
                 eb=core.randn(expanded, dtype=dtype))
    if project:
        b.update(pw=_pack(core.randn(out_channels, expanded, 1, 1, dtype=dtype) * 0.3),
                 pb=core.randn(out_channels, dtype=dtype), out=out_channels)
    return b


def _call(x, b, expanded, conv, expand_act="relu", act="hardswish", residual=None, bias=True):
    return _op(x, b["ew"], b["eb"] if bias else None, expanded, expand_act, b["dw"], b["db"] if bias else None,
               *conv, act, b["pw"], b["pb"] if bias else None, b["out"], residual)


def _separate_calls(x, b, expanded, conv, expand_act="relu", act="hardswish", residual=None, bias=True):
    """The steps the op replaces, one call each."""
    if b["ew"] is not None:
        x = _prepacked(x, b["ew"], b["eb"] if bias else None, expanded, (1, 1), (0, 0), (1, 1), expand_act, None)
    y = _fused(x, b["dw"], b["db"] if bias else None, *conv, expanded, act, None)
    if b["pw"] is not None:
        y = _prepacked(y, b["pw"], b["pb"] if bias else None, b["out"], (1, 1), (0, 0), (1, 1), "none", residual)
    return y


@pytest.mark.parametrize("parts", _PARTS, ids=_PART_IDS)
@pytest.mark.parametrize("case", _CASES, ids=[c[0] for c in _CASES])
@pytest.mark.parametrize("dtype", [core.float32, core.float64])
@pytest.mark.parametrize("threads", [1, 2])
def test_same_bits_as_the_separate_calls(parts, case, dtype, threads):
    _, xs, expanded, k, stride, padding, dilation = case
    expand, project = parts
    if not expand:
        expanded = xs[1]
    core.manual_seed(0)
    x = (core.randn(*xs, dtype=dtype) * 2).contiguous(memory_format=core.channels_last)
    b = _block(xs[1], expanded, k, dtype, expand, project)
    conv = (_pair(stride), _pair(padding), _pair(dilation))
    previous = core.get_num_threads()
    try:
        core.set_num_threads(threads)
        plain = _separate_calls(x, b, expanded, conv)
        residuals = [None, core.randn(*plain.shape, dtype=dtype)] if project else [None]
        for expand_act, act in (("relu", "hardswish"), ("hardswish", "relu"), ("none", "none"), ("relu6", "relu6")):
            for bias in (True, False):
                for residual in residuals:
                    want = _separate_calls(x, b, expanded, conv, expand_act, act, residual, bias)
                    got = _call(x, b, expanded, conv, expand_act, act, residual, bias)
                    assert got.shape == want.shape and got.dtype == dtype
                    assert got.is_contiguous(memory_format=core.channels_last)
                    assert core.equal(got, want), (expand_act, act, bias, residual is None)
    finally:
        core.set_num_threads(previous)


def _reference(x, ew, eb, dw, db, pw, pb, residual, stride, padding, dilation):
    """project(relu6(depthwise(relu(expand(x))))) + residual in float64 numpy, tap by tap."""
    e = np.maximum(conv_ref(x, ew, eb), 0)
    y = np.clip(conv_ref(e, dw, db, stride, padding, dilation, groups=dw.shape[0]), 0, 6)
    return conv_ref(y, pw, pb) + residual


@pytest.mark.parametrize("case", _CASES, ids=[c[0] for c in _CASES])
def test_matches_numpy_reference(case):
    _, xs, expanded, k, stride, padding, dilation = case
    core.manual_seed(1)
    f64 = core.float64
    x = core.randn(*xs, dtype=f64)
    ew, eb, dw, db = core.randn(expanded, xs[1], 1, 1, dtype=f64), core.randn(expanded, dtype=f64), \
        core.randn(expanded, 1, k, k, dtype=f64), core.randn(expanded, dtype=f64)
    pw, pb = core.randn(7, expanded, 1, 1, dtype=f64), core.randn(7, dtype=f64)
    (sh, sw), (ph, pw_), (dh, dw_) = _pair(stride), _pair(padding), _pair(dilation)
    oh = (xs[2] + 2 * ph - dh * (k - 1) - 1) // sh + 1
    ow = (xs[3] + 2 * pw_ - dw_ * (k - 1) - 1) // sw + 1
    residual = core.randn(xs[0], 7, oh, ow, dtype=f64)
    got = _op(x, _pack(ew), eb, expanded, "relu", dw, db, _pair(stride), _pair(padding), _pair(dilation),
              "relu6", _pack(pw), pb, 7, residual)
    want = _reference(x.numpy(), ew.numpy(), eb.numpy(), dw.numpy(), db.numpy(), pw.numpy(), pb.numpy(),
                      residual.numpy(), stride, padding, dilation)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("parts", _PARTS, ids=_PART_IDS)
def test_empty_batch(parts):
    expanded = 8 if parts[0] else 4
    b = _block(4, expanded, 3, core.float32, *parts)
    got = _call(core.randn(0, 4, 5, 5), b, expanded, ((2, 2), (1, 1), (1, 1)))
    assert got.shape == (0, b["out"], 3, 3)


@pytest.mark.parametrize("threads", [1, 2])
def test_empty_channels_and_images(threads):
    previous = core.get_num_threads()
    try:
        core.set_num_threads(threads)
        got = _op(core.randn(1, 0, 5, 5), None, None, 0, "none", core.randn(0, 1, 3, 3), None, (1, 1), (1, 1), (1, 1),
                  "relu", None, None, 0, None)
        assert got.shape == (1, 0, 5, 5)
        x, dw, db = core.randn(2, 3, 0, 5), core.randn(3, 1, 3, 3), core.randn(3)  # rows of padding only
        got = _op(x, None, None, 3, "none", dw, db, (1, 1), (2, 2), (1, 1), "relu", None, None, 3, None)
        assert got.shape == (2, 3, 2, 7)
        assert core.equal(got, _fused(x, dw, db, (1, 1), (2, 2), (1, 1), 3, "relu", None))
    finally:
        core.set_num_threads(previous)


def test_refuses_bad_arguments():
    x = core.randn(1, 4, 6, 6)
    full = _block(4, 8, 3, core.float32, True, True, out_channels=5)

    def call(expanded=8, x=x, residual=None, act="relu", conv=((1, 1), (1, 1), (1, 1)), **changes):
        return _call(x, {**full, **changes}, expanded, conv, act=act, residual=residual)

    with pytest.raises(RuntimeError, match="the input has 5 channels"):
        call(x=core.randn(1, 5, 6, 6))
    with pytest.raises(RuntimeError, match="the 1x1 expansion needs an input of at least one row and column"):
        call(x=core.randn(1, 4, 5, 0))
    with pytest.raises(RuntimeError, match="the expansion must be a 1x1 convolution"):
        call(ew=_pack(core.randn(8, 4, 3, 3)))
    with pytest.raises(RuntimeError, match="the projection must be a 1x1 convolution"):
        call(pw=_pack(core.randn(5, 8, 3, 3)))
    with pytest.raises(RuntimeError, match="do not fill the packed weight"):
        call(expanded=1000)
    with pytest.raises(RuntimeError, match="the depthwise output has 8 channels, the packed weight expects 6"):
        call(pw=_pack(core.randn(5, 6, 1, 1)))
    with pytest.raises(RuntimeError, match="without an expansion the depthwise convolution reads the input's 4"):
        call(ew=None, eb=None)
    with pytest.raises(RuntimeError, match="an expansion bias without an expansion weight"):
        call(ew=None, expanded=4, dw=core.randn(4, 1, 3, 3), db=None, pw=_pack(core.randn(5, 4, 1, 1)))
    with pytest.raises(RuntimeError, match="without a projection the output has the 8 depthwise channels"):
        call(pw=None, pb=None)
    with pytest.raises(RuntimeError, match="a projection bias or residual without a projection weight"):
        call(pw=None, out=8)
    with pytest.raises(RuntimeError, match=r"expected a depthwise weight \(8, 1, KH, KW\)"):
        call(dw=core.randn(8, 2, 3, 3))
    with pytest.raises(RuntimeError, match="expected a depthwise bias of 8"):
        call(db=core.randn(7))
    with pytest.raises(RuntimeError, match="expected an expansion bias of 8"):
        call(eb=core.randn(8, dtype=core.float64))
    with pytest.raises(RuntimeError, match="expected a projection bias of 5"):
        call(pb=core.randn(6))
    with pytest.raises(RuntimeError, match=r"the residual must be float32 of the output's shape \[1, 5, 6, 6\], got"):
        call(residual=core.randn(1, 5, 6, 5))
    with pytest.raises(TypeError, match="must share float32 or float64"):
        call(x=x.double())
    with pytest.raises(RuntimeError, match="stride must be at least 1"):
        call(conv=((0, 1), (1, 1), (1, 1)))
    with pytest.raises(RuntimeError, match="padding must be at least 0"):
        call(conv=((1, 1), (-1, 0), (1, 1)))
    with pytest.raises(RuntimeError, match="larger than the padded input"):
        call(dw=core.randn(8, 1, 9, 9), conv=((1, 1), (0, 0), (1, 1)))
    with pytest.raises(ValueError, match="unknown activation"):
        call(act="gelu")


def _excitation(expanded, squeeze, dtype):
    """The packed layers of a squeeze-excitation of `expanded` channels."""
    core.manual_seed(expanded + squeeze)
    return dict(f1=_pack(core.randn(squeeze, expanded, 1, 1, dtype=dtype) * 0.3), b1=core.randn(squeeze, dtype=dtype),
                f2=_pack(core.randn(expanded, squeeze, 1, 1, dtype=dtype) * 0.3), b2=core.randn(expanded, dtype=dtype),
                squeeze=squeeze)


def _call_excited(x, b, se, expanded, conv, fc1_act, scale_act, residual=None, bias=True):
    return _op(x, b["ew"], b["eb"], expanded, "hardswish", b["dw"], b["db"], *conv, "hardswish", b["pw"], b["pb"],
               b["out"], residual, se["f1"], se["b1"] if bias else None, se["squeeze"], fc1_act, se["f2"],
               se["b2"] if bias else None, scale_act)


def _separate_excited(x, b, se, expanded, conv, fc1_act, scale_act, residual=None, bias=True):
    """The steps of a block with squeeze-excitation, one call each (the compiled program's
    steps before the fusion)."""
    y = _separate_calls(x, {**b, "pw": None}, expanded, conv, "hardswish", "hardswish")
    one, none = (1, 1), (0, 0)
    pooled = core.nn.functional.adaptive_avg_pool2d(y, 1)
    hidden = _prepacked(pooled, se["f1"], se["b1"] if bias else None, se["squeeze"], one, none, one, fc1_act, None)
    scale = _prepacked(hidden, se["f2"], se["b2"] if bias else None, expanded, one, none, one, scale_act, None)
    return _prepacked(y * scale, b["pw"], b["pb"], b["out"], one, none, one, "none", residual)


# (name, input (C, H, W), expanded channels (None: no expansion), squeeze channels, kernel, stride)
_EXCITED = [
    ("5x5_stride2", (8, 13, 13), 72, 18, 5, 2),
    ("3x3_stride1", (16, 9, 11), 48, 12, 3, 1),
    ("no_expansion", (16, 6, 7), None, 8, 3, 1),
    ("one_pixel", (8, 1, 1), 24, 6, 3, 1),
    ("fewer_pixels_than_squeeze", (16, 4, 4), 32, 24, 3, 1),
    ("channel_groups", (16, 6, 6), 128, 32, 3, 1),  # (two threads on one image: each pools its channels)
]


@pytest.mark.parametrize("case", _EXCITED, ids=[c[0] for c in _EXCITED])
@pytest.mark.parametrize("batch", [1, 2, 3, 5])
@pytest.mark.parametrize("dtype", [core.float32, core.float64])
@pytest.mark.parametrize("threads", [1, 2])
def test_excitation_same_bits_as_the_separate_calls(case, batch, dtype, threads):
    """Image by image (one thread, or images shared evenly among two), or the excitation's
    layers once over all images (images of fewer pixels than squeeze channels, or two threads
    sharing an image's rows: batches of one, three, five), the bits of the separate steps."""
    _, (channels, h, w), expanded, squeeze, k, stride = case
    expand = expanded is not None
    expanded = expanded or channels
    core.manual_seed(batch)
    x = (core.randn(batch, channels, h, w, dtype=dtype) * 2).contiguous(memory_format=core.channels_last)
    b = _block(channels, expanded, k, dtype, expand, True, out_channels=10)
    se = _excitation(expanded, squeeze, dtype)
    conv = ((stride, stride), (k // 2, k // 2), (1, 1))
    previous = core.get_num_threads()
    try:
        core.set_num_threads(threads)
        plain = _separate_excited(x, b, se, expanded, conv, "relu", "hardsigmoid")
        for fc1_act, scale_act in (("relu", "hardsigmoid"), ("none", "relu6"), ("hardswish", "none")):
            for bias in (True, False):
                for residual in (None, core.randn(*plain.shape, dtype=dtype)):
                    want = _separate_excited(x, b, se, expanded, conv, fc1_act, scale_act, residual, bias)
                    got = _call_excited(x, b, se, expanded, conv, fc1_act, scale_act, residual, bias)
                    assert got.shape == want.shape and got.dtype == dtype
                    assert got.is_contiguous(memory_format=core.channels_last)
                    assert core.equal(got, want), (fc1_act, scale_act, bias, residual is None)
    finally:
        core.set_num_threads(previous)


def test_excitation_matches_numpy_reference():
    core.manual_seed(2)
    f64 = core.float64
    x = core.randn(2, 6, 7, 7, dtype=f64)
    ew, eb = core.randn(18, 6, 1, 1, dtype=f64), core.randn(18, dtype=f64)
    dw, db = core.randn(18, 1, 3, 3, dtype=f64), core.randn(18, dtype=f64)
    f1, b1 = core.randn(5, 18, 1, 1, dtype=f64), core.randn(5, dtype=f64)
    f2, b2 = core.randn(18, 5, 1, 1, dtype=f64), core.randn(18, dtype=f64)
    pw, pb = core.randn(4, 18, 1, 1, dtype=f64), core.randn(4, dtype=f64)
    got = _op(x, _pack(ew), eb, 18, "relu", dw, db, (1, 1), (1, 1), (1, 1), "relu6", _pack(pw), pb, 4, None,
              _pack(f1), b1, 5, "relu", _pack(f2), b2, "none")
    n = {k: v.numpy() for k, v in dict(x=x, ew=ew, eb=eb, dw=dw, db=db, f1=f1, b1=b1, f2=f2, b2=b2, pw=pw,
                                         pb=pb).items()}
    y = np.clip(conv_ref(np.maximum(conv_ref(n["x"], n["ew"], n["eb"]), 0), n["dw"], n["db"], 1, 1, 1, groups=18), 0, 6)
    scale = conv_ref(np.maximum(conv_ref(y.mean(axis=(2, 3), keepdims=True), n["f1"], n["b1"]), 0), n["f2"], n["b2"])
    np.testing.assert_allclose(got.numpy(), conv_ref(y * scale, n["pw"], n["pb"]), rtol=1e-12, atol=1e-12)


def test_excitation_refuses_bad_arguments():
    x = core.randn(2, 4, 6, 6)
    full = _block(4, 8, 3, core.float32, True, True, out_channels=5)
    se = _excitation(8, 3, core.float32)

    def call(block=full, **changes):
        return _call_excited(x, block, {**se, **changes}, 8, ((1, 1), (1, 1), (1, 1)), "relu", "hardsigmoid")

    with pytest.raises(RuntimeError, match="a squeeze-excitation without a projection weight"):
        call(block={**full, "pw": None, "pb": None, "out": 8})
    with pytest.raises(RuntimeError, match="the pooled depthwise output has 8 channels, the packed weight expects 6"):
        call(f1=_pack(core.randn(3, 6, 1, 1)))
    with pytest.raises(RuntimeError, match="the excitation's first layer must be a 1x1 convolution"):
        call(f1=_pack(core.randn(3, 8, 3, 3)))
    with pytest.raises(RuntimeError, match="expected an excitation fc1 bias of 3"):
        call(b1=core.randn(4))
    with pytest.raises(RuntimeError, match="a squeeze-excitation without its second layer's weight"):
        call(f2=None)
    with pytest.raises(RuntimeError, match="the excitation's first layer has 3 channels, the packed weight expects 2"):
        call(f2=_pack(core.randn(8, 2, 1, 1)))
    with pytest.raises(RuntimeError, match="expected an excitation fc2 bias of 8"):
        call(b2=core.randn(3))
    with pytest.raises(RuntimeError, match="an excitation's second layer or bias without its first layer's weight"):
        call(f1=None, b1=None)
    with pytest.raises(ValueError, match="unknown activation"):
        _call_excited(x, full, se, 8, ((1, 1), (1, 1), (1, 1)), "gelu", "hardsigmoid")


def test_compiled_excitation_fuses_at_every_image_size():
    """A squeeze-excitation block of torchvision's form fuses whole, with images of more pixels
    than squeeze channels and of fewer."""
    core.manual_seed(3)
    for size in (6, 3):  # 36 and 9 pixels for 16 squeeze channels
        model = core.nn.Sequential(core.nn.Conv2d(8, 64, 1), core.nn.Hardswish(),
                                   core.nn.Conv2d(64, 64, 3, padding=1, groups=64), core.nn.Hardswish(),
                                   SqueezeExcitation(64), core.nn.Conv2d(64, 8, 1)).eval()
        x = core.randn(4, 8, size, size)
        ops = _ops_of(core.jit._compile.compile_program(model, (x,)))
        assert ops == ["_conv2d_inverted_residual"]
        with core.no_grad():
            want = model(x)
        assert core.allclose(core.compile(model, x)(x), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("expand", [True, False])
def test_compiler_leaves_non_finite_depthwise_weights_unfused(expand):
    """A border output of a padded convolution sees 0 * w: nan where w is infinite. The fused
    op's NHWC path skips the padding, so such a block runs unfused, as eager gives it."""
    core.manual_seed(0)
    layers = [core.nn.Conv2d(8, 16, 1), core.nn.ReLU()] if expand else []
    model = core.nn.Sequential(*layers, core.nn.Conv2d(16, 16, 3, padding=1, groups=16),
                               core.nn.Conv2d(16, 8, 1)).eval()
    x = core.randn(1, 8 if expand else 16, 96, 96)
    fused = _ops_of(core.jit._compile.compile_program(model, (x,)))
    assert "_conv2d_inverted_residual" in fused
    with core.no_grad():
        model[-2].weight[3, 0, 0, 0] = float("inf")
        want = model(x)
    assert "_conv2d_inverted_residual" not in _ops_of(core.jit._compile.compile_program(model, (x,)))
    got = core.compile(model, x)(x)
    assert core.isnan(want).any() and core.equal(core.isnan(got), core.isnan(want))
    finite = core.isfinite(want)
    assert core.allclose(got[finite], want[finite], rtol=1e-4, atol=1e-4)


def _ops_of(program):
    return [program._program.name(i) for i in range(len(program))]


@pytest.mark.parametrize("batch, size", [(1, 64), (2, 224), (8, 160)])
def test_compiled_mobilenet_runs_its_blocks_fused(batch, size):
    """Every block with an expansion runs it fused with its depthwise convolution and its
    projection (the seven blocks without squeeze-excitation: the first, without an expansion,
    fused with its projection alone), and the eight with squeeze-excitation take it in too."""
    core.manual_seed(0)
    model = vision.models.mobilenet_v3_large().eval()
    x = core.randn(batch, 3, size, size)
    whole = tuple(p for p in core.jit._compile.PASSES if p is not core.jit._compile.chunk_batch)  # (counts per batch)
    with_pass = _ops_of(core.jit._compile.compile_program(model, (x,), whole))
    passes = tuple(p for p in whole if p is not core.jit._compile.fuse_inverted_residual)
    without = _ops_of(core.jit._compile.compile_program(model, (x,), passes))
    assert with_pass.count("_conv2d_inverted_residual") == 15
    assert without.count("_conv2d_prepacked") - with_pass.count("_conv2d_prepacked") == 14 + 7 + 3 * 8
    assert with_pass.count("adaptive_avg_pool2d") == 1  # (the classifier's)
    assert with_pass.count("mul_") + with_pass.count("mul") == 0
    compiled = core.compile(model, x)
    with core.no_grad():
        want = model(x)
    assert core.allclose(compiled(x), want, rtol=1e-4, atol=1e-4)


_ISA_SCRIPT = """
import hashlib, json
import core
op, pack = core._C._op("_conv2d_inverted_residual"), core._C._op("_conv_tile_pack")
out = {"cap": core._C._cpu_capability()}
for threads in (1, 2):
    core.set_num_threads(threads)
    for i, (xs, e, k, s, p) in enumerate([((1, 8, 9, 11), 24, 3, 1, 1), ((1, 16, 20, 40), 64, 3, 2, 1),
                                          ((2, 6, 10, 9), 20, 5, 2, 2), ((1, 4, 7, 6), 72, 5, 1, 2)]):
        for dt in (core.float32, core.float64):
            core.manual_seed(i)
            x = core.randn(*xs, dtype=dt).contiguous(memory_format=core.channels_last)
            ew, eb = pack(core.randn(e, xs[1], 1, 1, dtype=dt)), core.randn(e, dtype=dt)
            dw, db = core.randn(e, 1, k, k, dtype=dt), core.randn(e, dtype=dt)
            pw, pb = pack(core.randn(9, e, 1, 1, dtype=dt)), core.randn(9, dtype=dt)
            conv = ((s, s), (p, p), (1, 1))
            y = op(x, ew, eb, e, "hardswish", dw, db, *conv, "relu", None, None, e, None)
            out[f"{i}-{dt}-expand-{threads}"] = hashlib.sha256(y.contiguous().numpy().tobytes()).hexdigest()
            y = op(x, ew, eb, e, "hardswish", dw, db, *conv, "relu", pw, pb, 9, None)
            out[f"{i}-{dt}-project-{threads}"] = hashlib.sha256(y.contiguous().numpy().tobytes()).hexdigest()
            sq = 30 if i == 2 else 6  # (case 2: 25 pixels, fewer than its squeeze channels)
            f1, f2 = pack(core.randn(sq, e, 1, 1, dtype=dt)), pack(core.randn(e, sq, 1, 1, dtype=dt))
            y = op(x, ew, eb, e, "hardswish", dw, db, *conv, "relu", pw, pb, 9, None, f1, None, sq, "relu", f2, None,
                   "hardsigmoid")
            out[f"{i}-{dt}-excite-{threads}"] = hashlib.sha256(y.contiguous().numpy().tobytes()).hexdigest()
print(json.dumps(out))
"""


def test_isa_builds_are_bit_identical():
    ref = assert_isa_builds_agree(_ISA_SCRIPT)
    for key in ref:  # the way the threads share the work changes no bit
        if key.endswith("-1"):
            assert ref[key] == ref[key[:-1] + "2"], key
