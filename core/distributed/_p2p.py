"""Point-to-point: send/recv block, isend/irecv return a Work; ranks are global ranks."""
from core.distributed import _group, _mpi
from core.distributed._buffers import Staged, check_tensor
from core.distributed._work import RequestWork

__all__ = ["send", "recv", "isend", "irecv"]


def _peer(pg, rank, op_name, what):
    peer = pg.group_rank(rank, op_name)
    if peer == pg.rank():
        raise ValueError(f"{op_name}: invalid {what} rank {rank}: it is the rank of this process")
    return peer


def _tag(tag, op_name):
    if not isinstance(tag, int) or isinstance(tag, bool) or tag < 0:
        raise ValueError(f"{op_name}: tag must be a non-negative int, got {tag!r}")
    return tag


def _isend(op_name, tensor, dst, group, tag):
    check_tensor(tensor, op_name)
    pg = _group.resolve(group, op_name)
    if pg is None:
        return None
    buf = Staged(tensor)
    request = pg.comm.Isend(buf.spec(), _peer(pg, dst, op_name, "destination"), _tag(tag, op_name))
    return RequestWork(op_name, request, [tensor])


def _irecv(op_name, tensor, src, group, tag):
    check_tensor(tensor, op_name)
    pg = _group.resolve(group, op_name)
    if pg is None:
        return None
    peer = _mpi.load().ANY_SOURCE if src is None else _peer(pg, src, op_name, "source")
    buf = Staged(tensor, load=False)
    request = pg.comm.Irecv(buf.spec(), peer, _tag(tag, op_name))
    return RequestWork(op_name, request, [tensor], group=pg, on_done=buf.finish)


def isend(tensor, dst, group=None, tag=0):
    """Starts sending `tensor` to global rank `dst`; don't modify it before wait() returns."""
    return _isend("isend", tensor, dst, group, tag)


def irecv(tensor, src=None, group=None, tag=0):
    """Starts receiving into `tensor` from global rank `src` (any rank when None); the Work's
    source_rank() tells which rank sent it."""
    return _irecv("irecv", tensor, src, group, tag)


def send(tensor, dst, group=None, tag=0):
    """Sends `tensor` to global rank `dst` and returns when it may be reused."""
    work = _isend("send", tensor, dst, group, tag)
    if work is not None:
        work.wait()


def recv(tensor, src=None, group=None, tag=0):
    """Receives into `tensor` from global rank `src` (any rank when None); returns the sender's
    rank (-1 on a rank outside `group`)."""
    work = _irecv("recv", tensor, src, group, tag)
    if work is None:
        return -1
    return work.source_rank()
