"""Eager-mode quantization workflows (torch.quantization.quantize 1.8): propagate qconfigs,
attach observers, swap modules."""
import copy
import itertools
import warnings

import core
from core import nn
from core.nn import quantized as nnq
from core.nn.intrinsic import _FusedModule
from core.nn.intrinsic import qat as nniqat
from core.quantization.qconfig import (default_dynamic_qconfig, float16_dynamic_qconfig,
                                       float_qparams_weight_only_qconfig)
from core.quantization.quantization_mappings import (get_default_dynamic_quant_module_mappings,
                                                     get_default_qat_module_mappings,
                                                     get_default_qconfig_propagation_list,
                                                     get_default_static_quant_module_mappings, no_observer_set)
from core.quantization.stubs import DeQuantStub, QuantWrapper

__all__ = ["propagate_qconfig_", "add_observer_", "add_quant_dequant", "prepare", "prepare_qat", "convert",
           "quantize", "quantize_dynamic", "quantize_qat", "swap_module", "get_observer_dict"]


def _propagate_qconfig_helper(module, qconfig_dict, allow_list=None, qconfig_parent=None, prefix=""):
    if allow_list is None:
        allow_list = get_default_qconfig_propagation_list()
    module_qconfig = qconfig_dict.get(type(module), qconfig_parent)
    module_qconfig = qconfig_dict.get(prefix, module_qconfig)
    module_qconfig = getattr(module, "qconfig", module_qconfig)
    module.qconfig = module_qconfig
    for name, child in module.named_children():
        module_prefix = prefix + "." + name if prefix else name
        _propagate_qconfig_helper(child, qconfig_dict, allow_list, module_qconfig, module_prefix)


def propagate_qconfig_(module, qconfig_dict=None, allow_list=None):
    """Gives every submodule the qconfig of its closest configured ancestor (in place).
    qconfig_dict maps module types or qualified names to qconfigs."""
    _propagate_qconfig_helper(module, qconfig_dict or {}, allow_list)


def _observer_forward_hook(self, input, output):
    return self.activation_post_process(output)


def register_activation_post_process_hook(module):
    if not hasattr(module, "activation_post_process"):
        raise AssertionError("Expect activation_post_process attribute already attached to the module")
    return module.register_forward_hook(_observer_forward_hook)


def add_observer_(module, qconfig_propagation_list=None, non_leaf_module_list=None, device=None,
                  custom_module_class_mapping=None):
    """Attaches `activation_post_process` (qconfig.activation()) to each leaf module with a
    qconfig, with a forward hook that observes its output."""
    if qconfig_propagation_list is None:
        qconfig_propagation_list = get_default_qconfig_propagation_list()
    if custom_module_class_mapping is None:
        custom_module_class_mapping = {}

    def needs_observation(m):
        return hasattr(m, "qconfig") and m.qconfig is not None

    def insert_activation_post_process(m):
        if needs_observation(m) and not isinstance(m, DeQuantStub):
            m.add_module("activation_post_process", m.qconfig.activation())
            handle = register_activation_post_process_hook(m)
            m._forward_hooks.move_to_end(handle.id, last=False)  # the observer runs first

    for name, child in module.named_children():
        if type(child) in (nnq.FloatFunctional, nnq.QFunctional):
            if needs_observation(child):
                child.activation_post_process = child.qconfig.activation()
        elif isinstance(child, _FusedModule):
            if needs_observation(child):
                insert_activation_post_process(child)
        elif non_leaf_module_list is not None and type(child) in non_leaf_module_list:
            if needs_observation(child):
                insert_activation_post_process(child)
        elif needs_observation(child) and type(child) in custom_module_class_mapping:
            observed_child = custom_module_class_mapping[type(child)].from_float(child)
            setattr(module, name, observed_child)
            if custom_module_class_mapping[type(child)] not in no_observer_set():
                insert_activation_post_process(observed_child)
        else:
            add_observer_(child, qconfig_propagation_list, non_leaf_module_list, device, custom_module_class_mapping)

    if len(module._modules) == 0 and not isinstance(module, nn.Sequential) \
            and type(module) in qconfig_propagation_list:
        insert_activation_post_process(module)


def get_unique_devices_(module):
    return {"cpu"}


