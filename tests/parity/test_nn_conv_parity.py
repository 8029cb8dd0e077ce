"""Convolutions against PyTorch: forward and backward (input, weight, bias gradients) of
F.conv1d/conv2d/conv_transpose1d/conv_transpose2d over every option in both memory formats,
F.unfold/F.fold, the modules (padding modes, output_size, repr) and default-init statistics."""
import numpy as np
import pytest

import core
import core.nn as nn
import core.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional


def _pair_tensors(a, channels_last=False, requires_grad=True):
    ours = core.tensor(a)
    theirs = torch.tensor(a)
    if channels_last and a.ndim == 4:
        ours = core.tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)
        theirs = theirs.contiguous(memory_format=torch.channels_last)
    return ours.requires_grad_(requires_grad), theirs.requires_grad_(requires_grad)


def _compare(fn_ours, fn_torch, arrays, channels_last=False, tol=1e-4):
    """Forward and the gradients of every input for a random output gradient."""
    pairs = [_pair_tensors(a, channels_last) if a is not None else (None, None) for a in arrays]
    ours = fn_ours(*[p[0] for p in pairs])
    theirs = fn_torch(*[p[1] for p in pairs])
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=tol, atol=tol)
    if channels_last and theirs.dim() == 4 and theirs.shape[2] * theirs.shape[3] > 1:
        assert theirs.is_contiguous(memory_format=torch.channels_last)
        n, c, h, w = ours.shape
        assert ours.stride() == (h * w * c, 1, w * c, c), "channels-last in, channels-last out"
    g = np.random.default_rng(1).standard_normal(tuple(theirs.shape)).astype(arrays[0].dtype)
    leaves = [(o, t) for o, t in pairs if o is not None]
    ours_grads = core.autograd.grad(ours, [o for o, _ in leaves], core.tensor(g))
    torch_grads = torch.autograd.grad(theirs, [t for _, t in leaves], torch.tensor(g))
    for a, b in zip(ours_grads, torch_grads):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=tol, atol=tol * 10)


def _arrays(seed, *shapes, dtype=np.float32):
    rng = np.random.default_rng(seed)
    return [None if s is None else rng.uniform(-1, 1, s).astype(dtype) for s in shapes]


CONV2D = [
    ((2, 3, 9, 8), (5, 3, 3, 3), (5,), dict(stride=1, padding=1)),
    ((2, 4, 11, 9), (6, 4, 3, 2), (6,), dict(stride=(2, 1), padding=(1, 2), dilation=(2, 1))),
    ((2, 6, 7, 7), (4, 3, 3, 3), None, dict(padding=1, groups=2)),
    ((3, 19, 6, 5), (7, 19, 1, 1), (7,), {}),
    ((2, 8, 7, 7), (5, 8, 1, 1), None, dict(stride=2)),
    ((2, 19, 13, 17), (19, 1, 3, 3), (19,), dict(padding=1, groups=19)),
    ((2, 35, 14, 14), (35, 1, 3, 3), None, dict(stride=2, padding=1, groups=35)),
    ((1, 21, 15, 16), (21, 1, 5, 5), (21,), dict(stride=2, padding=2, groups=21)),
    ((2, 5, 9, 9), (10, 1, 3, 3), (10,), dict(padding=1, groups=5)),
    ((2, 17, 12, 11), (17, 1, 3, 3), None, dict(padding=2, dilation=2, groups=17)),
    ((4, 9, 9), (6, 4, 3, 3), (6,), dict(padding="same")),       # unbatched, 'same' with an even kernel
    ((2, 4, 9, 9), (6, 4, 4, 2), (6,), dict(padding="same", dilation=(1, 2))),
    ((2, 4, 9, 9), (6, 4, 3, 3), (6,), dict(padding="valid")),
]


@pytest.mark.parametrize("xs,ws,bs,kw", CONV2D, ids=[str(i) for i in range(len(CONV2D))])
@pytest.mark.parametrize("channels_last", [False, True], ids=["nchw", "nhwc"])
def test_conv2d(xs, ws, bs, kw, channels_last):
    arrays = _arrays(0, xs, ws, bs)
    if bs is None:
        arrays = arrays[:2]
    _compare(lambda *t: F.conv2d(*t, **kw) if len(t) == 3 else F.conv2d(t[0], t[1], None, **kw),
             lambda *t: TF.conv2d(*t, **kw) if len(t) == 3 else TF.conv2d(t[0], t[1], None, **kw),
             arrays, channels_last and len(xs) == 4)


