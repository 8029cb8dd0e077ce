"""The detection references' helpers: the batch collation of images with their target dicts
and the rank-averaged loss dict; the logger and data-parallel helpers are the shared ones."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from shared_utils import *  # noqa: F401,F403,E402
from shared_utils import get_world_size, is_dist_avail_and_initialized  # noqa: E402

import core  # noqa: E402
import core.distributed as dist  # noqa: E402


def collate_fn(batch):
    """A batch as (images, targets) tuples: detection images differ in size."""
    return tuple(zip(*batch))


def reduce_dict(input_dict, average=True):
    """The dict's values summed (average=True: averaged) over the ranks; the same keys everywhere."""
    world_size = get_world_size()
    if world_size < 2 or not is_dist_avail_and_initialized():
        return input_dict
    with core.no_grad():
        names = sorted(input_dict)
        values = core.stack([input_dict[k].detach().float() for k in names])
        dist.all_reduce(values)
        if average:
            values /= world_size
        return dict(zip(names, values))