def add_quant_dequant(module):
    """Wraps each leaf module that has a qconfig in a QuantWrapper."""
    if len(module._modules) == 0 and hasattr(module, "qconfig") and module.qconfig:
        return QuantWrapper(module)
    for name, child in module.named_children():
        module._modules[name] = add_quant_dequant(child)
    return module


def _remove_activation_post_process(module):
    if hasattr(module, "activation_post_process") and _is_activation_post_process(module.activation_post_process):
        delattr(module, "activation_post_process")
    for handle_id, hook in list(module._forward_hooks.items()):
        if hook is _observer_forward_hook:
            module._forward_hooks.pop(handle_id)


def _is_activation_post_process(module):
    from core.quantization.fake_quantize import FakeQuantizeBase
    from core.quantization.observer import ObserverBase
    return isinstance(module, (ObserverBase, FakeQuantizeBase))


def _remove_qconfig(module):
    for child in module.children():
        _remove_qconfig(child)
    if hasattr(module, "qconfig"):
        del module.qconfig
    _remove_activation_post_process(module)


def prepare(model, inplace=False, allow_list=None, observer_non_leaf_module_list=None,
            prepare_custom_config_dict=None):
    """A copy of `model` (or the model itself with inplace) with observers attached to the
    modules that have a qconfig; run calibration data through it, then convert()."""
    if prepare_custom_config_dict is None:
        prepare_custom_config_dict = {}
    custom_module_class_mapping = prepare_custom_config_dict.get("float_to_observed_custom_module_class", {})
    if not inplace:
        model = copy.deepcopy(model)
    qconfig_propagation_list = allow_list if allow_list is not None else get_default_qconfig_propagation_list()
    propagate_qconfig_(model, qconfig_dict=None)
    if not any(hasattr(m, "qconfig") and m.qconfig for m in model.modules()):
        warnings.warn("None of the submodule got qconfig applied. Make sure you passed correct configuration "
                      "through `qconfig_dict` or by assigning the `.qconfig` attribute directly on submodules")
    add_observer_(model, qconfig_propagation_list, observer_non_leaf_module_list,
                  custom_module_class_mapping=custom_module_class_mapping)
    return model


def prepare_qat(model, mapping=None, inplace=False):
    """Swaps modules for their QAT versions (fake-quantized weights) and attaches fake
    quantizers to activations; the model then trains as usual."""
    if mapping is None:
        mapping = get_default_qat_module_mappings()
    if not inplace:
        model = copy.deepcopy(model)
    propagate_qconfig_(model, qconfig_dict=None)
    convert(model, mapping=mapping, inplace=True, remove_qconfig=False)
    prepare(model, observer_non_leaf_module_list=set(mapping.values()), inplace=True)
    return model


def quantize(model, run_fn, run_args, mapping=None, inplace=False):
    """Post-training static quantization: eval, prepare, run_fn(model, *run_args) to
    calibrate, convert."""
    if mapping is None:
        mapping = get_default_static_quant_module_mappings()
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    prepare(model, inplace=True)
    run_fn(model, *run_args)
    convert(model, mapping, inplace=True)
    return model


def quantize_dynamic(model, qconfig_spec=None, dtype=core.qint8, mapping=None, inplace=False):
    """Dynamic quantization: weights quantized ahead of time, activations per call.
    qconfig_spec: a set of module types / names (with dtype's default qconfig) or a dict."""
    if qconfig_spec is None:
        if dtype == core.qint8:
            qconfig_spec = {nn.Linear: default_dynamic_qconfig, nn.LSTM: default_dynamic_qconfig,
                            nn.GRU: default_dynamic_qconfig, nn.LSTMCell: default_dynamic_qconfig,
                            nn.RNNCell: default_dynamic_qconfig, nn.GRUCell: default_dynamic_qconfig}
        elif dtype == core.float16:
            qconfig_spec = {nn.Linear: float16_dynamic_qconfig, nn.LSTM: float16_dynamic_qconfig,
                            nn.GRU: float16_dynamic_qconfig, nn.LSTMCell: float16_dynamic_qconfig,
                            nn.RNNCell: float16_dynamic_qconfig, nn.GRUCell: float16_dynamic_qconfig}
        elif dtype == core.quint8:
            qconfig_spec = {nn.EmbeddingBag: float_qparams_weight_only_qconfig}
        else:
            raise ValueError(f"Don't know how to quantize with default settings for {dtype}. Provide full "
                             "qconfig please")
    elif isinstance(qconfig_spec, set):
        if dtype is core.qint8:
            default_qconfig = default_dynamic_qconfig
        elif dtype is core.float16:
            default_qconfig = float16_dynamic_qconfig
        elif dtype is core.quint8:
            default_qconfig = float_qparams_weight_only_qconfig
        else:
            raise RuntimeError(f"Unknown dtype specified for quantize_dynamic: {dtype}")
        qconfig_spec = dict(zip(qconfig_spec, itertools.repeat(default_qconfig)))
    if mapping is None:
        mapping = get_default_dynamic_quant_module_mappings()
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    propagate_qconfig_(model, qconfig_spec)
    convert(model, mapping, inplace=True)
    return model


