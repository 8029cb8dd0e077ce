"""The registry of named models: name -> builder, found when first asked for.

Builders follow torchvision's convention: ``builder(pretrained=False, progress=True, **kwargs)``,
fetching weights through hub.load_state_dict_from_url. Each domain package publishes its models
in a hubconf.py of its own (vision/hubconf.py, like torchvision's), read through hub's hubconf
mechanism (hub._repo) as a repository's would be, so hub imports none of those packages.
register() adds more.
"""
import importlib
import importlib.util
import os

from hub import _repo

__all__ = ["register", "registered", "get_builder", "DOMAIN_PACKAGES"]

DOMAIN_PACKAGES = ("vision", "audio", "text")  # the installed ones that ship a hubconf.py publish models

_registry = {}  # name -> callable or "module:attribute", from register()
_published = None  # name -> builder of the domain packages' hubconf.py files, once read


def _package_dir(name):
    """The directory of an importable package, without importing it (None if it is not there)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return locations[0] if locations else None


def _published_models():
    global _published
    if _published is None:
        found = {}
        for package in DOMAIN_PACKAGES:
            directory = _package_dir(package)
            if directory is not None and os.path.isfile(os.path.join(directory, _repo.MODULE_HUBCONF)):
                found.update(_repo.hubconf_entrypoints(directory))
        _published = found
    return _published


def register(name, builder, overwrite=False):
    """Adds a named model. `builder` is a callable or a lazy "package.module:function" string."""
    if not isinstance(name, str) or not name:
        raise TypeError("register(): name must be a non-empty string")
    if not (callable(builder) or (isinstance(builder, str) and ":" in builder)):
        raise TypeError("register(): builder must be callable or a 'module:function' string")
    if (name in _registry or name in _published_models()) and not overwrite:
        raise ValueError(f"register(): a model named {name!r} is already registered (pass overwrite=True)")
    _registry[name] = builder


def registered():
    """The registered model names, sorted."""
    return sorted(set(_published_models()) | set(_registry))


def get_builder(name):
    """The builder registered as `name`; ValueError naming the known models otherwise."""
    target = None
    if isinstance(name, str):
        target = _registry.get(name) or _published_models().get(name)
    if target is None:
        hint = ""
        if isinstance(name, str) and "/" in name:
            hint = " (for a GitHub repo or a local directory, name the entrypoint too: hub.load(repo, model, ...))"
        raise ValueError(f"hub: unknown model {name!r}{hint}. Known models: {', '.join(registered())}")
    if callable(target):
        return target
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)
