"""Collectives of picklable Python objects (pickled by mpi4py, as torch pickles them: only use
them with ranks you trust, since unpickling runs code)."""
from core.distributed import _group, _work

__all__ = ["broadcast_object_list", "all_gather_object", "gather_object", "scatter_object_list"]


def _run(pg, op_name, fn):
    result = []
    _work.run(_group.state().worker, op_name, lambda: result.append(fn()), False)
    return result[0]


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """Replaces object_list's items on every rank by those of global rank `src`."""
    pg = _group.resolve(group, "broadcast_object_list")
    if pg is None:
        return
    root = pg.group_rank(src, "broadcast_object_list")
    is_root = pg.rank() == root
    objects = _run(pg, "broadcast_object_list", lambda: pg.comm.bcast(list(object_list) if is_root else None, root))
    if len(objects) != len(object_list):
        raise RuntimeError(f"broadcast_object_list: rank {src} sent {len(objects)} objects, but object_list "
                           f"here holds {len(object_list)}")
    object_list[:] = objects


def all_gather_object(object_list, obj, group=None):
    """object_list[i] receives `obj` of the group's i-th rank."""
    pg = _group.resolve(group, "all_gather_object")
    if pg is None:
        return
    if len(object_list) != pg.size():
        raise ValueError(f"all_gather_object: object_list must hold one item per rank ({pg.size()}), "
                         f"got {len(object_list)}")
    object_list[:] = _run(pg, "all_gather_object", lambda: pg.comm.allgather(obj))


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    """object_gather_list[i] (on global rank `dst` only) receives `obj` of the group's i-th rank."""
    pg = _group.resolve(group, "gather_object")
    if pg is None:
        return
    root = pg.group_rank(dst, "gather_object")
    if pg.rank() == root and (object_gather_list is None or len(object_gather_list) != pg.size()):
        raise ValueError(f"gather_object: object_gather_list must hold one item per rank ({pg.size()}) "
                         f"on the destination rank")
    gathered = _run(pg, "gather_object", lambda: pg.comm.gather(obj, root))
    if pg.rank() == root:
        object_gather_list[:] = gathered


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0, group=None):
    """scatter_object_output_list[0] of the group's i-th rank receives scatter_object_input_list[i]
    of global rank `src`."""
    pg = _group.resolve(group, "scatter_object_list")
    if pg is None:
        return
    root = pg.group_rank(src, "scatter_object_list")
    is_root = pg.rank() == root
    if is_root and (scatter_object_input_list is None or len(scatter_object_input_list) != pg.size()):
        raise ValueError(f"scatter_object_list: scatter_object_input_list must hold one item per rank "
                         f"({pg.size()}) on the source rank")
    if not isinstance(scatter_object_output_list, list) or len(scatter_object_output_list) < 1:
        raise ValueError("scatter_object_list: Expected argument scatter_object_output_list to be a list of "
                         "size at least 1.")
    scatter_object_output_list[0] = _run(
        pg, "scatter_object_list", lambda: pg.comm.scatter(list(scatter_object_input_list) if is_root else None, root))
