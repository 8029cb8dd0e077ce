"""Sample kinds of the nn-pool family: pooling, upsampling, grid sampling, pixel shuffles,
embeddings, one_hot. The first cases of each kind are small float32 inputs (at most 40
elements) so tests/core/test_gradcheck_matrix.py can check their gradients."""
import numpy as np

from .registry import Case, sample
from .samples import random_array


def _f(rng, shape, dtype="float32"):
    return random_array(rng, shape, dtype)


@sample("max_pool2d")
def max_pool2d(rng):
    return [
        Case((_f(rng, (1, 2, 4, 4)), 2), label="k2"),
        Case((_f(rng, (1, 1, 5, 5)), 3, 2, 1), label="k3 s2 p1"),
        Case((_f(rng, (1, 1, 5, 6)), [2, 3], [2, 1], [1, 1], [1, 2], True), label="ceil dilation"),
        Case((_f(rng, (2, 3, 9, 9), "float64"), 3, 2, 1, 2, False), label="f64 dilation 2"),
        Case((_f(rng, (3, 7, 7)), 2), {"ceil_mode": True}, label="3-d ceil"),
        Case((_f(rng, (1, 2, 6, 5)), [3, 2], [], 1), label="stride default, pad 1"),
        Case((_f(rng, (2, 2, 5, 5), "int32"), 2, 1), label="int32"),
        Case((_f(rng, (1, 2, 5, 5), "uint8"), 3, 2), label="uint8"),
        Case((_f(rng, (1, 2, 5, 5), "int64"), 2, 2, 1), label="int64"),
        Case((_f(rng, (1, 2, 6, 6), "float16"), 2), label="float16"),
        Case((_f(rng, (0, 2, 4, 4)), 2), label="empty batch"),
        Case((_f(rng, (1, 1, 7, 7)), 4, 3, 2, 1, True), label="ceil last window rule"),
    ]


@sample("max_pool1d")
def max_pool1d(rng):
    return [
        Case((_f(rng, (1, 2, 8)), 2), label="k2"),
        Case((_f(rng, (2, 1, 7)), 3, 2, 1), label="k3 s2 p1"),
        Case((_f(rng, (2, 9)), 3, 1, 1, 2, True), label="2-d input, dilation, ceil"),
        Case((_f(rng, (2, 3, 11), "float64"), 4, 3, 2, 1, True), label="f64 ceil"),
        Case((_f(rng, (2, 3, 10), "int64"), 3), label="int64"),
    ]


@sample("avg_pool2d")
def avg_pool2d(rng):
    return [
        Case((_f(rng, (1, 2, 4, 4)), 2), label="k2"),
        Case((_f(rng, (1, 1, 5, 5)), 3, 2, 1, False, False), label="exclude pad"),
        Case((_f(rng, (1, 1, 5, 6)), [2, 3], [2, 1], [1, 1], True, True, 5), label="ceil divisor_override"),
        Case((_f(rng, (2, 3, 9, 9), "float64"), 3, 2, 1, True, True), label="f64 ceil include pad"),
        Case((_f(rng, (3, 7, 7)), 2), {"ceil_mode": True, "count_include_pad": False}, label="3-d ceil"),
        Case((_f(rng, (2, 2, 6, 6), "int64"), 2, 2, 1), label="int64"),
        Case((_f(rng, (1, 2, 6, 6), "float16"), 3, 3), label="float16"),
        Case((_f(rng, (1, 1, 4, 7)), 3, 2, 1, True, False), label="ceil exclude pad edge"),
    ]


@sample("avg_pool1d")
def avg_pool1d(rng):
    return [
        Case((_f(rng, (1, 2, 8)), 2), label="k2"),
        Case((_f(rng, (2, 1, 7)), 3, 2, 1, False, False), label="exclude pad"),
        Case((_f(rng, (2, 9)), 3, 2, 1, True), label="2-d input ceil"),
        Case((_f(rng, (2, 3, 11), "float64"), 4, 3, 2, True, True), label="f64"),
    ]


@sample("adaptive_pool2d")
def adaptive_pool2d(rng):
    return [
        Case((_f(rng, (1, 2, 5, 5)), [2, 2]), label="5->2"),
        Case((_f(rng, (2, 1, 4, 6)), [3, 4]), label="uneven"),
        Case((_f(rng, (1, 2, 3, 4)), 1), label="global"),
        Case((_f(rng, (2, 3, 7, 7), "float64"), [1, 1]), label="f64 global"),
        Case((_f(rng, (2, 6, 5)), [4, 3]), label="3-d"),
        Case((_f(rng, (1, 2, 3, 3)), [6, 5]), label="upsampling sizes"),
        Case((_f(rng, (1, 3, 8, 8), "float16"), [3, 3]), label="float16"),
    ]


@sample("adaptive_pool1d")
def adaptive_pool1d(rng):
    return [
        Case((_f(rng, (1, 2, 7)), [3]), label="7->3"),
        Case((_f(rng, (2, 1, 5)), 1), label="global"),
        Case((_f(rng, (2, 9)), [4]), label="2-d input"),
        Case((_f(rng, (2, 3, 11), "float64"), [5]), label="f64"),
    ]


