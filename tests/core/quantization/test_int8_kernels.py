"""The int8 kernels against numpy references (exact), and every SIMD build (baseline = the
scalar int32 reference, AVX2, AVX-512, AVX-512 VNNI) bit-identical to the baseline."""
import json

import numpy as np
import pytest

import core
from support import run_with_capability
from tests.core.quantization import qref

_Q = core._C._quantized
RNG = np.random.default_rng(1)


def qt(ints, scale, zp):
    return core._make_per_tensor_quantized_tensor(core.tensor(ints), scale, zp)


def weight(w_ints, scales, zps, per_channel):
    if per_channel:
        return core._make_per_channel_quantized_tensor(core.tensor(w_ints), core.tensor(scales, dtype=core.float64),
                                                       core.tensor(zps, dtype=core.int64), 0)
    return core._make_per_tensor_quantized_tensor(core.tensor(w_ints), float(scales[0]), int(zps[0]))


def at_threads(threads, fn):
    """fn() with the pool at `threads` threads, restored after."""
    before = core.get_num_threads()
    core.set_num_threads(threads)
    try:
        return fn()
    finally:
        core.set_num_threads(before)



def random_conv(xs, ws, stride, padding, groups):
    """A quint8 input of shape xs and packed per-channel weights of shape ws, with a bias."""
    w = RNG.integers(-128, 128, ws).astype(np.int8)
    O = ws[0]
    packed = _Q.conv2d_prepack(weight(w, RNG.uniform(0.001, 0.02, O), np.zeros(O, np.int64), True),
                               core.tensor(RNG.normal(0, 1, O).astype(np.float32)), [stride] * 2, [padding] * 2,
                               [1, 1], groups)
    return qt(RNG.integers(0, 256, xs).astype(np.uint8), 0.03, 90), packed

LINEAR_CASES = [  # M, K, N, per_channel, weight zero points, bias, relu, activation range
    (1, 960, 1280, False, False, True, False, 255),
    (5, 27, 21, True, False, True, True, 255),
    (33, 64, 16, True, True, False, False, 127),
    (17, 130, 47, False, True, True, False, 255),
    (13, 40, 24, True, True, True, True, 255),     # the last block's 8 channels: its first vector alone
    (7, 72, 40, False, False, True, False, 255),
]


@pytest.fixture(params=["fbgemm", "qnnpack"])
def engine(request):
    """The engine whose output-stage rounding linear and conv follow."""
    before = core.backends.quantized.engine
    core.backends.quantized.engine = request.param
    yield request.param
    core.backends.quantized.engine = before


@pytest.mark.parametrize("M,K,N,pc,wzp,has_bias,relu,amax", LINEAR_CASES)
def test_quantized_linear_matches_reference(M, K, N, pc, wzp, has_bias, relu, amax, engine):
    x = RNG.integers(0, amax + 1, (M, K)).astype(np.uint8)
    w = RNG.integers(-128, 128, (N, K)).astype(np.int8)
    scales = RNG.uniform(0.001, 0.01, N).astype(np.float32) if pc else np.full(N, 0.004, np.float32)
    zps = RNG.integers(-20, 20, N) if wzp else np.zeros(N, np.int64)
    if wzp and not pc:
        zps = np.full(N, zps[0])
    bias = RNG.normal(0, 1, N).astype(np.float32) if has_bias else None
    packed = _Q.linear_prepack(weight(w, scales.astype(np.float64), zps, pc),
                               core.tensor(bias) if has_bias else None)
    y = (_Q.linear_relu if relu else _Q.linear)(qt(x, 0.02, 7), packed, 0.3, 120)
    ref = qref.qlinear(x, 0.02, 7, w, scales.astype(np.float64).astype(np.float32), zps, bias, 0.3, 120, relu,
                       qnnpack=engine == "qnnpack")
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)
    assert y.q_scale() == 0.3 and y.q_zero_point() == 120


@pytest.mark.parametrize("amax,odd", [(255, -128), (255, 1), (129, 127), (128, 127), (254, 127)])
def test_linear_near_the_vpmaddubsw_saturation_bound(amax, odd):
    """Pairs (w[2i], w[2i + 1]) of large opposite signs (or a small partner) never reach 32767 with
    any activation, same-sign large pairs do past a = 129: each side of the bound is exact."""
    M, K, N = 23, 36, 19
    x = RNG.integers(0, amax + 1, (M, K)).astype(np.uint8)
    x[0] = amax  # the extreme row: a0 * w0 + a1 * w1 at its largest
    w = np.empty((N, K), np.int8)
    w[:, 0::2] = 127
    w[:, 1::2] = odd
    w[1::3] = -w[1::3].astype(np.int16).clip(-127, 127)  # rows of the other sign
    packed = _Q.linear_prepack(weight(w, [0.004] * N, [0] * N, False), None)
    y = _Q.linear(qt(x, 0.02, 3), packed, 8.0, 128)
    ref = qref.qlinear(x, 0.02, 3, w, np.full(N, 0.004, np.float32), np.zeros(N, np.int64), None, 8.0, 128)
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)


