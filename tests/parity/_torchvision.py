"""Importing torchvision next to a CPU-only torch, shared by the vision parity tests.

The torchvision wheel on PyPI is a CUDA build whose C++ ops do not load next to a CPU torch
(registering their fake kernels fails with "operator torchvision::nms does not exist"); its
Python code (transforms, model definitions) does, so on that error the import is retried
without registering the fake kernels. Import as ``from parity._torchvision import import_torchvision``.
"""
import sys
import warnings


def import_torchvision():
    """The torchvision module, or None when it is not installed."""
    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import torchvision
            return torchvision
        except RuntimeError:  # the CUDA wheel's C++ ops are missing: register no fake kernels
            for name in [m for m in sys.modules if m.startswith("torchvision")]:
                del sys.modules[name]
            original = torch.library.register_fake
            torch.library.register_fake = lambda *a, **k: (lambda f: f)
            try:
                import torchvision
            finally:
                torch.library.register_fake = original
            return torchvision
        except ImportError:
            return None
