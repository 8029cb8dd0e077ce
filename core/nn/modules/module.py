"""nn.Module: the base class of every layer (parameters, buffers, submodules, hooks, state_dict)."""
import itertools
from collections import OrderedDict, namedtuple

from core._native import _C
from core.autograd.grad_mode import no_grad
from core.nn.parameter import Parameter
from core.utils.hooks import RemovableHandle

__all__ = ["Module", "register_module_forward_pre_hook", "register_module_forward_hook"]

_Tensor = _C._TensorBase
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()

# Counts changes to any module's attributes, registrations and hooks: Sequential's inference
# plans (_folding.py) hold only while it stays the same.
structure_epoch = 0


def _structure_changed():
    global structure_epoch
    structure_epoch += 1


class _HookHandle(RemovableHandle):
    """The handle of a module's forward or backward hook: removing one changes how it runs."""

    def remove(self):
        super().remove()
        _structure_changed()


def register_module_forward_pre_hook(hook):
    """hook(module, input) run before every Module's forward (before its own pre-hooks)."""
    handle = RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(hook):
    """hook(module, input, output) run after every Module's forward (before its own hooks)."""
    handle = RemovableHandle(_global_forward_hooks)
    _global_forward_hooks[handle.id] = hook
    return handle


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _typename(obj):
    # torch.typename: "core.FloatTensor" for tensors, else the qualified class name.
    if isinstance(obj, _Tensor):
        return obj.type()
    module = getattr(obj, "__module__", None)
    prefix = module + "." if module not in (None, "builtins", "__builtin__") else ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__name__
    return prefix + name


def _addindent(s, num_spaces):
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join(num_spaces * " " + line for line in lines)



