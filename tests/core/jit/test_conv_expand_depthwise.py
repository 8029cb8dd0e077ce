"""_conv2d_expand_depthwise (an inverted-residual block's expansion and depthwise convolution in
one call, band by band): the same bits as the two calls it replaces, a numpy reference, the
compiler's use of it, and its refusals."""
import os
import sys

import numpy as np
import pytest

import core
import vision

_op = core._C._op("_conv2d_expand_depthwise")
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
]


def _two_calls(x, packed, eb, expanded, expand_act, dw, db, stride, padding, dilation, act):
    e = _prepacked(x, packed, eb, expanded, (1, 1), (0, 0), (1, 1), expand_act, None)
    return _fused(e, dw, db, stride, padding, dilation, expanded, act, None)


def _weights(channels, expanded, k, dtype):
    w1 = core.randn(expanded, channels, 1, 1, dtype=dtype) * 0.5
    return w1, core.randn(expanded, dtype=dtype), core.randn(expanded, 1, k, k, dtype=dtype) * 0.5, \
        core.randn(expanded, dtype=dtype)


@pytest.mark.parametrize("case", _CASES, ids=[c[0] for c in _CASES])
@pytest.mark.parametrize("dtype", [core.float32, core.float64])
@pytest.mark.parametrize("threads", [1, 2])
def test_same_bits_as_the_two_calls(case, dtype, threads):
    _, xs, expanded, k, stride, padding, dilation = case
    core.manual_seed(0)
    x = (core.randn(*xs, dtype=dtype) * 2).contiguous(memory_format=core.channels_last)
    w1, eb, dw, db = _weights(xs[1], expanded, k, dtype)
    packed = _pack(w1)
    args = ((stride, stride), (padding, padding), (dilation, dilation))
    previous = core.get_num_threads()
    try:
        core.set_num_threads(threads)
        for expand_act, act in (("relu", "hardswish"), ("hardswish", "relu"), ("none", "none"), ("relu6", "relu6")):
            for biases in ((eb, db), (None, None)):
                want = _two_calls(x, packed, biases[0], expanded, expand_act, dw, biases[1], *args, act)
                got = _op(x, packed, biases[0], expanded, expand_act, dw, biases[1], *args, act)
                assert got.shape == want.shape and got.dtype == dtype
                assert got.is_contiguous(memory_format=core.channels_last)
                assert core.equal(got, want), (expand_act, act, biases[0] is None)
    finally:
        core.set_num_threads(previous)


def _reference(x, w1, eb, dw, db, stride, padding, dilation):
    """relu6(depthwise(relu(conv1x1(x)))) in float64 numpy, tap by tap."""
    e = np.maximum(np.einsum("nchw,oc->nohw", x, w1[:, :, 0, 0]) + eb[None, :, None, None], 0)
    n, c, h, w = e.shape
    k = dw.shape[-1]
    ep = np.zeros((n, c, h + 2 * padding, w + 2 * padding))
    ep[:, :, padding:padding + h, padding:padding + w] = e
    oh = (h + 2 * padding - dilation * (k - 1) - 1) // stride + 1
    ow = (w + 2 * padding - dilation * (k - 1) - 1) // stride + 1
    y = np.zeros((n, c, oh, ow)) + db[None, :, None, None]
    for i in range(k):
        for j in range(k):
            rows = ep[:, :, i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                      j * dilation:j * dilation + stride * (ow - 1) + 1:stride]
            y += rows * dw[None, :, 0, i, j, None, None]
    return np.clip(y, 0, 6)


@pytest.mark.parametrize("case", _CASES, ids=[c[0] for c in _CASES])
def test_matches_numpy_reference(case):
    _, xs, expanded, k, stride, padding, dilation = case
    core.manual_seed(1)
    x = core.randn(*xs, dtype=core.float64)
    w1, eb, dw, db = _weights(xs[1], expanded, k, core.float64)
    got = _op(x, _pack(w1), eb, expanded, "relu", dw, db, (stride, stride), (padding, padding),
              (dilation, dilation), "relu6")
    want = _reference(x.numpy(), w1.numpy(), eb.numpy(), dw.numpy(), db.numpy(), stride, padding, dilation)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_empty_batch():
    w1, eb, dw, db = _weights(4, 8, 3, core.float32)
    got = _op(core.randn(0, 4, 5, 5), _pack(w1), eb, 8, "relu", dw, db, (2, 2), (1, 1), (1, 1), "relu")
    assert got.shape == (0, 8, 3, 3)