def quantize_qat(model, run_fn, run_args, inplace=False):
    """Quantization-aware training: train, prepare_qat, run_fn (the training loop), convert."""
    if not inplace:
        model = copy.deepcopy(model)
    model.train()
    prepare_qat(model, inplace=True)
    run_fn(model, *run_args)
    convert(model, inplace=True)
    return model


def convert(module, mapping=None, inplace=False, remove_qconfig=True, convert_custom_config_dict=None):
    """Swaps each observed module for its quantized version (target.from_float(module))."""
    if not inplace:
        module = copy.deepcopy(module)
    if mapping is None:
        mapping = get_default_static_quant_module_mappings()
    _convert(module, mapping, inplace=True, convert_custom_config_dict=convert_custom_config_dict)
    if remove_qconfig:
        _remove_qconfig(module)
    return module


def _convert(module, mapping=None, inplace=False, convert_custom_config_dict=None):
    if mapping is None:
        mapping = get_default_static_quant_module_mappings()
    if convert_custom_config_dict is None:
        convert_custom_config_dict = {}
    custom_module_class_mapping = convert_custom_config_dict.get("observed_to_quantized_custom_module_class", {})
    if not inplace:
        module = copy.deepcopy(module)
    reassign = {}
    for name, mod in module.named_children():
        # Fused modules (QAT conv-bn ones too, _FusedModule subclasses in PyTorch) are swapped as a
        # whole; their children (the QAT batch norm) are not visited.
        fused = isinstance(mod, (_FusedModule, nniqat._ConvBnNd))
        if not fused and type(mod) not in custom_module_class_mapping:
            _convert(mod, mapping, True, convert_custom_config_dict)
        reassign[name] = swap_module(mod, mapping, custom_module_class_mapping)
    for key, value in reassign.items():
        module._modules[key] = value
    return module


def swap_module(mod, mapping, custom_module_class_mapping):
    """mapping[type(mod)].from_float(mod) when mod has a qconfig, keeping its hooks (except
    the observer's); mod itself otherwise."""
    new_mod = mod
    if hasattr(mod, "qconfig") and mod.qconfig is not None:
        swapped = False
        if type(mod) in custom_module_class_mapping:
            new_mod = custom_module_class_mapping[type(mod)].from_observed(mod)
            swapped = True
        elif type(mod) in mapping:
            new_mod = mapping[type(mod)].from_float(mod)
            swapped = True
        if swapped:
            for pre_hook_fn in mod._forward_pre_hooks.values():
                new_mod.register_forward_pre_hook(pre_hook_fn)
            for hook_fn in mod._forward_hooks.values():
                if hook_fn is not _observer_forward_hook:
                    new_mod.register_forward_hook(hook_fn)
    return new_mod


def get_observer_dict(mod, target_dict, prefix=""):
    """Fills target_dict with every activation_post_process of mod, by qualified name."""
    def get_prefix(p):
        return p if p == "" else p + "."

    if hasattr(mod, "activation_post_process"):
        target_dict[get_prefix(prefix) + "activation_post_process"] = mod.activation_post_process
    for name, child in mod.named_children():
        module_prefix = get_prefix(prefix) + name if prefix else name
        get_observer_dict(child, target_dict, module_prefix)


