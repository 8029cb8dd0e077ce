"""core.utils.data: datasets, samplers and the DataLoader, as torch.utils.data."""
from core.utils.data.dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset,
                                     TensorDataset, random_split)
from core.utils.data.sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                                     WeightedRandomSampler)
from core.utils.data.distributed import DistributedSampler
from core.utils.data._collate import default_collate, default_convert
from core.utils.data._worker import get_worker_info
from core.utils.data.dataloader import DataLoader
from core.utils.data import dataloader, dataset, sampler, distributed  # noqa: F401  (torch's module names)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "DistributedSampler",
           "IterableDataset", "RandomSampler", "Sampler", "SequentialSampler", "StackDataset", "Subset",
           "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler", "default_collate", "default_convert",
           "get_worker_info", "random_split"]
