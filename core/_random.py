"""Generators: core.Generator, the default generator and the global seeding functions."""
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
    """A random engine: `core.Generator().manual_seed(0)`."""


def manual_seed(seed):
    """Seeds the default generator; returns it, as torch.manual_seed does."""
    return default_generator.manual_seed(int(seed))


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    from core._creation import frombuffer_uint8

    return frombuffer_uint8(default_generator.get_state())


def set_rng_state(state):
    default_generator.set_state(bytes(state.numpy().tobytes()))
