"""Losses, recurrent layers and attention against torch: forward and input/parameter gradients."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import core  # noqa: E402
import core.nn as nn  # noqa: E402
import core.nn.functional as F  # noqa: E402
from core.nn.utils import rnn as rnn_utils  # noqa: E402

TF = torch.nn.functional


def _both(array, grad):
    ours = core.tensor(array, requires_grad=grad and array.dtype.kind == "f")
    theirs = torch.tensor(array, requires_grad=grad and array.dtype.kind == "f")
    return ours, theirs


def _compare(ours_fn, torch_fn, arrays, grad_args=None, atol=1e-5, rtol=1e-4, kwargs=None):
    """Runs both on the same arrays (float ones require grad unless grad_args says which) and
    compares outputs and the gradients of sum(output * weights)."""
    kwargs = kwargs or {}
    grad_args = range(len(arrays)) if grad_args is None else grad_args
    pairs = [_both(a, i in grad_args) if isinstance(a, np.ndarray) else (a, a) for i, a in enumerate(arrays)]
    ours = ours_fn(*[p[0] for p in pairs], **kwargs)
    theirs = torch_fn(*[p[1] for p in pairs], **kwargs)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), atol=atol, rtol=rtol)
    if not theirs.requires_grad:
        return
    w = np.random.default_rng(1).standard_normal(tuple(theirs.shape)).astype(theirs.detach().numpy().dtype)
    (ours * core.tensor(w)).sum().backward()
    (theirs * torch.tensor(w)).sum().backward()
    for (o, t) in pairs:
        if isinstance(o, core.Tensor) and o.requires_grad:
            np.testing.assert_allclose(o.grad.numpy(), t.grad.numpy(), atol=atol, rtol=rtol)


R = np.random.default_rng(0)
REDUCTIONS = ["none", "mean", "sum"]


def _targets(shape, classes, ignore=None):
    t = R.integers(0, classes, shape)
    if ignore is not None:
        t.flat[::3] = ignore
    return t.astype(np.int64)


# ---------------------------------------------------------------- classification losses

@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", [(6, 5), (3, 4, 2, 3), (5,), (4, 3, 7)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore", [-100, 2])
def test_nll_and_cross_entropy(reduction, shape, weighted, ignore):
    x = R.standard_normal(shape).astype(np.float32)
    c = shape[0] if len(shape) == 1 else shape[1]
    tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
    t = _targets(tshape, c, ignore if ignore >= 0 and len(shape) > 1 else None)
    w = R.uniform(0.5, 2, c).astype(np.float32) if weighted else None
    for ours, theirs in ((F.nll_loss, TF.nll_loss), (F.cross_entropy, TF.cross_entropy)):
        _compare(lambda x, t, w: ours(x, t, weight=w, ignore_index=ignore, reduction=reduction),
                 lambda x, t, w: theirs(x, t, weight=w, ignore_index=ignore, reduction=reduction),
                 [x, t, w], grad_args=[0])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", [(6, 5), (3, 4, 2, 3)])
def test_cross_entropy_label_smoothing(reduction, weighted, shape):
    x = R.standard_normal(shape).astype(np.float64)
    t = _targets((shape[0],) + shape[2:], shape[1], ignore=1)
    w = R.uniform(0.5, 2, shape[1]) if weighted else None
    _compare(lambda x, t, w: F.cross_entropy(x, t, w, ignore_index=1, reduction=reduction, label_smoothing=0.2),
             lambda x, t, w: TF.cross_entropy(x, t, w, ignore_index=1, reduction=reduction, label_smoothing=0.2),
             [x, t, w], grad_args=[0])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("smoothing", [0.0, 0.3])
def test_cross_entropy_probability_targets(reduction, weighted, smoothing):
    x = R.standard_normal((4, 5, 3))
    p = R.uniform(0, 1, (4, 5, 3))
    p /= p.sum(1, keepdims=True)
    w = R.uniform(0.5, 2, 5) if weighted else None
    _compare(lambda x, p, w: F.cross_entropy(x, p, w, reduction=reduction, label_smoothing=smoothing),
             lambda x, p, w: TF.cross_entropy(x, p, w, reduction=reduction, label_smoothing=smoothing),
             [x, p, w], grad_args=[0, 1])


def test_nll_all_ignored_mean_is_nan():
    x = core.randn(3, 4)
    t = core.tensor([-100, -100, -100])
    assert bool(core.isnan(F.nll_loss(x, t))) and bool(torch.isnan(TF.nll_loss(torch.randn(3, 4), torch.tensor(
        [-100, -100, -100]))))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy(reduction, weighted):
    x = R.uniform(0.02, 0.98, (4, 3))
    x[0, 0], x[1, 1] = 0.0, 1.0  # the log clamps at -100
    t = R.uniform(0, 1, (4, 3))
    w = R.uniform(0.5, 2, (3,)) if weighted else None
    _compare(lambda x, t, w: F.binary_cross_entropy(x, t, w, reduction=reduction),
             lambda x, t, w: TF.binary_cross_entropy(x, t, w, reduction=reduction),
             [x, t, w], grad_args=[])
    x[0, 0], x[1, 1] = 0.3, 0.6
    _compare(lambda x, t, w: F.binary_cross_entropy(x, t, w, reduction=reduction),
             lambda x, t, w: TF.binary_cross_entropy(x, t, w, reduction=reduction), [x, t, w], grad_args=[0, 1])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("pos", [False, True])
def test_binary_cross_entropy_with_logits(reduction, weighted, pos):
    x = R.standard_normal((4, 3)) * 30
    x[0, 0] = 0.0  # exact gradient -sigmoid(-x) at 0 too
    t = R.uniform(0, 1, (4, 3))
    w = R.uniform(0.5, 2, (3,)) if weighted else None
    pw = R.uniform(0.5, 3, (3,)) if pos else None
    _compare(lambda x, t, w, pw: F.binary_cross_entropy_with_logits(x, t, w, reduction=reduction, pos_weight=pw),
             lambda x, t, w, pw: TF.binary_cross_entropy_with_logits(x, t, w, reduction=reduction, pos_weight=pw),
             [x, t, w, pw], grad_args=[0, 1])


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_soft_margin_and_multi_margin(reduction):
    x = R.standard_normal((4, 5))
    y = (R.uniform(0, 1, (4, 5)) > 0.5).astype(np.float64)
    w = R.uniform(0.5, 2, 5)
    _compare(lambda x, y, w: F.multilabel_soft_margin_loss(x, y, w, reduction=reduction),
             lambda x, y, w: TF.multilabel_soft_margin_loss(x, y, w, reduction=reduction), [x, y, w])
    t = _targets((4,), 5)
    for p in (1, 2):
        _compare(lambda x, t, w: F.multi_margin_loss(x, t, p=p, margin=0.7, weight=w, reduction=reduction),
                 lambda x, t, w: TF.multi_margin_loss(x, t, p=p, margin=0.7, weight=w, reduction=reduction),
                 [x, t, w], grad_args=[0])


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_margin_loss(reduction):
    x = R.standard_normal((3, 5))
    y = np.array([[3, 0, -1, 1, 2], [1, 1, 4, 2, 0], [-1, 2, 3, 0, 0]], dtype=np.int64)
    _compare(lambda x, y: F.multilabel_margin_loss(x, y, reduction=reduction),
             lambda x, y: TF.multilabel_margin_loss(x, y, reduction=reduction), [x, y])
    _compare(lambda x, y: nn.MultiLabelMarginLoss(reduction=reduction)(x, y),
             lambda x, y: torch.nn.MultiLabelMarginLoss(reduction=reduction)(x, y), [x[0], y[0]])


# ---------------------------------------------------------------- regression and embedding losses

@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_pointwise_regression_losses(reduction):
    x, y = R.standard_normal((3, 4)), R.standard_normal((3, 4))
    for name, kw in [("mse_loss", {}), ("l1_loss", {}), ("smooth_l1_loss", {"beta": 0.5}),
                     ("smooth_l1_loss", {"beta": 0.0}), ("huber_loss", {"delta": 0.7}),
                     ("soft_margin_loss", {})]:
        _compare(getattr(F, name), getattr(TF, name), [x, y], grad_args=[0] if name == "soft_margin_loss" else None,
                 kwargs=dict(kw, reduction=reduction))
    lam = R.uniform(0.5, 3, (3, 4))
    cnt = R.integers(0, 5, (3, 4)).astype(np.float64)
    for log_input in (True, False):
        for full in (False, True):
            _compare(F.poisson_nll_loss, TF.poisson_nll_loss, [lam, cnt],
                     kwargs=dict(log_input=log_input, full=full, reduction=reduction))
    var = R.uniform(0.1, 2, (3, 4))
    for v in (var, var[:, :1], var[:, 0]):
        _compare(F.gaussian_nll_loss, TF.gaussian_nll_loss, [x, y, v], kwargs=dict(full=True, reduction=reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS + ["batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div(reduction, log_target):
    x = np.log(R.uniform(0.1, 1, (3, 4)))
    t = R.uniform(0.0, 1, (3, 4))
    t[0, 0] = 0.0
    if log_target:
        t = np.log(t + 0.1)
    with _nowarn():
        _compare(F.kl_div, TF.kl_div, [x, t], kwargs=dict(reduction=reduction, log_target=log_target))


class _nowarn:
    def __enter__(self):
        import warnings
        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        self._w.__exit__(*exc)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_margin_and_embedding_losses(reduction):
    a, b = R.standard_normal((5, 4)), R.standard_normal((5, 4))
    s = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    _compare(F.margin_ranking_loss, TF.margin_ranking_loss, [a[:, 0], b[:, 0], s], grad_args=[0, 1],
             kwargs=dict(margin=0.3, reduction=reduction))
    _compare(F.hinge_embedding_loss, TF.hinge_embedding_loss, [a, np.sign(b)], grad_args=[0],
             kwargs=dict(margin=0.8, reduction=reduction))
    _compare(F.cosine_embedding_loss, TF.cosine_embedding_loss, [a, b, s], grad_args=[0, 1],
             kwargs=dict(margin=-0.2, reduction=reduction))



@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_triplet_margin_loss(reduction):
    a, b, n = R.standard_normal((5, 4)), R.standard_normal((5, 4)), R.standard_normal((5, 4))
    for p, swap in ((2, False), (1, True), (3, True)):
        _compare(F.triplet_margin_loss, TF.triplet_margin_loss, [a, b, n],
                 kwargs=dict(margin=0.9, p=p, swap=swap, reduction=reduction))


# ---------------------------------------------------------------- ctc

@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("concatenated", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_ctc_loss(reduction, concatenated, dtype):
    T, N, C, S = 12, 4, 6, 5
    logits = R.standard_normal((T, N, C)).astype(dtype)
    il = [12, 10, 7, 12]
    tl = [5, 3, 0, 4]
    targets = R.integers(1, C, (N, S)).astype(np.int64)
    targets[0, 1] = targets[0, 2]  # a repeated label needs a blank between
    if concatenated:
        targets = np.concatenate([targets[b, :tl[b]] for b in range(N)])
    atol = 1e-4 if dtype == np.float32 else 1e-8

    def ours(x, t):
        return F.ctc_loss(core.log_softmax(x, 2), t, il, core.tensor(tl), reduction=reduction)

    def theirs(x, t):
        return TF.ctc_loss(torch.log_softmax(x, 2), t, torch.tensor(il), torch.tensor(tl), reduction=reduction)
    _compare(ours, theirs, [logits, targets], atol=atol)
    # the gradient w.r.t. log_probs themselves follows torch's formula too
    _compare(lambda lp, t: F.ctc_loss(lp, t, il, tl, blank=0, reduction=reduction),
             lambda lp, t: TF.ctc_loss(lp, t, tuple(il), tuple(tl), blank=0, reduction=reduction),
             [np.log(np.exp(logits) / np.exp(logits).sum(2, keepdims=True)), targets], atol=atol)


def test_ctc_zero_infinity_and_blank():
    T, N, C = 3, 2, 5
    lp = np.log(R.dirichlet(np.ones(C), (T, N)))
    targets = np.array([[1, 1, 2, 3], [2, 4, 0, 0]], dtype=np.int64)  # sample 0 is impossible in 3 steps
    inf = F.ctc_loss(core.tensor(lp), core.tensor(targets), [3, 3], [4, 2], reduction="none")
    assert np.isinf(inf.numpy()[0]) and np.isfinite(inf.numpy()[1])
    _compare(lambda x, t: F.ctc_loss(x, t, [3, 3], [4, 2], blank=0, reduction="none", zero_infinity=True),
             lambda x, t: TF.ctc_loss(x, t, (3, 3), (4, 2), blank=0, reduction="none", zero_infinity=True),
             [lp, targets])
    targets = np.array([[1, 2], [0, 3]], dtype=np.int64)
    _compare(lambda x, t: F.ctc_loss(x, t, [3, 2], [2, 2], blank=4),
             lambda x, t: TF.ctc_loss(x, t, (3, 2), (2, 2), blank=4), [lp, targets])


# ---------------------------------------------------------------- recurrent layers

def _copy_params(ours, theirs):
    """torch module -> ours through a name -> numpy dict (state_dicts interchange)."""
    state = {k: v.detach().numpy() for k, v in theirs.state_dict().items()}
    assert list(state) == list(ours.state_dict().keys())
    with core.no_grad():
        for k, v in ours.state_dict().items():
            v.copy_(core.tensor(state[k]))


def _grads_match(ours, theirs, atol):
    for (k, p), (k2, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert k == k2
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), atol=atol, rtol=1e-4, err_msg=k)


@pytest.mark.parametrize("mode", ["RNN", "RNN_relu", "LSTM", "GRU", "LSTM_proj"])
@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
def test_rnn_layers(mode, bidirectional, batch_first):
    kwargs = dict(num_layers=2, bidirectional=bidirectional, batch_first=batch_first)
    cls = mode.split("_")[0]
    if mode == "RNN_relu":
        kwargs["nonlinearity"] = "relu"
    if mode == "LSTM_proj":
        kwargs["proj_size"] = 2
    torch.manual_seed(0)
    theirs = getattr(torch.nn, cls)(3, 4, **kwargs).double()
    ours = getattr(nn, cls)(3, 4, **kwargs).double()
    _copy_params(ours, theirs)
    x = R.standard_normal((2, 5, 3) if batch_first else (5, 2, 3))
    xo, xt = _both(x, True)
    d = 2 if bidirectional else 1
    h_size = 2 if mode == "LSTM_proj" else 4
    h0 = R.standard_normal((2 * d, 2, h_size))
    c0 = R.standard_normal((2 * d, 2, 4))
    ho, ht = _both(h0, True)
    co, ct = _both(c0, True)
    out_o, hn_o = ours(xo, (ho, co) if cls == "LSTM" else ho)
    out_t, hn_t = theirs(xt, (ht, ct) if cls == "LSTM" else ht)
    hn_o = hn_o if cls == "LSTM" else (hn_o,)
    hn_t = hn_t if cls == "LSTM" else (hn_t,)
    np.testing.assert_allclose(out_o.detach().numpy(), out_t.detach().numpy(), atol=1e-10)
    for a, b in zip(hn_o, hn_t):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=1e-10)
    loss_o = (out_o * out_o).sum() + sum((h * h).sum() for h in hn_o)
    loss_t = (out_t * out_t).sum() + sum((h * h).sum() for h in hn_t)
    loss_o.backward()
    loss_t.backward()
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), atol=1e-10)
    np.testing.assert_allclose(ho.grad.numpy(), ht.grad.numpy(), atol=1e-10)
    _grads_match(ours, theirs, 1e-10)


@pytest.mark.parametrize("mode", ["RNN", "LSTM", "GRU", "LSTM_proj"])
def test_rnn_double_backward(mode):
    """A gradient penalty (the gradient of a gradient) through a recurrent layer, as WGAN-GP takes it."""
    cls = mode.split("_")[0]
    kwargs = dict(num_layers=2, bidirectional=True, proj_size=2) if mode == "LSTM_proj" else dict(num_layers=2)
    torch.manual_seed(0)
    theirs = getattr(torch.nn, cls)(3, 4, **kwargs).double()
    ours = getattr(nn, cls)(3, 4, **kwargs).double()
    _copy_params(ours, theirs)
    xo, xt = _both(R.standard_normal((5, 2, 3)), True)
    (go,) = core.autograd.grad(ours(xo)[0].square().sum(), xo, create_graph=True)
    (gt,) = torch.autograd.grad(theirs(xt)[0].square().sum(), xt, create_graph=True)
    np.testing.assert_allclose(go.detach().numpy(), gt.detach().numpy(), atol=1e-10)
    go.square().sum().backward()
    gt.square().sum().backward()
    _grads_match(ours, theirs, 1e-9)


@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_rnn_packed_sequences(cls, bidirectional, enforce_sorted):
    torch.manual_seed(1)
    theirs = getattr(torch.nn, cls)(3, 4, num_layers=2, bidirectional=bidirectional).double()
    ours = getattr(nn, cls)(3, 4, num_layers=2, bidirectional=bidirectional).double()
    _copy_params(ours, theirs)
    lengths = [5, 5, 3, 1] if enforce_sorted else [3, 5, 1, 4]
    x = R.standard_normal((5, 4, 3))
    xo, xt = _both(x, True)
    po = rnn_utils.pack_padded_sequence(xo, lengths, enforce_sorted=enforce_sorted)
    pt = torch.nn.utils.rnn.pack_padded_sequence(xt, lengths, enforce_sorted=enforce_sorted)
    np.testing.assert_array_equal(po.batch_sizes.numpy(), pt.batch_sizes.numpy())
    np.testing.assert_allclose(po.data.detach().numpy(), pt.data.detach().numpy())
    out_o, h_o = ours(po)
    out_t, h_t = theirs(pt)
    h_o = h_o[0] if cls == "LSTM" else h_o
    h_t = h_t[0] if cls == "LSTM" else h_t
    pad_o, len_o = rnn_utils.pad_packed_sequence(out_o, batch_first=True, padding_value=-1.0, total_length=6)
    pad_t, len_t = torch.nn.utils.rnn.pad_packed_sequence(out_t, batch_first=True, padding_value=-1.0,
                                                          total_length=6)
    np.testing.assert_allclose(pad_o.detach().numpy(), pad_t.detach().numpy(), atol=1e-10)
    np.testing.assert_array_equal(len_o.numpy(), len_t.numpy())
    np.testing.assert_allclose(h_o.detach().numpy(), h_t.detach().numpy(), atol=1e-10)
    ((pad_o * pad_o).sum() + (h_o * h_o).sum()).backward()
    ((pad_t * pad_t).sum() + (h_t * h_t).sum()).backward()
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), atol=1e-10)
    _grads_match(ours, theirs, 1e-10)


def test_pad_and_pack_sequence():
    seqs = [R.standard_normal((n, 2)) for n in (4, 2, 3)]
    ours = [core.tensor(s) for s in seqs]
    theirs = [torch.tensor(s) for s in seqs]
    for bf in (False, True):
        np.testing.assert_allclose(rnn_utils.pad_sequence(ours, bf, 7.0).numpy(),
                                   torch.nn.utils.rnn.pad_sequence(theirs, bf, 7.0).numpy())
    po = rnn_utils.pack_sequence(ours, enforce_sorted=False)
    pt = torch.nn.utils.rnn.pack_sequence(theirs, enforce_sorted=False)
    np.testing.assert_allclose(po.data.numpy(), pt.data.numpy())
    np.testing.assert_array_equal(po.sorted_indices.numpy(), pt.sorted_indices.numpy())
    np.testing.assert_array_equal(po.unsorted_indices.numpy(), pt.unsorted_indices.numpy())


@pytest.mark.parametrize("cls", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("bias", [True, False])
def test_cells(cls, bias):
    torch.manual_seed(2)
    theirs = getattr(torch.nn, cls)(3, 4, bias=bias).double()
    ours = getattr(nn, cls)(3, 4, bias=bias).double()
    _copy_params(ours, theirs)
    x = R.standard_normal((2, 3))
    h = R.standard_normal((2, 4))
    xo, xt = _both(x, True)
    ho, ht = _both(h, True)
    args_o = (xo, (ho, ho * 0.5)) if cls == "LSTMCell" else (xo, ho)
    args_t = (xt, (ht, ht * 0.5)) if cls == "LSTMCell" else (xt, ht)
    out_o, out_t = ours(*args_o), theirs(*args_t)
    out_o = out_o if isinstance(out_o, tuple) else (out_o,)
    out_t = out_t if isinstance(out_t, tuple) else (out_t,)
    for a, b in zip(out_o, out_t):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=1e-12)
    sum((a * a).sum() for a in out_o).backward()
    sum((a * a).sum() for a in out_t).backward()
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), atol=1e-12)
    np.testing.assert_allclose(ho.grad.numpy(), ht.grad.numpy(), atol=1e-12)
    _grads_match(ours, theirs, 1e-12)


@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU", "LSTMCell"])
def test_rnn_default_init_statistics(cls):
    m = getattr(nn, cls)(10, 64)
    bound = 1 / 8
    for p in m.parameters():
        v = p.detach().numpy()
        assert v.min() >= -bound and v.max() <= bound
        assert abs(v.std() - bound / np.sqrt(3)) < 0.01
    t = getattr(torch.nn, cls)(10, 64)
    assert [k for k, _ in m.named_parameters()] == [k for k, _ in t.named_parameters()]


# ---------------------------------------------------------------- attention

@pytest.mark.parametrize("options", [
    {}, {"bias": False}, {"add_bias_kv": True}, {"add_zero_attn": True}, {"kdim": 3, "vdim": 5},
    {"batch_first": True}, {"add_bias_kv": True, "add_zero_attn": True}])
@pytest.mark.parametrize("masks", ["none", "bool", "float", "padding", "both"])
def test_multihead_attention(options, masks):
    torch.manual_seed(3)
    E, H, L, S, B = 6, 2, 4, 5, 3
    theirs = torch.nn.MultiheadAttention(E, H, **options).double()
    ours = nn.MultiheadAttention(E, H, **options).double()
    _copy_params(ours, theirs)
    kd, vd = options.get("kdim", E), options.get("vdim", E)
    bf = options.get("batch_first", False)
    shape = (lambda n, d: (B, n, d)) if bf else (lambda n, d: (n, B, d))
    q = R.standard_normal(shape(L, E))
    k = R.standard_normal(shape(S, kd))
    v = R.standard_normal(shape(S, vd))
    kw_o, kw_t = {}, {}
    if masks in ("bool", "both"):
        m = R.uniform(0, 1, (L, S)) < 0.3
        m[:, 0] = False
        kw_o["attn_mask"], kw_t["attn_mask"] = core.tensor(m), torch.tensor(m)
    if masks == "float":
        m = R.standard_normal((B * H, L, S))
        kw_o["attn_mask"], kw_t["attn_mask"] = core.tensor(m), torch.tensor(m)
    if masks in ("padding", "both"):
        m = np.zeros((B, S), dtype=bool)
        m[1, 3:] = True
        kw_o["key_padding_mask"], kw_t["key_padding_mask"] = core.tensor(m), torch.tensor(m)
    qo, qt = _both(q, True)
    ko, kt = _both(k, True)
    vo, vt = _both(v, True)
    out_o, w_o = ours(qo, ko, vo, **kw_o)
    out_t, w_t = theirs(qt, kt, vt, **kw_t)
    np.testing.assert_allclose(out_o.detach().numpy(), out_t.detach().numpy(), atol=1e-10)
    np.testing.assert_allclose(w_o.detach().numpy(), w_t.detach().numpy(), atol=1e-10)
    ((out_o * out_o).sum() + (w_o * w_o).sum()).backward()
    ((out_t * out_t).sum() + (w_t * w_t).sum()).backward()
    for a, b in ((qo, qt), (ko, kt), (vo, vt)):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=1e-10)
    _grads_match(ours, theirs, 1e-10)


def test_self_attention_shares_one_projection():
    torch.manual_seed(4)
    theirs = torch.nn.MultiheadAttention(4, 2).double()
    ours = nn.MultiheadAttention(4, 2).double()
    _copy_params(ours, theirs)
    x = R.standard_normal((3, 2, 4))
    xo, xt = _both(x, True)
    out_o = ours(xo, xo, xo, need_weights=False)
    out_t = theirs(xt, xt, xt, need_weights=False)
    assert out_o[1] is None
    np.testing.assert_allclose(out_o[0].detach().numpy(), out_t[0].detach().numpy(), atol=1e-12)


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_transformer_encoder(norm_first, activation, batch_first):
    torch.manual_seed(5)
    layer_t = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, activation=activation,
                                               batch_first=batch_first, norm_first=norm_first)
    theirs = torch.nn.TransformerEncoder(layer_t, 2, norm=torch.nn.LayerNorm(8), enable_nested_tensor=False)
    theirs = theirs.double()
    layer_o = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, activation=activation,
                                         batch_first=batch_first, norm_first=norm_first)
    ours = nn.TransformerEncoder(layer_o, 2, norm=nn.LayerNorm(8)).double()
    _copy_params(ours, theirs)
    x = R.standard_normal((2, 5, 8) if batch_first else (5, 2, 8))
    pad = np.zeros((2, 5), dtype=bool)
    pad[0, 4] = True
    xo, xt = _both(x, True)
    out_o = ours(xo, src_key_padding_mask=core.tensor(pad))
    out_t = theirs(xt, src_key_padding_mask=torch.tensor(pad))
    np.testing.assert_allclose(out_o.detach().numpy(), out_t.detach().numpy(), atol=1e-10)
    (out_o * out_o).sum().backward()
    (out_t * out_t).sum().backward()
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), atol=1e-9)
    _grads_match(ours, theirs, 1e-9)
