"""Ranks that go wrong, for test_failures.py. MODE:
raise     rank 1 raises while rank 0 waits in a collective: every rank must be aborted;
mismatch  (with TORCH_DISTRIBUTED_DEBUG=DETAIL) the ranks all_reduce tensors of different shapes;
launch    (with WORLD_SIZE set to another size) init_process_group must refuse."""
import sys

import core
import core.distributed as dist

mode = sys.argv[1]
dist.init_process_group("mpi")
rank = dist.get_rank()
if mode == "raise":
    if rank == 1:
        raise ValueError("rank 1 failed on purpose")
    dist.all_reduce(core.ones(4))
    print("rank 0 should never get here")
elif mode == "mismatch":
    try:
        dist.all_reduce(core.ones(3 + rank))
    except RuntimeError as e:
        print(f"rank {rank}: {e}")
    dist.all_reduce(core.ones(2))  # the ranks go on in step
    print(f"rank {rank} done")
