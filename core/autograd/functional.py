"""jacobian, hessian, vjp, jvp, hvp, vhp built on the engine (core.autograd.functional)."""
from core._native import _C
from core.autograd.engine import grad as _grad


def _tuple(x):
    return (x,) if isinstance(x, _C._TensorBase) else tuple(x)


def _prepare(inputs, create_graph):
    return tuple(t.detach().requires_grad_(True) if not create_graph or not t.requires_grad
                 else t.view_as(t) for t in _tuple(inputs))


def _fill_none(grads, like):
    from core import zeros_like

    return tuple(g if g is not None else zeros_like(t) for g, t in zip(grads, like))


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T . J)."""
    single = isinstance(inputs, _C._TensorBase)
    ins = _prepare(inputs, create_graph)
    with _enable():
        outs = func(*ins)
    out_tuple = _tuple(outs)
    if v is None:
        if any(o.numel() != 1 for o in out_tuple):
            raise RuntimeError("vjp(): the vector v can only be None if the user-provided function returns "
                               "a single Tensor with a single element.")
    grads = _grad(out_tuple, ins, v, create_graph=create_graph, retain_graph=True, allow_unused=True)
    grads = _fill_none(grads, ins)
    result = grads[0] if single else grads
    detach = (lambda t: t) if create_graph else (lambda t: t.detach())
    return (detach(outs) if isinstance(outs, _C._TensorBase) else tuple(detach(o) for o in outs),
            detach(result) if single else tuple(detach(g) for g in result))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J . v), by the double-vjp trick."""
    from core import zeros_like

    single = isinstance(inputs, _C._TensorBase)
    ins = _prepare(inputs, True)
    with _enable():
        outs = _tuple(func(*ins))
        dummies = [zeros_like(o).requires_grad_(True) for o in outs]
        g = _grad(outs, ins, dummies, create_graph=True, allow_unused=True)
        g = _fill_none(g, ins)
        vs = _tuple(v) if v is not None else None
        if vs is None:
            if any(t.numel() != 1 for t in ins):
                raise RuntimeError("jvp(): v can only be None if the input has a single element")
            from core import ones_like

            vs = tuple(ones_like(t) for t in ins)
        jv = _grad(g, dummies, vs, create_graph=create_graph, allow_unused=True)
    jv = _fill_none(jv, outs)
    detach = (lambda t: t) if create_graph else (lambda t: t.detach())
    out_vals = tuple(detach(o) for o in outs)
    jv = tuple(detach(t) for t in jv)
    single_out = len(out_vals) == 1
    return (out_vals[0] if single_out else out_vals, jv[0] if single_out else jv)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False):
    """Rows of v^T J for every unit vector v: shape output.shape + input.shape."""
    from core import zeros_like, stack

    single_in = isinstance(inputs, _C._TensorBase)
    ins = _prepare(inputs, create_graph)
    with _enable():
        outs = func(*ins)
    single_out = isinstance(outs, _C._TensorBase)
    out_tuple = _tuple(outs)
    result = []
    for out in out_tuple:
        per_input = [[] for _ in ins]
        flat = out.reshape(-1)
        for k in range(flat.numel()):
            grads = _grad(flat[k], ins, retain_graph=True, create_graph=create_graph, allow_unused=True)
            for i, (g, t) in enumerate(zip(grads, ins)):
                per_input[i].append(g if g is not None else zeros_like(t))
        jac = []
        for i, t in enumerate(ins):
            rows = per_input[i]
            block = stack(rows).reshape(tuple(out.shape) + tuple(t.shape)) if rows else \
                zeros_like(t).reshape(tuple(out.shape) + tuple(t.shape))
            jac.append(block if create_graph else block.detach())
        result.append(jac[0] if single_in else tuple(jac))
    return result[0] if single_out else tuple(result)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False):
    """The Jacobian of the gradient of a scalar function."""
    single_in = isinstance(inputs, _C._TensorBase)

    def gradient(*ins):
        out = func(*ins)
        if not isinstance(out, _C._TensorBase) or out.numel() != 1:
            raise RuntimeError("hessian(): the function must return a single-element Tensor")
        g = _grad(out, ins, create_graph=True, allow_unused=True)
        g = _fill_none(g, ins)
        return g[0] if single_in else g

    return jacobian(gradient, inputs, create_graph=create_graph)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T . H)."""
    single = isinstance(inputs, _C._TensorBase)
    ins = _prepare(inputs, True)
    with _enable():
        out = func(*ins)
        g = _fill_none(_grad(out, ins, create_graph=True, allow_unused=True), ins)
        res = _fill_none(_grad(g, ins, _tuple(v), create_graph=create_graph, allow_unused=True), ins)
    detach = (lambda t: t) if create_graph else (lambda t: t.detach())
    res = tuple(detach(r) for r in res)
    return detach(out), (res[0] if single else res)


hvp = vhp  # the Hessian is symmetric for twice-differentiable functions


def _enable():
    from core.autograd.grad_mode import enable_grad

    return enable_grad()
