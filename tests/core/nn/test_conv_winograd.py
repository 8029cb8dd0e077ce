"""Winograd F(4x4, 3x3) for stride-1 3x3 convolutions (ops/conv_winograd.cpp,
kernels/isa/conv_winograd_kernels.cpp), forced with core._C._set_conv_algorithm('winograd'):
forward, input gradient and weight gradient against the float64 numpy reference (NCHW and NHWC, float32 and
float64, partial tiles, padding 0/1/2, channel counts off the vector width), the fused
epilogue, float64 gradcheck, thread counts and ISA builds bit for bit.

Float32 accuracy: the transforms' constants (up to 8 in A^T, 1/24 in G) cost about 3 bits
against a direct convolution: measured max |error| / max |output| 2e-6 to 1e-5 for 8 to 512
channels (direct: 2e-7 to 2e-6), hence the float32 tolerance below."""
import os
import sys

import numpy as np
import pytest

import core
import core.nn.functional as F
from core import autograd

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from op_matrix.refs_conv import conv_ref  # noqa: E402
from support import assert_isa_builds_agree, conv_isa_script  # noqa: E402


@pytest.fixture
def winograd():
    core._C._set_conv_algorithm("winograd")
    yield
    core._C._set_conv_algorithm("auto")


def _nhwc(a):
    return core.tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)


def _close(got, want, dtype):
    """float32: error within 5e-5 of the output's scale; float64: 1e-12."""
    scale = max(1.0, float(np.abs(want).max()))
    atol = (5e-5 if dtype == np.float32 else 1e-12) * scale
    np.testing.assert_allclose(got, want, rtol=0, atol=atol)


# (x shape, out channels, padding): whole and partial 4x4 tiles, a single partial tile,
# channels short of a vector (5, 37) and past several (70), batch > 1, padding 0, 1 and 2.
CASES = [
    ((2, 8, 9, 7), 16, 1),
    ((1, 5, 3, 3), 4, 0),
    ((3, 19, 13, 11), 37, 1),
    ((1, 70, 8, 8), 20, 1),
    ((2, 16, 6, 10), 70, 0),
    ((1, 9, 5, 6), 11, 2),
]
IDS = [str(i) for i in range(len(CASES))]


@pytest.mark.parametrize("xs,o,pad", CASES, ids=IDS)
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_forward_against_numpy(winograd, xs, o, pad, layout, dtype):
    rng = np.random.default_rng(1)
    x, w, b = (rng.uniform(-1, 1, s).astype(dtype) for s in (xs, (o, xs[1], 3, 3), (o,)))
    xt = _nhwc(x) if layout == "nhwc" else core.tensor(x)
    for bias in (b, None):
        out = F.conv2d(xt, core.tensor(w), None if bias is None else core.tensor(bias), padding=pad)
        want = conv_ref(x.astype(np.float64), w.astype(np.float64), None if bias is None else bias.astype(np.float64),
                        padding=pad)
        _close(out.numpy(), want, dtype)
        assert out.dtype == xt.dtype
        assert out.is_contiguous(memory_format=core.channels_last) == (layout == "nhwc") or out[0, 0].numel() == 1


def test_the_forced_path_is_winograd():
    """Rounding tells the algorithms apart: Winograd's float32 output differs from the tile kernel's."""
    rng = np.random.default_rng(2)
    x, w = (core.tensor(rng.uniform(-1, 1, s).astype(np.float32)) for s in ((1, 16, 12, 12), (16, 16, 3, 3)))
    out = {}
    try:
        for name in ("winograd", "tile"):
            core._C._set_conv_algorithm(name)
            out[name] = F.conv2d(x, w, padding=1).numpy()
    finally:
        core._C._set_conv_algorithm("auto")
    assert not np.array_equal(out["winograd"], out["tile"])
    np.testing.assert_allclose(out["winograd"], out["tile"], atol=1e-4)


def _input_grad_ref(gy, w, pad):
    """The input gradient of a stride-1 3x3 convolution: gy convolved with the flipped,
    transposed weight, padded by 2 - pad."""
    return conv_ref(gy, np.ascontiguousarray(w.transpose(1, 0, 2, 3)[:, :, ::-1, ::-1]), padding=2 - pad)


