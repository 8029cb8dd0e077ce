"""backward() and grad(): the Python entry points to the C++ engine."""
from core._native import _C


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, _C._TensorBase):
        return (x,)
    return tuple(x)


def _make_grads(outputs, grad_outputs):
    if grad_outputs is None:
        grads = [None] * len(outputs)
    elif isinstance(grad_outputs, (int, float, complex)):
        grads = [grad_outputs]  # backward(1.0): a number for a single output
    else:
        grads = list(_as_tuple(grad_outputs))
    if len(grads) != len(outputs):
        raise RuntimeError(f"grad can be implicitly created only for scalar outputs: got {len(grads)} "
                           f"gradients for {len(outputs)} outputs")
    out = []
    for o, g in zip(outputs, grads):
        if g is not None and not isinstance(g, _C._TensorBase):
            from core._creation import tensor

            g = tensor(g, dtype=o.dtype).expand(o.shape) if o.ndim else tensor(g, dtype=o.dtype)
        out.append(g)
    return out


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates d(tensors)/d(leaf) into every leaf's .grad (or only into `inputs`)."""
    tensors = _as_tuple(tensors)
    grads = _make_grads(tensors, grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None and len(_as_tuple(inputs)) == 0:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    inputs = _as_tuple(inputs)
    captured = _C._run_backward(tensors, grads, retain_graph, create_graph, inputs, True, True)
    # Chosen leaves accumulated in the engine; chosen non-leaves accumulate here.
    for t, g in zip(inputs, captured):
        if g is None or t.is_leaf:
            continue
        if t.grad is None:
            t.grad = g if create_graph else g.clone()
        else:
            t.grad = t.grad + g


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False):
    """Gradients of `outputs` with respect to `inputs`, without touching any .grad."""
    outputs = _as_tuple(outputs)
    single = isinstance(inputs, _C._TensorBase)
    inputs = _as_tuple(inputs)
    grads = _make_grads(outputs, grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    result = _C._run_backward(outputs, grads, retain_graph, create_graph, inputs, allow_unused, False)
    return tuple(result) if not single else (result[0],)
