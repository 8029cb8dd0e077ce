"""core.utils: helpers beside the tensor library (data loading), as torch.utils."""
import importlib

__all__ = ["data", "hooks", "safetensors", "tensorboard"]


def __getattr__(name):
    # `core.utils.data` loads on first use, so `import core` stays cheap.
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