CONV_T2D = [
    ((2, 4, 5, 4), (4, 3, 3, 3), (6,), dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=2,
                                            dilation=(1, 2))),
    ((2, 6, 7, 7), (6, 1, 3, 3), None, dict(stride=2, padding=1, output_padding=1, groups=6)),  # depthwise
    ((1, 5, 6, 6), (5, 2, 5, 5), (10,), dict(stride=2, padding=2, groups=5)),
    ((2, 8, 5, 5), (8, 4, 1, 1), (4,), {}),                                                        # 1x1
    ((3, 4, 4), (3, 2, 2, 2), None, dict(stride=2)),                                                # unbatched
    ((1, 3, 4, 4), (3, 2, 3, 3), None, dict(stride=1, dilation=3, output_padding=2)),  # output_padding < dilation
]


@pytest.mark.parametrize("xs,ws,bs,kw", CONV_T2D, ids=[str(i) for i in range(len(CONV_T2D))])
@pytest.mark.parametrize("channels_last", [False, True], ids=["nchw", "nhwc"])
def test_conv_transpose2d(xs, ws, bs, kw, channels_last):
    arrays = _arrays(1, xs, ws, bs)
    if bs is None:
        arrays = arrays[:2]
    _compare(lambda x, w, b=None: F.conv_transpose2d(x, w, b, **kw),
             lambda x, w, b=None: TF.conv_transpose2d(x, w, b, **kw), arrays, channels_last and len(xs) == 4)


@pytest.mark.parametrize("xs,ws,kw", [
    ((2, 4, 11), (6, 2, 3), dict(stride=2, padding=2, dilation=2, groups=2)),
    ((3, 5, 8), (5, 1, 5), dict(padding=2, groups=5)),
    ((4, 10), (3, 4, 4), dict(padding="same")),
    ((2, 3, 9), (4, 3, 1), {}),
])
def test_conv1d(xs, ws, kw):
    x, w, b = _arrays(2, xs, ws, (ws[0],))
    _compare(lambda x, w, b: F.conv1d(x, w, b, **kw), lambda x, w, b: TF.conv1d(x, w, b, **kw), [x, w, b])


@pytest.mark.parametrize("xs,ws,kw", [
    ((2, 4, 7), (4, 3, 3), dict(stride=3, padding=2, output_padding=2, groups=2, dilation=2)),
    ((3, 5, 8), (5, 1, 5), dict(stride=2, padding=2, output_padding=1, groups=5)),
    ((4, 10), (4, 2, 2), {}),
])
def test_conv_transpose1d(xs, ws, kw):
    x, w = _arrays(3, xs, ws)
    _compare(lambda x, w: F.conv_transpose1d(x, w, **kw), lambda x, w: TF.conv_transpose1d(x, w, **kw), [x, w])


def test_double_backward_matches_torch():
    x, w = _arrays(4, (2, 3, 6, 6), (3, 1, 3, 3), dtype=np.float64)
    results = []
    for lib, conv in ((core, F.conv2d), (torch, TF.conv2d)):
        xt, wt = lib.tensor(x).requires_grad_(), lib.tensor(w).requires_grad_()
        y = conv(xt, wt, None, 2, 1, 1, 3)
        gx, gw = lib.autograd.grad((y * y).sum(), (xt, wt), create_graph=True)
        results.append([g.detach().numpy() for g in lib.autograd.grad((gx * gx).sum() + (gw * gw).sum(), (xt, wt))])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9)


def test_unfold_fold():
    x, = _arrays(5, (2, 3, 7, 6))
    _compare(lambda x: F.unfold(x, (3, 2), dilation=(1, 2), padding=1, stride=(2, 1)),
             lambda x: TF.unfold(x, (3, 2), dilation=(1, 2), padding=1, stride=(2, 1)), [x])
    c, = _arrays(6, (2, 12, 18))
    _compare(lambda c: F.fold(c, (5, 6), 2, padding=(1, 0), stride=(1, 2)),
             lambda c: TF.fold(c, (5, 6), 2, padding=(1, 0), stride=(1, 2)), [c])


# ---------------------------------------------------------------- modules

def _copy_params(ours, theirs):
    with core.no_grad():
        for name, p in theirs.named_parameters():
            getattr(ours, name).copy_(core.tensor(p.detach().numpy().copy()))