@pytest.mark.parametrize("at", [5, 700, 767, 790, 810, 827])
def test_one_saturating_byte_anywhere_turns_on_widening(at):
    """A single byte that can saturate vpmaddubsw among bytes that cannot, in each part of the
    saturation scan of the 828 bytes: its 128-byte steps, its 32-byte steps, its scalar tail."""
    M, K, N = 23, 36, 19
    x = RNG.integers(0, 128, (M, K)).astype(np.uint8)  # 127 * (128 + 128) < 32767: no saturation
    x.flat[at] = 255
    w = np.full((N, K), 127, np.int8)
    w[1::2] = -128
    packed = _Q.linear_prepack(weight(w, [0.004] * N, [0] * N, False), None)
    y = _Q.linear(qt(x, 0.02, 0), packed, 0.4, 128)  # a saturated pair moves its bytes by one or more
    ref = qref.qlinear(x, 0.02, 0, w, np.full(N, 0.004, np.float32), np.zeros(N, np.int64), None, 0.4, 128)
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)


def test_output_stage_follows_the_engine(engine):
    """acc 1 with bias 0.5 (in accumulator units) and output scale 0.5: fbgemm keeps the float bias
    (1.5 / 0.5 = 3), qnnpack rounds it to an int32 first (half to even: 0, so 1 / 0.5 = 2)."""
    packed = _Q.linear_prepack(weight(np.ones((1, 1), np.int8), [1.0], [0], False), core.tensor([0.5]))
    y = _Q.linear(qt(np.array([[11]], np.uint8), 1.0, 10), packed, 0.5, 0)
    assert y.int_repr().tolist() == [[2 if engine == "qnnpack" else 3]]



def test_one_packed_layer_follows_changing_scales_and_engine():
    """A layer keeps the output stage of its last call: calls that change the input or output
    scale, or the engine, in turn must each get their own (a bias of half an accumulator unit
    rounds differently under the two engines)."""
    x = np.array([[11]], np.uint8)
    packed = _Q.linear_prepack(weight(np.ones((1, 1), np.int8), [1.0], [0], False), core.tensor([0.5]))
    previous = core.backends.quantized.engine
    try:
        for engine_name, x_scale, out_scale in [("fbgemm", 1.0, 0.5), ("qnnpack", 1.0, 0.5), ("fbgemm", 1.0, 0.5),
                                                ("fbgemm", 1.0, 0.25), ("fbgemm", 0.5, 0.25), ("qnnpack", 0.5, 0.25)]:
            core.backends.quantized.engine = engine_name
            y = _Q.linear(qt(x, x_scale, 10), packed, out_scale, 0)
            ref = qref.qlinear(x, x_scale, 10, np.ones((1, 1), np.int8), np.ones(1, np.float32), np.zeros(1, np.int64),
                               np.array([0.5], np.float32), out_scale, 0, qnnpack=engine_name == "qnnpack")
            np.testing.assert_array_equal(y.int_repr().numpy(), ref)
    finally:
        core.backends.quantized.engine = previous


def test_activation_tables_follow_their_qparams():
    """hardswish and hardsigmoid tables are remembered per qparams: many in turn, twice over,
    each equal to the formula."""
    a = np.arange(256, dtype=np.uint8).reshape(1, 256)
    for _ in range(2):
        for i in range(150):  # more than the cache holds, most differing only in one qparam
            in_scale, in_zp = 0.05 + 0.01 * (i % 3), 100 + i % 2
            out_scale, out_zp = 0.02 + 0.0005 * i, 5 + (i % 5 == 0)
            da = qref.dequantize(a, in_scale, in_zp)
            hs = da * np.minimum(np.maximum(da + np.float32(3), 0), 6) / np.float32(6)
            got = _Q.hardswish(qt(a, in_scale, in_zp), out_scale, out_zp).int_repr().numpy()
            np.testing.assert_array_equal(got, qref.requant_zp_first(hs * (np.float32(1) / np.float32(out_scale)), out_zp))
            hsig = np.minimum(np.maximum(da + np.float32(3), 0), 6) / np.float32(6)
            np.testing.assert_array_equal(_Q.hardsigmoid(qt(a, in_scale, in_zp)).int_repr().numpy(),
                                          qref.requant(hsig * np.float32(256), 0))

