"""The autograd engine: graph recording, the backward pass, safety checks and the API."""
import threading

import numpy as np
import pytest

import core
from core import autograd


def leaf(values, dtype=core.float64):
    return core.tensor(values, dtype=dtype).requires_grad_()


def ones_like(t):
    return core.ones(list(t.shape), dtype=t.dtype)


def test_grad_fn_names_and_next_functions():
    x = leaf([1.0, 2.0])
    y = x * x + x
    assert y.grad_fn.name() == "AddBackward0"
    (mul, _), (acc, _) = y.grad_fn.next_functions
    assert mul.name() == "MulBackward0" and acc.name() == "AccumulateGrad"
    assert acc.variable is x
    assert x.is_leaf and not y.is_leaf and x.grad_fn is None


def test_diamond_sums_gradients_before_a_node_runs():
    x = leaf([1.0, 2.0, 3.0])
    a = x * 2
    b = a * a      # d/da = 2a
    c = a * 3      # d/da = 3
    (b + c).backward(ones_like(x))
    np.testing.assert_allclose(x.grad.numpy(), (2 * (2 * 2 * np.array([1, 2, 3.0])) + 2 * 3))


def test_shared_subgraph_and_leaf_used_twice():
    x = leaf([2.0])
    shared = x * x
    out = shared * shared + shared
    out.backward(ones_like(out))  # 4x^3 + 2x
    np.testing.assert_allclose(x.grad.numpy(), [4 * 8 + 4])


def test_leaf_accumulates_across_backward_calls():
    x = leaf([1.0, 1.0])
    (x * 3).backward(ones_like(x))
    (x * 4).backward(ones_like(x))
    np.testing.assert_allclose(x.grad.numpy(), [7, 7])


def test_implicit_gradient_only_for_scalars():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    y = leaf([3.0])
    (y * y).backward()
    np.testing.assert_allclose(y.grad.numpy(), [6.0])


def test_backward_of_tensor_without_grad_raises():
    with pytest.raises(RuntimeError, match="does not require grad"):
        core.ones([1]).backward()


def test_second_backward_raises_unless_retained():
    x = leaf([1.0])
    y = x * x
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0])
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_saved_tensor_modified_in_place_raises_naming_versions():
    x = leaf([1.0, 2.0])
    a = x * 1
    b = a * a
    a.mul_(2)
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation.*is at version 1; expected version 0"):
        b.backward(ones_like(b))


def test_in_place_on_leaf_requiring_grad_raises():
    x = leaf([1.0])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        x.add_(1)
    with core.no_grad():
        x.add_(1)  # allowed when not recording
    np.testing.assert_allclose(x.detach().numpy(), [2.0])


def test_in_place_on_non_leaf_is_recorded():
    x = leaf([1.0, 2.0])
    z = leaf([5.0, 7.0])
    y = x * 2
    y.mul_(z)  # y <- 2xz
    y.backward(ones_like(y))
    np.testing.assert_allclose(x.grad.numpy(), [10.0, 14.0])
    np.testing.assert_allclose(z.grad.numpy(), [2.0, 4.0])
    assert y.grad_fn.name() == "MulBackward0"
    w = x * 2
    w.mul_(w)  # saves `other`, which the op itself then modifies: PyTorch raises too
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        w.backward(ones_like(w))


def test_views_share_the_version_counter():
    x = core.ones([4])
    v = x.view(2, 2)
    x.add_(1)
    assert v._version == x._version == 1


def test_grad_with_inputs_and_allow_unused():
    x, y, z = leaf([1.0]), leaf([2.0]), leaf([3.0])
    out = x * y
    gx, gy = autograd.grad(out, [x, y], ones_like(out))
    np.testing.assert_allclose(gx.numpy(), [2.0])
    np.testing.assert_allclose(gy.numpy(), [1.0])
    assert x.grad is None  # grad() never accumulates
    with pytest.raises(RuntimeError, match="appears to not have been used"):
        autograd.grad(x * y, [x, z], ones_like(out))
    gx, gz = autograd.grad(x * y, [x, z], ones_like(out), allow_unused=True)
    assert gz is None


