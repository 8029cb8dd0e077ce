"""The Optimizer base class (torch.optim.Optimizer, 1.8 semantics)."""
from collections import defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain
import warnings

import core

__all__ = ["Optimizer", "required"]

# PyTorch's wording of "Invalid <label>: <value>" for hyper-parameters that must be >= 0.
_LABELS = {"lr": "learning rate", "eps": "epsilon value", "momentum": "momentum value",
           "weight_decay": "weight_decay value", "alpha": "alpha value", "lr_decay": "lr_decay value",
           "initial_accumulator_value": "initial_accumulator_value value"}


def _check_non_negative(**values):
    """Raises PyTorch's ValueError for the first negative value (in argument order)."""
    for name, value in values.items():
        if not 0.0 <= value:
            raise ValueError("Invalid {}: {}".format(_LABELS[name], value))


def _check_betas(betas):
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError("Invalid beta parameter at index {}: {}".format(i, betas[i]))


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj):
    if isinstance(obj, core.Tensor):
        return "core.Tensor"
    return type(obj).__module__ + "." + type(obj).__qualname__ if type(obj).__module__ != "builtins" \
        else type(obj).__qualname__


class Optimizer:
    r"""Base class for all optimizers.

    Args:
        params (iterable): an iterable of Tensors or dicts, specifying what tensors should be
            optimized.
        defaults (dict): a dict containing default values of optimization options (used when a
            parameter group doesn't specify them).
    """

    # The fused multi-tensor step (core._C._internal._fused_*) is used when an optimizer has
    # one and every parameter of a group is float32/float64; False forces the op-by-op path.
    _fused = True

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, core.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors "
                            "or dicts, but got " + _typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    # Group options newer than some checkpoints: filled in when a state is loaded.
    _option_defaults = {}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for group in self.param_groups:
            for name, value in self._option_defaults.items():
                group.setdefault(name, value)

    def __repr__(self):
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += "\n"
            text += "Parameter Group {0}\n".format(i)
            for key in sorted(group.keys()):
                if key != "params":
                    text += "    {0}: {1}\n".format(key, group[key])
        text += ")"
        return text

    def state_dict(self):
        r"""Returns the state of the optimizer as a :class:`dict`: ``state`` (per-parameter state
        keyed by the parameter's index over all groups) and ``param_groups`` (every option, with
        ``params`` as lists of those indices)."""
        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, core.Tensor) else k): v
                        for k, v in self.state.items()}
        return {"state": packed_state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        r"""Loads the optimizer state (a dict returned by :meth:`state_dict`, ours or
        PyTorch's: a tensor ``step`` (torch >= 1.12) becomes the int of torch 1.8)."""
        state_dict = deepcopy(state_dict)
        groups = self.param_groups
        saved_groups = state_dict["param_groups"]

        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = (len(g["params"]) for g in groups)
        saved_lens = (len(g["params"]) for g in saved_groups)
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size "
                             "of optimizer's group")

        id_map = {old_id: p for old_id, p in
                  zip(chain.from_iterable(g["params"] for g in saved_groups),
                      chain.from_iterable(g["params"] for g in groups))}

        def cast(param, value, key=None):
            if isinstance(value, core.Tensor):
                if key == "step":
                    return int(value.item())
                # Floating point state takes the parameter's dtype.
                if param.is_floating_point() and value.is_floating_point():
                    value = value.to(param.dtype)
                return value
            if isinstance(value, dict):
                return {k: cast(param, v, k) for k, v in value.items()}
            if isinstance(value, Iterable) and not isinstance(value, str):
                return type(value)(cast(param, v) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v)
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})

    def zero_grad(self, set_to_none: bool = True):
        r"""Sets the gradients of all optimized tensors to None (PyTorch 2.x's default), or to
        zero with ``set_to_none=False``."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure):
        r"""Performs a single optimization step (parameter update)."""
        raise NotImplementedError

    def add_param_group(self, param_group):
        r"""Adds a param group to the optimizer's ``param_groups`` (fine-tuning a pre-trained
        network: layers made trainable later join with their own options)."""
        assert isinstance(param_group, dict), "param group must be a dict"

        params = param_group["params"]
        if isinstance(params, core.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but "
                            "the ordering of tensors in sets will change between runs. Please use a "
                            "list instead.")
        else:
            param_group["params"] = list(params)

        for param in param_group["params"]:
            if not isinstance(param, core.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required optimization "
                                 "parameter " + name)
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, "
                          "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for "
                          "more information", stacklevel=3)

        param_set = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
        if not param_set.isdisjoint(id(p) for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)

    # Helpers of the subclasses' steps.
    def _states(self, params, names):
        """The state tensors `names` of each parameter (created as zeros, with step 0, on first
        use) as one list per name, and each parameter's step count after incrementing it."""
        columns, steps = [[] for _ in names], []
        for p in params:
            state = self.state[p]
            if len(state) == 0:
                state["step"] = 0
                for name in names:
                    state[name] = core.zeros_like(p)
            state["step"] += 1
            steps.append(state["step"])
            for column, name in zip(columns, names):
                column.append(state[name])
        return columns, steps

    def _params_with_grad(self, group):
        """The group's parameters that have a gradient, and those gradients."""
        params, grads = [], []
        for p in group["params"]:
            if p.grad is not None:
                params.append(p)
                grads.append(p.grad)
        return params, grads

    @staticmethod
    def _closure_loss(closure):
        if closure is None:
            return None
        with core.enable_grad():
            return closure()


class _GroupwiseOptimizer(Optimizer):
    """An optimizer whose step updates each parameter group on its own: subclasses define
    ``_update_group(group, params, grads)`` for the group's parameters that have a gradient."""

    def step(self, closure=None):
        """Performs a single optimization step.

        Args:
            closure (callable, optional): A closure that reevaluates the model and returns the loss.
        """
        loss = self._closure_loss(closure)
        with core.no_grad():
            for group in self.param_groups:
                self._update_group(group, *self._params_with_grad(group))
        return loss

    def _update_group(self, group, params, grads):
        raise NotImplementedError
