"""DistributedDataParallel (torch.nn.parallel.DistributedDataParallel, 1.8) over core.distributed."""
import contextlib

import core
import core.distributed as dist
from core.nn.modules.module import Module
from core.nn.parallel._reducer import Reducer

__all__ = ["DistributedDataParallel"]

_BROADCAST_BUCKET_BYTES = 250 * 1024 * 1024  # torch's coalescing size for the start-up broadcast


def _broadcast_coalesced(tensors, src, group, bucket_bytes=_BROADCAST_BUCKET_BYTES):
    """Broadcasts `tensors` from global rank `src`, packed per dtype into flat buffers of at
    most `bucket_bytes` (one MPI call per buffer instead of one per tensor)."""
    chunks, current, size = [], {}, {}
    for t in tensors:
        current.setdefault(t.dtype, []).append(t)
        size[t.dtype] = size.get(t.dtype, 0) + t.numel() * t.element_size()
        if size[t.dtype] >= bucket_bytes:
            chunks.append(current.pop(t.dtype))
            size[t.dtype] = 0
    chunks += list(current.values())
    is_src = group.global_rank(group.rank()) == src
    for chunk in chunks:
        flat = core.cat([t.detach().reshape(-1) for t in chunk])
        dist.broadcast(flat, src, group=group)
        if not is_src:
            for t, part in zip(chunk, flat.split([t.numel() for t in chunk])):
                t.detach().copy_(part.view(tuple(t.shape)))


class DistributedDataParallel(Module):
    """Data parallelism across the ranks of a process group: each rank runs `module` on its share of
    the batch; during backward the gradients are averaged across ranks (all-reduced in buckets of
    `bucket_cap_mb`, started from autograd hooks while backward still runs), so every rank's
    optimizer takes the same step.

    At construction the parameters and buffers of rank 0 are broadcast to all ranks; with
    broadcast_buffers, buffers (e.g. BatchNorm running statistics) are broadcast from rank 0 before
    every forward. find_unused_parameters=True lets parts of the model take no part in a forward
    (their gradients are reduced as zeros, and stay None where no rank has one). no_sync() skips the
    reduction, to accumulate gradients locally over several steps.

    As in torch, state_dict() keys carry the `module.` prefix of the wrapped module; save
    `ddp.module.state_dict()` to get the plain model's keys (or strip them with
    core.nn.modules.utils.consume_prefix_in_state_dict_if_present). device_ids/output_device/dim are
    accepted for torch's signature and must be None for CPU modules; check_reduction is ignored
    (deprecated in torch)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 process_group=None, bucket_cap_mb=25, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False):
        super().__init__()
        if not dist.is_initialized():
            raise RuntimeError("DistributedDataParallel: Default process group has not been initialized, please "
                               "make sure to call init_process_group.")
        if device_ids or output_device is not None:
            raise ValueError("DistributedDataParallel: device_ids and output_device must be None for CPU modules, "
                             f"got device_ids={device_ids}, output_device={output_device}")
        named = [(n, p) for n, p in module.named_parameters() if p.requires_grad]
        if not named:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have any parameter "
                               "that requires a gradient.")
        pg = process_group if process_group is not None else dist.group.WORLD
        self.process_group = dist._group.resolve(pg, "DistributedDataParallel")
        if self.process_group is None:
            raise ValueError("DistributedDataParallel: this rank is not a member of process_group")
        self.module = module
        self.device_ids, self.output_device, self.dim = None, None, dim
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.bucket_bytes_cap = int(bucket_cap_mb * 1024 * 1024)
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self._verify_same_model(named)
        self._authoritative_rank = self.process_group.global_rank(0)
        states = [p for _, p in module.named_parameters()] + list(module.buffers())
        if states:
            _broadcast_coalesced(states, self._authoritative_rank, self.process_group)
        self.reducer = Reducer([p for _, p in named], [n for n, _ in named], self.process_group,
                               self.bucket_bytes_cap, find_unused_parameters, gradient_as_bucket_view)

    def _verify_same_model(self, named):
        mine = [(n, tuple(p.shape), str(p.dtype)) for n, p in named]
        every = [None] * self.process_group.size()
        dist.all_gather_object(every, mine, group=self.process_group)
        for rank, theirs in enumerate(every):
            if theirs == mine:
                continue
            rank = self.process_group.global_rank(rank)
            if len(theirs) != len(mine):
                raise RuntimeError(f"DistributedDataParallel expects the same model on every rank, but rank {rank} "
                                   f"has {len(theirs)} parameters requiring gradients and this rank {len(mine)}")
            first = next(j for j in range(len(mine)) if theirs[j] != mine[j])
            raise RuntimeError(f"DistributedDataParallel expects the same model on every rank: parameter {first} is "
                               f"{theirs[first]} on rank {rank} but {mine[first]} here")

    def forward(self, *inputs, **kwargs):
        self.reducer.prepare_for_forward()
        if self.require_forward_param_sync and self.broadcast_buffers and self.process_group.size() > 1:
            buffers = list(self.module.buffers())
            if buffers:
                _broadcast_coalesced(buffers, self._authoritative_rank, self.process_group)
        output = self.module(*inputs, **kwargs)
        if core.is_grad_enabled() and self.require_backward_grad_sync:
            self.require_forward_param_sync = True
            self.reducer.prepare_for_backward(output)
        else:
            self.require_forward_param_sync = False
        return output

    @contextlib.contextmanager
    def no_sync(self):
        """Backward passes of forwards run inside this context keep their gradients local
        (accumulating in .grad); the first forward-backward after it reduces the sum."""
        previous = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = previous