def test_backward_inputs_restricts_accumulation():
    x, y = leaf([1.0]), leaf([2.0])
    (x * y).backward(inputs=[x])
    np.testing.assert_allclose(x.grad.numpy(), [2.0])
    assert y.grad is None


def test_double_backward_with_create_graph():
    x = leaf([1.5, -2.0])
    g, = autograd.grad(x * x * x, x, ones_like(x), create_graph=True)  # 3x^2
    gg, = autograd.grad(g, x, ones_like(x))                            # 6x
    np.testing.assert_allclose(g.detach().numpy(), 3 * np.array([1.5, -2.0]) ** 2)
    np.testing.assert_allclose(gg.numpy(), 6 * np.array([1.5, -2.0]))


def test_tensor_hooks_modify_and_remove():
    x = leaf([1.0])
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(g.numpy().copy()))
    handle = x.register_hook(lambda g: g * 10)
    (y * 3).backward()
    assert seen and seen[0][0] == 3.0
    np.testing.assert_allclose(x.grad.numpy(), [60.0])
    handle.remove()
    x.grad = None
    (x * 3).backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0])


def test_retain_grad_on_non_leaf():
    x = leaf([1.0, 2.0])
    y = x * 3
    y.retain_grad()
    (y * y).backward(ones_like(y))
    np.testing.assert_allclose(y.grad.numpy(), 2 * 3 * np.array([1.0, 2.0]))


def test_grad_modes_are_context_managers_and_decorators():
    x = leaf([1.0])
    with core.no_grad():
        assert not (x * 2).requires_grad
        with core.enable_grad():
            assert (x * 2).requires_grad
    with core.set_grad_enabled(False):
        assert not core.is_grad_enabled()
    assert core.is_grad_enabled()

    @core.no_grad()
    def f(t):
        return t * 2

    assert not f(x).requires_grad
    with core.inference_mode():
        assert not (x * 2).requires_grad and core.is_inference_mode_enabled()
    assert (x * 2).requires_grad


def test_grad_mode_is_thread_local():
    results = []

    def worker():
        results.append(core.is_grad_enabled())

    with core.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert results == [True]


def test_custom_function():
    class Cube(autograd.Function):
        @staticmethod
        def forward(ctx, a, power):
            ctx.save_for_backward(a)
            ctx.power = power
            return a * a * a

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            assert ctx.needs_input_grad == (True, False)
            return grad * a * a * 3, None

    x = leaf([2.0])
    y = Cube.apply(x, 3)
    assert y.grad_fn.name() == "CubeBackward"
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [12.0])


def test_custom_function_non_differentiable_and_materialize():
    class Split(autograd.Function):
        @staticmethod
        def forward(ctx, a):
            index = core.ones([1], dtype=core.int64)
            ctx.mark_non_differentiable(index)
            return a * 2, index

        @staticmethod
        def backward(ctx, grad, grad_index):
            return grad * 2

    x = leaf([1.0])
    out, idx = Split.apply(x)
    assert not idx.requires_grad
    out.backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0])


def test_gradcheck_and_gradgradcheck_on_composites():
    x = leaf(np.random.default_rng(0).standard_normal(4))
    y = leaf(np.random.default_rng(1).standard_normal(4) + 3)
    assert autograd.gradcheck(lambda a, b: a * b / (b * b + 1), (x, y))
    assert autograd.gradgradcheck(lambda a, b: a * a * b, (x, y))


def test_gradcheck_detects_a_wrong_derivative():
    class Wrong(autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * a

        @staticmethod
        def backward(ctx, grad):
            return grad  # should be 2a * grad

    with pytest.raises(autograd.GradcheckError):
        autograd.gradcheck(Wrong.apply, (leaf([1.0, 2.0]),))


def test_chain_of_100k_ops_forward_backward_and_free():
    x = leaf([1.0], dtype=core.float32)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0])
    del y  # freeing the chain must not overflow the stack


def test_memory_returns_after_backward():
    before = core._C._bytes_in_use()
    x = core.ones([1_000_000]).requires_grad_()
    y = (x * x * 2).view(1000, 1000)
    y.backward(core.ones([1000, 1000]))
    del y
    x.grad = None
    del x
    assert core._C._bytes_in_use() == before