@pytest.mark.parametrize("xs,o,pad", CASES, ids=IDS)
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_input_gradient_against_numpy(winograd, xs, o, pad, layout, dtype):
    rng = np.random.default_rng(3)
    x, w = rng.uniform(-1, 1, xs).astype(dtype), rng.uniform(-1, 1, (o, xs[1], 3, 3)).astype(dtype)
    xt = (_nhwc(x) if layout == "nhwc" else core.tensor(x)).requires_grad_()
    y = F.conv2d(xt, core.tensor(w), padding=pad)
    gy = rng.uniform(-1, 1, tuple(y.shape)).astype(dtype)
    gx, = autograd.grad(y, (xt,), core.tensor(gy))
    _close(gx.numpy(), _input_grad_ref(gy.astype(np.float64), w.astype(np.float64), pad), dtype)
    # conv_transpose2d (stride 1) runs the same kernel.
    ct = F.conv_transpose2d(_nhwc(gy) if layout == "nhwc" else core.tensor(gy), core.tensor(w), padding=pad)
    np.testing.assert_array_equal(ct.numpy(), gx.numpy())


def _weight_grad_ref(x, gy, pad):
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    OH, OW = gy.shape[2:]
    return np.stack([np.stack([np.einsum("nohw,nchw->oc", gy, xp[:, :, kh:kh + OH, kw:kw + OW])
                               for kw in range(3)], -1) for kh in range(3)], -2)


@pytest.mark.parametrize("xs,o,pad", CASES, ids=IDS)
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_weight_gradient_against_numpy(winograd, xs, o, pad, layout, dtype):
    rng = np.random.default_rng(8)
    x, w = rng.uniform(-1, 1, xs).astype(dtype), rng.uniform(-1, 1, (o, xs[1], 3, 3)).astype(dtype)
    wt = core.tensor(w).requires_grad_()
    y = F.conv2d(_nhwc(x) if layout == "nhwc" else core.tensor(x), wt, padding=pad)
    gy = rng.uniform(-1, 1, tuple(y.shape)).astype(dtype)
    gw, = autograd.grad(y, (wt,), core.tensor(gy))
    _close(gw.numpy(), _weight_grad_ref(x.astype(np.float64), gy.astype(np.float64), pad), dtype)
    assert gw.is_contiguous(memory_format=core.channels_last) == (layout == "nhwc")


@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("pad", [0, 1])
def test_gradcheck_through_winograd(winograd, layout, pad):
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, (2, 3, 6, 5))
    xt = (_nhwc(x) if layout == "nhwc" else core.tensor(x)).requires_grad_()
    inputs = (xt, core.tensor(rng.uniform(-1, 1, (5, 3, 3, 3))).requires_grad_(),
              core.tensor(rng.uniform(-1, 1, 5)).requires_grad_())
    fn = lambda x, w, b: F.conv2d(x, w, b, padding=pad)  # noqa: E731
    assert autograd.gradcheck(fn, inputs, atol=1e-6, rtol=1e-4)


def test_fused_epilogue_through_winograd(winograd):
    fused = core._C._op("_conv2d_fused")
    rng = np.random.default_rng(5)
    x, w, b = (core.tensor(rng.uniform(-1, 1, s).astype(np.float32)) for s in ((2, 16, 10, 9), (24, 16, 3, 3), (24,)))
    x = x.contiguous(memory_format=core.channels_last)
    plain = F.conv2d(x, w, b, padding=1)
    residual = core.tensor(rng.uniform(-1, 1, tuple(plain.shape)).astype(np.float32))
    got = fused(x, w, b, (1, 1), (1, 1), (1, 1), 1, "relu", residual)
    assert core.equal(got, F.relu(plain + residual))


@pytest.mark.parametrize("shape", [(2, 12, 9, 9), (4, 16, 100, 100)], ids=["split-steps", "parallel-chunks"])
def test_thread_counts_agree_bit_for_bit(shape):
    """One chunk of tiles (its steps split over the threads) and many chunks (one per task)."""
    rng = np.random.default_rng(6)
    x = core.tensor(rng.uniform(-1, 1, shape).astype(np.float32)).requires_grad_()
    w = core.tensor(rng.uniform(-1, 1, (shape[1] + 4, shape[1], 3, 3)).astype(np.float32)).requires_grad_()
    before = core.get_num_threads()
    outs = []
    try:
        core._C._set_conv_algorithm("winograd")
        for n in (1, 2, 3):
            core.set_num_threads(n)
            y = F.conv2d(x, w, padding=1)
            outs.append((y.detach().numpy(), *(g.numpy() for g in autograd.grad(y.sum(), (x, w)))))
    finally:
        core.set_num_threads(before)
        core._C._set_conv_algorithm("auto")
    for results in outs[1:]:
        for got, want in zip(results, outs[0]):
            np.testing.assert_array_equal(got, want)


