"""The pre-1.6 torch.save format: consecutive pickles, then the raw storages.

    pickle(MAGIC_NUMBER) pickle(PROTOCOL_VERSION) pickle(sys_info)
    pickle(obj)              storages as persistent ids ('storage', type, key, location,
                             numel, view_metadata)
    pickle([keys...])        the order of the storage blobs that follow
    per key: int64 little-endian element count, then count * itemsize bytes

The even older tar format (torch < 0.4) is refused.
"""
import struct

import numpy as np

from core._native import _C
from core.serialization._errors import corrupt, refuse
from core.serialization._storage import allocate, check_storage_pid, finish, refill_bfloat16

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001


def _is_tar(head):
    return len(head) >= 262 and head[257:262] == b"ustar"


def load_legacy(source, head, options):
    if _is_tar(head):
        raise RuntimeError("load(): this is a tar checkpoint from PyTorch < 0.4 (the legacy tar "
                           "format), which tensorzoo does not read; re-save it with a newer PyTorch")
    if not head:
        raise corrupt("the file is empty")
    data = source.read(0, source.size)

    def no_storage(pid):
        raise refuse("unexpected persistent id in the file header")

    try:
        magic, pos = options.unpickle(data, no_storage)
    except Exception as e:  # noqa: BLE001 - anything unreadable here is not a checkpoint
        raise corrupt(f"not a checkpoint: neither a zip archive nor a legacy torch.save file ({e})") from None
    if magic != MAGIC_NUMBER:
        raise corrupt("invalid magic number; corrupt file? (not a torch.save checkpoint)")
    protocol, pos = options.unpickle(data, no_storage, pos)
    if protocol != PROTOCOL_VERSION:
        raise corrupt(f"invalid legacy protocol version {protocol!r}")
    sys_info, pos = options.unpickle(data, no_storage, pos)
    if type(sys_info) is not dict or sys_info.get("little_endian", True) is not True:
        raise corrupt("legacy checkpoints written on big-endian machines are not supported")

    roots, views, budget = {}, {}, [len(data) - pos]

    def persistent_load(pid):
        kind = pid[0] if type(pid) is tuple and pid and type(pid[0]) in (str, bytes) else None
        if kind in ("module", b"module") and not options.weights_only:
            return pid[1]  # a whole nn.Module saved by class: its class (unsafe mode only)
        dtype, key, location, numel = check_storage_pid(pid, 6)
        if key not in roots:
            nbytes = numel * dtype.itemsize
            if nbytes > budget[0]:  # never allocate more than the file can hold
                raise corrupt(f"storage {key!r} declares {nbytes} bytes, more than the file holds")
            budget[0] -= nbytes
            storage = finish(dtype, allocate(dtype, numel))  # filled after the object pickle
            roots[key] = (storage, options.restore(storage, location))
            if roots[key][1] is not storage:
                raise NotImplementedError("load(): map_location callables that return a new "
                                          "storage are not supported for legacy checkpoints")
        storage = roots[key][0]
        if storage.dtype != dtype or storage.numel != numel:
            raise corrupt(f"storage {key!r} is declared twice with different types or sizes")
        view_metadata = pid[5]
        if view_metadata is None:
            return storage
        if type(view_metadata) is not tuple or len(view_metadata) != 3:
            raise refuse("malformed legacy storage view")
        view_key, offset, view_numel = view_metadata
        if view_key not in views:
            views[view_key] = storage.view(offset, view_numel)
        return views[view_key]

    result, pos = options.unpickle(data, persistent_load, pos)
    keys, pos = options.unpickle(data, no_storage, pos)
    if type(keys) is not list:
        raise corrupt("malformed legacy storage key list")
    filled = set()
    for key in keys:
        key = key.decode("ascii") if isinstance(key, bytes) else key
        if key not in roots or key in filled:
            raise corrupt(f"unexpected storage {key!r} in the storage list")
        storage = roots[key][0]
        if pos + 8 > len(data):
            raise corrupt(f"unexpected end of file in storage {key!r} (truncated?)")
        (numel,) = struct.unpack_from("<q", data, pos)
        nbytes = storage.raw.nbytes
        if numel != storage.numel or pos + 8 + nbytes > len(data):
            raise corrupt(f"storage {key!r}: declared {storage.numel} elements, the file holds "
                          f"{numel} ({len(data) - pos - 8} bytes left)")
        storage.raw.view(np.uint8)[:] = np.frombuffer(data, np.uint8, nbytes, pos + 8)
        if storage.dtype == _C.bfloat16:
            refill_bfloat16(storage)
        pos += 8 + nbytes
        filled.add(key)
    missing = set(roots) - filled
    if missing:
        raise corrupt(f"storages {sorted(missing)} have no data in the file")
    return result