CONV_CASES = [  # x shape, weight shape, stride, padding, dilation, groups, per_channel
    ((1, 3, 17, 19), (16, 3, 3, 3), (2, 2), (1, 1), (1, 1), 1, False),     # the stem
    ((2, 24, 9, 9), (24, 1, 3, 3), (1, 1), (1, 1), (1, 1), 24, True),     # depthwise
    ((1, 40, 11, 10), (40, 1, 5, 5), (2, 2), (2, 2), (1, 1), 40, False),  # depthwise 5x5 stride 2
    ((1, 16, 7, 7), (16, 1, 3, 3), (1, 1), (2, 2), (2, 2), 16, True),     # dilated depthwise
    ((2, 5, 6, 7), (5, 1, 3, 3), (1, 1), (1, 1), (1, 1), 5, True),        # depthwise, fewer channels than lanes
    ((1, 36, 5, 21), (36, 1, 3, 3), (2, 2), (1, 1), (1, 1), 36, False),   # depthwise: runs of 4 inner columns
    # depthwise through kernel-row pairs: small images, odd channel counts (ragged vector ends)
    ((2, 120, 7, 7), (120, 1, 5, 5), (1, 1), (2, 2), (1, 1), 120, True),  # 5x5 on 7x7: 3 inner columns
    ((1, 72, 7, 7), (72, 1, 3, 3), (1, 1), (1, 1), (1, 1), 72, False),    # 3x3 on 7x7
    ((1, 184, 14, 14), (184, 1, 3, 3), (1, 1), (1, 1), (1, 1), 184, True),  # 3x3 on 14x14
    ((2, 72, 14, 14), (72, 1, 5, 5), (2, 2), (2, 2), (1, 1), 72, False),  # 5x5 stride 2 on 14x14
    ((1, 120, 14, 14), (120, 1, 3, 3), (2, 2), (1, 1), (1, 1), 120, True),  # 3x3 stride 2 on 14x14
    ((1, 12, 7, 7), (12, 1, 5, 5), (2, 2), (2, 2), (1, 1), 12, False),    # between one and two vectors
    ((1, 24, 9, 8), (24, 1, 4, 2), (1, 2), (1, 0), (1, 1), 24, True),     # even kernel height, no padding
    ((1, 16, 5, 6), (16, 1, 5, 5), (1, 1), (4, 4), (2, 2), 16, False),    # dilated, wider than the image
    ((1, 3, 9, 9), (3, 1, 9, 9), (1, 1), (4, 4), (1, 1), 3, False),       # 81 taps: im2col, not the direct kernel
    ((2, 32, 6, 5), (48, 32, 1, 1), (1, 1), (0, 0), (1, 1), 1, True),     # pointwise (GEMM on the input)
    ((1, 8, 8, 8), (12, 4, 3, 3), (1, 2), (1, 0), (1, 1), 2, False),      # grouped
    ((1, 6, 5, 5), (6, 2, 3, 3), (1, 1), (1, 1), (1, 1), 3, True),        # groups with 2 input channels each
    # im2col: kernel-row runs of KW * C bytes of each length class, NCHW inputs of 3 and other channel counts
    ((2, 3, 10, 9), (8, 3, 3, 3), (2, 2), (1, 1), (1, 1), 1, True),       # two RGB images
    ((1, 1, 5, 8), (3, 1, 3, 3), (1, 1), (1, 1), (1, 1), 1, True),        # runs of 3 bytes
    ((1, 2, 6, 9), (4, 2, 3, 3), (2, 1), (0, 2), (1, 1), 1, False),       # runs of 6
    ((2, 8, 7, 6), (6, 8, 3, 3), (1, 1), (1, 1), (1, 1), 1, True),        # runs of 24
    ((1, 16, 5, 7), (8, 16, 1, 3), (1, 2), (0, 1), (1, 1), 1, False),     # runs of 48
    ((1, 20, 5, 4), (8, 20, 3, 5), (1, 1), (1, 1), (1, 1), 1, True),      # kernel wider than the image
    ((1, 16, 6, 6), (8, 16, 3, 3), (1, 1), (2, 2), (2, 2), 1, False),     # dilated: tap by tap
    # patches in tasks of ~120 output pixels: 2 rows of 50 (the last task 1 row), 1 row of 130
    ((2, 3, 59, 50), (16, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1, True),
    ((1, 3, 5, 261), (16, 3, 3, 3), (2, 2), (1, 1), (1, 1), 1, False),
    ((1, 4, 11, 40), (6, 2, 3, 3), (1, 1), (1, 1), (1, 1), 2, False),     # grouped, 3 rows of 40 per task
]


@pytest.mark.parametrize("xs,ws,stride,padding,dilation,groups,pc", CONV_CASES)
@pytest.mark.parametrize("relu", [False, True])
def test_quantized_conv2d_matches_reference(xs, ws, stride, padding, dilation, groups, pc, relu):
    x = RNG.integers(0, 256, xs).astype(np.uint8)
    w = RNG.integers(-128, 128, ws).astype(np.int8)
    O = ws[0]
    scales = RNG.uniform(0.001, 0.02, O) if pc else np.full(O, 0.01)
    zps = np.zeros(O, np.int64)
    bias = RNG.normal(0, 1, O).astype(np.float32)
    packed = _Q.conv2d_prepack(weight(w, scales, zps, pc), core.tensor(bias), list(stride), list(padding),
                               list(dilation), groups)
    xq = qt(x, 0.03, 100)
    y = (_Q.conv2d_relu if relu else _Q.conv2d)(xq, packed, 0.5, 60)
    assert y.is_contiguous(memory_format=core.channels_last)
    ref = qref.qconv2d(x, 0.03, 100, w, scales.astype(np.float32), zps, bias, 0.5, 60, stride, padding, dilation,
                       groups, relu)
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)
    y2 = _Q.conv2d(xq.contiguous(memory_format=core.channels_last), packed, 0.5, 60) if not relu else None
    if y2 is not None:
        np.testing.assert_array_equal(y2.int_repr().numpy(), ref)


