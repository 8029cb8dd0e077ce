"""Issue 27, second part: reductions that do not walk stride-0 dims, inference tensors refused
by autograd's saved variables, a DataLoader batch that pickle cannot carry, and warnings of the
argument-checked functions that name the caller's line."""
import pytest

import core
from core.utils.data import DataLoader
from support import run_python


def test_a_batch_that_cannot_be_pickled_raises_a_clear_error():
    loader = DataLoader(list(range(4)), num_workers=1, collate_fn=lambda batch: (lambda: batch))
    with pytest.raises(RuntimeError, match="cannot be sent to the main process.*must be picklable"):
        list(loader)


# ---- reductions over stride-0 dims: a repeated value is combined in closed form, never walked

_HUGE = r"""
import json, core
x = core.full((1,), 1.5).expand(2**40)
out = {
    "sum": x.sum().item(), "mean": x.mean().item(), "prod": x.prod().item(), "nansum": x.nansum().item(),
    "max": x.max().item(), "min": x.min().item(), "amax": core.amax(x, 0).item(), "amin": core.amin(x, 0).item(),
    "max_dim": [t.item() for t in x.max(0)], "min_dim": [t.item() for t in x.min(0)],
    "argmax": x.argmax().item(), "argmin": core.argmin(x, 0).item(),
    "var": x.var().item(), "std": x.std().item(), "var_mean": [t.item() for t in core.var_mean(x)],
    "std_mean": [t.item() for t in core.std_mean(x)], "norm1": x.norm(1).item(), "norm2": x.norm().item(),
    "norm_inf": x.norm(float("inf")).item(), "norm0": x.norm(0).item(), "logsumexp": core.logsumexp(x, 0).item(),
    "all": x.all().item(), "any": x.any().item(), "count_nonzero": core.count_nonzero(x).item(),
    "int_sum": core.ones(1, dtype=core.int32).expand(2**40).sum().item(),
}
print(json.dumps(out))
"""


def test_reductions_over_a_2_40_element_expanded_tensor_take_no_time():
    import json
    import math
    done = run_python(_HUGE)  # a child: a regression would walk 2**40 elements, so it has a timeout
    assert done.returncode == 0, done.stderr
    r = json.loads(done.stdout)
    n = 2.0 ** 40
    assert r["sum"] == r["nansum"] == 1.5 * n and r["mean"] == 1.5 and r["prod"] == math.inf
    assert r["max"] == r["min"] == r["amax"] == r["amin"] == 1.5
    assert r["max_dim"] == r["min_dim"] == [1.5, 0] and r["argmax"] == r["argmin"] == 0
    assert r["var"] == r["std"] == 0 and r["var_mean"] == r["std_mean"] == [0, 1.5]
    assert r["norm1"] == 1.5 * n and r["norm2"] == pytest.approx(1.5 * 2 ** 20) and r["norm_inf"] == 1.5
    assert r["norm0"] == n and r["logsumexp"] == pytest.approx(1.5 + math.log(n))
    assert r["all"] is True and r["any"] is True and r["count_nonzero"] == 2 ** 40 and r["int_sum"] == 2 ** 40


def _expanded():
    """(2, 4, 3) with a stride-0 middle dim, and the same values dense."""
    x = (core.arange(6, dtype=core.float64).reshape(2, 1, 3) - 2.5).expand(2, 4, 3)
    assert x.stride(1) == 0
    return x, x.contiguous()


@pytest.mark.parametrize("dim", [None, 1, (0, 1), (1, 2), 2, -1])
@pytest.mark.parametrize("op", ["sum", "mean", "prod", "amax", "amin", "var", "std", "nansum", "logsumexp",
                                "norm1", "norm2", "norm3", "norm_inf", "norm0", "count_nonzero", "all", "any"])
