"""The tile kernel for regular convolutions (ops/conv_tile.cpp, kernels/isa/conv_tile_kernels.cpp)
against the numpy reference and against the im2col + GEMM path it replaces, forced either way:
forward, input gradient (the tile kernel's: strided ones by stride phase) and weight gradient, NCHW and NHWC,
float32 and float64, channel counts that leave partial blocks and pixel counts that leave short
tiles; float64 gradcheck; each ISA build bit for bit."""
import os
import sys

import numpy as np
import pytest

import core
from core import autograd

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from op_matrix.refs_conv import conv_ref, conv_transpose_ref  # noqa: E402
from support import assert_isa_builds_agree, conv_isa_script  # noqa: E402


@pytest.fixture
def algorithm(request):
    core._C._set_conv_algorithm(request.param)
    yield request.param
    core._C._set_conv_algorithm("auto")


def _nhwc(a):
    return core.tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)


# (x shape, w shape, kwargs): ResNet-like 3x3 s1/s2, 5x5, 7x7 s2, dilation, 1xK, a 1x1 with
# stride (not the plain GEMM), output channels short of a block (37, 70), pixels short of a tile,
# pointwise convolutions (the tile kernel's at few input channels).
CASES = [
    ((2, 8, 9, 7), (16, 8, 3, 3), dict(padding=1)),
    ((1, 6, 11, 10), (37, 6, 3, 3), dict(stride=2, padding=1)),
    ((2, 5, 8, 9), (70, 5, 5, 5), dict(padding=2)),
    ((1, 7, 13, 12), (9, 7, 7, 7), dict(stride=2, padding=3)),
    ((1, 9, 10, 10), (12, 9, 3, 3), dict(padding=2, dilation=2)),
    ((2, 6, 5, 9), (11, 6, 1, 3), dict(padding=(0, 1))),
    ((2, 10, 7, 7), (13, 10, 1, 1), dict(stride=2)),
    ((1, 5, 3, 3), (4, 5, 3, 3), {}),
    ((1, 6, 2, 3), (5, 6, 1, 1), dict(stride=4, padding=3)),  # outputs that read padding only
    ((2, 12, 6, 7), (72, 12, 1, 1), {}),  # pointwise: a block and a part of one vector
    ((1, 20, 5, 5), (24, 20, 1, 1), {}),  # pointwise: one and a half vectors
]


@pytest.mark.parametrize("algorithm", ["tile", "gemm"], indirect=True)
@pytest.mark.parametrize("xs,ws,kw", CASES, ids=[str(i) for i in range(len(CASES))])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_forward_against_numpy(algorithm, xs, ws, kw, layout, dtype):
    rng = np.random.default_rng(5)
    x, w, b = (rng.uniform(-1, 1, s).astype(dtype) for s in (xs, ws, ws[:1]))
    xt = _nhwc(x) if layout == "nhwc" else core.tensor(x)
    out = core.conv2d(xt, core.tensor(w), core.tensor(b), **kw)
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out.numpy(), conv_ref(x, w, b, **kw), **tol)
    assert out.dtype == core.tensor(x).dtype
    assert out.is_contiguous(memory_format=core.channels_last) == (layout == "nhwc") or out.shape[2] * out.shape[3] == 1
    no_bias = core.conv2d(xt, core.tensor(w), None, **kw)
    np.testing.assert_allclose(no_bias.numpy(), conv_ref(x, w, None, **kw), **tol)


def _forward_and_grads(xs, ws, kw, layout, seed=6):
    rng = np.random.default_rng(seed)
    x, w, g = rng.uniform(-1, 1, xs).astype(np.float32), rng.uniform(-1, 1, ws).astype(np.float32), None
    xt = (_nhwc(x) if layout == "nhwc" else core.tensor(x)).requires_grad_()
    wt = core.tensor(w).requires_grad_()
    y = core.conv2d(xt, wt, None, **kw)
    g = core.tensor(rng.uniform(-1, 1, tuple(y.shape)).astype(np.float32))
    gx, gw = autograd.grad(y, (xt, wt), g)
    return y.detach().numpy(), gx.numpy(), gw.numpy()


@pytest.mark.parametrize("xs,ws,kw", CASES, ids=[str(i) for i in range(len(CASES))])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_tile_and_gemm_paths_agree_on_gradients(xs, ws, kw, layout):
    results = {}
    try:
        for name in ("tile", "gemm"):
            core._C._set_conv_algorithm(name)
            results[name] = _forward_and_grads(xs, ws, kw, layout)
    finally:
        core._C._set_conv_algorithm("auto")
    for a, b in zip(results["tile"], results["gemm"]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


GRAD_CASES = [
    ((1, 5, 4, 5), (3, 5, 3, 3), dict(padding=1)),
    ((1, 5, 5, 5), (4, 5, 3, 3), dict(stride=2, padding=1)),
    ((2, 6, 5, 4), (2, 6, 3, 2), dict(padding=(2, 1), dilation=(2, 1))),
]


@pytest.mark.parametrize("algorithm", ["tile"], indirect=True)
@pytest.mark.parametrize("xs,ws,kw", GRAD_CASES, ids=[str(i) for i in range(len(GRAD_CASES))])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_gradcheck_through_the_tile_kernel(algorithm, xs, ws, kw, layout):
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, xs)
    xt = (_nhwc(x) if layout == "nhwc" else core.tensor(x)).requires_grad_()
    inputs = (xt, core.tensor(rng.uniform(-1, 1, ws)).requires_grad_(),
              core.tensor(rng.uniform(-1, 1, ws[0])).requires_grad_())
    fn = lambda x, w, b: core.conv2d(x, w, b, **kw)  # noqa: E731
    assert autograd.gradcheck(fn, inputs, atol=1e-6, rtol=1e-4)


