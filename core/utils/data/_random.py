"""The random draws of samplers and splits, in one place.

They follow torch's CPU algorithms on a core.Generator, so that sample orders match torch's for
the same seed. core.randperm / randint / multinomial are used when core has them; until then a
small fallback reproduces torch's small-n algorithms from the generator's raw 32/64-bit draws
(`multinomial` without replacement is not bit-exact there).
"""
import numpy as np

import core

_INT64_SPAN = 1 << 63
_DOUBLE_MASK = (1 << 53) - 1
_DOUBLE_SCALE = 1.0 / (1 << 53)


def _engine(generator):
    return core.default_generator if generator is None else generator


def random_seed(generator=None):
    """torch's `int(torch.empty((), dtype=torch.int64).random_(generator=g).item())`."""
    return _engine(generator).random64() % _INT64_SPAN


def randperm(n, generator=None):
    """A list holding a random permutation of range(n)."""
    if hasattr(core, "randperm"):
        return core.randperm(n, generator=generator).tolist()
    g = _engine(generator)
    perm = list(range(n))
    # torch's Fisher-Yates for n < 2**32 / 20: swap i with i + random() % (n - i).
    for i in range(n - 1):
        z = i + g.random() % (n - i)
        perm[i], perm[z] = perm[z], perm[i]
    return perm


def randint(high, size, generator=None):
    """A list of `size` integers drawn uniformly from [0, high)."""
    if hasattr(core, "randint"):
        return core.randint(high=high, size=(size,), dtype=core.int64, generator=generator).tolist()
    g = _engine(generator)
    draw = g.random64 if high >= (1 << 32) else g.random
    return [draw() % high for _ in range(size)]


def multinomial(weights, num_samples, replacement, generator=None):
    """Indices drawn with probability proportional to `weights` (a float64 numpy vector)."""
    if hasattr(core, "multinomial"):
        return core.multinomial(core.from_numpy(weights), num_samples, replacement,
                                generator=generator).tolist()
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise RuntimeError("multinomial(): probability tensor contains either `inf`, `nan` or element < 0")
    if not weights.sum() > 0:
        raise RuntimeError("multinomial(): invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement and num_samples > int(np.count_nonzero(weights)):
        raise RuntimeError("multinomial(): cannot sample n_sample > prob_dist.size(-1) samples "
                           "without replacement")
    g = _engine(generator)
    if replacement and num_samples > 1:
        # torch: binary search of each uniform in the normalised running sum.
        cumulative = np.cumsum(weights)
        cumulative /= cumulative[-1]
        return np.searchsorted(cumulative, _uniforms(g, num_samples), side="left").tolist()
    # torch: the largest weights / Exp(1) draws (one draw per category).
    keys = weights / -np.log1p(-_uniforms(g, len(weights)))
    return np.argsort(-keys, kind="stable")[:num_samples].tolist()


def _uniforms(g, count):
    # Doubles in [0, 1) from 53 random bits, as torch's uniform_real_distribution<double>.
    return np.array([(g.random64() & _DOUBLE_MASK) * _DOUBLE_SCALE for _ in range(count)])