@pytest.mark.parametrize("threads", [1, 3])
def test_rgb_planes_interleaved_in_tasks(threads):
    """An NCHW image of 3 channels becomes NHWC pixels in tasks of 4096 (each writes a pixel as
    4 bytes but the last one of its range): a stem on 9,100 pixels gives the reference's bytes."""
    x = RNG.integers(0, 256, (2, 3, 70, 130)).astype(np.uint8)
    w = RNG.integers(-128, 128, (16, 3, 3, 3)).astype(np.int8)
    scales, zps, bias = np.full(16, 0.01), np.zeros(16, np.int64), RNG.normal(0, 1, 16).astype(np.float32)
    packed = _Q.conv2d_prepack(weight(w, scales, zps, False), core.tensor(bias), [2, 2], [1, 1], [1, 1], 1)
    y = at_threads(threads, lambda: _Q.conv2d(qt(x, 0.03, 100), packed, 0.5, 60))
    ref = qref.qconv2d(x, 0.03, 100, w, scales.astype(np.float32), zps, bias, 0.5, 60, (2, 2), (1, 1), (1, 1), 1)
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)


@pytest.mark.parametrize("threads", [1, 2, 8])
@pytest.mark.parametrize("xs,ws,stride,padding,groups", [
    ((1, 24, 30, 30), (24, 24, 1, 1), 1, 0, 1),     # 1x1: one GEMM over the pixels, tasks of rows
    ((1, 16, 6, 6), (200, 16, 1, 1), 1, 0, 1),      # few rows: tasks split the channel blocks
    ((2, 8, 9, 9), (12, 8, 3, 3), 1, 1, 1),         # im2col: tasks of output rows per image
    ((1, 8, 9, 9), (12, 4, 3, 3), 1, 1, 2),         # grouped: each group's channels of a row
    ((2, 40, 8, 8), (40, 1, 3, 3), 1, 1, 40),       # depthwise: the add after the kernel
])
def test_conv2d_add_is_conv_then_add(xs, ws, stride, padding, groups, threads):
    xq, packed = random_conv(xs, ws, stride, padding, groups)
    out_shape = tuple(_Q.conv2d(xq, packed, 0.2, 70).shape)
    skip = qt(RNG.integers(0, 256, out_shape).astype(np.uint8), 0.04, 120)
    for residual in (skip, skip.contiguous(memory_format=core.channels_last)):
        fused, apart = at_threads(threads, lambda: (_Q.conv2d_add(xq, packed, 0.2, 70, residual, 0.1, 64),
                                                    _Q.add(residual, _Q.conv2d(xq, packed, 0.2, 70), 0.1, 64)))
        assert (fused.q_scale(), fused.q_zero_point()) == (0.1, 64)
        assert fused.is_contiguous(memory_format=core.channels_last)
        np.testing.assert_array_equal(fused.int_repr().numpy(), apart.int_repr().numpy())
    with pytest.raises(RuntimeError, match="conv2d_add.*residual's shape"):
        _Q.conv2d_add(xq, packed, 0.2, 70, qt(np.zeros((1, 1, 2, 2), np.uint8), 0.1, 0), 0.1, 64)
    with pytest.raises(TypeError, match="conv2d_add.*quint8"):
        _Q.conv2d_add(xq, packed, 0.2, 70, core.zeros(out_shape), 0.1, 64)
    with pytest.raises(RuntimeError, match="conv2d_add.*zero_point"):
        _Q.conv2d_add(xq, packed, 0.2, 70, skip, 0.1, 300)


