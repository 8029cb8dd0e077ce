"""gradcheck / gradgradcheck: analytical gradients against central finite differences."""
import numpy as np

from core._native import _C


class GradcheckError(RuntimeError):
    pass


def _as_tuple(x):
    return (x,) if isinstance(x, _C._TensorBase) else tuple(x)


def _differentiable_inputs(inputs):
    return [t for t in inputs if isinstance(t, _C._TensorBase) and t.requires_grad]


def _flat_outputs(fn, inputs):
    return [o for o in _as_tuple(fn(*inputs)) if isinstance(o, _C._TensorBase) and o.dtype.is_floating_point]


def _numerical_jacobians(fn, inputs, eps):
    """d(output_j)/d(input_i) for every pair, by central differences on the inputs' data."""
    from core.autograd.grad_mode import no_grad

    jacobians = []
    with no_grad():
        outputs = _flat_outputs(fn, inputs)
        for x in _differentiable_inputs(inputs):
            values = x.detach().numpy()  # a view: perturbing it perturbs x (any strides)
            columns = []
            for k in range(values.size):
                index = np.unravel_index(k, values.shape)
                original = values[index]
                values[index] = original + eps
                plus = [o.detach().numpy().astype(np.float64).reshape(-1).copy() for o in _flat_outputs(fn, inputs)]
                values[index] = original - eps
                minus = [o.detach().numpy().astype(np.float64).reshape(-1).copy() for o in _flat_outputs(fn, inputs)]
                values[index] = original
                columns.append([(p - m) / (2 * eps) for p, m in zip(plus, minus)])
            jacobians.append([np.stack([c[j] for c in columns], axis=1) if columns else
                              np.zeros((outputs[j].numel(), 0)) for j in range(len(outputs))])
    return jacobians, outputs


def _analytical_jacobians(fn, inputs):
    from core.autograd.engine import grad as autograd_grad
    from core import zeros

    diff_inputs = _differentiable_inputs(inputs)
    outputs = _flat_outputs(fn, inputs)
    jac = [[np.zeros((o.numel(), x.numel())) for o in outputs] for x in diff_inputs]
    for j, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for k in range(out.numel()):
            seed = zeros(list(out.shape), dtype=out.dtype)
            seed.numpy().reshape(-1)[k] = 1.0
            grads = autograd_grad(out, diff_inputs, seed, retain_graph=True, allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    jac[i][j][k, :] = g.detach().numpy().astype(np.float64).reshape(-1)
    return jac


def gradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **_ignored):
    """True if the analytical Jacobian of func at inputs matches finite differences."""
    inputs = _as_tuple(inputs)
    for t in _differentiable_inputs(inputs):
        if t.dtype != _C.float64:
            import warnings

            warnings.warn("gradcheck(): input is not float64; the check is likely to fail")
    numerical, _ = _numerical_jacobians(func, inputs, eps)
    analytical = _analytical_jacobians(func, inputs)
    for i, (num_i, ana_i) in enumerate(zip(numerical, analytical)):
        for j, (n, a) in enumerate(zip(num_i, ana_i)):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian mismatch for output {j} with respect to input {i},\n"
                                     f"numerical:{n}\nanalytical:{a}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, eps=1e-6, atol=1e-5, rtol=1e-3,
                  raise_exception=True, **_ignored):
    """gradcheck of the function inputs -> d(func)/d(inputs) . grad_outputs (second order)."""
    from core import tensor
    from core.autograd.engine import grad as autograd_grad

    inputs = _as_tuple(inputs)
    outputs = _flat_outputs(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = [tensor(rng.uniform(0.5, 1.5, tuple(o.shape)), dtype=o.dtype).requires_grad_()
                        for o in outputs]
    grad_outputs = list(_as_tuple(grad_outputs))
    n_inputs = len(inputs)

    def first_derivative(*args):
        from core.autograd.grad_mode import enable_grad

        ins, gos = args[:n_inputs], args[n_inputs:]
        with enable_grad():  # the finite-difference pass runs under no_grad
            outs = _flat_outputs(func, ins)
            diff = _differentiable_inputs(ins)
            grads = autograd_grad(outs, diff, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivative, tuple(inputs) + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
