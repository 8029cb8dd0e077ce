"""The registry of named models: name -> builder, imported only when first used.

Builders follow torchvision's convention: ``builder(pretrained=False, progress=True, **kwargs)``,
fetching weights through hub.load_state_dict_from_url. More families (detection,
segmentation, quantized models) join with register() or by adding rows to _BUILTIN.
"""
import importlib

__all__ = ["register", "registered", "get_builder"]

_BUILTIN = {
    # vision.models classification (torchvision 0.9's hubconf entrypoints we implement)
    "mobilenet_v2": "vision.models.mobilenetv2:mobilenet_v2",
    "mobilenet_v3_large": "vision.models.mobilenetv3:mobilenet_v3_large",
    "mobilenet_v3_small": "vision.models.mobilenetv3:mobilenet_v3_small",
    "resnet18": "vision.models.resnet:resnet18",
    "resnet34": "vision.models.resnet:resnet34",
    "resnet50": "vision.models.resnet:resnet50",
    "resnet101": "vision.models.resnet:resnet101",
    "resnet152": "vision.models.resnet:resnet152",
    "resnext50_32x4d": "vision.models.resnet:resnext50_32x4d",
    "resnext101_32x8d": "vision.models.resnet:resnext101_32x8d",
    "wide_resnet50_2": "vision.models.resnet:wide_resnet50_2",
    "wide_resnet101_2": "vision.models.resnet:wide_resnet101_2",
    # vision.models.detection (not torchvision hub entrypoints, registered here for hub.load by name)
    "fasterrcnn_resnet50_fpn": "vision.models.detection.faster_rcnn:fasterrcnn_resnet50_fpn",
    "fasterrcnn_mobilenet_v3_large_fpn": "vision.models.detection.faster_rcnn:fasterrcnn_mobilenet_v3_large_fpn",
    "fasterrcnn_mobilenet_v3_large_320_fpn": "vision.models.detection.faster_rcnn:fasterrcnn_mobilenet_v3_large_320_fpn",
}

_registry = dict(_BUILTIN)  # name -> "module:attribute" or a callable


def register(name, builder, overwrite=False):
    """Adds a named model. `builder` is a callable or a lazy "package.module:function" string."""
    if not isinstance(name, str) or not name:
        raise TypeError("register(): name must be a non-empty string")
    if not (callable(builder) or (isinstance(builder, str) and ":" in builder)):
        raise TypeError("register(): builder must be callable or a 'module:function' string")
    if name in _registry and not overwrite:
        raise ValueError(f"register(): a model named {name!r} is already registered (pass overwrite=True)")
    _registry[name] = builder


def registered():
    """The registered model names, sorted."""
    return sorted(_registry)


def get_builder(name):
    """The builder registered as `name`; ValueError naming the known models otherwise."""
    target = _registry.get(name) if isinstance(name, str) else None
    if target is None:
        hint = ""
        if isinstance(name, str) and "/" in name:
            hint = " (for a GitHub repo or a local directory, name the entrypoint too: hub.load(repo, model, ...))"
        raise ValueError(f"hub: unknown model {name!r}{hint}. Known models: {', '.join(registered())}")
    if callable(target):
        return target
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)