@pytest.mark.parametrize("threads", [1, 2, 3, 8])
@pytest.mark.parametrize("xs,k,stride", [
    ((1, 120, 28, 28), 5, 1),   # one band: chunks of 32 channels (the last 56), then shorter bands
    ((1, 200, 7, 7), 5, 1),     # chunks only
    ((2, 40, 30, 30), 3, 2),    # too few channels to chunk: shorter bands
    ((1, 12, 20, 20), 3, 1),    # fewer channels than a vector: bands, tap by tap
    ((3, 64, 9, 9), 3, 1),      # several images
])
def test_depthwise_tasks_split_rows_and_channels(xs, k, stride, threads):
    """The depthwise kernel's tasks (bands of rows, chunks of channels, more of them at more
    threads) tile the output exactly: every thread count gives the reference's bytes."""
    C = xs[1]
    x = RNG.integers(0, 256, xs).astype(np.uint8)
    w = RNG.integers(-128, 128, (C, 1, k, k)).astype(np.int8)
    scales = RNG.uniform(0.001, 0.02, C)
    zps = np.zeros(C, np.int64)
    bias = RNG.normal(0, 1, C).astype(np.float32)
    packed = _Q.conv2d_prepack(weight(w, scales, zps, True), core.tensor(bias), [stride] * 2, [k // 2] * 2, [1, 1], C)
    ref = qref.qconv2d(x, 0.03, 90, w, scales.astype(np.float32), zps, bias, 0.5, 60, (stride,) * 2, (k // 2,) * 2,
                       (1, 1), C, False)
    y = at_threads(threads, lambda: _Q.conv2d(qt(x, 0.03, 90), packed, 0.5, 60))
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)


@pytest.mark.parametrize("threads", [1, 2, 8])
@pytest.mark.parametrize("xs,ws,stride,padding,groups", [
    ((1, 40, 14, 14), (120, 40, 1, 1), 1, 0, 1),    # 1x1: row chunks of every channel
    ((1, 16, 6, 6), (200, 16, 1, 1), 1, 0, 1),      # few rows: tasks split the channel blocks
    ((1, 120, 28, 28), (120, 1, 5, 5), 1, 2, 120),  # depthwise: chunks of channels past 1 thread
    ((2, 16, 20, 20), (16, 1, 3, 3), 2, 1, 16),     # depthwise, whole images per task
    ((1, 3, 30, 30), (16, 3, 3, 3), 2, 1, 1),       # the stem's patch path
    ((1, 8, 9, 9), (12, 4, 3, 3), 1, 1, 2),         # grouped: each group's channels of a row
])
def test_conv2d_hardswish_is_conv_then_hardswish(xs, ws, stride, padding, groups, threads):
    xq, packed = random_conv(xs, ws, stride, padding, groups)
    fused, apart = at_threads(threads, lambda: (_Q.conv2d_hardswish(xq, packed, 0.2, 70, 0.05, 10),
                                                _Q.hardswish(_Q.conv2d(xq, packed, 0.2, 70), 0.05, 10)))
    assert (fused.q_scale(), fused.q_zero_point()) == (0.05, 10)
    assert fused.is_contiguous(memory_format=core.channels_last)
    np.testing.assert_array_equal(fused.int_repr().numpy(), apart.int_repr().numpy())
    with pytest.raises(RuntimeError, match="conv2d_hardswish.*zero_point"):
        _Q.conv2d_hardswish(xq, packed, 0.2, 70, 0.05, 300)


@pytest.mark.parametrize("out_scale", [2e-3, 1e-9])
@pytest.mark.parametrize("relu", [False, True])
@pytest.mark.parametrize("ws,groups", [((24, 32, 1, 1), 1), ((40, 32, 3, 3), 1), ((32, 1, 3, 3), 32)])
def test_outputs_saturating_at_both_ends(out_scale, relu, ws, groups):
    """Most outputs past 0 or 255: out scale 2e-3 keeps every value within int32, and the
    kernels clamp after rounding (in the packs); 1e-9 takes values past int32, and they clamp
    the floats first. Either way the bytes are the reference's."""
    O = ws[0]
    x = RNG.integers(0, 256, (2, 32, 9, 10)).astype(np.uint8)
    w = RNG.integers(-128, 128, ws).astype(np.int8)
    scales = RNG.uniform(0.005, 0.02, O)
    bias = RNG.normal(0, 50, O).astype(np.float32)
    packed = _Q.conv2d_prepack(weight(w, scales, np.zeros(O, np.int64), True), core.tensor(bias), [1, 1], [1, 1],
                               [1, 1], groups)
    y = (_Q.conv2d_relu if relu else _Q.conv2d)(qt(x, 0.03, 100), packed, out_scale, 60)
    ref = qref.qconv2d(x, 0.03, 100, w, scales.astype(np.float32), np.zeros(O, np.int64), bias, out_scale, 60,
                       (1, 1), (1, 1), (1, 1), groups, relu)
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)
    ints = y.int_repr().numpy()
    assert (ints == 255).mean() > 0.25 and (ints == (60 if relu else 0)).mean() > 0.25


@pytest.mark.parametrize("xs,k,stride", [((2, 72, 7, 7), 5, 1), ((1, 40, 14, 14), 3, 2)])
def test_depthwise_extremes_with_weight_zero_points(xs, k, stride):
    """Weights minus zero points at the int16 pair bounds (-255, 255) against inputs 0 and 255."""
    C = xs[1]
    x = RNG.choice(np.array([0, 255], np.uint8), xs)
    w = RNG.choice(np.array([-128, 127], np.int8), (C, 1, k, k))
    zps = RNG.choice(np.array([-128, 127]), C).astype(np.int64)
    scales = RNG.uniform(1e-5, 1e-4, C)
    bias = RNG.normal(0, 1, C).astype(np.float32)
    packed = _Q.conv2d_prepack(weight(w, scales, zps, True), core.tensor(bias), [stride] * 2, [k // 2] * 2, [1, 1], C)
    for x_zp in (0, 255, 37):
        y = _Q.conv2d(qt(x, 0.03, x_zp), packed, 0.5, 128)
        ref = qref.qconv2d(x, 0.03, x_zp, w, scales.astype(np.float32), zps, bias, 0.5, 128, (stride,) * 2,
                           (k // 2,) * 2, (1, 1), C, False)
        np.testing.assert_array_equal(y.int_repr().numpy(), ref)


def test_elementwise_activation_and_pooling_ops():
    a = RNG.integers(0, 256, (2, 3, 4, 5)).astype(np.uint8)
    b = RNG.integers(0, 256, (2, 3, 4, 5)).astype(np.uint8)
    qa, qb = qt(a, 0.05, 120), qt(b, 0.02, 30)
    da, db = qref.dequantize(a, 0.05, 120), qref.dequantize(b, 0.02, 30)
    inv = np.float32(1) / np.float32(0.1)
    np.testing.assert_array_equal(_Q.add(qa, qb, 0.1, 64).int_repr().numpy(), qref.requant((da + db) * inv, 64))
    np.testing.assert_array_equal(_Q.add_relu(qa, qb, 0.1, 64).int_repr().numpy(),
                                  qref.requant((da + db) * inv, 64, 64))
    prod = (a.astype(np.int32) - 120) * (b.astype(np.int32) - 30)
    mult = np.float32(0.05 * 0.02 / 0.1)
    np.testing.assert_array_equal(_Q.mul(qa, qb, 0.1, 64).int_repr().numpy(), qref.requant(prod.astype(np.float32) * mult, 64))
    hs = da * np.minimum(np.maximum(da + np.float32(3), 0), 6) / np.float32(6)
    np.testing.assert_array_equal(_Q.hardswish(qa, 0.04, 20).int_repr().numpy(),
                                  qref.requant_zp_first(hs * (np.float32(1) / np.float32(0.04)), 20))
    hsig = np.minimum(np.maximum(da + np.float32(3), 0), 6) / np.float32(6)
    out = _Q.hardsigmoid(qa)
    assert out.q_scale() == 1 / 256 and out.q_zero_point() == 0
    np.testing.assert_array_equal(out.int_repr().numpy(), qref.requant(hsig * np.float32(256), 0))
    six = int(np.rint(np.float32(6) / np.float32(0.05))) + 120
    np.testing.assert_array_equal(core.nn.functional.relu6(qa).int_repr().numpy(), np.clip(a, 120, min(six, 255)))
    np.testing.assert_array_equal(core.nn.functional.relu(qa).int_repr().numpy(), np.maximum(a, 120))
    pooled = core.nn.functional.adaptive_avg_pool2d(qa, 1)
    sums = a.astype(np.int64).sum((2, 3)) - 20 * 120
    inv = np.float32(1) / (np.float32(1) / (np.float32(0.05) / np.float32(0.05) / np.float32(20)))
    np.testing.assert_array_equal(pooled.int_repr().numpy()[:, :, 0, 0], qref.requant(sums.astype(np.float32) * inv, 120))
    mp = core.nn.functional.max_pool2d(qa, 2)
    np.testing.assert_array_equal(mp.int_repr().numpy(), a[:, :, :4, :4].reshape(2, 3, 2, 2, 2, 2).max((3, 5)))
    c = _Q.cat([qa, qb], 1, 0.05, 120)
    np.testing.assert_array_equal(c.int_repr().numpy()[:, :3], a)
    np.testing.assert_array_equal(c.int_repr().numpy()[:, 3:],
                                  qref.quantize(db, 0.05, 120, 0, 255, np.uint8, zp_first=True))


@pytest.mark.parametrize("out_scale", [1e-3, 1e-9])
@pytest.mark.parametrize("relu", [False, True])
def test_add_and_mul_saturating_at_both_ends(out_scale, relu):
    """Most results past 0 or 255: out scale 1e-3 keeps every value within int32, and the
    kernels clamp after rounding (in the packs); 1e-9 takes values past int32, and they clamp
    the floats first. 1001 elements: whole 16-lane steps, an 8-lane step and a scalar tail."""
    a = RNG.integers(0, 256, 1001).astype(np.uint8)
    b = RNG.integers(0, 256, 1001).astype(np.uint8)
    qa, qb = qt(a, 0.05, 120), qt(b, 0.02, 30)
    da, db = qref.dequantize(a, 0.05, 120), qref.dequantize(b, 0.02, 30)
    lo = 64 if relu else 0
    add = _Q.add_relu if relu else _Q.add
    ref = qref.requant((da + db) * (np.float32(1) / np.float32(out_scale)), 64, lo)
    np.testing.assert_array_equal(add(qa, qb, out_scale, 64).int_repr().numpy(), ref)
    assert (ref == 255).mean() > 0.25 and (ref == lo).mean() > 0.25
    mul = _Q.mul_relu if relu else _Q.mul
    prod = (a.astype(np.int32) - 120) * (b.astype(np.int32) - 30)
    ref = qref.requant(prod.astype(np.float32) * np.float32(0.05 * 0.02 / out_scale), 64, lo)
    np.testing.assert_array_equal(mul(qa, qb, out_scale, 64).int_repr().numpy(), ref)
    assert (ref == 255).mean() > 0.25 and (ref == lo).mean() > 0.25


@pytest.mark.parametrize("scale_first", [False, True])
@pytest.mark.parametrize("relu", [False, True])
def test_channel_scale_times_nhwc_image(scale_first, relu):
    """The SE block's product: an NHWC image and an (N, C, 1, 1) scale, in either order, equal
    the product of the expanded operands (the path that never expands the scale)."""
    img = RNG.integers(0, 256, (2, 37, 5, 6)).astype(np.uint8)
    s = RNG.integers(0, 256, (2, 37, 1, 1)).astype(np.uint8)
    qi = qt(img, 0.05, 10).contiguous(memory_format=core.channels_last)
    qs = qt(s, 1 / 256, 0)
    prod = (img.astype(np.int32) - 10) * s.astype(np.int32)
    ref = qref.requant(prod.astype(np.float32) * np.float32(0.05 / 256 / 0.04), 7, 7 if relu else 0)
    fn = _Q.mul_relu if relu else _Q.mul
    y = fn(qs, qi, 0.04, 7) if scale_first else fn(qi, qs, 0.04, 7)
    assert y.is_contiguous(memory_format=core.channels_last)
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)
    added = _Q.add(qi, qs, 0.1, 60) if not scale_first else _Q.add(qs, qi, 0.1, 60)
    di, ds = qref.dequantize(img, 0.05, 10), qref.dequantize(s, 1 / 256, 0)
    np.testing.assert_array_equal(added.int_repr().numpy(), qref.requant((di + ds) * (np.float32(1) / np.float32(0.1)), 60))


def test_adaptive_avg_pool_multiplier_per_engine(engine):
    """Windows that tile the input: qnnpack multiplies the sum by s / (s * count), fbgemm by
    1 / (1 / (s / s / count)); the two round some sums on a half differently."""
    a = RNG.integers(0, 256, (2, 5, 6, 4)).astype(np.uint8)
    pooled = core.nn.functional.adaptive_avg_pool2d(qt(a, 0.0268854, 120), (3, 2))
    sums = a.astype(np.int64).reshape(2, 5, 3, 2, 2, 2).sum((3, 5)) - 4 * 120
    s, count = np.float32(0.0268854), np.float32(4)
    mult = s / (s * count) if engine == "qnnpack" else np.float32(1) / (np.float32(1) / (s / s / count))
    np.testing.assert_array_equal(pooled.int_repr().numpy(), qref.requant(sums.astype(np.float32) * mult, 120))


def test_dynamic_linear_and_choose_qparams():
    x = RNG.normal(0, 1, (3, 40)).astype(np.float32)
    w = RNG.integers(-128, 128, (24, 40)).astype(np.int8)
    bias = RNG.normal(0, 1, 24).astype(np.float32)
    packed = _Q.linear_prepack(weight(w, [0.01], [0], False), core.tensor(bias))
    y = _Q.linear_dynamic(core.tensor(x), packed, True).numpy()
    scale, zp = _Q.choose_qparams(float(x.min()), float(x.max()), 0, 127)
    xq = qref.quantize(x, scale, zp, 0, 255, np.uint8, zp_first=True)
    acc = (xq.astype(np.int64) - zp) @ w.astype(np.int64).T
    ref = acc.astype(np.float32) * (np.float32(scale) * np.float32(0.01)) + bias
    np.testing.assert_array_equal(y, ref)
    assert _Q.choose_qparams(0.0, 0.0, 0, 255) == (pytest.approx(0.1), 0)


def test_kernel_bad_input():
    packed = _Q.linear_prepack(weight(np.zeros((4, 8), np.int8), [0.1], [0], False), None)
    with pytest.raises(RuntimeError, match="last dim must be 8"):
        _Q.linear(qt(np.zeros((2, 5), np.uint8), 0.1, 0), packed, 0.1, 0)
    with pytest.raises(TypeError, match="quint8"):
        _Q.linear(core.zeros(2, 8), packed, 0.1, 0)
    with pytest.raises(TypeError, match="weight must be qint8"):
        _Q.linear_prepack(qt(np.zeros((4, 8), np.uint8), 0.1, 0), None)
    with pytest.raises(RuntimeError, match="bias must have shape"):
        _Q.linear_prepack(weight(np.zeros((4, 8), np.int8), [0.1], [0], False), core.zeros(3))

@pytest.mark.parametrize("wzp", [False, True])
def test_linear_chunks_of_rows_take_their_own_path(wzp):
    """The saturation check and the weight zero points' row sums run per chunk of 120 rows: a
    middle chunk past the bound (widened products) between chunks below it, each row exact."""
    M, K, N = 330, 50, 37
    x = RNG.integers(0, 100, (M, K)).astype(np.uint8)
    x[150:200] = RNG.integers(200, 256, (50, K))
    w = RNG.integers(-128, 128, (N, K)).astype(np.int8)
    w[:, :2] = 127  # a same-sign pair that saturates with bytes past 129
    zps = RNG.integers(-5, 5, N) if wzp else np.zeros(N, np.int64)
    scales = RNG.uniform(0.001, 0.004, N)
    packed = _Q.linear_prepack(weight(w, scales, zps, True), None)
    y = _Q.linear(qt(x, 0.02, 11), packed, 2.0, 100)
    ref = qref.qlinear(x, 0.02, 11, w, scales.astype(np.float32), zps, None, 2.0, 100)
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)


_ISA_SCRIPT = r"""
import json, sys
import numpy as np
import core
Q = core._C._quantized
rng = np.random.default_rng(5)
out = {"cap": core._C._cpu_capability()}
def qt(a, s, z): return core._make_per_tensor_quantized_tensor(core.tensor(a), s, z)
for name, amax, wmax in (("full", 255, 128), ("reduced", 127, 128), ("small_w", 255, 64)):
    x = rng.integers(0, amax + 1, (37, 200)).astype(np.uint8)
    w = rng.integers(-wmax, wmax, (70, 200)).astype(np.int8)
    wq = core._make_per_channel_quantized_tensor(core.tensor(w), core.tensor(rng.uniform(1e-3, 1e-2, 70)),
                                                 core.tensor(rng.integers(-3, 3, 70)), 0)
    p = Q.linear_prepack(wq, core.tensor(rng.normal(0, 1, 70).astype(np.float32)))
    out[name] = Q.linear(qt(x, 0.02, 9), p, 0.2, 100).int_repr().numpy().tobytes().hex()
    out[name + "_dyn"] = Q.linear_dynamic(core.tensor(rng.normal(0, 1, (5, 200)).astype(np.float32)), p, True).numpy().tobytes().hex()
CONVS = [((1, 3, 20, 20), (16, 3, 3, 3), 2, 1, 1), ((2, 72, 9, 9), (72, 1, 5, 5), 2, 2, 72),
         ((1, 40, 7, 7), (120, 40, 1, 1), 1, 0, 1), ((1, 20, 9, 9), (20, 1, 3, 3), 1, 1, 20),
         ((2, 5, 6, 6), (5, 1, 3, 3), 1, 1, 5), ((1, 36, 5, 21), (36, 1, 3, 3), 2, 1, 36),
         ((2, 120, 7, 7), (120, 1, 5, 5), 1, 2, 120), ((1, 184, 14, 14), (184, 1, 3, 3), 1, 1, 184),
         ((1, 72, 14, 14), (72, 1, 5, 5), 2, 2, 72), ((1, 12, 7, 7), (12, 1, 3, 3), 2, 1, 12)]
for i, (xs, ws, s, pad, g) in enumerate(CONVS):
    x = rng.integers(0, 256, xs).astype(np.uint8)
    w = core._make_per_tensor_quantized_tensor(core.tensor(rng.integers(-128, 128, ws).astype(np.int8)), 0.01, 0)
    p = Q.conv2d_prepack(w, core.tensor(rng.normal(0, 1, ws[0]).astype(np.float32)), [s, s], [pad, pad], [1, 1], g)
    out[f"conv{i}"] = Q.conv2d_relu(qt(x, 0.05, 90), p, 0.3, 20).int_repr().numpy().tobytes().hex()
    for out_scale in (3e-3, 1e-9):  # saturating within int32 and past it
        out[f"conv{i}_sat{out_scale}"] = Q.conv2d(qt(x, 0.05, 90), p, out_scale, 20).int_repr().numpy().tobytes().hex()
a = rng.integers(0, 256, 1000).astype(np.uint8); b = rng.integers(0, 256, 1000).astype(np.uint8)
out["add"] = Q.add(qt(a, 0.1, 3), qt(b, 0.07, 200), 0.2, 50).int_repr().numpy().tobytes().hex()
out["mul"] = Q.mul(qt(a, 0.1, 3), qt(b, 0.07, 200), 0.9, 50).int_repr().numpy().tobytes().hex()
out["hswish"] = Q.hardswish(qt(a, 0.1, 30), 0.05, 10).int_repr().numpy().tobytes().hex()
every_byte = np.concatenate([np.arange(256), np.arange(256)[::-1], rng.integers(0, 256, 77)]).astype(np.uint8)
out["hswish_every_byte"] = Q.hardswish(qt(every_byte, 0.07, 111), 0.03, 140).int_repr().numpy().tobytes().hex()
out["hsigmoid"] = Q.hardsigmoid(qt(a, 0.1, 30)).int_repr().numpy().tobytes().hex()
out["add_relu"] = Q.add_relu(qt(a, 0.1, 3), qt(b, 0.07, 200), 0.2, 50).int_repr().numpy().tobytes().hex()
out["relu6"] = core.nn.functional.relu6(qt(a, 0.03, 40)).int_repr().numpy().tobytes().hex()
out["dequant"] = qt(a, 0.1, 3).dequantize().numpy().tobytes().hex()
img = qt(rng.integers(0, 256, (2, 37, 9, 11)).astype(np.uint8), 0.05, 7).contiguous(memory_format=core.channels_last)
out["avgpool"] = "".join(Q.adaptive_avg_pool2d(img, [s, s]).int_repr().numpy().tobytes().hex() for s in (1, 3, 5))
out["cat"] = Q.cat([img, qt(rng.integers(0, 256, (2, 5, 9, 11)).astype(np.uint8), 0.08, 100)], 1, 0.06,
                   20).int_repr().numpy().tobytes().hex()
xs = rng.normal(0, 3, 999).astype(np.float32)
out["quant"] = core.quantize_per_tensor(core.tensor(xs), 0.01, 5, core.qint8).int_repr().numpy().tobytes().hex()
out["fake"] = core.fake_quantize_per_tensor_affine(core.tensor(xs), 0.01, 5, -128, 127).numpy().tobytes().hex()
print(json.dumps(out))
"""

LEVELS = ["baseline", "avx2", "avx512", "avx512vnni"]


def _run(cap):
    return json.loads(run_with_capability(_ISA_SCRIPT, cap, timeout=300))


def test_every_simd_build_is_bit_identical_to_the_scalar_reference():
    results = {cap: _run(cap) for cap in LEVELS}
    ref = results["baseline"]
    assert ref["cap"] == "baseline"
    skipped = []
    for cap, r in results.items():
        if r["cap"] != cap:
            skipped.append(f"{cap} (this CPU gives {r['cap']})")
        for key in ref:
            if key != "cap":
                assert r[key] == ref[key], f"{key} differs between baseline and {r['cap']}"
    if skipped:
        pytest.skip("paths this CPU lacks were not run: " + ", ".join(skipped))