class Module:
    """Base class for all neural network modules; subclasses define forward()."""

    dump_patches = False
    _version = 1  # stored in state_dict metadata; _load_from_state_dict may read it

    def __init__(self):
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistent_buffers_set"] = set()
        d["_backward_hooks"] = OrderedDict()
        d["_is_full_backward_hook"] = None
        d["_forward_hooks"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_state_dict_hooks"] = OrderedDict()
        d["_load_state_dict_pre_hooks"] = OrderedDict()
        d["_modules"] = OrderedDict()

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # ---- calling
    def __call__(self, *input, **kwargs):
        # Fast path: no hooks anywhere, just forward.
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or _global_forward_pre_hooks or _global_forward_hooks):
            return self.forward(*input, **kwargs)
        return self._call_with_hooks(input, kwargs)

    def _has_hooks(self):
        """Whether forward (pre-)hooks or backward hooks are registered on this module itself."""
        return bool(self._forward_pre_hooks or self._forward_hooks or self._backward_hooks)

    def _call_with_hooks(self, input, kwargs):
        for hook in (*_global_forward_pre_hooks.values(), *self._forward_pre_hooks.values()):
            result = hook(self, input)
            if result is not None:
                input = result if isinstance(result, tuple) else (result,)
        bw_hook = None
        if self._backward_hooks:
            from core.nn.modules._backward_hook import BackwardHook

            bw_hook = BackwardHook(self, list(self._backward_hooks.values()))
            input = bw_hook.setup_input_hook(input)
        result = self.forward(*input, **kwargs)
        for hook in (*_global_forward_hooks.values(), *self._forward_hooks.values()):
            hook_result = hook(self, input, result)
            if hook_result is not None:
                result = hook_result
        if bw_hook is not None:
            result = bw_hook.setup_output_hook(result)
        return result

    _call_impl = _call_with_hooks

    # ---- registration
    def register_buffer(self, name, tensor, persistent=True):
        """Adds a buffer (state that is not a parameter); persistent ones go into state_dict."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, _Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        _structure_changed()
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        """Adds a parameter (a Parameter or None) under `name`."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        _structure_changed()
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        elif param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters "
                             f"must be created explicitly. To express '{name}' as a function of another "
                             "Tensor, compute the value in the forward() method.")
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        """Adds a child module (or None) under `name`."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module
        _structure_changed()

    def get_submodule(self, target):
        """The submodule at dotted path `target` ("" is self)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    # ---- hooks
    def register_forward_pre_hook(self, hook):
        """hook(module, input) -> None or a new input (a tuple, or one value that gets wrapped)."""
        handle = _HookHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        _structure_changed()
        return handle

    def register_forward_hook(self, hook):
        """hook(module, input, output) -> None or a replacement output."""
        handle = _HookHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        _structure_changed()
        return handle

    def register_full_backward_hook(self, hook):
        """hook(module, grad_input, grad_output) -> None or replacement grad_input (a tuple)."""
        if self._is_full_backward_hook is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a "
                               "single Module. Please use only one of them.")
        self._is_full_backward_hook = True
        handle = _HookHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        _structure_changed()
        return handle

    def register_backward_hook(self, hook):
        raise NotImplementedError("register_backward_hook (deprecated in PyTorch 1.8) is not supported; "
                                  "use register_full_backward_hook")

    def _register_state_dict_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata) -> None or a new state_dict."""
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def _register_load_state_dict_pre_hook(self, hook):
        """hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)."""
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = hook
        return handle

    # ---- attribute routing
    def __getattr__(self, name):
        d = self.__dict__
        if "_parameters" in d:
            params = d["_parameters"]
            if name in params:
                return params[name]
        if "_buffers" in d:
            buffers = d["_buffers"]
            if name in buffers:
                return buffers[name]
        if "_modules" in d:
            modules = d["_modules"]
            if name in modules:
                return modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        _structure_changed()

        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                    "(torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, _Tensor):
                        raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                        "(torch.Tensor or None expected)")
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        _structure_changed()
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = (dir(self.__class__) + list(self.__dict__) + list(self._parameters)
                + list(self._modules) + list(self._buffers))
        return sorted(key for key in keys if not key[0].isdigit())

    def __setstate__(self, state):
        _structure_changed()
        self.__dict__.update(state)
        # Modules pickled before these attributes existed.
        for attr, default in (("_forward_pre_hooks", OrderedDict), ("_state_dict_hooks", OrderedDict),
                              ("_load_state_dict_pre_hooks", OrderedDict),
                              ("_non_persistent_buffers_set", set)):
            if attr not in self.__dict__:
                self.__dict__[attr] = default()
        if "_is_full_backward_hook" not in self.__dict__:
            self.__dict__["_is_full_backward_hook"] = None

    # ---- state_dict
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """Puts this module's own parameters and persistent buffers (not its children's)."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and persistent buffer by dotted name (detached
        unless keep_vars), with `_metadata` holding each module's `version`."""
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = dict(version=self._version)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination, prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            hook_result = hook(self, destination, prefix, local_metadata)
            if hook_result is not None:
                destination = hook_result
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                              missing_keys, unexpected_keys, error_msgs):
        """Copies this module's own entries from state_dict; records missing/unexpected keys
        and error messages instead of raising."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent_buffers = {k: v for k, v in self._buffers.items()
                              if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent_buffers.items())
                       if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not isinstance(input_param, _Tensor):
                    error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor '
                                      f"or Tensor-like object from checkpoint but received {type(input_param)}")
                    continue
                # Checkpoints of PyTorch 0.3 stored 0-d values as 1-element tensors.
                if param.ndim == 0 and input_param.ndim == 1:
                    input_param = input_param[0]
                if input_param._sizes != param._sizes:
                    error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                                      f"{input_param.shape} from checkpoint, the shape in current "
                                      f"model is {param.shape}.")
                    continue
                try:
                    with no_grad():
                        param.copy_(input_param)
                except Exception as ex:
                    error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in '
                                      f"the model are {param.size()} and whose dimensions in the "
                                      f"checkpoint are {input_param.size()}, an exception occurred : {ex.args}.")
            elif strict:
                missing_keys.append(key)
        if strict:
            start, modules = len(prefix), self._modules
            for key in state_dict:
                if key.startswith(prefix):
                    input_name = key[start:].split(".", 1)[0]  # a param/buffer/child name
                    if input_name not in modules and input_name not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True):
        """Copies parameters and buffers from state_dict into this module and its descendants.
        With strict, missing or unexpected keys raise RuntimeError; returns
        (missing_keys, unexpected_keys) as a namedtuple."""
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            module._load_from_state_dict(state_dict, prefix, local_metadata, True,
                                         missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    load(child, prefix + name + ".")

        load(self)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- iteration
    def _named_members(self, get_members_fn, prefix="", recurse=True):
        memo = set()
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or v in memo:
                    continue
                memo.add(v)
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix="", recurse=True):
        """(dotted name, Parameter) pairs, each parameter once."""
        return self._named_members(lambda m: m._parameters.items(), prefix=prefix, recurse=recurse)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True):
        return self._named_members(lambda m: m._buffers.items(), prefix=prefix, recurse=recurse)

    def children(self):
        for _, module in self.named_children():
            yield module

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix=""):
        """(dotted name, module) for self and every descendant, each module once."""
        if memo is None:
            memo = set()
        if self not in memo:
            memo.add(self)
            yield prefix, self
            for name, module in self._modules.items():
                if module is None:
                    continue
                yield from module.named_modules(memo, prefix + ("." if prefix else "") + name)

    # ---- modes
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Sets every parameter's .grad to None (PyTorch 2.x's default), or zeroes it in place
        with set_to_none=False."""
        for p in self.parameters():
            grad = p.grad
            if grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if grad.grad_fn is not None:
                        grad.detach_()
                    else:
                        grad.requires_grad_(False)
                    grad.zero_()

    def share_memory(self):
        # Tensors here are not moved into shared memory; worker processes get copies.
        return self

    # ---- conversions
    def _apply(self, fn):
        """Applies fn to every parameter, gradient and buffer, children first. Parameters stay
        the same objects (their .data is replaced, as in torch 1.8), so optimizers holding
        them keep working."""
        for module in self.children():
            module._apply(fn)
        for key, param in self._parameters.items():
            if param is None:
                continue
            with no_grad():
                param_applied = fn(param)
            if param_applied is not param:
                param.data = param_applied
            grad = param.grad
            if grad is not None:
                with no_grad():
                    grad_applied = fn(grad)
                if grad_applied is not grad:
                    grad.data = grad_applied
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        _structure_changed()
        return self

    def apply(self, fn):
        """Calls fn on every descendant (children first) and then on self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None):
        raise AssertionError("Torch not compiled with CUDA enabled")

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def _cast_floating(self, dtype):
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def float(self):
        return self._cast_floating(_C.float32)

    def double(self):
        return self._cast_floating(_C.float64)

    def half(self):
        return self._cast_floating(_C.float16)

    def bfloat16(self):
        return self._cast_floating(_C.bfloat16)

    def to(self, *args, **kwargs):
        """to(dtype), to(device=None, dtype=None, non_blocking=False), to(tensor),
        to(memory_format=...): floating (and complex) parameters and buffers change dtype;
        4-d and 5-d ones take the memory format."""
        dtype, memory_format = _parse_to(args, kwargs)
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")

        def convert(t):
            target = dtype if dtype is not None and (t.is_floating_point() or t.is_complex()) else None
            if memory_format is not None and t.ndim in (4, 5):
                return t.to(dtype=target if target is not None else t.dtype, memory_format=memory_format)
            return t.to(target) if target is not None else t

        return self._apply(convert)

    # ---- printing
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """The module's own settings for its repr; override in subclasses."""
        return ""

    def __repr__(self):
        return self._repr_with_children(self._modules.items())

    def _repr_with_children(self, children):
        """The repr listing these (name, module) children (quantized modules hide packed params)."""
        extra_repr = self.extra_repr()
        extra_lines = extra_repr.split("\n") if extra_repr else []
        child_lines = ["(" + key + "): " + _addindent(repr(module), 2) for key, module in children]
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        return main_str + ")"


def _parse_to(args, kwargs):
    """(dtype, memory_format) of Module.to's argument forms; the device must be the CPU."""
    kwargs = dict(kwargs)
    memory_format = kwargs.pop("memory_format", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("copy", None)
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    tensor = kwargs.pop("tensor", None)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for arg in args:
        if isinstance(arg, _C.dtype):
            dtype = arg
        elif isinstance(arg, _Tensor):
            tensor = arg
        elif isinstance(arg, bool):
            continue  # non_blocking
        elif isinstance(arg, str) or hasattr(arg, "type") or isinstance(arg, int):
            device = arg
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({_typename(arg)}, ...)")
    if tensor is not None:
        dtype = tensor.dtype
    if device is not None:
        kind = device if isinstance(device, str) else getattr(device, "type", device)
        if not (isinstance(kind, str) and kind.split(":")[0] == "cpu"):
            raise RuntimeError(f"to(): only the cpu device is available, got {device!r}")
    return dtype, memory_format
