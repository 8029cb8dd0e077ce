"""Collectives of torch.distributed 1.8 over MPI. Each takes `group=None` (the default group) and
`async_op=False`; with async_op=True it returns a Work whose wait() blocks until it is done.
On a rank outside `group` a collective does nothing and returns None, as in torch."""
from core._native import _C
from core.distributed import _group, _mpi, _work
from core.distributed._buffers import Staged, StagedList, check_list, check_tensor, displacements
from core.distributed._reduce_op import DIRECT, ReduceOp, reduction

__all__ = ["barrier", "broadcast", "all_reduce", "reduce", "all_gather", "gather", "scatter", "reduce_scatter",
           "all_to_all", "all_to_all_single"]

_STATE = _group.state()


def _start(pg, op_name, fn, async_op, outputs, signature):
    """Runs `fn` now or (async_op) on the worker; `signature()` describes the call for debug mode."""
    state = _group.state()
    if state.debug:
        fn = _checked(pg, op_name, signature(), fn)
    return _work.run(state.worker, op_name, fn, async_op, outputs)


def _checked(pg, op_name, signature, fn):
    """TORCH_DISTRIBUTED_DEBUG=DETAIL: the ranks first compare what they are about to call."""
    def run():
        calls = pg.comm.allgather(signature)
        if any(call != calls[0] for call in calls):
            described = "; ".join(f"rank {pg.global_rank(r)}: {call}" for r, call in enumerate(calls))
            raise RuntimeError(f"{op_name}: the ranks of the group called mismatched collectives ({described})")
        fn()
    return run


def _signature(op_name, tensor, *extra):
    parts = [f"{tensor.dtype}", f"shape {tuple(tensor.shape)}"] if tensor is not None else []
    return f"{op_name}({', '.join(parts + [str(e) for e in extra])})"


def barrier(group=None, async_op=False, device_ids=None):
    """Blocks until every rank of the group has reached it."""
    pg = _group.resolve(group, "barrier")
    if pg is None:
        return None
    return _start(pg, "barrier", lambda: pg.comm.Barrier(), async_op, (), lambda: "barrier()")


def broadcast(tensor, src, group=None, async_op=False):
    """Copies `tensor` of global rank `src` into `tensor` on every other rank."""
    check_tensor(tensor, "broadcast")
    pg = _group.resolve(group, "broadcast")
    if pg is None:
        return None
    root = pg.group_rank(src, "broadcast")
    buf = Staged(tensor, load=pg.rank() == root)

    def fn():
        pg.comm.Bcast(buf.spec(), root)
        buf.finish()
    return _start(pg, "broadcast", fn, async_op, [tensor], lambda: _signature("broadcast", tensor, f"src {src}"))


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduces `tensor` element-wise across the group, in place on every rank."""
    # The common call (blocking, default group, a contiguous tensor that MPI reduces as it is) is
    # one call into MPI (_C._mpi_all_reduce): a large all-reduce leaves the caches cold, so each
    # Python or mpi4py layer skipped saves microseconds.
    direct = group is None and not async_op and type(op) is ReduceOp
    handles = DIRECT.get((getattr(tensor, "dtype", None), op)) if direct else None
    if (handles is not None and _STATE.default is not None and not _STATE.debug and not _STATE.worker.pending
            and _C._mpi_all_reduce(tensor, handles[0], handles[1], _STATE.default.handle)):
        return None
    check_tensor(tensor, "all_reduce")
    pg = _group.resolve(group, "all_reduce")
    if pg is None:
        return None
    how = reduction(tensor.dtype, op, "all_reduce")
    buf = Staged(tensor, how.dtype)

    def fn():
        pg.comm.Allreduce(_mpi.load().IN_PLACE, buf.spec(how.mpi_type), how.mpi_op)
        if how.average:
            buf.data.div_(pg.size())
        buf.finish()
    return _start(pg, "all_reduce", fn, async_op, [tensor], lambda: _signature("all_reduce", tensor, op))


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduces `tensor` across the group into `tensor` of global rank `dst` (the others keep theirs)."""
    check_tensor(tensor, "reduce")
    pg = _group.resolve(group, "reduce")
    if pg is None:
        return None
    root = pg.group_rank(dst, "reduce")
    how = reduction(tensor.dtype, op, "reduce")
    buf = Staged(tensor, how.dtype)
    is_root = pg.rank() == root

    def fn():
        if is_root:
            pg.comm.Reduce(_mpi.load().IN_PLACE, buf.spec(how.mpi_type), how.mpi_op, root)
            if how.average:
                buf.data.div_(pg.size())
            buf.finish()
        else:
            pg.comm.Reduce(buf.spec(how.mpi_type), None, how.mpi_op, root)
    return _start(pg, "reduce", fn, async_op, [tensor], lambda: _signature("reduce", tensor, op, f"dst {dst}"))


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """tensor_list[i] receives `tensor` of the group's i-th rank."""
    check_tensor(tensor, "all_gather")
    pg = _group.resolve(group, "all_gather")
    if pg is None:
        return None
    check_list(tensor_list, pg.size(), "all_gather", "tensor_list", tensor.dtype, tensor.shape)
    send, recv = Staged(tensor), StagedList(tensor_list, load=False)

    def fn():
        pg.comm.Allgather(send.spec(), recv.spec())
        recv.finish()
    return _start(pg, "all_gather", fn, async_op, tensor_list, lambda: _signature("all_gather", tensor))


