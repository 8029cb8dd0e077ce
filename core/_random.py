"""Generators: core.Generator, the default generator and the global seeding functions.

The default engine reproduces PyTorch's CPU generator: after ``core.manual_seed(s)`` the
random ops give the numbers ``torch.manual_seed(s)`` gives, and ``get_rng_state()`` has
torch's byte layout (a state moves between the two with ``set_rng_state``).
"""
from core._native import _C

default_generator = _C.default_generator()
GeneratorEngine = _C._GeneratorEngine  # base class for engines written elsewhere


class _GeneratorMeta(type):
    # core.Generator() builds the default CPU engine; isinstance() accepts every engine,
    # so generators from other packages (crypto_rng) work wherever core takes one.
    def __call__(cls, device="cpu"):
        if str(device) != "cpu":
            raise RuntimeError(f"Generator(): only the 'cpu' device is supported, got {device!r}")
        return _C._CPUGenerator()

    def __instancecheck__(cls, obj):
        return isinstance(obj, GeneratorEngine)


class Generator(metaclass=_GeneratorMeta):
    """A random engine: ``core.Generator().manual_seed(0)``.

    Methods (of every engine): ``manual_seed(seed)`` (returns the generator), ``seed()``,
    ``initial_seed()``, ``get_state()`` (a uint8 tensor), ``set_state(state)``.
    """


def manual_seed(seed):
    """Seeds the default generator; returns it, as torch.manual_seed does."""
    return default_generator.manual_seed(int(seed))


def seed():
    """Seeds the default generator from the OS's entropy; returns the seed."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a uint8 tensor (torch.get_rng_state's layout)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restores a state from get_rng_state() (or from torch.get_rng_state(), as bytes)."""
    default_generator.set_state(new_state)
