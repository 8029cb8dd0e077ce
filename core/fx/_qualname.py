"""Where a callable lives: the dotted path generated code and printed graphs name it by."""
import importlib

# Where generated code looks a callable up first, so that it reads as people write it.
_PREFERRED_HOMES = ("core", "core.nn.functional", "operator", "math")


def _resolve(path):
    module_name, _, rest = path.partition(":")
    obj = importlib.import_module(module_name)
    for atom in rest.split(".") if rest else ():
        obj = getattr(obj, atom)
    return obj


def qualified_name(obj):
    """'module.path:attr.path' from which obj can be looked up again, or None."""
    name = getattr(obj, "__name__", None)
    if not isinstance(name, str):
        return None
    for home in _PREFERRED_HOMES:
        try:
            if getattr(importlib.import_module(home), name, None) is obj:
                return f"{home}:{name}"
        except ImportError:
            continue
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", name)
    if isinstance(module, str) and "<locals>" not in qualname:
        try:
            if _resolve(f"{module}:{qualname}") is obj:
                return f"{module}:{qualname}"
        except (ImportError, AttributeError):
            pass
    return None