@pytest.mark.parametrize("make,xs", [
    (lambda L: L.nn.Conv2d(4, 6, 3, padding=2, padding_mode="reflect"), (2, 4, 7, 7)),
    (lambda L: L.nn.Conv2d(4, 6, (3, 2), padding=(1, 2), padding_mode="replicate", bias=False), (2, 4, 7, 7)),
    (lambda L: L.nn.Conv2d(4, 8, 3, padding=1, padding_mode="circular", groups=4), (2, 4, 6, 5)),
    (lambda L: L.nn.Conv2d(4, 6, 4, padding="same", padding_mode="reflect"), (2, 4, 8, 8)),
    (lambda L: L.nn.Conv2d(3, 6, 3, stride=2, dilation=2), (2, 3, 11, 11)),
    (lambda L: L.nn.Conv1d(4, 6, 3, padding=1, padding_mode="circular"), (2, 4, 9)),
    (lambda L: L.nn.Conv1d(4, 4, 5, padding="same", groups=4), (2, 4, 9)),
    (lambda L: L.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2), (2, 4, 5, 5)),
    (lambda L: L.nn.ConvTranspose1d(4, 6, 3, stride=2, dilation=2), (2, 4, 5)),
])
def test_modules_forward_backward(make, xs):
    torch.manual_seed(0)
    theirs = make(torch)
    ours = make(core)
    _copy_params(ours, theirs)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict().keys()) == list(theirs.state_dict().keys())
    x, = _arrays(7, xs)
    xo, xt = core.tensor(x).requires_grad_(), torch.tensor(x).requires_grad_()
    yo, yt = ours(xo), theirs(xt)
    np.testing.assert_allclose(yo.detach().numpy(), yt.detach().numpy(), rtol=1e-4, atol=1e-5)
    yo.sum().backward()
    yt.sum().backward()
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(ours.weight.grad.numpy(), theirs.weight.grad.numpy(), rtol=1e-4, atol=1e-4)


def test_conv_transpose_output_size():
    ours, theirs = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1), torch.nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1)
    _copy_params(ours, theirs)
    x, = _arrays(8, (1, 3, 4, 4))
    for size in ([7, 7], [8, 8], (1, 2, 8, 7)):
        a = ours(core.tensor(x), output_size=size)
        b = theirs(torch.tensor(x), output_size=size)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="requested an output size of"):
        ours(core.tensor(x), output_size=[10, 10])


def test_module_errors_like_torch():
    for kwargs, fragment in ((dict(groups=2), "in_channels must be divisible by groups"),
                             (dict(padding="full"), "Invalid padding string"),
                             (dict(padding_mode="mirror"), "padding_mode must be one of"),
                             (dict(padding="same", stride=2), "not supported for strided convolutions")):
        with pytest.raises(ValueError, match=fragment):
            nn.Conv2d(3, 4, 3, **kwargs)
        with pytest.raises(ValueError, match=fragment):
            torch.nn.Conv2d(3, 4, 3, **kwargs)
    with pytest.raises(ValueError, match='Only "zeros" padding mode'):
        nn.ConvTranspose2d(3, 4, 3, padding_mode="reflect")


@pytest.mark.parametrize("cls,args", [
    ("Conv2d", (16, 32, 3)), ("Conv2d", (64, 64, 3, 1, 1, 1, 64)), ("Conv1d", (8, 16, 5)),
    ("ConvTranspose2d", (32, 16, 3)),
])
def test_default_init_statistics(cls, args):
    core.manual_seed(0)
    torch.manual_seed(0)
    ours, theirs = getattr(nn, cls)(*args), getattr(torch.nn, cls)(*args)
    for name in ("weight", "bias"):
        a, b = getattr(ours, name).detach().numpy(), getattr(theirs, name).detach().numpy()
        assert a.shape == b.shape and a.dtype == b.dtype
        bound = np.abs(b).max()
        # U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for both: same bound, mean ~0, std = bound / sqrt(3).
        fan_in = np.prod(b.shape[1:]) if name == "weight" else np.prod(theirs.weight.shape[1:])
        assert np.abs(a).max() <= 1 / np.sqrt(fan_in) + 1e-7
        assert np.abs(a).max() > 0.9 * bound
        assert abs(a.mean()) < 4 / np.sqrt(3 * fan_in) / np.sqrt(a.size) + 1e-3
        np.testing.assert_allclose(a.std(), 1 / np.sqrt(3 * fan_in), rtol=0.25 if a.size < 100 else 0.08)


def test_unfold_fold_modules():
    x, = _arrays(9, (2, 3, 6, 6))
    u, ut = nn.Unfold(2, stride=2), torch.nn.Unfold(2, stride=2)
    f, ft = nn.Fold((6, 6), 2, stride=2), torch.nn.Fold((6, 6), 2, stride=2)
    assert repr(u) == repr(ut) and repr(f) == repr(ft)
    np.testing.assert_allclose(f(u(core.tensor(x))).numpy(), ft(ut(torch.tensor(x))).numpy(), atol=1e-6)
