"""core.backends: settings of the compute backends (torch.backends)."""
from core.backends import quantized  # noqa: F401