# Strided input gradients run as stride-phase correlations (conv_tile.cpp, strided_backward_data):
# transposed convolutions whose forward is one. DCGAN's 4x4 stride 2, a stride whose phases
# take different numbers of taps (4x4 stride 3), unequal strides and kernels, output_padding,
# padding past the kernel's reach, output channels short of a block.
TRANSPOSED_CASES = [
    ((2, 12, 4, 4), (12, 20, 4, 4), dict(stride=2, padding=1)),
    ((1, 5, 5, 4), (5, 7, 4, 4), dict(stride=3, padding=1, output_padding=2)),
    ((2, 6, 3, 5), (6, 9, 3, 4), dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 0))),
    ((1, 4, 6, 6), (4, 37, 5, 5), dict(stride=2, padding=5, output_padding=1)),
    ((1, 3, 4, 3), (3, 5, 2, 3), dict(stride=2, padding=(0, 2))),
]


@pytest.mark.parametrize("algorithm", ["tile", "auto"], indirect=True)
@pytest.mark.parametrize("xs,ws,kw", TRANSPOSED_CASES, ids=[str(i) for i in range(len(TRANSPOSED_CASES))])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_strided_transposed_convolutions_against_numpy(algorithm, xs, ws, kw, layout, dtype):
    rng = np.random.default_rng(9)
    x, w, b = (rng.uniform(-1, 1, s).astype(dtype) for s in (xs, ws, ws[1:2]))
    xt = _nhwc(x) if layout == "nhwc" else core.tensor(x)
    out = core.conv_transpose2d(xt, core.tensor(w), core.tensor(b), **kw)
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out.numpy(), conv_transpose_ref(x, w, b, **kw), **tol)
    assert out.is_contiguous(memory_format=core.channels_last) == (layout == "nhwc")


@pytest.mark.parametrize("algorithm", ["tile"], indirect=True)
@pytest.mark.parametrize("xs,ws,kw", TRANSPOSED_CASES[:3], ids=[str(i) for i in range(3)])
def test_gradcheck_strided_transposed_through_the_tile_kernel(algorithm, xs, ws, kw):
    rng = np.random.default_rng(10)
    inputs = tuple(core.tensor(rng.uniform(-1, 1, s)).requires_grad_() for s in (xs, ws, ws[1:2]))
    fn = lambda x, w, b: core.conv_transpose2d(x, w, b, **kw)  # noqa: E731
    assert autograd.gradcheck(fn, inputs, atol=1e-6, rtol=1e-4)


def test_thread_counts_agree_bit_for_bit():
    rng = np.random.default_rng(8)
    x, w = core.tensor(rng.uniform(-1, 1, (2, 12, 9, 9)).astype(np.float32)), core.tensor(
        rng.uniform(-1, 1, (40, 12, 3, 3)).astype(np.float32))
    before = core.get_num_threads()
    try:
        core._C._set_conv_algorithm("tile")
        outs = []
        for n in (1, 2, 3):
            core.set_num_threads(n)
            outs.append(core.conv2d(x, w, padding=1).numpy())
    finally:
        core.set_num_threads(before)
        core._C._set_conv_algorithm("auto")
    for o in outs[1:]:
        np.testing.assert_array_equal(o, outs[0])


def test_set_conv_algorithm_rejects_unknown_names():
    with pytest.raises(ValueError, match="expected 'auto', 'tile', 'gemm' or 'winograd'"):
        core._C._set_conv_algorithm("fft")


# The epilogue in registers (NHWC output): blocks of 1, 2, 3 and 4 vectors, partial lanes (21
# channels: a whole AVX2 block merged with five lanes of the next).
_FUSED_EPILOGUES = r"""
fused = core._C._op("_conv2d_fused")
for i, (xs, ws, pad) in enumerate([((1, 6, 7, 5), (72, 6, 1, 1), 0), ((1, 5, 6, 6), (40, 5, 3, 3), 1),
                                   ((1, 4, 5, 5), (24, 4, 1, 1), 0), ((1, 3, 5, 4), (56, 3, 3, 3), 1),
                                   ((2, 4, 5, 5), (21, 4, 1, 1), 0)]):
    for dt in (np.float32, np.float64):
        x = nhwc(rng.uniform(-3, 3, xs).astype(dt)); w = core.tensor(rng.uniform(-1, 1, ws).astype(dt))
        b = core.tensor(rng.uniform(-1, 1, ws[0]).astype(dt))
        r = nhwc(rng.uniform(-1, 1, (xs[0], ws[0], xs[2], xs[3])).astype(dt))
        for act in ("relu", "relu6", "hardswish", "hardsigmoid"):
            y = fused(x, w, b, (1, 1), (pad, pad), (1, 1), 1, act, r)
            out[f"fused-{i}-{dt.__name__}-{act}"] = y.contiguous().numpy().tobytes().hex()
"""
_ISA_SCRIPT = conv_isa_script([((2, 6, 7, 5), (37, 6, 3, 3), dict(padding=1)),
                               ((1, 5, 9, 8), (70, 5, 5, 5), dict(stride=2, padding=2)),
                               ((2, 9, 8, 8), (20, 9, 4, 4), dict(stride=2, padding=1)),
                               ((1, 7, 6, 6), (9, 7, 3, 3), dict(padding=2, dilation=2))],
                              seed=12, algorithm="tile", weight_grad=False, extra=_FUSED_EPILOGUES)


def test_tile_kernel_isa_builds_are_bit_identical():
    ref = assert_isa_builds_agree(_ISA_SCRIPT)
    # NCHW and NHWC inputs go through the same padded NHWC copy: the same bits too.
    for key in ref:
        if "-nchw-" in key:
            assert ref[key] == ref[key.replace("nchw", "nhwc")], key
