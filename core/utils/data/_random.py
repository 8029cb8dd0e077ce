"""The random draws of samplers and splits, in one place: core's generators reproduce torch's
CPU streams, so sample orders match torch's for the same seed."""
import core

_INT64_SPAN = 1 << 63


def _engine(generator):
    return core.default_generator if generator is None else generator


def random_seed(generator=None):
    """torch's `int(torch.empty((), dtype=torch.int64).random_(generator=g).item())`."""
    return _engine(generator).random64() % _INT64_SPAN


def randperm(n, generator=None):
    """A list holding a random permutation of range(n)."""
    return core.randperm(n, generator=generator).tolist()


def randint(high, size, generator=None):
    """A list of `size` integers drawn uniformly from [0, high)."""
    return core.randint(high=high, size=(size,), dtype=core.int64, generator=generator).tolist()


def multinomial(weights, num_samples, replacement, generator=None):
    """Indices drawn with probability proportional to `weights` (a float64 numpy vector)."""
    return core.multinomial(core.from_numpy(weights), num_samples, replacement, generator=generator).tolist()