def _list_at_root(pg, root, tensors, like, op_name, what, role, load):
    """The list argument of gather/scatter: required (and checked) on the root, refused elsewhere."""
    if pg.rank() != root:
        if tensors:
            raise ValueError(f"{op_name}: Argument ``{what}`` must NOT be specified on non-{role} ranks.")
        return None
    if tensors is None:
        raise ValueError(f"{op_name}: Argument ``{what}`` must be specified on {role} rank.")
    check_list(tensors, pg.size(), op_name, what, like.dtype, like.shape)
    return StagedList(tensors, load=load)


def gather(tensor, gather_list=None, dst=0, group=None, async_op=False):
    """gather_list[i] (on global rank `dst` only) receives `tensor` of the group's i-th rank."""
    check_tensor(tensor, "gather")
    pg = _group.resolve(group, "gather")
    if pg is None:
        return None
    root = pg.group_rank(dst, "gather")
    send = Staged(tensor)
    recv = _list_at_root(pg, root, gather_list, tensor, "gather", "gather_list", "destination", load=False)

    def fn():
        pg.comm.Gather(send.spec(), recv.spec() if recv else None, root)
        if recv:
            recv.finish()
    return _start(pg, "gather", fn, async_op, gather_list or [], lambda: _signature("gather", tensor, f"dst {dst}"))


def scatter(tensor, scatter_list=None, src=0, group=None, async_op=False):
    """`tensor` of the group's i-th rank receives scatter_list[i] of global rank `src`."""
    check_tensor(tensor, "scatter")
    pg = _group.resolve(group, "scatter")
    if pg is None:
        return None
    root = pg.group_rank(src, "scatter")
    send = _list_at_root(pg, root, scatter_list, tensor, "scatter", "scatter_list", "source", load=True)
    recv = Staged(tensor, load=False)

    def fn():
        pg.comm.Scatter(send.spec() if send else None, recv.spec(), root)
        recv.finish()
    return _start(pg, "scatter", fn, async_op, [tensor], lambda: _signature("scatter", tensor, f"src {src}"))


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """`output` of the group's i-th rank receives the reduction over ranks of their input_list[i]."""
    check_tensor(output, "reduce_scatter", "output")
    pg = _group.resolve(group, "reduce_scatter")
    if pg is None:
        return None
    check_list(input_list, pg.size(), "reduce_scatter", "input_list", output.dtype, output.shape)
    how = reduction(output.dtype, op, "reduce_scatter")
    send, recv = StagedList(input_list, how.dtype), Staged(output, how.dtype, load=False)

    def fn():
        pg.comm.Reduce_scatter_block(send.spec(how.mpi_type), recv.spec(how.mpi_type), how.mpi_op)
        if how.average:
            recv.data.div_(pg.size())
        recv.finish()
    return _start(pg, "reduce_scatter", fn, async_op, [output], lambda: _signature("reduce_scatter", output, op))