def test_reductions_over_stride0_dims_match_the_dense_tensor(op, dim):
    x, dense = _expanded()
    dims = dim if isinstance(dim, tuple) or dim is None else (dim,)
    every = tuple(range(3)) if dims is None else dims

    def run(t):
        if op in ("sum", "mean", "nansum"):
            return getattr(t, op)() if dims is None else getattr(t, op)(dims, keepdim=True)
        if op == "prod":
            return t.prod() if dims is None or len(dims) != 1 else t.prod(dims[0], keepdim=True)
        if op in ("amax", "amin", "logsumexp"):
            return getattr(core, op)(t, every, keepdim=True)
        if op in ("var", "std"):
            return getattr(t, op)() if dims is None else getattr(t, op)(dims, keepdim=True)
        if op.startswith("norm"):
            p = {"norm1": 1, "norm2": 2, "norm3": 3, "norm_inf": float("inf"), "norm0": 0}[op]
            return t.norm(p) if dims is None else t.norm(p, dims, keepdim=True)
        if op == "count_nonzero":
            return core.count_nonzero(t, every)
        return getattr(t, op)() if dims is None or len(dims) != 1 else getattr(t, op)(dims[0], keepdim=True)

    got, want = run(x), run(dense)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert core.allclose(got.double(), want.double(), rtol=1e-12, atol=1e-12)


def test_integer_and_complex_reductions_over_stride0_dims():
    ints = (core.arange(6, dtype=core.int32).reshape(2, 1, 3) - 2).expand(2, 5, 3)
    assert core.equal(ints.sum(1), ints.contiguous().sum(1))
    assert core.equal(ints.prod(1), ints.contiguous().prod(1))
    assert core.equal(ints.sum(1, dtype=core.float16), ints.contiguous().sum(1, dtype=core.float16))
    wrap = core.full((1,), 3, dtype=core.int64).expand(2**62 + 1)  # the int64 sum wraps like repeated addition
    assert wrap.sum().item() == (3 * (2**62 + 1) + 2**63) % 2**64 - 2**63
    z = (core.arange(6, dtype=core.float64).reshape(2, 1, 3) * (1 + 2j)).expand(2, 4, 3)
    for f in (lambda t: t.var(1), lambda t: t.mean(1), lambda t: t.sum((0, 1)), lambda t: t.prod(1)):
        assert core.allclose(f(z), f(z.contiguous()))


@pytest.mark.parametrize("is_max", [True, False])
def test_arg_reductions_over_stride0_dims_give_the_first_index(is_max):
    x, dense = _expanded()
    y = core.flip(x, [2])  # the extreme value away from index 0 in the kept dims
    for t, d in ((y, y.contiguous()), (x, dense)):
        name = "argmax" if is_max else "argmin"
        assert core.equal(getattr(t, name)(), getattr(d, name)())
        for dim in range(3):
            assert core.equal(getattr(t, name)(dim), getattr(d, name)(dim))
            values, indices = (t.max if is_max else t.min)(dim)
            dense_values, dense_indices = (d.max if is_max else d.min)(dim)
            assert core.equal(values, dense_values) and core.equal(indices, dense_indices)


def test_reductions_over_expanded_inputs_keep_their_gradients():
    base = core.tensor([[1.0], [2.0]], dtype=core.float64, requires_grad=True)
    for f in (lambda t: t.expand(2, 5).sum(), lambda t: t.expand(2, 5).var(1).sum() + t.expand(2, 5).mean(),
              lambda t: t.expand(2, 5).amax(1).sum(), lambda t: t.expand(2, 5).prod(1).sum()):
        assert core.autograd.gradcheck(f, (base,))


# ---- inference tensors cannot be saved for backward

SAVE_ERROR = "Inference tensors cannot be saved for backward"


def test_an_inference_tensor_saved_for_backward_raises():
    with core.inference_mode():
        x = core.ones(3)
    w = core.ones(3, requires_grad=True)
    assert x.is_inference() and not w.is_inference()
    with pytest.raises(RuntimeError, match=SAVE_ERROR):
        x * w  # mul saves both inputs
    y = x + w  # add saves nothing: allowed, as in PyTorch
    y.sum().backward()
    assert core.equal(w.grad, core.ones(3))
    (x.clone() * w).sum().backward()  # a clone is a normal tensor


def test_inference_marks_the_memory_made_in_inference_mode():
    normal = core.ones(2, 3)
    with core.inference_mode():
        made = core.zeros(2, 3)
        view_of_normal = normal[0]
        computed = normal * 2
        from_numpy = core.from_numpy(__import__("numpy").ones(3))
    assert made.is_inference() and made[1].is_inference() and made.t().is_inference() and core.is_inference(made)
    assert not core.is_inference(normal)
    with pytest.raises(TypeError, match=r"is_inference\(\): argument 'input' \(position 1\) must be Tensor, not int"):
        core.is_inference(5)
    assert computed.is_inference() and from_numpy.is_inference()
    assert not view_of_normal.is_inference() and not normal.is_inference()
    with core.inference_mode(False):
        assert not core.ones(1).is_inference()
    with core.no_grad():
        assert not core.ones(1).is_inference()


