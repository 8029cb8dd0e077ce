"""core.accelerator (torch.accelerator, PyTorch 2.6+): there is no accelerator, only the CPU."""
from core._device import checked


def is_available():
    return False


def device_count():
    return 0


def current_accelerator(check_available=False):
    """None: no accelerator is present (PyTorch's answer on a CPU-only build)."""
    return None


def _unavailable(*args, **kwargs):
    raise RuntimeError("core.accelerator: no accelerator is available; tensorzoo runs on the CPU only")


current_device_index = set_device_index = synchronize = _unavailable
