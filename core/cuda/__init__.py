"""core.cuda: the torch.cuda API of a build without CUDA. Queries answer as PyTorch's CPU-only
build does (is_available() is False, device_count() is 0); seeding is a no-op; anything that needs
a GPU raises PyTorch's "Torch not compiled with CUDA enabled"."""
from core._device import checked


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def manual_seed(seed):
    """Seeds the GPUs' generators: there are none, so this does nothing (as in PyTorch)."""


def manual_seed_all(seed):
    """Seeds every GPU's generator: there are none, so this does nothing (as in PyTorch)."""


def seed():
    """No GPU generators to seed."""


def seed_all():
    """No GPU generators to seed."""


def empty_cache():
    """Nothing is cached: there is no GPU allocator."""


def _unavailable(*args, **kwargs):
    checked("cuda", "cuda")


current_device = synchronize = get_device_name = get_device_properties = get_device_capability = _unavailable
memory_allocated = max_memory_allocated = memory_reserved = set_device = init = _unavailable