def test_a_custom_function_saving_an_inference_tensor_raises():
    class Scale(core.autograd.Function):
        @staticmethod
        def forward(ctx, t, factor):
            ctx.save_for_backward(factor)
            return t * factor

        @staticmethod
        def backward(ctx, grad):
            (factor,) = ctx.saved_tensors
            return grad * factor, None

    with core.inference_mode():
        factor = core.full((3,), 2.0)
        assert core.equal(Scale.apply(core.ones(3), factor), factor)  # nothing recorded: fine
    w = core.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match=SAVE_ERROR):
        Scale.apply(w, factor)
    Scale.apply(w, factor.clone()).sum().backward()
    assert core.equal(w.grad, factor)


INPLACE_ERROR = "Inplace update to inference tensor outside InferenceMode is not allowed"


@pytest.mark.parametrize("write", [
    lambda t: t.add_(1), lambda t: t.zero_(), lambda t: t.fill_(2.0), lambda t: t.copy_(core.zeros(3)),
    lambda t: t.uniform_(), lambda t: t[1:].mul_(2), lambda t: t.__setitem__(0, 5.0),
    lambda t: t.__setitem__(core.tensor([0, 2]), core.zeros(2)), lambda t: core.relu_(t),
])
def test_inference_tensors_are_written_in_place_only_in_inference_mode(write):
    with core.inference_mode():
        t = core.ones(3)
        write(t)  # inside: fine
    with pytest.raises(RuntimeError, match=INPLACE_ERROR):
        write(t)
    before = t.clone()
    with pytest.raises(RuntimeError, match=INPLACE_ERROR):
        with core.no_grad():  # no_grad is not inference mode
            write(t)
    assert core.equal(t, before)  # refused before writing
    normal = t.clone()
    write(normal)  # a clone is a normal tensor


@pytest.mark.parametrize("shape", [(3,), (0,), (2, 2)])  # written as is, resized from empty, resized
def test_inference_tensors_take_out_results_only_in_inference_mode(shape):
    with core.inference_mode():
        out = core.zeros(shape)
        core.add(core.ones(3), 1, out=core.zeros(0))  # inside: fine
    with pytest.raises(RuntimeError, match=INPLACE_ERROR):
        core.add(core.ones(3), 1, out=out)
    assert tuple(out.shape) == shape


def test_inference_tensors_require_grad_only_in_inference_mode():
    with core.inference_mode():
        t = core.ones(3)
        t.requires_grad_()  # inside: allowed, as in PyTorch
        made = core.ones(2, requires_grad=True)
    assert t.requires_grad and made.requires_grad and made.is_inference()
    with core.inference_mode():
        fresh = core.ones(3)
    for set_flag in (lambda: fresh.requires_grad_(), lambda: setattr(fresh, "requires_grad", True)):
        with pytest.raises(RuntimeError, match="Setting requires_grad=True on inference tensor outside InferenceMode"):
            set_flag()
    fresh.requires_grad_(False)  # turning it off is always fine
    assert not fresh.requires_grad


# ---- warnings of the argument-checked Python functions name the caller's line, not core/_argcheck.py

@pytest.mark.parametrize("call", [
    lambda: core.nn.functional.softmax(core.ones(2, 3)),
    lambda: core.nn.functional.log_softmax(core.ones(2, 3)),
    lambda: core.nn.Softmax()(core.ones(2, 3)),
    lambda: core.nn.functional.mse_loss(core.ones(2, 3), core.ones(3)),
    lambda: core.stft(core.ones(64), 16, window=core.hann_window(16)),
    lambda: core.istft(core.view_as_real(core.stft(core.ones(64), 16, return_complex=True)), 16),
])
def test_warnings_from_checked_functions_point_at_the_caller(call):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert caught, "the call was expected to warn"
    assert {w.filename for w in caught} == {__file__}, [(w.filename, w.lineno, str(w.message)) for w in caught]
