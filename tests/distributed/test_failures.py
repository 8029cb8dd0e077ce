"""What goes wrong across ranks fails cleanly: an exception on one rank aborts all of them (no
hang), mismatched collectives are reported in debug mode, and a launch MPI did not make is refused."""
import os

from support_mpi import requires_mpi, run_ranks

pytestmark = requires_mpi


def test_a_rank_that_raises_aborts_every_rank():
    result = run_ranks("rank_failure.py", "raise", timeout=60)
    assert result.returncode != 0
    assert "ValueError: rank 1 failed on purpose" in result.stderr
    assert "core.distributed: rank 1 of 2 stopped on an uncaught ValueError; aborting every rank" in result.stderr
    assert "should never get here" not in result.stdout


def test_mismatched_shapes_are_reported_in_debug_mode():
    env = dict(os.environ, TORCH_DISTRIBUTED_DEBUG="DETAIL")
    result = run_ranks("rank_failure.py", "mismatch", timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    for rank in range(2):
        assert (f"rank {rank}: all_reduce: the ranks of the group called mismatched collectives "
                f"(rank 0: all_reduce(core.float32, shape (3,), ReduceOp.SUM); "
                f"rank 1: all_reduce(core.float32, shape (4,), ReduceOp.SUM))") in result.stdout
        assert f"rank {rank} done" in result.stdout


def test_a_world_size_the_launcher_did_not_make_is_refused():
    env = dict(os.environ, WORLD_SIZE="4")
    result = run_ranks("rank_failure.py", "launch", timeout=60, env=env)
    assert result.returncode != 0
    assert ("init_process_group: the WORLD_SIZE environment variable says 4, but the MPI launcher made this "
            "process rank 0 of 2") in result.stderr
    assert "mpiexec -n <world size>" in result.stderr
