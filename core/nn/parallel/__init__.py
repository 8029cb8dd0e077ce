"""torch.nn.parallel: DistributedDataParallel (over core.distributed)."""
from core.nn.parallel.distributed import DistributedDataParallel

__all__ = ["DistributedDataParallel"]
