"""Activations, normalization, dropout and distances against PyTorch: forward and backward
of every F function and module on the same inputs, running statistics after several
training steps, state_dict keys, and dropout masks drawn from the same seed."""
import numpy as np
import pytest

import core
import core.nn as nn
import core.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional


def _pair(v, requires_grad=True):
    a = core.tensor(v).requires_grad_(requires_grad)
    b = torch.tensor(v).requires_grad_(requires_grad)
    return a, b


def _check(ours_fn, theirs_fn, arrays, rtol=1e-10, atol=1e-10, grad=True):
    ours_in, theirs_in = zip(*[_pair(a, grad and a.dtype.kind == "f") for a in arrays])
    o, t = ours_fn(*ours_in), theirs_fn(*theirs_in)
    np.testing.assert_allclose(o.detach().numpy(), t.detach().numpy(), rtol=rtol, atol=atol)
    if not grad:
        return
    g = np.random.default_rng(9).normal(size=tuple(t.shape))
    o.backward(core.tensor(g).to(o.dtype))
    t.backward(torch.tensor(g).to(t.dtype))
    for a, b in zip(ours_in, theirs_in):
        if b.grad is not None:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=rtol, atol=atol)


def _x(shape=(2, 3, 4, 5), seed=0, scale=3.0):
    v = np.random.default_rng(seed).normal(size=shape) * scale
    v.flat[:6] = [0.0, -3.0, 3.0, 0.5, -0.5, 6.0]  # every convention at a kink
    return v


ACTIVATIONS = [
    ("relu", lambda m, x: m.relu(x)), ("relu6", lambda m, x: m.relu6(x)),
    ("elu", lambda m, x: m.elu(x, 0.8)), ("selu", lambda m, x: m.selu(x)), ("celu", lambda m, x: m.celu(x, 1.3)),
    ("leaky_relu", lambda m, x: m.leaky_relu(x, 0.05)), ("gelu", lambda m, x: m.gelu(x)),
    ("gelu_tanh", lambda m, x: m.gelu(x, approximate="tanh")), ("silu", lambda m, x: m.silu(x)),
    ("mish", lambda m, x: m.mish(x)), ("hardswish", lambda m, x: m.hardswish(x)),
    ("hardsigmoid", lambda m, x: m.hardsigmoid(x)), ("hardtanh", lambda m, x: m.hardtanh(x, -0.5, 3.0)),
    ("softplus", lambda m, x: m.softplus(x, 2, 3)), ("softsign", lambda m, x: m.softsign(x)),
    ("tanhshrink", lambda m, x: m.tanhshrink(x)), ("hardshrink", lambda m, x: m.hardshrink(x, 0.5)),
    ("softshrink", lambda m, x: m.softshrink(x, 0.5)), ("logsigmoid", lambda m, x: m.logsigmoid(x)),
    ("threshold", lambda m, x: m.threshold(x, 0.5, -2.0)), ("glu", lambda m, x: m.glu(x, 2)),
    ("sigmoid", lambda m, x: m.sigmoid(x)), ("tanh", lambda m, x: m.tanh(x)),
    ("softmax", lambda m, x: m.softmax(x, 1)), ("log_softmax", lambda m, x: m.log_softmax(x, 2)),
    ("softmin", lambda m, x: m.softmin(x, 3)),
    ("relu inplace", lambda m, x: m.relu(x * 1, inplace=True)),
    ("hardswish inplace", lambda m, x: m.hardswish(x * 1, inplace=True)),
    ("hardsigmoid inplace", lambda m, x: m.hardsigmoid(x * 1, inplace=True)),
    ("elu inplace", lambda m, x: m.elu(x * 1, inplace=True)),
    ("leaky_relu inplace", lambda m, x: m.leaky_relu(x * 1, 0.1, inplace=True)),
]


