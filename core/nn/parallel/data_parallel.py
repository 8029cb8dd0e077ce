"""torch.nn.DataParallel on the one CPU device. PyTorch's DataParallel, with no GPU present, keeps
the module and runs it as it is (no replicas, no scatter or gather); so does this one. The module
is registered as `module`, so state_dict keys carry the "module." prefix programs expect."""
from core.nn.modules.module import Module

__all__ = ["DataParallel", "data_parallel"]


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []  # no accelerator devices: the module runs where it is
        self.output_device = None
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    """module(*inputs) evaluated "in parallel" over no accelerators: on the CPU, once."""
    if not isinstance(inputs, tuple):
        inputs = (inputs,)
    return module(*inputs, **(module_kwargs or {}))