def test_backward_from_two_threads_on_separate_graphs():
    errors = []

    def run(seed):
        try:
            for _ in range(20):
                x = leaf([float(seed)] * 1000)
                y = x * x * 3
                y.backward(ones_like(y))
                np.testing.assert_allclose(x.grad.numpy(), 6 * seed)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_anomaly_mode_names_the_node_returning_nan():
    class NaNGrad(autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1

        @staticmethod
        def backward(ctx, grad):
            return grad * float("nan")

    x = leaf([1.0])
    with autograd.detect_anomaly():
        y = NaNGrad.apply(x)
        with pytest.raises(RuntimeError, match="NaNGradBackward' returned nan values"):
            y.backward()


def test_requires_grad_only_for_floating_tensors():
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        core.ones([1], dtype=core.int64).requires_grad_()
    x = leaf([1.0])
    with pytest.raises(RuntimeError, match="only change requires_grad flags of leaf"):
        (x * 2).requires_grad_(False)


def test_gradient_is_unbroadcast_centrally():
    a = leaf(np.ones((3, 1)))
    b = leaf(np.ones((4,)))
    (a * b).backward(core.ones([3, 4], dtype=core.float64))
    np.testing.assert_allclose(a.grad.numpy(), np.full((3, 1), 4.0))
    np.testing.assert_allclose(b.grad.numpy(), np.full((4,), 3.0))


def test_detach_shares_data_but_not_history():
    x = leaf([1.0, 2.0])
    d = (x * 2).detach()
    assert not d.requires_grad and d.grad_fn is None
    y = x * 1
    e = y.detach()
    e.add_(1)
    assert y._version == 1  # detach shares the version counter


def test_factories_take_requires_grad():
    assert core.ones(3, requires_grad=True).requires_grad
    assert core.zeros([2], dtype=core.float64, requires_grad=True).is_leaf
    assert core.tensor([1.0, 2.0], requires_grad=True).requires_grad
    assert not core.randn(2, requires_grad=False).requires_grad
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        core.ones(2, dtype=core.int64, requires_grad=True)


@pytest.mark.parametrize("cast", ["float", "half", "bfloat16", "double", "cpu", "cfloat"])
def test_casts_pass_the_gradient_back_in_the_input_dtype(cast):
    x = leaf([1.5, -2.0])
    y = getattr(x, cast)()
    (y * 3).sum().backward() if not y.dtype.is_complex else y.real.sum().backward()
    expected = [1.0, 1.0] if y.dtype.is_complex else [3.0, 3.0]
    assert x.grad.dtype == core.float64
    np.testing.assert_allclose(x.grad.numpy(), expected)


def test_fill_and_in_place_logical_ops_give_zero_gradients():
    x = leaf([1.5, -2.0])
    y = x * 1
    y.fill_(4.0)
    (y * 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 0.0])


def test_the_seed_texts_worked_example():
    # "Overview of PyTorch Autograd Engine": y = log(x0 * x1) * sin(x1).
    x = core.tensor([0.5, 0.75], requires_grad=True)
    y = core.log(x[0] * x[1]) * core.sin(x[1])
    y.backward(1.0)
    np.testing.assert_allclose(x.grad.numpy(), [1.3633, 0.1912], atol=1e-4)


def test_leaf_gradients_never_alias_each_other_or_the_callers_tensors():
    # AccumulateGrad takes an engine-owned gradient as it is and copies anything else.
    x = core.randn(3, requires_grad=True)
    w = core.randn(3, requires_grad=True)
    (x + w).backward(core.ones(3))  # one gradient buffer reaches both leaves
    x.grad.add_(1)
    np.testing.assert_array_equal(w.grad.numpy(), np.ones(3, np.float32))
    g = core.full((3,), 2.0)
    x.grad = None
    x.backward(g)  # the caller's tensor goes straight to the leaf
    g.add_(5)
    np.testing.assert_array_equal(x.grad.numpy(), np.full(3, 2.0, np.float32))
    x.grad = None
    (x * 3).sum().backward()  # an engine-owned buffer: kept, with the right values
    np.testing.assert_array_equal(x.grad.numpy(), np.full(3, 3.0, np.float32))
