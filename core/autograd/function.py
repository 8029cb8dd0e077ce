"""core.autograd.Function: custom differentiable operations written in Python."""
from core._native import _C
from core.autograd.grad_mode import no_grad


class FunctionCtx:
    """The `ctx` that forward fills and backward reads."""

    def __init__(self):
        self._saved = ()
        self._non_differentiable = set()
        self._dirty = set()
        self.materialize_grads = True
        self.needs_input_grad = ()
        self._released = False

    def save_for_backward(self, *tensors):
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, _C._TensorBase):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")
        self._saved = tuple(tensors)
        self._saved_versions = tuple(t._version if isinstance(t, _C._TensorBase) else None for t in tensors)

    @property
    def saved_tensors(self):
        if self._released:
            raise RuntimeError("Trying to backward through the graph a second time (or directly access "
                               "saved tensors after they have already been freed). Specify "
                               "retain_graph=True if you need to backward through the graph a second time.")
        for t, v in zip(self._saved, getattr(self, "_saved_versions", ())):
            if isinstance(t, _C._TensorBase) and t._version != v:
                raise RuntimeError("one of the variables needed for gradient computation has been "
                                   f"modified by an inplace operation: is at version {t._version}; "
                                   f"expected version {v} instead.")
        return self._saved

    saved_variables = saved_tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable.update(id(t) for t in tensors)

    def mark_dirty(self, *tensors):
        self._dirty.update(id(t) for t in tensors)

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class _BackwardCtx(FunctionCtx):
    """ctx plus the link back to the Function class, called by the C++ node."""

    def _call_backward(self, *grads):
        if self.materialize_grads:
            from core import zeros

            grads = tuple(g if g is not None else zeros(shape, dtype=dtype)
                          for g, (shape, dtype) in zip(grads, self._output_meta))
        result = self._function.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        if len(result) != len(self._inputs_are_tensors):
            raise RuntimeError(f"function {self._function.__name__}Backward returned an incorrect number "
                               f"of gradients (expected {len(self._inputs_are_tensors)}, got {len(result)})")
        out = []
        for g, is_tensor, needs in zip(result, self._inputs_are_tensors, self.needs_input_grad):
            if not is_tensor:
                if g is not None:
                    raise RuntimeError(f"function {self._function.__name__}Backward returned a gradient "
                                       "different than None for a non-Tensor input")
                continue
            out.append(g if needs else None)
        return out

    def _release(self):
        self._saved = ()
        self._released = True


class FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_name = name + "Backward"


class Function(metaclass=FunctionMeta):
    """Subclass with @staticmethod forward(ctx, *args) and backward(ctx, *grads); call .apply."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement the backward function for custom autograd.Function.")

    @classmethod
    def apply(cls, *args):
        ctx = _BackwardCtx()
        ctx._function = cls
        tensor_inputs = [a for a in args if isinstance(a, _C._TensorBase)]
        ctx.needs_input_grad = tuple(isinstance(a, _C._TensorBase) and a.requires_grad for a in args)
        ctx._inputs_are_tensors = tuple(isinstance(a, _C._TensorBase) for a in args)
        with no_grad():
            outputs = cls.forward(ctx, *args)
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        record = _C.is_grad_enabled() and any(t.requires_grad for t in tensor_inputs)
        if record:
            if any(isinstance(t, _C._TensorBase) and t.is_inference() for t in ctx._saved):
                raise RuntimeError("Inference tensors cannot be saved for backward. To work around you can "
                                   "make a clone to get a normal tensor and use it in autograd.")
            # Outputs that alias inputs become new tensors so that they can get a history.
            seen = {id(t) for t in tensor_inputs}
            outs = tuple(o.view_as(o) if isinstance(o, _C._TensorBase) and id(o) in seen and id(o) not in ctx._dirty
                         else o for o in outs)
            differentiable = [o if isinstance(o, _C._TensorBase) and id(o) not in ctx._non_differentiable
                              else None for o in outs]
            ctx._output_meta = [(o.shape, o.dtype) if isinstance(o, _C._TensorBase) else ((), None) for o in outs]
            tensor_args = [a if isinstance(a, _C._TensorBase) else None for a in args]
            _C._record_function(ctx, cls._backward_name, [a for a in tensor_args if a is not None], differentiable)
        return outs[0] if single else outs