@pytest.mark.parametrize("name,fn", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_activation_forward_backward(name, fn, dtype):
    tol = 1e-10 if dtype == "float64" else 3e-6
    if name.split()[0] in ("celu", "hardsigmoid"):
        tol = max(tol, 2e-7)  # PyTorch's float64 backward kernels use float32 constants here
    _check(lambda x: fn(F, x), lambda x: fn(TF, x), [_x().astype(dtype)], rtol=tol, atol=tol)


def test_prelu():
    w = np.array([0.1, -0.3, 0.25])
    _check(F.prelu, TF.prelu, [_x(), w])
    _check(F.prelu, TF.prelu, [_x(), np.array([0.2])])


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_batch_norm(training, layout):
    v = _x((4, 3, 5, 2), scale=2.0) + 1.5
    w, b = np.array([1.5, -0.5, 2.0]), np.array([0.1, 0.2, -0.3])
    rm, rv = np.array([0.3, -0.2, 0.1]), np.array([1.2, 0.8, 2.0])
    stats = {}

    def ours(x, ww, bb):
        if layout == "nhwc":
            x = x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
        stats["ours"] = (core.tensor(rm), core.tensor(rv))
        return F.batch_norm(x, *stats["ours"], ww, bb, training, 0.2, 1e-4)

    def theirs(x, ww, bb):
        if layout == "nhwc":
            x = x.contiguous(memory_format=torch.channels_last)
        stats["theirs"] = (torch.tensor(rm), torch.tensor(rv))
        return TF.batch_norm(x, *stats["theirs"], ww, bb, training, 0.2, 1e-4)

    _check(ours, theirs, [v, w, b])
    for o, t in zip(stats["ours"], stats["theirs"]):
        np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-12)


def test_layer_group_instance_norm_and_lrn():
    v = _x((2, 4, 3, 5))
    _check(lambda x, w, b: F.layer_norm(x, (3, 5), w, b), lambda x, w, b: TF.layer_norm(x, (3, 5), w, b),
           [v, np.random.default_rng(1).normal(size=(3, 5)), np.random.default_rng(2).normal(size=(3, 5))])
    _check(lambda x, w, b: F.group_norm(x, 2, w, b), lambda x, w, b: TF.group_norm(x, 2, w, b),
           [v, np.array([1.0, 2.0, -1.0, 0.5]), np.array([0.0, 0.1, 0.2, 0.3])])
    _check(lambda x, w: F.instance_norm(x, weight=w), lambda x, w: TF.instance_norm(x, weight=w),
           [v, np.array([1.0, 2.0, -1.0, 0.5])])
    _check(lambda x: F.local_response_norm(x, 3, 1e-2, 0.7, 1.5), lambda x: TF.local_response_norm(x, 3, 1e-2, 0.7, 1.5),
           [v])
    _check(lambda x: F.local_response_norm(x, 2), lambda x: TF.local_response_norm(x, 2), [_x((2, 5, 4))])


def test_distances():
    a, b = _x((5, 6), 1), _x((5, 6), 2)
    for p in (1.0, 2.0, 3.5):
        _check(lambda x, y: F.pairwise_distance(x, y, p), lambda x, y: TF.pairwise_distance(x, y, p), [a, b])
    _check(F.cosine_similarity, TF.cosine_similarity, [a, b], rtol=1e-9)
    _check(lambda x: F.normalize(x, 2, 0), lambda x: TF.normalize(x, 2, 0), [a])
    _check(lambda x: F.normalize(x, 1.5, 1), lambda x: TF.normalize(x, 1.5, 1), [a])


@pytest.mark.parametrize("name,ours,theirs,shape", [
    ("dropout", lambda x: F.dropout(x, 0.3), lambda x: TF.dropout(x, 0.3), (7, 33)),
    ("dropout2d", lambda x: F.dropout2d(x, 0.4), lambda x: TF.dropout2d(x, 0.4), (4, 6, 3, 3)),
    ("dropout3d", lambda x: F.dropout3d(x, 0.4), lambda x: TF.dropout3d(x, 0.4), (2, 5, 2, 2, 2)),
    ("alpha_dropout", lambda x: F.alpha_dropout(x, 0.2, True), lambda x: TF.alpha_dropout(x, 0.2, True), (40,)),
    ("feature_alpha_dropout", lambda x: F.feature_alpha_dropout(x, 0.2, True),
     lambda x: TF.feature_alpha_dropout(x, 0.2, True), (3, 8, 4)),
])
def test_dropout_masks_match_torch_with_the_same_seed(name, ours, theirs, shape):
    v = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    core.manual_seed(1234)
    torch.manual_seed(1234)
    np.testing.assert_allclose(ours(core.tensor(v)).numpy(), theirs(torch.tensor(v)).numpy(), rtol=1e-6, atol=1e-6)