def test_refuses_bad_arguments():
    x = core.randn(1, 4, 6, 6)
    w1, eb, dw, db = _weights(4, 8, 3, core.float32)
    packed = _pack(w1)

    def call(**changes):
        a = dict(x=x, packed=packed, eb=eb, e=8, ea="relu", dw=dw, db=db, s=(1, 1), p=(1, 1), d=(1, 1), act="relu")
        a.update(changes)
        return _op(a["x"], a["packed"], a["eb"], a["e"], a["ea"], a["dw"], a["db"], a["s"], a["p"], a["d"], a["act"])

    with pytest.raises(RuntimeError, match="the input has 5 channels"):
        call(x=core.randn(1, 5, 6, 6))
    with pytest.raises(RuntimeError, match="must be a 1x1 convolution"):
        call(packed=_pack(core.randn(8, 4, 3, 3)))
    with pytest.raises(RuntimeError, match="do not fill the packed weight"):
        call(e=1000)
    with pytest.raises(RuntimeError, match=r"expected a depthwise weight \(8, 1, KH, KW\)"):
        call(dw=core.randn(8, 2, 3, 3))
    with pytest.raises(RuntimeError, match="expected a depthwise bias of 8"):
        call(db=core.randn(7))
    with pytest.raises(RuntimeError, match="expected an expansion bias of 8"):
        call(eb=core.randn(8, dtype=core.float64))
    with pytest.raises(TypeError, match="must share float32 or float64"):
        call(x=x.double())
    with pytest.raises(RuntimeError, match="stride must be at least 1"):
        call(s=(0, 1))
    with pytest.raises(RuntimeError, match="padding must be at least 0"):
        call(p=(-1, 0))
    with pytest.raises(RuntimeError, match="larger than the padded input"):
        call(dw=core.randn(8, 1, 9, 9), p=(0, 0))
    with pytest.raises(ValueError, match="unknown activation"):
        call(act="gelu")


def _ops_of(program):
    return [program._program.name(i) for i in range(len(program))]


@pytest.mark.parametrize("batch", [1, 2])
def test_compiled_mobilenet_runs_its_blocks_fused(batch):
    core.manual_seed(0)
    model = vision.models.mobilenet_v3_large().eval()
    x = core.randn(batch, 3, 64, 64)
    compiled = core.compile(model, x)
    ops = _ops_of(compiled.program_for(x))
    assert ops.count("_conv2d_expand_depthwise") == 14  # every block but the first, which has no expansion
    with core.no_grad():
        want = model(x)
    assert core.allclose(compiled(x), want, rtol=1e-4, atol=1e-4)


_ISA_SCRIPT = """
import hashlib, json
import core
op, pack = core._C._op("_conv2d_expand_depthwise"), core._C._op("_conv_tile_pack")
out = {"cap": core._C._cpu_capability()}
for threads in (1, 2):
    core.set_num_threads(threads)
    for i, (xs, e, k, s, p) in enumerate([((1, 8, 9, 11), 24, 3, 1, 1), ((1, 16, 20, 40), 64, 3, 2, 1),
                                          ((2, 6, 10, 9), 20, 5, 2, 2), ((1, 4, 7, 6), 72, 5, 1, 2)]):
        for dt in (core.float32, core.float64):
            core.manual_seed(i)
            x = core.randn(*xs, dtype=dt).contiguous(memory_format=core.channels_last)
            w1, eb = core.randn(e, xs[1], 1, 1, dtype=dt), core.randn(e, dtype=dt)
            dw, db = core.randn(e, 1, k, k, dtype=dt), core.randn(e, dtype=dt)
            y = op(x, pack(w1), eb, e, "hardswish", dw, db, (s, s), (p, p), (1, 1), "relu")
            out[f"{i}-{dt}-{threads}"] = hashlib.sha256(y.contiguous().numpy().tobytes()).hexdigest()
print(json.dumps(out))
"""


def test_isa_builds_are_bit_identical():
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from support import assert_isa_builds_agree

    ref = assert_isa_builds_agree(_ISA_SCRIPT)
    for key in ref:  # the way the threads share the work changes no bit
        if key.endswith("-1"):
            assert ref[key] == ref[key[:-1] + "2"], key
