"""torch.nn's batch-norm modules (PyTorch 1.8): _NormBase, _BatchNorm, BatchNorm1d/2d/3d and
SyncBatchNorm (statistics across the ranks of a process group)."""
import core
import core.distributed as dist
from core.nn import functional as F
from core.nn import init
from core.nn.modules._sync_batch_norm import SyncBatchNormFunction
from core.nn.modules.module import Module
from core.nn.parameter import Parameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm"]


class _NormBase(Module):
    """Parameters and running-stat buffers shared by batch and instance norm."""
    _version = 2  # version 2 added num_batches_tracked

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(core.empty(num_features))
            self.bias = Parameter(core.empty(num_features))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", core.zeros(num_features))
            self.register_buffer("running_var", core.ones(num_features))
            self.register_buffer("num_batches_tracked", core.tensor(0, dtype=core.long))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        if (version is None or version < 2) and self.track_running_stats:
            # checkpoints from before num_batches_tracked existed
            key = prefix + "num_batches_tracked"
            if key not in state_dict:
                state_dict[key] = core.tensor(0, dtype=core.long)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)


class _BatchNorm(_NormBase):
    def _average_factor(self):
        """The running statistics' update weight of this forward (counting the batch when training)."""
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            # momentum=None: a cumulative moving average
            factor = 1.0 / float(self.num_batches_tracked.item()) if self.momentum is None else self.momentum
        return factor

    def forward(self, input):
        self._check_input_dim(input)
        factor = self._average_factor()
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_stats = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_stats else None,
                            self.running_var if use_stats else None, self.weight, self.bias,
                            bn_training, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class SyncBatchNorm(_BatchNorm):
    """Batch norm whose training statistics are those of the whole batch across the ranks of
    `process_group` (default: the default group), for DistributedDataParallel with small per-rank
    batches. With no process group initialised, a group of one, or in eval mode with running
    statistics, it is exactly BatchNorm."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats)
        self.process_group = process_group
        self.ddp_gpu_size = None

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        group = None
        if bn_training and dist.is_initialized():
            group = dist._group.resolve(self.process_group, "SyncBatchNorm")
        if group is None or group.size() == 1:
            return super().forward(input)
        factor = self._average_factor()
        track = not self.training or self.track_running_stats
        return SyncBatchNormFunction.apply(input, self.weight, self.bias, self.running_mean if track else None,
                                           self.running_var if track else None, self.eps, factor, group)

    def _specify_ddp_gpu_num(self, gpu_size):
        if gpu_size > 1:
            raise ValueError("SyncBatchNorm is only supported for DDP with single GPU per process")
        self.ddp_gpu_size = gpu_size

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """Returns `module` with every _BatchNorm (recursively) replaced by a SyncBatchNorm
        sharing its parameters and buffers."""
        out = module
        if isinstance(module, _BatchNorm):
            out = cls(module.num_features, module.eps, module.momentum, module.affine,
                      module.track_running_stats, process_group)
            if module.affine:
                with core.no_grad():
                    out.weight = module.weight
                    out.bias = module.bias
            out.running_mean = module.running_mean
            out.running_var = module.running_var
            out.num_batches_tracked = module.num_batches_tracked
            out.training = module.training
            if hasattr(module, "qconfig"):
                out.qconfig = module.qconfig
        for name, child in module.named_children():
            out.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return out