def _unpool_case(rng, shape, out_hw, dtype="float32"):
    n, c, h, w = shape
    idx = np.stack([rng.permutation(out_hw[0] * out_hw[1])[:h * w] for _ in range(n * c)]).reshape(shape)
    return _f(rng, shape, dtype), idx.astype(np.int64)


@sample("max_unpool2d")
def max_unpool2d(rng):
    cases = []
    for shape, out, d in [((1, 2, 2, 2), [4, 4], "float32"), ((2, 1, 2, 3), [4, 6], "float32"),
                          ((1, 1, 3, 3), [5, 5], "float32"), ((2, 3, 3, 2), [6, 5], "float64")]:
        v, i = _unpool_case(rng, shape, out, d)
        cases.append(Case((v, i, out), label=f"{shape}->{out}"))
    return cases


@sample("upsample1d")
def upsample1d(rng):
    return [
        Case((_f(rng, (1, 2, 4)), [7]), label="4->7"),
        Case((_f(rng, (1, 1, 5)), [3], 0.5), label="scale 0.5"),
        Case((_f(rng, (2, 1, 3)), [6]), label="x2"),
        Case((_f(rng, (2, 3, 5), "float64"), [12], 2.5), label="f64 scale 2.5"),
        Case((_f(rng, (1, 2, 6), "uint8"), [9]), label="uint8"),
    ]


@sample("upsample2d")
def upsample2d(rng):
    return [
        Case((_f(rng, (1, 2, 3, 3)), [5, 4]), label="size"),
        Case((_f(rng, (1, 1, 4, 4)), [8, 8], 2.0, 2.0), label="x2"),
        Case((_f(rng, (1, 1, 5, 3)), [2, 7]), label="down/up"),
        Case((_f(rng, (2, 3, 5, 7), "float64"), [7, 9], 1.5, 1.3), label="f64 scales"),
        Case((_f(rng, (2, 3, 6, 6), "uint8"), [9, 4]), label="uint8"),
        Case((_f(rng, (1, 2, 6, 6), "float16"), [4, 9]), label="float16"),
        Case((_f(rng, (1, 2, 7, 7)), [7, 7]), label="same size"),
    ]


@sample("upsample1d_align")
def upsample1d_align(rng):
    return [
        Case((_f(rng, (1, 2, 4)), [7], False), label="4->7"),
        Case((_f(rng, (1, 2, 4)), [7], True), label="4->7 align"),
        Case((_f(rng, (1, 1, 6)), [4], False, 0.75), label="scale 0.75"),
        Case((_f(rng, (2, 3, 5), "float64"), [12], False, 2.5), label="f64 scale"),
        Case((_f(rng, (2, 3, 5)), [1], True), label="to 1 align"),
    ]


@sample("upsample2d_align")
def upsample2d_align(rng):
    return [
        Case((_f(rng, (1, 2, 3, 3)), [5, 4], False), label="size"),
        Case((_f(rng, (1, 2, 3, 3)), [5, 4], True), label="size align"),
        Case((_f(rng, (1, 1, 4, 4)), [3, 3], False, 0.75, 0.75), label="scale 0.75"),
        Case((_f(rng, (2, 3, 5, 7), "float64"), [7, 9], False, 1.5, 1.3), label="f64 scales"),
        Case((_f(rng, (1, 2, 8, 6)), [5, 11], True), label="align mixed"),
        Case((_f(rng, (1, 2, 6, 6), "float16"), [4, 9], False), label="float16"),
        Case((_f(rng, (1, 1, 5, 5)), [1, 1], True), label="to 1x1 align"),
    ]


def _grid(rng, n, h, w, dtype="float32"):
    return rng.uniform(-1.3, 1.3, (n, h, w, 2)).astype(dtype)


@sample("grid_sampler")
def grid_sampler(rng):
    cases = [
        Case((_f(rng, (1, 2, 3, 3)), _grid(rng, 1, 2, 2), 0, 0, False), label="bilinear zeros"),
        Case((_f(rng, (1, 1, 3, 4)), _grid(rng, 1, 2, 3), 0, 2, True), label="bilinear reflection align"),
        Case((_f(rng, (1, 1, 3, 3)), _grid(rng, 1, 2, 2), 2, 1, False), label="bicubic border"),
    ]
    for interp in (0, 1, 2):
        for pad in (0, 1, 2):
            for align in (False, True):
                cases.append(Case((_f(rng, (2, 3, 5, 4), "float64"), _grid(rng, 2, 3, 4, "float64"), interp, pad,
                                   align), label=f"i{interp} p{pad} a{align}"))
    cases.append(Case((_f(rng, (1, 2, 4, 4), "float16"), _grid(rng, 1, 3, 3, "float16"), 0, 0, False),
                      label="float16"))
    return cases


