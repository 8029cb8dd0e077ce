"""_conv2d_fused (the compiled programs' convolution): conv2d + bias, then residual and
activation inside the kernels, on every kernel path, against conv2d and the activation."""
import pytest

import core
import core.nn.functional as F

_fused = core._C._op("_conv2d_fused")

_ACTS = {"none": lambda v: v, "relu": F.relu, "relu6": F.relu6, "hardswish": F.hardswish,
         "hardsigmoid": F.hardsigmoid}

# (name, input shape, weight shape, stride, padding, dilation, groups): one per kernel path
_CASES = [
    ("depthwise", (2, 8, 9, 9), (8, 1, 3, 3), 2, 1, 1, 8),
    ("depthwise_multiplier", (1, 4, 7, 7), (8, 1, 5, 5), 1, 2, 1, 4),
    ("depthwise_rows", (1, 16, 5, 21), (16, 1, 3, 3), 1, 1, 1, 16),  # eight-pixel steps, the activation in registers
    ("small_input_stem", (2, 3, 16, 16), (8, 3, 3, 3), 2, 1, 1, 1),
    ("pointwise", (2, 16, 6, 6), (24, 16, 1, 1), 1, 0, 1, 1),
    ("pointwise_tile", (2, 8, 40, 40), (16, 8, 1, 1), 1, 0, 1, 1),  # few input channels: the tile kernel
    ("pointwise_gemm", (1, 40, 12, 12), (24, 40, 1, 1), 1, 0, 1, 1),  # one GEMM, then the epilogue
    ("pointwise_gemm_blocked", (1, 40, 24, 24), (256, 40, 1, 1), 1, 0, 1, 1),  # GEMM + epilogue per block of rows
    ("im2col", (2, 8, 10, 10), (12, 8, 3, 3), 2, 1, 1, 1),
    ("grouped", (1, 8, 8, 8), (8, 4, 3, 3), 1, 1, 1, 2),
    ("dilated", (1, 8, 12, 12), (8, 8, 3, 3), 1, 2, 2, 1),
]


@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("case", _CASES, ids=[c[0] for c in _CASES])
@pytest.mark.parametrize("dtype", [core.float32, core.float64])
def test_fused_matches_conv_then_epilogue(case, layout, dtype):
    _, xs, ws, stride, padding, dilation, groups = case
    core.manual_seed(0)
    x = core.randn(*xs, dtype=dtype) * 2
    w, b = core.randn(*ws, dtype=dtype) * 0.5, core.randn(ws[0], dtype=dtype)
    if layout == "nhwc":
        x = x.contiguous(memory_format=core.channels_last)
    plain = F.conv2d(x, w, b, stride, padding, dilation, groups)
    residual = core.randn(*plain.shape, dtype=dtype)
    tol = 1e-5 if dtype == core.float32 else 1e-12
    for act, fn in _ACTS.items():
        for res in (None, residual):
            want = fn(plain if res is None else plain + res)
            got = _fused(x, w, b, (stride, stride), (padding, padding), (dilation, dilation), groups, act, res)
            assert got.shape == want.shape
            assert core.allclose(got, want, rtol=tol, atol=tol), (act, res is None)
            assert got.is_contiguous(memory_format=core.channels_last) == (layout == "nhwc")


def test_fused_activations_pass_nan_like_eager():
    x = core.randn(1, 8, 12, 12).contiguous(memory_format=core.channels_last)
    w, b = core.randn(16, 8, 1, 1), core.randn(16)
    plain = F.conv2d(x, w, b)
    residual = core.zeros(plain.shape).contiguous(memory_format=core.channels_last)
    residual[0, 3, 4, 5] = float("nan")
    for act, fn in _ACTS.items():
        got = _fused(x, w, b, (1, 1), (0, 0), (1, 1), 1, act, residual)
        assert core.equal(got.isnan(), fn(plain + residual).isnan()), act