MODULES = [
    ("ReLU", (), {}), ("ReLU6", (), {"inplace": False}), ("Hardtanh", (-0.5, 2.0), {}), ("Threshold", (0.1, -1.0), {}),
    ("ELU", (0.7,), {}), ("CELU", (1.2,), {}), ("SELU", (), {}), ("GLU", (1,), {}), ("GELU", (), {}),
    ("Hardshrink", (0.3,), {}), ("Softshrink", (0.3,), {}), ("LeakyReLU", (0.2,), {}), ("LogSigmoid", (), {}),
    ("Softplus", (2, 4), {}), ("PReLU", (4,), {}), ("Softsign", (), {}), ("Tanhshrink", (), {}), ("Sigmoid", (), {}),
    ("Tanh", (), {}), ("SiLU", (), {}), ("Mish", (), {}), ("Hardswish", (), {}), ("Hardsigmoid", (), {}),
    ("Softmin", (1,), {}), ("Softmax", (2,), {}), ("LogSoftmax", (3,), {}), ("Softmax2d", (), {}),
    ("BatchNorm2d", (4,), {}), ("SyncBatchNorm", (4,), {}), ("LayerNorm", ((3, 5),), {}), ("GroupNorm", (2, 4), {}),
    ("InstanceNorm2d", (4,), {"affine": True, "track_running_stats": True}), ("LocalResponseNorm", (3,), {}),
]


@pytest.mark.parametrize("name,args,kwargs", MODULES, ids=[m[0] for m in MODULES])
def test_module_forward_backward_and_state(name, args, kwargs):
    ours_m, theirs_m = getattr(nn, name)(*args, **kwargs).double(), getattr(torch.nn, name)(*args, **kwargs).double()
    assert list(ours_m.state_dict().keys()) == list(theirs_m.state_dict().keys())
    for (k, a), (_, b) in zip(ours_m.state_dict().items(), theirs_m.state_dict().items()):
        np.testing.assert_allclose(a.numpy(), b.numpy())  # default initialisation
    tol = 2e-7 if name in ("CELU", "Hardsigmoid") else 1e-10  # see test_activation_forward_backward
    for step in range(3):
        _check(ours_m, theirs_m, [_x((2, 4, 3, 5), seed=step)], rtol=tol, atol=tol)
    for (k, a), (_, b) in zip(ours_m.named_parameters(), theirs_m.named_parameters()):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=max(tol, 1e-9), atol=1e-10, err_msg=k)
    for (k, a), (_, b) in zip(ours_m.state_dict().items(), theirs_m.state_dict().items()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12, err_msg=k)
    ours_m.eval(), theirs_m.eval()
    _check(ours_m, theirs_m, [_x((2, 4, 3, 5), seed=7)], rtol=tol, atol=tol)


@pytest.mark.parametrize("momentum", [0.1, None])
def test_batchnorm_running_stats_over_steps(momentum):
    ours_m, theirs_m = nn.BatchNorm1d(3, momentum=momentum), torch.nn.BatchNorm1d(3, momentum=momentum)
    for step in range(5):
        v = np.random.default_rng(step).normal(step, 1 + step, size=(6, 3, 4)).astype(np.float32)
        ours_m(core.tensor(v)), theirs_m(torch.tensor(v))
    for (k, a), (_, b) in zip(ours_m.state_dict().items(), theirs_m.state_dict().items()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, err_msg=k)


def test_dropout_modules_match_torch_with_the_same_seed():
    v = np.random.default_rng(0).normal(size=(4, 6, 5)).astype(np.float32)
    for name in ("Dropout", "Dropout2d", "AlphaDropout", "FeatureAlphaDropout"):
        core.manual_seed(11)
        torch.manual_seed(11)
        ours, theirs = getattr(nn, name)(0.3)(core.tensor(v)), getattr(torch.nn, name)(0.3)(torch.tensor(v))
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-6, err_msg=name)


def test_distance_modules():
    a, b = _x((4, 6), 1), _x((4, 6), 2)
    _check(nn.PairwiseDistance(1.5, keepdim=True), torch.nn.PairwiseDistance(1.5, keepdim=True), [a, b])
    _check(nn.CosineSimilarity(0), torch.nn.CosineSimilarity(0), [a, b], rtol=1e-9)