@sample("affine_grid")
def affine_grid(rng):
    return [
        Case((_f(rng, (2, 2, 3)), [2, 3, 4, 5], False), label="2-d"),
        Case((_f(rng, (1, 2, 3)), [1, 1, 3, 3], True), label="2-d align"),
        Case((_f(rng, (1, 3, 4)), [1, 1, 2, 3, 4], False), label="3-d"),
        Case((_f(rng, (2, 2, 3), "float64"), [2, 1, 1, 6], True), label="f64 one row"),
    ]


@sample("pixel_shuffle")
def pixel_shuffle(rng):
    return [
        Case((_f(rng, (1, 8, 2, 2)), 2), label="r2"),
        Case((_f(rng, (2, 9, 1, 2)), 3), label="r3"),
        Case((_f(rng, (2, 1, 4, 2, 2)), 2), label="5-d"),
        Case((_f(rng, (3, 4, 2, 3), "int64"), 2), label="int64"),
        Case((_f(rng, (4, 3, 2)), 1), label="3-d r1"),
    ]


@sample("pixel_unshuffle")
def pixel_unshuffle(rng):
    return [
        Case((_f(rng, (1, 2, 4, 4)), 2), label="r2"),
        Case((_f(rng, (2, 1, 3, 6)), 3), label="r3"),
        Case((_f(rng, (2, 1, 1, 4, 4)), 2), label="5-d"),
        Case((_f(rng, (3, 2, 4, 6), "uint8"), 2), label="uint8"),
    ]


def _idx(rng, shape, n):
    return rng.integers(0, n, shape).astype(np.int64)


@sample("embedding")
def embedding(rng):
    # padding_idx and scale_grad_by_freq deliberately differ from the finite-difference
    # gradient (PyTorch's semantics): they come after the three gradchecked cases.
    return [
        Case((_f(rng, (5, 3)), _idx(rng, (4,), 5)), label="1-d"),
        Case((_f(rng, (7, 4), "float64"), _idx(rng, (2, 3, 2), 7)), label="f64 3-d indices"),
        Case((_f(rng, (3, 4)), np.zeros((0,), np.int64)), label="empty"),
        Case((_f(rng, (6, 2)), np.array([[0, 2, 2], [5, 2, 1]], dtype=np.int64), 2), label="padding_idx"),
        Case((_f(rng, (4, 3)), np.array([[1, 1], [3, 1]], dtype=np.int64), -1, True), label="scale_grad_by_freq"),
        Case((_f(rng, (7, 4), "int64"), _idx(rng, (5,), 7).astype(np.int32)), label="int64 weight int32 idx"),
    ]


def _bag(weight, idx, offsets, *rest):
    return (weight, np.array(idx, dtype=np.int64), np.array(offsets, dtype=np.int64)) + rest


@sample("embedding_bag")
def embedding_bag(rng):
    w = lambda: _f(rng, (6, 3))  # noqa: E731
    idx = [0, 2, 4, 5, 4, 3, 2, 1]
    return [
        Case(_bag(w(), idx, [0, 2, 5], False, 0), label="sum"),
        Case(_bag(w(), idx, [0, 2, 5], False, 1), label="mean"),
        Case(_bag(w(), idx, [0, 2, 5], False, 0, False, _f(rng, (8,))), label="per_sample_weights"),
        Case(_bag(w(), idx, [0, 3, 3, 8], False, 2, False, None, True), label="max, empty bag, last offset"),
        Case(_bag(w(), idx, [0, 4, 6], True, 1, False, None, False, 2), label="mean freq padding_idx"),
        Case(_bag(_f(rng, (6, 3), "float64"), idx, [0, 1, 1, 7], False, 0, False, None, False, 4), label="f64 sum pad"),
        Case(_bag(w(), idx, [0, 2, 5], False, 2), label="max"),
    ]


@sample("one_hot")
def one_hot(rng):
    return [
        Case((np.array([0, 3, 1, 2], dtype=np.int64),), label="infer"),
        Case((np.array([[0, 3], [1, 2]], dtype=np.int64), 6), label="num_classes"),
        Case((np.zeros((0,), dtype=np.int64), 3), label="empty"),
        Case((np.array(2, dtype=np.int64), 4), label="0-d"),
    ]


@sample("embedding_renorm")
def embedding_renorm(rng):
    # (weight, indices, max_norm, norm_type): repeated indices renormalise a row once.
    return [
        Case((_f(rng, (6, 3)) * 3, np.array([0, 2, 2, 5], dtype=np.int64), 1.0, 2.0), label="2-norm"),
        Case((_f(rng, (5, 4), "float64") * 3, np.array([[1, 3], [3, 4]], dtype=np.int64), 1.5, 1.0), label="1-norm"),
        Case((_f(rng, (4, 2)) * 0.1, np.array([1, 2], dtype=np.int64), 5.0, 2.0), label="all below max_norm"),
        Case((_f(rng, (4, 2)), np.zeros((0,), dtype=np.int64), 1.0, 2.0), label="no indices"),
    ]
