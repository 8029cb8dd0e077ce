"""Gradients of the reduction and sorting families against PyTorch: torch.autograd.grad on the
same float64 inputs and upstream gradients, first and second order, for every differentiable
op (ties, zeros, NaNs, keepdim and dim tuples included)."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")

_rng = np.random.default_rng(11)
A34 = _rng.standard_normal((3, 4))            # distinct values: index choices are unique
A234 = _rng.standard_normal((2, 3, 4))
V7 = _rng.standard_normal(7)
NEAR1 = _rng.uniform(0.5, 1.5, (3, 4))
TIES = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, 1.0, 2.0], [5.0, 5.0, 5.0, 5.0]])
ZEROS = np.array([[1.5, 0.0, 2.0, -1.0], [0.0, 0.0, 3.0, 0.5], [0.5, -1.0, 2.0, 1.2]])
ONE_ZERO = np.array([[1.5, 0.7, 2.0], [0.0, -1.1, 0.9]])
NANS = A34.copy()
NANS[0, 1] = NANS[2, 3] = np.nan


def _pow_is_differentiable():
    """Whether pow has a derivative yet (norm's general-p formula uses it)."""
    x = core.tensor([2.0]).requires_grad_()
    try:
        core.pow(x, core.tensor(3.0)).sum().backward()
        return True
    except NotImplementedError:
        return False


POW = _pow_is_differentiable()

# (label, fn(m, x), input, whether the second order is compared too)
CASES = [
    ("nansum", lambda m, x: m.nansum(x), NANS, True),
    ("nansum dim keep", lambda m, x: m.nansum(x, 1, keepdim=True), NANS, True),
    ("mean", lambda m, x: m.mean(x), A34, True),
    ("mean dims", lambda m, x: x.mean((0, 2)), A234, True),
    ("mean dim keep", lambda m, x: x.mean(-1, keepdim=True), A234, True),
    ("prod", lambda m, x: m.prod(x), NEAR1, True),
    ("prod dim", lambda m, x: m.prod(x, 1), NEAR1, True),
    ("prod dim keep", lambda m, x: m.prod(x, 0, keepdim=True), NEAR1, True),
    ("prod one zero", lambda m, x: m.prod(x), ONE_ZERO, True),
    ("prod many zeros", lambda m, x: m.prod(x), ZEROS, True),
    ("prod zeros dim1", lambda m, x: m.prod(x, 1), ZEROS, True),
    ("prod zeros dim0 keep", lambda m, x: m.prod(x, 0, keepdim=True), ZEROS, True),
    ("max ties", lambda m, x: m.max(x), TIES, True),
    ("min ties", lambda m, x: m.min(x), TIES, True),
    ("max", lambda m, x: x.max(), A34, True),
    ("max.dim", lambda m, x: m.max(x, 1)[0], A34, True),
    ("max.dim keep", lambda m, x: m.max(x, 0, keepdim=True).values, A34, True),
    ("min.dim", lambda m, x: m.min(x, -1)[0], A234, True),
    ("amax ties dim", lambda m, x: m.amax(x, 1), TIES, True),
    ("amax ties all", lambda m, x: m.amax(x), TIES, True),
    ("amax dims keep", lambda m, x: m.amax(x, (0, 2), keepdim=True), A234, True),
    ("amin ties", lambda m, x: m.amin(x, (0, 1)), TIES, True),
    ("amin dim", lambda m, x: m.amin(x, 0), TIES, True),
    ("var", lambda m, x: m.var(x), A34, True),
    ("var dim", lambda m, x: m.var(x, 1), A34, True),
    ("var dims keep biased", lambda m, x: m.var(x, (0, 2), False, True), A234, True),
    ("var correction", lambda m, x: m.var(x, 1, correction=2), A34, True),
    ("var unbiased=False", lambda m, x: x.var(False), A34, True),
    ("std", lambda m, x: m.std(x), A34, True),
    ("std dim keep", lambda m, x: m.std(x, 0, keepdim=True), A34, True),
    ("std correction", lambda m, x: m.std(x, (1, 2), correction=0), A234, True),
    ("std unbiased", lambda m, x: x.std(True), A34, True),
    ("var_mean", lambda m, x: m.var_mean(x, 1), A34, True),
    ("var_mean unbiased", lambda m, x: m.var_mean(x, False), A34, True),
    ("std_mean", lambda m, x: m.std_mean(x, (0, 1), keepdim=True), A34, True),
    ("std_mean correction", lambda m, x: m.std_mean(x, 2, correction=0), A234, True),
    ("norm", lambda m, x: m.norm(x), A34, True),
    ("norm p=2 dim", lambda m, x: m.norm(x, 2, 1), A34, True),
    ("norm p=1", lambda m, x: m.norm(x, 1, (0, 1)), A234, True),
    ("norm p=inf", lambda m, x: m.norm(x, float("inf"), 1), A34, True),
    ("norm p=inf ties", lambda m, x: m.norm(x, float("inf"), 1, True), TIES, True),
    ("norm p=-inf", lambda m, x: m.norm(x, float("-inf")), A34, True),
    ("norm p=0", lambda m, x: m.norm(x, 0, 1), A34, True),
    ("norm p=3", lambda m, x: m.norm(x, 3, 1), A34, POW),
    ("norm p=1.5", lambda m, x: m.norm(x, 1.5), A34, POW),
    ("norm p=0.5", lambda m, x: m.norm(x, 0.5, 0), A34, POW),
    ("norm p=-1", lambda m, x: m.norm(x, -1, -1, True), A234, POW),
    ("norm fro", lambda m, x: m.norm(x, "fro"), A34, True),
    ("norm fro dims", lambda m, x: m.norm(x, "fro", (0, 2)), A234, True),
    ("logsumexp", lambda m, x: m.logsumexp(x, 1), A34, True),
    ("logsumexp dims keep", lambda m, x: m.logsumexp(x, (0, 2), True), A234, True),
    ("logsumexp all", lambda m, x: m.logsumexp(x, (0, 1, 2)), A234, True),
    ("cumsum", lambda m, x: m.cumsum(x, 1), A34, True),
    ("cumsum dim0", lambda m, x: x.cumsum(0), A234, True),
    ("cumprod", lambda m, x: m.cumprod(x, 1), NEAR1, True),
    ("cumprod dim0", lambda m, x: m.cumprod(x, 0), A34, True),
    ("cumprod zeros", lambda m, x: m.cumprod(x, 1), ZEROS, True),
    ("cumprod zeros dim0", lambda m, x: m.cumprod(x, 0), ZEROS, True),
    ("softmax", lambda m, x: m.softmax(x, 1), A34, True),
    ("softmax dim0", lambda m, x: m.softmax(x, 0), A234, True),
    ("softmax dtype", lambda m, x: m.softmax(x.to(m.float32), 1, dtype=m.float64), A34, False),
    ("log_softmax", lambda m, x: m.log_softmax(x, 1), A34, True),
    ("log_softmax dim -1", lambda m, x: x.log_softmax(-1), A234, True),
    ("sort", lambda m, x: m.sort(x, 1)[0], A34, True),
    ("sort desc dim0", lambda m, x: m.sort(x, 0, descending=True).values, A234, True),
    ("msort", lambda m, x: m.msort(x), A34, True),
    ("topk", lambda m, x: m.topk(x, 2)[0], A34, True),
    ("topk smallest dim0", lambda m, x: m.topk(x, 2, 0, largest=False).values, A34, True),
    ("kthvalue", lambda m, x: m.kthvalue(x, 2, 1)[0], A34, True),
    ("kthvalue keep", lambda m, x: m.kthvalue(x, 3, 0, True).values, A34, True),
    ("median ties", lambda m, x: m.median(x), TIES, True),
    ("median", lambda m, x: m.median(x), A34, True),
    ("median.dim", lambda m, x: m.median(x, 1)[0], A34, True),
    ("median.dim keep", lambda m, x: m.median(x, 0, keepdim=True).values, A34, True),
    ("nanmedian", lambda m, x: m.nanmedian(x), NANS, True),
    ("nanmedian.dim", lambda m, x: m.nanmedian(x, 1)[0], NANS, True),
    ("mode", lambda m, x: m.mode(x, 1)[0], A34, True),
    ("mode keep", lambda m, x: m.mode(x, 0, True).values, V7.reshape(7, 1), True),
]


def _run(m, fn, array, seeds, second_seed=None):
    x = m.tensor(array).requires_grad_()
    out = fn(m, x)
    outs = list(out) if isinstance(out, tuple) else [out]
    (g,) = m.autograd.grad(outs, [x], [m.tensor(s) for s in seeds], create_graph=second_seed is not None,
                           allow_unused=True)  # torch: no gradient at all for norm p=0
    first = _numpy(g)
    if second_seed is None or g is None or not g.requires_grad:
        return [o.detach().numpy() for o in outs], first, None
    (h,) = m.autograd.grad([g], [x], [m.tensor(second_seed)], allow_unused=True)
    return [o.detach().numpy() for o in outs], first, _numpy(h)


def _numpy(t):
    if t is None:
        return None
    t = t.detach()
    return t.numpy(force=True) if isinstance(t, torch.Tensor) else t.numpy()  # torch's ZeroTensor


def _close(ours, theirs, label):
    if theirs is None or not np.any(theirs):
        assert ours is None or not np.any(ours), label
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12, equal_nan=True, err_msg=label)