def test_shapes_winograd_does_not_take_keep_their_paths(winograd):
    """Stride 2, dilation 2, 5x5 and groups 2 fall back to the other paths while 'winograd' is forced."""
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, (1, 8, 11, 11))
    for ws, kw in (((6, 8, 3, 3), dict(stride=2, padding=1)), ((6, 8, 3, 3), dict(padding=2, dilation=2)),
                   ((6, 8, 5, 5), dict(padding=2)), ((6, 4, 3, 3), dict(padding=1, groups=2))):
        w = rng.uniform(-1, 1, ws)
        out = F.conv2d(core.tensor(x), core.tensor(w), **kw)
        np.testing.assert_allclose(out.numpy(), conv_ref(x, w, **kw), rtol=1e-10, atol=1e-12)


# The weight transformed once (_conv_winograd_pack: its layout differs between builds) too.
_PACKED_EXTRA = (
    "fused, pack = core._C._op('_conv2d_fused'), core._C._op('_conv_winograd_pack')\n"
    "for dt in (np.float32, np.float64):\n"
    "    x = rng.uniform(-1, 1, (2, 19, 9, 7)).astype(dt); w = core.tensor(rng.uniform(-1, 1, (37, 19, 3, 3)).astype(dt))\n"
    "    for name, xt in (('nchw', core.tensor(x)), ('nhwc', nhwc(x))):\n"
    "        y = fused(xt, w, None, (1, 1), (1, 1), (1, 1), 1, 'relu', None, pack(w))\n"
    "        out[f'packed-{dt.__name__}-{name}-y'] = y.contiguous().numpy().tobytes().hex()\n")
_ISA_SCRIPT = conv_isa_script([((2, 6, 7, 5), (37, 6, 3, 3), dict(padding=1)),
                               ((1, 19, 9, 8), (21, 19, 3, 3), dict(padding=0))], seed=12, algorithm="winograd",
                              extra=_PACKED_EXTRA)


def test_isa_builds_are_bit_identical():
    ref = assert_isa_builds_agree(_ISA_SCRIPT)
    for key in ref:  # NCHW and NHWC inputs go through the same padded NHWC copy
        if "-nchw-" in key:
            assert ref[key] == ref[key.replace("nchw", "nhwc")], key


# ---------------------------------------------------------------- a weight transformed once

_fused, _pack, _pays = (core._C._op(name) for name in ("_conv2d_fused", "_conv_winograd_pack", "_conv_winograd_pays"))


@pytest.mark.parametrize("xs,o,pad", CASES, ids=IDS)
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_transformed_weight_gives_winograds_bits(xs, o, pad, layout, dtype):
    """_conv2d_fused on _conv_winograd_pack's weight runs Winograd whatever the table says, with
    the bits of the forced path (epilogue included), in the input's layout."""
    rng = np.random.default_rng(8)
    x = rng.uniform(-1, 1, xs).astype(dtype)
    w, b = rng.uniform(-1, 1, (o, xs[1], 3, 3)).astype(dtype), rng.uniform(-1, 1, o).astype(dtype)
    xt = core.tensor(x) if layout == "nchw" else _nhwc(x)
    wt, bt = core.tensor(w), core.tensor(b)
    packed, args = _pack(wt), ((1, 1), (pad, pad), (1, 1), 1)
    residual = core.tensor(rng.uniform(-1, 1, tuple(F.conv2d(xt, wt, padding=pad).shape)).astype(dtype))
    for act, res in (("none", None), ("relu", residual), ("hardswish", None)):
        got = _fused(xt, wt, bt, *args, act, res, packed)
        assert got.is_contiguous(memory_format=core.channels_last if layout == "nhwc" else core.contiguous_format)
        core._C._set_conv_algorithm("winograd")
        try:
            want = _fused(xt, wt, bt, *args, act, res)
        finally:
            core._C._set_conv_algorithm("auto")
        assert core.equal(got, want), act
    _close(_fused(xt, wt, bt, *args, "none", None, packed).numpy(), conv_ref(x, w, padding=pad) + b[:, None, None],
           dtype)


