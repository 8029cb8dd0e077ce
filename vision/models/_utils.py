"""Helpers shared by the model builders."""
from collections import OrderedDict

from core import nn

__all__ = ["_make_divisible", "load_pretrained", "IntermediateLayerGetter"]


def _make_divisible(v, divisor, min_value=None):
    """Rounds `v` to the nearest multiple of `divisor` (at least min_value, default divisor)
    without going more than 10% below `v` (the channel rule of the TensorFlow MobileNets)."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:  # rounding down must not lose more than 10%
        new_v += divisor
    return new_v


def load_pretrained(model, arch, model_urls, progress):
    """Loads the official weights of `arch` into `model` (strict), through the hub's cache."""
    import hub  # imported here: the hub's registry imports the model modules

    url = model_urls.get(arch)
    if url is None:
        raise ValueError("No checkpoint is available for model type {}".format(arch))
    state_dict = hub.load_state_dict_from_url(url, progress=progress)
    model.load_state_dict(state_dict)
    return model


class IntermediateLayerGetter(nn.ModuleDict):
    """Runs the direct children of `model` in registration order and returns the outputs of
    those named in `return_layers` ({child name: output name}) as an OrderedDict.

    Only the children up to the last returned one are kept, so their module names (and
    state_dict keys) are the model's own. It relies on the model's forward calling its
    children in registration order, each once.

        >>> body = IntermediateLayerGetter(resnet18(), {"layer1": "feat1", "layer3": "feat2"})
        >>> [(k, v.shape) for k, v in body(core.rand(1, 3, 224, 224)).items()]
        [('feat1', core.Size([1, 64, 56, 56])), ('feat2', core.Size([1, 256, 14, 14]))]
    """

    _version = 2

    def __init__(self, model, return_layers):
        if not set(return_layers).issubset([name for name, _ in model.named_children()]):
            raise ValueError("return_layers are not present in model")
        orig_return_layers = return_layers
        return_layers = {str(k): str(v) for k, v in return_layers.items()}
        layers = OrderedDict()
        for name, module in model.named_children():
            layers[name] = module
            if name in return_layers:
                del return_layers[name]
            if not return_layers:
                break
        super().__init__(layers)
        self.return_layers = orig_return_layers

    def forward(self, x):
        out = OrderedDict()
        for name, module in self.items():
            x = module(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out
