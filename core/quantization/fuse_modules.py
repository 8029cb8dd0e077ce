"""fuse_modules: conv-bn(-relu), conv-relu, linear-relu and bn-relu become one module (the
first), the others nn.Identity; in eval mode batch norms are folded into the conv."""
import copy

from core import nn
from core.nn import intrinsic as nni
from core.nn.utils.fusion import fuse_conv_bn_eval

__all__ = ["fuse_modules", "fuse_known_modules", "get_fuser_method", "fuse_conv_bn", "fuse_conv_bn_relu"]


def fuse_conv_bn(conv, bn):
    """ConvBn2d in training (QAT), the conv with the BN folded in for eval."""
    if conv.training != bn.training:
        raise AssertionError("Conv and BN both must be in the same mode (train or eval).")
    if conv.training:
        if bn.num_features != conv.out_channels:
            raise AssertionError("Output channel of Conv2d must match num_features of BatchNorm2d")
        if not (bn.affine and bn.track_running_stats):
            raise AssertionError("Only support fusing BatchNorm2d with affine set to True and "
                                 "track_running_stats set to True")
        return nni.ConvBn2d(conv, bn)
    return fuse_conv_bn_eval(conv, bn)


def fuse_conv_bn_relu(conv, bn, relu):
    """ConvBnReLU2d in training, ConvReLU2d over the folded conv for eval."""
    if not (conv.training == bn.training == relu.training):
        raise AssertionError("Conv and BN both must be in the same mode (train or eval).")
    if conv.training:
        if bn.num_features != conv.out_channels:
            raise AssertionError("Output channel of Conv must match num_features of BatchNorm")
        if not (bn.affine and bn.track_running_stats):
            raise AssertionError("Only support fusing BatchNorm with affine set to True and "
                                 "track_running_stats set to True")
        return nni.ConvBnReLU2d(conv, bn, relu)
    return nni.ConvReLU2d(fuse_conv_bn_eval(conv, bn), relu)


DEFAULT_OP_LIST_TO_FUSER_METHOD = {
    (nn.Conv2d, nn.BatchNorm2d): fuse_conv_bn,
    (nn.Conv2d, nn.BatchNorm2d, nn.ReLU): fuse_conv_bn_relu,
    (nn.Conv2d, nn.ReLU): nni.ConvReLU2d,
    (nn.Linear, nn.ReLU): nni.LinearReLU,
    (nn.BatchNorm2d, nn.ReLU): nni.BNReLU2d,
}


def get_fuser_method(op_list, additional_fuser_method_mapping=None):
    mapping = dict(DEFAULT_OP_LIST_TO_FUSER_METHOD, **(additional_fuser_method_mapping or {}))
    return mapping.get(op_list)


def fuse_known_modules(mod_list, additional_fuser_method_mapping=None):
    """The fused module and Identities for a list of modules; NotImplementedError otherwise."""
    types = tuple(type(m) for m in mod_list)
    fuser_method = get_fuser_method(types, additional_fuser_method_mapping)
    if fuser_method is None:
        raise NotImplementedError(f"Cannot fuse modules: {types}")
    fused = fuser_method(*mod_list)
    # Pre-hooks of the first module and hooks of the last one move to the fused module.
    for handle_id, pre_hook_fn in list(mod_list[0]._forward_pre_hooks.items()):
        fused.register_forward_pre_hook(pre_hook_fn)
        del mod_list[0]._forward_pre_hooks[handle_id]
    for handle_id, hook_fn in list(mod_list[-1]._forward_hooks.items()):
        fused.register_forward_hook(hook_fn)
        del mod_list[-1]._forward_hooks[handle_id]
    new_mod = [fused]
    for _ in range(1, len(mod_list)):
        identity = nn.Identity()
        identity.training = mod_list[0].training
        new_mod.append(identity)
    return new_mod


def _get_module(model, key):
    for token in key.split("."):
        model = getattr(model, token)
    return model


def _set_module(model, key, module):
    tokens = key.split(".")
    for token in tokens[:-1]:
        model = getattr(model, token)
    setattr(model, tokens[-1], module)


def _fuse_modules(model, modules_to_fuse, fuser_func=fuse_known_modules, fuse_custom_config_dict=None):
    additional = (fuse_custom_config_dict or {}).get("additional_fuser_method_mapping", {})
    mod_list = [_get_module(model, item) for item in modules_to_fuse]
    new_mod_list = fuser_func(mod_list, additional) if fuser_func is fuse_known_modules else fuser_func(mod_list)
    for item, new in zip(modules_to_fuse, new_mod_list):
        _set_module(model, item, new)


def fuse_modules(model, modules_to_fuse, inplace=False, fuser_func=fuse_known_modules, fuse_custom_config_dict=None):
    """Fuses the named submodules: a list of names, or a list of such lists."""
    if not inplace:
        model = copy.deepcopy(model)
    if all(isinstance(m, str) for m in modules_to_fuse):
        _fuse_modules(model, modules_to_fuse, fuser_func, fuse_custom_config_dict)
    else:
        for module_list in modules_to_fuse:
            _fuse_modules(model, module_list, fuser_func, fuse_custom_config_dict)
    return model