def test_fused_threads_agree():
    x = core.randn(2, 8, 40, 40).contiguous(memory_format=core.channels_last)
    w, b = core.randn(16, 8, 1, 1), core.randn(16)
    previous = core.get_num_threads()
    try:
        core.set_num_threads(1)
        one = _fused(x, w, b, (1, 1), (0, 0), (1, 1), 1, "hardswish", None)
        core.set_num_threads(2)
        two = _fused(x, w, b, (1, 1), (0, 0), (1, 1), 1, "hardswish", None)
    finally:
        core.set_num_threads(previous)
    assert core.allclose(one, two, rtol=1e-6, atol=1e-6)


def test_fused_refuses_bad_arguments():
    x, w = core.randn(1, 4, 5, 5), core.randn(4, 4, 3, 3)
    with pytest.raises(ValueError, match="unknown activation 'gelu'"):
        _fused(x, w, None, (1, 1), (1, 1), (1, 1), 1, "gelu", None)
    with pytest.raises(RuntimeError, match="residual of shape"):
        _fused(x, w, None, (1, 1), (1, 1), (1, 1), 1, "relu", core.randn(1, 4, 4, 4))
    with pytest.raises(RuntimeError, match="batched input"):
        _fused(x[0], w, None, (1, 1), (1, 1), (1, 1), 1, "relu", None)


@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("channels", [8, 40, 300])  # the tile kernel, one GEMM, GEMM blocks
def test_input_major_pointwise_weight(layout, channels):
    """The compiler's 1x1 weights, (O, C, 1, 1) over (C, O) memory: read as they are."""
    from core.jit._compile import _input_major

    x = core.randn(2, channels, 20, 20)
    if layout == "nhwc":
        x = x.contiguous(memory_format=core.channels_last)
    w, b = core.randn(24, channels, 1, 1), core.randn(24)
    w_im = _input_major(w)
    assert w_im.stride()[:2] == (1, 24) and core.equal(w_im, w)
    residual = core.randn(2, 24, 20, 20)
    want = _fused(x, w, b, (1, 1), (0, 0), (1, 1), 1, "relu6", residual)
    got = _fused(x, w_im, b, (1, 1), (0, 0), (1, 1), 1, "relu6", residual)
    assert core.allclose(got, want, rtol=1e-5, atol=1e-5)
    assert core.allclose(F.conv2d(x, w_im, b), F.conv2d(x, w, b), rtol=1e-5, atol=1e-5)


_pack, _prepacked = core._C._op("_conv_tile_pack"), core._C._op("_conv2d_prepacked")

# (input shape, weight shape, stride, padding, dilation): output channels that leave a partial
# block, a strided and padded 3x3, a dilated one, a batch large enough for several input chunks
_PREPACKED_CASES = [
    ((1, 40, 9, 11), (37, 40, 1, 1), 1, 0, 1),
    ((2, 24, 9, 11), (20, 24, 3, 3), 2, 1, 1),
    ((1, 16, 10, 10), (24, 16, 3, 3), 1, 2, 2),
    ((8, 128, 28, 28), (80, 128, 1, 1), 1, 0, 1),  # 13 chunks of tiles, the last one short
    # 1x1 of stride 1 into rows of pixels: runs of tiles per kernel call, and the tiles left over
    ((2, 24, 13, 11), (8, 24, 1, 1), 1, 0, 1),  # one narrow block (two tiles at a time on AVX2)
    ((1, 16, 30, 31), (32, 16, 1, 1), 1, 0, 1),  # whole blocks only
    ((3, 16, 7, 9), (40, 16, 1, 1), 1, 0, 1),  # whole blocks then a narrower one (AVX2): tile by tile
]