def _all_to_all_counts(pg, send, recv):
    def fn():
        pg.comm.Alltoallv([send.data, send.counts, displacements(send.counts), send.spec()[1]],
                          [recv.data, recv.counts, displacements(recv.counts), recv.spec()[1]])
        recv.finish()
    return fn


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """output_tensor_list[i] receives input_tensor_list[r] of the group's i-th rank, r being this
    rank; the tensors may differ in size from peer to peer."""
    pg = _group.resolve(group, "all_to_all")
    if pg is None:
        return None
    if not input_tensor_list or not isinstance(input_tensor_list, (list, tuple)):
        raise ValueError("all_to_all: input_tensor_list must be a non-empty list of tensors")
    check_tensor(input_tensor_list[0], "all_to_all", "input_tensor_list[0]")
    dtype = input_tensor_list[0].dtype
    check_list(input_tensor_list, pg.size(), "all_to_all", "input_tensor_list", dtype)
    check_list(output_tensor_list, pg.size(), "all_to_all", "output_tensor_list", dtype)
    send, recv = StagedList(input_tensor_list), StagedList(output_tensor_list, load=False)
    return _start(pg, "all_to_all", _all_to_all_counts(pg, send, recv), async_op, output_tensor_list,
                  lambda: f"all_to_all({dtype})")


class _Splits:
    """A tensor cut along dim 0 into parts of `sizes` rows (equal parts when None), as a flat
    buffer with per-peer element counts."""

    def __init__(self, tensor, sizes, peers, op_name, what, load):
        rows = tensor.shape[0] if tensor.dim() else 1
        if sizes is None or len(sizes) == 0:
            if rows % peers:
                raise ValueError(f"{op_name}: {what} has {rows} rows, not divisible by the group's size {peers}")
            sizes = [rows // peers] * peers
        if len(sizes) != peers or sum(sizes) != rows or any(s < 0 for s in sizes):
            raise ValueError(f"{op_name}: {what} split sizes {list(sizes)} must be {peers} non-negative "
                             f"numbers adding up to its {rows} rows")
        row = tensor.numel() // rows if rows else 0
        self.staged = Staged(tensor, load=load)
        self.data = self.staged.data
        self.counts = [s * row for s in sizes]

    def spec(self):
        return self.staged.spec()

    def finish(self):
        self.staged.finish()


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None, group=None,
                      async_op=False):
    """all_to_all on one tensor each way: `input` cut along dim 0 (by input_split_sizes, or in equal
    parts) goes part i to the group's i-th rank; `output` is filled likewise from every rank."""
    check_tensor(output, "all_to_all_single", "output")
    check_tensor(input, "all_to_all_single", "input")
    pg = _group.resolve(group, "all_to_all_single")
    if pg is None:
        return None
    if output.dtype != input.dtype:
        raise RuntimeError(f"all_to_all_single: output has dtype {output.dtype}, input {input.dtype}")
    peers = pg.size()
    send = _Splits(input, input_split_sizes, peers, "all_to_all_single", "input", True)
    recv = _Splits(output, output_split_sizes, peers, "all_to_all_single", "output", False)
    return _start(pg, "all_to_all_single", _all_to_all_counts(pg, send, recv), async_op, [output],
                  lambda: f"all_to_all_single({input.dtype})")