@pytest.mark.parametrize("label,fn,array,second", CASES, ids=[c[0] for c in CASES])
def test_gradients_match_torch(label, fn, array, second):
    rng = np.random.default_rng(len(label))
    probe = fn(torch, torch.tensor(array))
    shapes = [tuple(o.shape) for o in (probe if isinstance(probe, tuple) else (probe,))]
    seeds = [rng.standard_normal(s) for s in shapes]
    second_seed = rng.standard_normal(array.shape) if second else None
    ours = _run(core, fn, array, seeds, second_seed)
    theirs = _run(torch, fn, array, seeds, second_seed)
    for o, t in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(o, t, rtol=1e-10, atol=1e-12, equal_nan=True)
    _close(ours[1], theirs[1], f"{label} first order")
    if second:
        _close(ours[2], theirs[2], f"{label} second order")


def test_integer_and_bool_outputs_carry_no_gradient():
    for m in (core, torch):
        x = m.tensor(A34).requires_grad_()
        for out in (m.argmax(x), m.argsort(x), m.all(x), m.any(x), m.count_nonzero(x), m.sort(x)[1]):
            assert not out.requires_grad


def test_unique_of_a_tensor_requiring_grad_runs():
    # PyTorch records unique with a derivative that raises; ours records no gradient.
    values = [m.unique(m.tensor(TIES).requires_grad_()).detach().numpy() for m in (core, torch)]
    np.testing.assert_array_equal(values[0], values[1])
