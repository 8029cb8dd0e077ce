"""The base class of the transforms that are ``nn.Module``s in torchvision 0.9.

It is ``core.nn.Module`` once that exists; until then a minimal stand-in with the same
calling convention (``__call__`` runs ``forward``) and train/eval flags, so the transforms
need no change when core.nn lands.
"""
try:
    from core.nn import Module
except ImportError:  # core.nn is not built yet

    class Module:
        """Stand-in for core.nn.Module: ``__call__`` -> ``forward``, ``training`` flag."""

        def __init__(self):
            self.training = True

        def forward(self, *args, **kwargs):
            raise NotImplementedError(f"{type(self).__name__} has no forward()")

        def __call__(self, *args, **kwargs):
            return self.forward(*args, **kwargs)

        def train(self, mode=True):
            if not isinstance(mode, bool):
                raise ValueError("training mode is expected to be boolean")
            self.training = mode
            return self

        def eval(self):
            return self.train(False)

        def __repr__(self):
            return f"{type(self).__name__}()"

__all__ = ["Module"]
