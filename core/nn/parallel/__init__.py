"""torch.nn.parallel: DataParallel (on the one CPU device) and DistributedDataParallel (over
core.distributed)."""
from core.nn.parallel.data_parallel import DataParallel, data_parallel
from core.nn.parallel.distributed import DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel"]
