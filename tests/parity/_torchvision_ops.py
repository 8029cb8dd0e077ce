"""torchvision with its compiled ops (nms, roi_align, ...), shared by the detection parity tests.

CI installs a torchvision whose C++ ops do not load next to its torch (see _torchvision.py);
the tests that need the ops skip there. A matching pair (torch 2.9.1 + torchvision 0.24.1)
runs them.
"""
import pytest
from parity._torchvision import import_torchvision


def torchvision_with_ops():
    """torchvision, or a pytest skip when it is absent or its C++ ops are unavailable."""
    tv = import_torchvision()
    if tv is None:
        pytest.skip("torchvision is not installed")
    import torch

    try:
        tv.ops.nms(torch.zeros(0, 4), torch.zeros(0), 0.5)
    except Exception as e:  # noqa: BLE001 - missing operator, unregistered kernel, failed load: all mean skip
        pytest.skip(f"torchvision's C++ ops are unavailable: {str(e).splitlines()[0]}")
    return tv