def test_transformed_weight_with_a_nonfinite_weight():
    """Winograd multiplies its zero padding: with an inf in the weight, the packed path (which
    skips the finiteness check) gives the forced path's bits (which pads explicitly)."""
    rng = np.random.default_rng(9)
    x = core.tensor(rng.uniform(-1, 1, (1, 16, 6, 6)).astype(np.float32))
    w = rng.uniform(-1, 1, (16, 16, 3, 3)).astype(np.float32)
    w[3, 2, 0, 0] = np.inf
    wt = core.tensor(w)
    got = _fused(x, wt, None, (1, 1), (1, 1), (1, 1), 1, "none", None, _pack(wt))
    core._C._set_conv_algorithm("winograd")
    try:
        want = _fused(x, wt, None, (1, 1), (1, 1), (1, 1), 1, "none", None)
    finally:
        core._C._set_conv_algorithm("auto")
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert not np.isfinite(got.numpy()[0, 3]).any()


def test_winograd_pays_by_the_table():
    x, w = core.randn(1, 256, 14, 14), core.randn(256, 256, 3, 3)
    one = ([1, 1], [1, 1], [1, 1], 1)  # stride, padding, dilation, groups
    assert _pays(x, w, *one)  # ResNet-50's layer3 at batch 1
    assert not _pays(core.randn(1, 1024, 4, 4), core.randn(1024, 1024, 3, 3), *one)  # one tile, 38e6 per tile
    assert not _pays(x, w, [2, 2], [1, 1], [1, 1], 1)  # stride 2
    assert not _pays(x, w, [1, 1], [2, 2], [2, 2], 1)  # dilation 2
    assert not _pays(x, core.randn(256, 128, 3, 3), [1, 1], [1, 1], [1, 1], 2)  # groups 2
    assert not _pays(core.randn(1, 8, 14, 14), core.randn(8, 8, 3, 3), [1, 1], [1, 1], [1, 1], 1)  # too few channels
    assert not _pays(x, core.randn(256, 128, 3, 3), [1, 1], [1, 1], [1, 1], 1)  # channels do not match
    assert not _pays(x, core.randn(256, 256, 5, 5), [1, 1], [2, 2], [1, 1], 1)  # not 3x3
    assert not _pays(x.double(), w, [1, 1], [1, 1], [1, 1], 1)  # dtypes differ
    assert not _pays(core.randn(1, 256, 2, 2), w, [1, 1], [0, 0], [1, 1], 1)  # no output
    assert not _pays(core.randn(1, 256, 2, 2), w, [1, 1], [1, 1], [1, 1], 1)  # 2x2 outputs: a quarter of a tile
    assert _pays(core.randn(1, 256, 3, 3), w, [1, 1], [1, 1], [1, 1], 1)  # 3x3: more than half
    for algorithm, expected in (("winograd", True), ("tile", False), ("gemm", False)):
        core._C._set_conv_algorithm(algorithm)
        try:
            assert _pays(core.randn(1, 8, 14, 14), core.randn(8, 8, 3, 3), [1, 1], [1, 1], [1, 1], 1) == expected
        finally:
            core._C._set_conv_algorithm("auto")


def test_transformed_weight_refuses_what_does_not_fit():
    x, w = core.randn(1, 16, 8, 8), core.randn(24, 16, 3, 3)
    packed = _pack(w)
    one = ((1, 1), (1, 1), (1, 1), 1, "none", None)
    # (the check is as fine as the kernels' blocks of output channels: 24 and 40 fill one block
    # alike where the blocks are 64 wide, AVX-512's float32)
    with pytest.raises(RuntimeError, match=r"_conv2d_fused.*not _conv_winograd_pack's for 16 -> 120 channels"):
        _fused(x, core.randn(120, 16, 3, 3), None, *one, packed)
    with pytest.raises(RuntimeError, match=r"_conv2d_fused.*not _conv_winograd_pack's"):
        _fused(x.double(), w.double(), None, *one, packed)
    with pytest.raises(RuntimeError, match=r"_conv2d_fused.*not _conv_winograd_pack's"):
        _fused(x, w, None, *one, packed[:, 1:])
    with pytest.raises(RuntimeError, match=r"_conv2d_fused.*Winograd weight needs a 3x3 convolution with stride 1"):
        _fused(x, w, None, (2, 2), (1, 1), (1, 1), 1, "none", None, packed)
    with pytest.raises(RuntimeError, match=r"_conv_winograd_pack.*\(O, C, 3, 3\) weight"):
        _pack(core.randn(24, 16, 5, 5))
    with pytest.raises(TypeError, match=r"_conv_winograd_pack.*float32 or float64"):
        _pack(core.ones(4, 8, 3, 3, dtype=core.int32))
