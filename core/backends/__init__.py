"""core.backends: settings of the compute backends (torch.backends)."""
from core.backends import quantized, cudnn, cuda, mps  # noqa: F401