@pytest.mark.parametrize("case", _PREPACKED_CASES)
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("dtype", [core.float32, core.float64])
def test_prepacked_weight_gives_the_tile_kernels_result(case, layout, dtype):
    """_conv2d_prepacked on _conv_tile_pack's weight: the bits of _conv2d_fused on the tile kernel
    (which takes 1x1 convolutions of NCHW inputs only in channels-last)."""
    xs, ws, stride, padding, dilation = case
    core.manual_seed(0)
    x = core.randn(*xs, dtype=dtype)
    if layout == "nhwc":
        x = x.contiguous(memory_format=core.channels_last)
    w, b = core.randn(*ws, dtype=dtype) * 0.2, core.randn(ws[0], dtype=dtype)
    packed = _pack(w)
    args = ((stride, stride), (padding, padding), (dilation, dilation))
    plain = F.conv2d(x, w, b, *args)
    residual = core.randn(*plain.shape, dtype=dtype)
    tol = 1e-4 if dtype == core.float32 else 1e-12
    core._C._set_conv_algorithm("tile")
    try:
        for act in ("none", "relu", "hardswish"):
            for res in (None, residual):
                want = _fused(x.contiguous(memory_format=core.channels_last), w, b, *args, 1, act, res)
                got = _prepacked(x, packed, b, ws[0], *args, act, res)
                assert got.is_contiguous(memory_format=core.channels_last)
                assert core.equal(got, want), (act, res is None)
                # and against conv2d, then the residual and activation (whole and partial blocks)
                reference = _ACTS[act](plain if res is None else plain + res)
                assert core.allclose(got, reference, rtol=tol, atol=tol), (act, res is None)
    finally:
        core._C._set_conv_algorithm("auto")
    assert core.allclose(_prepacked(x, packed, None, ws[0], *args, "none", None), F.conv2d(x, w, None, *args),
                         rtol=tol, atol=tol)


def test_prepacked_refuses_bad_arguments():
    x, w = core.randn(1, 8, 6, 6), core.randn(20, 8, 1, 1)
    packed = _pack(w)
    block = packed.shape[4]
    one = ((1, 1), (0, 0), (1, 1))
    with pytest.raises(RuntimeError, match="_conv2d_prepacked.*input has 7 channels"):
        _prepacked(core.randn(1, 7, 6, 6), packed, None, 20, *one, "none", None)
    with pytest.raises(RuntimeError, match="_conv2d_prepacked.*output channels do not fill"):
        _prepacked(x, packed, None, 20 + 2 * block, *one, "none", None)
    with pytest.raises(RuntimeError, match="_conv2d_prepacked.*packed in blocks of 3 channels"):
        _prepacked(x, core.zeros(7, 1, 1, 8, 3), None, 20, *one, "none", None)
    with pytest.raises(TypeError, match="_conv2d_prepacked.*share float32 or float64"):
        _prepacked(x.double(), packed, None, 20, *one, "none", None)
    with pytest.raises(RuntimeError, match="_conv2d_prepacked.*bias of 20"):
        _prepacked(x, packed, core.randn(19), 20, *one, "none", None)
    with pytest.raises(RuntimeError, match="_conv2d_prepacked.*residual must be"):
        _prepacked(x, packed, None, 20, *one, "relu", core.randn(1, 20, 5, 5))
    for stride in ((1, 1), (2, 2)):  # at stride 2 the output size's rounding once hid the misfit
        with pytest.raises(RuntimeError, match="_conv2d_prepacked.*larger than the padded input"):
            _prepacked(core.randn(1, 8, 2, 2), _pack(core.randn(4, 8, 3, 3)), None, 4, stride, (0, 0), (1, 1), "none",
                       None)
    with pytest.raises(TypeError, match="_conv_tile_pack.*float32 or float64"):
        _pack(core.ones(4, 8, 1, 1, dtype=core.int32))


@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_depthwise_weight_stored_taps_major_gives_the_same_bits(layout):
    """The compiler stores depthwise weights over (KH, KW, C) memory, which the NHWC kernels read
    as it is (no transpose per call); every path gives the bits of the contiguous weight."""
    core.manual_seed(0)
    x = core.randn(2, 24, 9, 10)
    if layout == "nhwc":
        x = x.contiguous(memory_format=core.channels_last)
    w, b = core.randn(24, 1, 3, 3), core.randn(24)
    taps_major = w.permute(1, 2, 3, 0).contiguous().permute(3, 0, 1, 2)
    assert taps_major.permute(1, 2, 3, 0).is_contiguous() and core.equal(taps_major, w)
    for act in ("none", "relu6"):
        want = _fused(x, w, b, (2, 2), (1, 1), (1, 1), 24, act, None)
        assert core.equal(_fused(x, taps_major, b, (2, 2), (1, 1), (1, 1), 24, act, None), want)
    assert core.equal(F.conv2d(x, taps_major, b, 1, 1, 1, 24), F.conv2d(x, w, b, 1, 1, 1, 24))

