"""Random ops on their own: distribution sanity (moments, chi-square), reproducibility,
generators (the CPU engine, Python engines, states), dtypes, errors, in-place semantics
and thread safety. Bit-for-bit agreement with torch is in tests/parity/test_random_parity.py.

Every statistical check runs on a fixed seed, so it is deterministic: the thresholds are
generous multiples of the expected sampling error."""
import math
import threading

import numpy as np
import pytest

import core
from support import CAPABILITIES, run_with_capability


def _chi2_uniform_bins(values, lo, hi, bins=20):
    counts, _ = np.histogram(values, bins=bins, range=(lo, hi))
    expected = len(values) / bins
    return float(((counts - expected) ** 2 / expected).sum())


def _normal_cdf(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def _chi2_normal(values, bins=20):
    edges = np.linspace(-3, 3, bins - 1)
    counts = np.histogram(values, bins=np.concatenate([[-np.inf], edges, [np.inf]]))[0]
    cdf = np.array([0.0] + [_normal_cdf(e) for e in edges] + [1.0])
    expected = np.diff(cdf) * len(values)
    return float(((counts - expected) ** 2 / expected).sum())


# 20 bins: 19 degrees of freedom; 60 is far beyond the 99.99th percentile (~45).
CHI2_LIMIT = 60


# ---------------------------------------------------------------------- distributions

def test_rand_is_uniform():
    core.manual_seed(0)
    for dtype in [core.float32, core.float64]:
        x = core.rand(200_000, dtype=dtype).numpy()
        assert x.min() >= 0 and x.max() < 1
        assert abs(x.mean() - 0.5) < 0.005 and abs(x.var() - 1 / 12) < 0.002
        assert _chi2_uniform_bins(x, 0, 1) < CHI2_LIMIT


def test_uniform_range_stays_half_open():
    core.manual_seed(1)
    for dtype in [core.float16, core.bfloat16, core.float32]:
        x = core.empty(200_000, dtype=dtype).uniform_(1000, 1001).to(core.float64).numpy()
        assert x.min() >= 1000 and x.max() < 1001


@pytest.mark.parametrize("n", [1, 7, 15, 16, 17, 100_001])
def test_randn_is_standard_normal(n):
    # Small sizes use the cached-pair path, large ones the 16-blocks; both must be N(0, 1).
    core.manual_seed(n)
    reps = max(1, 200_000 // n)
    x = np.concatenate([core.randn(n).numpy() for _ in range(reps)])
    assert abs(x.mean()) < 0.01 and abs(x.std() - 1) < 0.01
    assert _chi2_normal(x) < CHI2_LIMIT


def test_randn_float64_and_half_types():
    core.manual_seed(2)
    for dtype in [core.float64, core.float16, core.bfloat16]:
        x = core.randn(100_000, dtype=dtype).to(core.float64).numpy()
        assert abs(x.mean()) < 0.02 and abs(x.std() - 1) < 0.02


def test_normal_parameters():
    core.manual_seed(3)
    x = core.normal(2.0, 3.0, (200_000,)).numpy()
    assert abs(x.mean() - 2) < 0.03 and abs(x.std() - 3) < 0.03
    x = core.empty(100, 1000).normal_(-1.0, 0.5).numpy()
    assert abs(x.mean() + 1) < 0.01 and abs(x.std() - 0.5) < 0.01
    means, stds = core.full((50_000,), 5.0), core.full((50_000,), 0.1)
    x = core.normal(means, stds).numpy()
    assert abs(x.mean() - 5) < 0.01 and abs(x.std() - 0.1) < 0.005
    assert core.normal(0.3, 0.0, (5,)).numpy().tolist() == [np.float32(0.3)] * 5


def test_complex_rand_and_randn():
    core.manual_seed(4)
    z = core.randn(100_000, dtype=core.complex64).numpy()
    assert abs(np.var(z.real) - 0.5) < 0.01 and abs(np.var(z.imag) - 0.5) < 0.01
    u = core.rand(1000, dtype=core.complex64).numpy()
    assert (u.real >= 0).all() and (u.real < 1).all() and (u.imag >= 0).all() and (u.imag < 1).all()


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "float32", "float64"])
def test_randint_covers_the_range(dtype):
    core.manual_seed(5)
    x = core.randint(3, 13, (100_000,), dtype=getattr(core, dtype)).numpy()
    assert x.dtype == np.dtype(dtype)
    counts = np.bincount(x.astype(np.int64) - 3, minlength=10)
    assert len(counts) == 10
    expected = len(x) / 10
    assert ((counts - expected) ** 2 / expected).sum() < 35  # 9 degrees of freedom


def test_randint_wide_and_full_ranges():
    core.manual_seed(6)
    x = core.randint(-2**40, 2**40, (10_000,)).numpy()
    assert x.min() >= -2**40 and x.max() < 2**40 and x.min() < -2**39 and x.max() > 2**39
    x = core.empty(10_000, dtype=core.int64).random_(-2**63, None).numpy()
    assert (x < 0).any() and (x > 2**62).any()


def test_random_default_ranges():
    core.manual_seed(7)
    assert core.empty(1000, dtype=core.bool).random_().numpy().mean() == pytest.approx(0.5, abs=0.06)
    x = core.empty(10_000, dtype=core.uint8).random_().numpy()
    assert x.min() == 0 and x.max() == 255
    x = core.empty(10_000, dtype=core.int8).random_().numpy()
    assert x.min() == 0 and x.max() == 127
    x = core.empty(10_000, dtype=core.float16).random_().to(core.float32).numpy()
    assert x.min() >= 0 and x.max() <= 2048 and (x == np.round(x)).all()
    x = core.empty(10_000).random_(5).numpy()
    assert set(np.unique(x).tolist()) == {0, 1, 2, 3, 4}


def test_randperm_is_a_permutation():
    core.manual_seed(8)
    for n in [0, 1, 2, 17, 1000]:
        for dtype in [core.int64, core.int32, core.float32, core.float16]:
            p = core.randperm(n, dtype=dtype).numpy()
            assert sorted(p.tolist()) == list(range(n))
    first = np.array([core.randperm(5).numpy()[0] for _ in range(5000)])
    assert np.bincount(first, minlength=5).min() > 850  # 1000 expected per value


def test_bernoulli_frequencies():
    core.manual_seed(9)
    for dtype in [core.float32, core.float64, core.int64, core.bool, core.float16]:
        x = core.empty(100_000, dtype=dtype).bernoulli_(0.3).to(core.float64).numpy()
        assert set(np.unique(x).tolist()) <= {0.0, 1.0}
        assert abs(x.mean() - 0.3) < 0.01
    p = core.tensor(np.linspace(0, 1, 11).repeat(10_000))
    x = core.bernoulli(p).numpy().reshape(11, 10_000).mean(axis=1)
    np.testing.assert_allclose(x, np.linspace(0, 1, 11), atol=0.02)
    assert core.bernoulli(core.zeros(100)).numpy().sum() == 0
    assert core.bernoulli(core.ones(100)).numpy().sum() == 100
    assert core.bernoulli(core.zeros(50), 1.0).numpy().sum() == 50


def test_bernoulli_broadcasts_probabilities():
    core.manual_seed(10)
    x = core.empty(20_000, 3).bernoulli_(core.tensor([0.0, 0.5, 1.0])).numpy()
    assert x[:, 0].sum() == 0 and x[:, 2].sum() == 20_000 and abs(x[:, 1].mean() - 0.5) < 0.02


def test_continuous_distribution_moments():
    core.manual_seed(11)
    x = core.empty(200_000).exponential_(4.0).numpy()
    assert x.min() >= 0 and abs(x.mean() - 0.25) < 0.005
    x = core.empty(200_000, dtype=core.float64).cauchy_(2.0, 0.5).numpy()
    assert abs(np.median(x) - 2.0) < 0.01 and abs(np.percentile(x, 75) - 2.5) < 0.02
    x = core.empty(200_000, dtype=core.float64).log_normal_(1.0, 0.5).numpy()
    assert x.min() > 0 and abs(np.log(x).mean() - 1.0) < 0.01 and abs(np.log(x).std() - 0.5) < 0.01
    x = core.empty(200_000).geometric_(0.25).numpy()
    assert x.min() >= 1 and (x == np.round(x)).all() and abs(x.mean() - 4.0) < 0.05
    x = core.empty(1000, dtype=core.int32).geometric_(0.5).numpy()
    assert x.dtype == np.int32 and x.min() >= 1


def test_multinomial_frequencies():
    core.manual_seed(12)
    probs = np.array([0.1, 0.0, 0.3, 0.6], dtype=np.float32)
    x = core.multinomial(core.tensor(probs), 100_000, True).numpy()
    np.testing.assert_allclose(np.bincount(x, minlength=4) / len(x), probs, atol=0.01)
    # Unnormalised weights, 2-D, several draws without replacement: distinct, never weight 0.
    weights = core.tensor(np.array([[1, 0, 3, 6], [5, 5, 0, 0]], dtype=np.float32))
    for _ in range(200):
        s = core.multinomial(weights, 2).numpy()
        assert s.shape == (2, 2)
        assert len(set(s[0])) == 2 and 1 not in s[0]
        assert sorted(s[1]) == [0, 1]
    firsts = np.array([core.multinomial(core.tensor(probs), 1).numpy()[0] for _ in range(5000)])
    np.testing.assert_allclose(np.bincount(firsts, minlength=4) / 5000, probs, atol=0.03)


def test_like_factories():
    x = core.transpose(core.zeros(3, 5, dtype=core.float64), 0, 1)
    for fn in [core.rand_like, core.randn_like]:
        y = fn(x)
        assert y.shape == x.shape and y.dtype == core.float64 and y.stride() == x.stride()
    y = core.randint_like(x, 4, 9, dtype=core.int32)
    assert y.dtype == core.int32 and y.stride() == x.stride()
    assert ((y.numpy() >= 4) & (y.numpy() < 9)).all()
    assert core.randint_like(core.zeros(4, dtype=core.int16), 3).dtype == core.int16


# ---------------------------------------------------------------------- reproducibility and generators

def test_manual_seed_reproduces_every_op():
    def program():
        return [core.rand(5), core.randn(20), core.randint(0, 9, (4,)), core.randperm(7),
                core.empty(6).exponential_(), core.multinomial(core.ones(5), 3),
                core.bernoulli(core.full((6,), 0.5)), core.normal(core.zeros(3), 1.0)]

    core.manual_seed(123)
    first = [t.numpy() for t in program()]
    core.manual_seed(123)
    second = [t.numpy() for t in program()]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_generator_objects():
    g = core.Generator()
    assert isinstance(g, core.Generator) and g.device == "cpu"
    assert g.manual_seed(5) is g and g.initial_seed() == 5
    a = core.rand(10, generator=g)
    g.manual_seed(5)
    np.testing.assert_array_equal(a.numpy(), core.rand(10, generator=g).numpy())
    # An explicit generator leaves the default one alone.
    core.manual_seed(0)
    expected = core.rand(3).numpy()
    core.manual_seed(0)
    core.randn(100, generator=core.Generator().manual_seed(1))
    np.testing.assert_array_equal(core.rand(3).numpy(), expected)
    s = g.seed()
    assert g.initial_seed() == s and 0 <= s < 2**64
    assert core.Generator().initial_seed() == 67280421310721  # PyTorch's default seed


def test_seed_functions():
    assert core.manual_seed(7) is core.default_generator and core.initial_seed() == 7
    assert core.manual_seed(-1).initial_seed() == 2**64 - 1
    s = core.seed()
    assert core.initial_seed() == s
    with pytest.raises(ValueError, match="seed"):
        core.manual_seed(2**64)
    with pytest.raises(ValueError, match="seed"):
        core.Generator().manual_seed(-2**63 - 1)


def test_state_round_trip_includes_the_cached_normal():
    core.manual_seed(3)
    core.randn(1)  # caches the second Box-Muller value
    state = core.get_rng_state()
    assert state.dtype == core.uint8 and state.shape == (5056,)
    after = [core.randn(1).numpy(), core.rand(4).numpy(), core.randn(3).numpy()]
    core.set_rng_state(state)
    again = [core.randn(1).numpy(), core.rand(4).numpy(), core.randn(3).numpy()]
    for a, b in zip(after, again):
        np.testing.assert_array_equal(a, b)
    g = core.Generator().manual_seed(9)
    h = core.Generator().set_state(g.get_state())
    np.testing.assert_array_equal(core.randn(30, generator=g).numpy(), core.randn(30, generator=h).numpy())
    g.set_state(bytes(h.get_state().numpy()))  # bytes work too
    np.testing.assert_array_equal(core.rand(3, generator=g).numpy(), core.rand(3, generator=h).numpy())


def test_bad_states_are_refused():
    g = core.Generator()
    with pytest.raises(RuntimeError, match="5056"):
        g.set_state(core.zeros(10, dtype=core.uint8))
    bad = g.get_state().numpy().copy()
    bad[8:12] = np.frombuffer(np.int32(0).tobytes(), np.uint8)  # left = 0
    with pytest.raises(RuntimeError, match="invalid mt19937 state"):
        g.set_state(core.tensor(bad))
    with pytest.raises(TypeError):
        g.set_state(core.zeros(5056))


class LCG(core._C._GeneratorEngine):
    """A toy engine in Python: 32-bit linear congruential."""

    def __init__(self, seed=1):
        super().__init__()
        self.set_seed(seed)

    def random(self):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return self.state

    def set_seed(self, seed):
        self.seed_value = seed
        self.state = seed & 0xFFFFFFFF

    def initial_seed(self):
        return self.seed_value

    def get_state(self):
        return core.tensor(list(self.state.to_bytes(4, "little")), dtype=core.uint8)

    def set_state(self, state):
        self.state = int.from_bytes(bytes(state.numpy().tolist()), "little")


def test_python_engine_drives_every_op():
    eng = LCG(42)
    assert isinstance(eng, core.Generator)
    x = core.rand(4, generator=eng).numpy()
    # rand takes 24 bits of each 32-bit draw.
    ref, s = [], 42
    for _ in range(4):
        s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
        ref.append((s & 0xFFFFFF) / 2**24)
    np.testing.assert_array_equal(x, np.array(ref, dtype=np.float32))
    assert eng.manual_seed(42) is eng and eng.initial_seed() == 42
    np.testing.assert_array_equal(core.rand(4, generator=eng).numpy(), x)
    for op in [lambda: core.randn(20, generator=eng), lambda: core.randint(0, 5, (8,), generator=eng),
               lambda: core.randperm(9, generator=eng), lambda: core.multinomial(core.ones(4), 2, generator=eng),
               lambda: core.empty(5).exponential_(generator=eng), lambda: core.bernoulli(core.full((5,), 0.5), generator=eng)]:
        state = eng.get_state()
        a = op().numpy()
        eng.set_state(state)
        np.testing.assert_array_equal(op().numpy(), a)


def test_generator_is_thread_safe():
    g = core.Generator().manual_seed(77)
    chunks, lock = [], threading.Lock()

    def work():
        for _ in range(25):
            c = core.randint(0, 2**31, (64,), generator=g).numpy()
            with lock:
                chunks.append(tuple(c.tolist()))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Each call holds the generator: the chunks are the serial stream's chunks, in some order.
    h = core.Generator().manual_seed(77)
    serial = {tuple(core.randint(0, 2**31, (64,), generator=h).numpy().tolist()) for _ in range(100)}
    assert set(chunks) == serial


def test_python_engine_shared_between_threads_does_not_deadlock():
    eng = LCG(5)
    results = []

    def work():
        for _ in range(5):
            results.append(core.rand(3000, generator=eng).numpy())

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    eng2 = LCG(5)
    serial = {core.rand(3000, generator=eng2).numpy().tobytes() for _ in range(15)}
    assert {r.tobytes() for r in results} == serial


def test_parallel_transform_gives_the_serial_stream():
    threads = core.get_num_threads()
    try:
        out = []
        for n in [1, 2]:
            core.set_num_threads(n)
            core.manual_seed(31)
            out.append((core.randn(200_003).numpy(), core.randn(70_001, dtype=core.float64).numpy(),
                        core.randn(50_001, dtype=core.float16).numpy()))
        for a, b in zip(*out):
            np.testing.assert_array_equal(a, b)
    finally:
        core.set_num_threads(threads)


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_every_simd_build_gives_the_same_normals(capability):
    code = (
        "import sys, core\n"
        "core.manual_seed(5)\n"
        "x = core.randn(100_003)\n"
        "y = core.normal(0.3, 1.7, (4099,), dtype=core.float16).to(core.float32)\n"
        "sys.stdout.write(x.numpy().tobytes().hex()[:20000] + y.numpy().tobytes().hex())\n"
    )
    assert run_with_capability(code, "baseline") == run_with_capability(code, capability)


# ---------------------------------------------------------------------- in-place semantics

def test_in_place_ops_write_views_and_bump_versions():
    base = core.zeros(4, 6)
    view = core.transpose(base, 0, 1)
    for op in [lambda t: t.uniform_(), lambda t: t.normal_(), lambda t: t.random_(3), lambda t: t.bernoulli_(0.5),
               lambda t: t.exponential_(), lambda t: t.cauchy_(), lambda t: t.log_normal_(), lambda t: t.geometric_(0.5),
               lambda t: t.random_(), lambda t: t.random_(1, 4), lambda t: t.bernoulli_(core.full((4,), 0.5))]:
        before = base._version
        assert op(view) is view
        assert base._version == before + 1
    core.manual_seed(0)
    view.uniform_(2, 3)
    assert ((base.numpy() >= 2) & (base.numpy() < 3)).all()


def test_fresh_results_have_version_zero():
    for t in [core.rand(3), core.randn(20), core.normal(core.zeros(3), core.ones(3)), core.bernoulli(core.rand(3)),
              core.zeros_like(core.ones(2)), core.full_like(core.ones(2), 4)]:
        assert t._version == 0


def test_empty_tensors():
    for t in [core.rand(0), core.randn(0, 3), core.randint(0, 3, (0,)), core.randperm(0),
              core.empty(0).uniform_(), core.empty(0).normal_(), core.empty(0, dtype=core.int64).random_(),
              core.multinomial(core.ones(0, 3), 2)]:
        assert t.numel() == 0


def test_autograd_sees_draws_as_constants():
    # As in PyTorch: normal/bernoulli of tensors pass zero gradients, in-place draws cut the
    # gradient to the overwritten value, *_like results do not require grad.
    m, s = core.zeros(3).requires_grad_(), core.ones(3).requires_grad_()
    out = core.normal(m, s)
    assert out.requires_grad
    out.backward(core.ones(3))
    assert m.grad.numpy().tolist() == [0, 0, 0] and s.grad.numpy().tolist() == [0, 0, 0]
    x = core.ones(20).requires_grad_()
    y = x * 2
    y.normal_()
    y.backward(core.ones(20))
    assert (x.grad.numpy() == 0).all()
    p = core.full((4,), 0.5).requires_grad_()
    b = core.bernoulli(p)
    b.backward(core.ones(4))
    assert (p.grad.numpy() == 0).all()
    for t in [core.rand_like(p), core.randn_like(p), core.zeros_like(p), core.full_like(p, 2), core.multinomial(p, 2)]:
        assert not t.requires_grad
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        p.uniform_()
    with core.no_grad():
        p.uniform_()


# ---------------------------------------------------------------------- dtypes and errors

def test_default_dtypes():
    assert core.rand(2).dtype == core.float32 and core.randn(2).dtype == core.float32
    assert core.randint(0, 3, (2,)).dtype == core.int64 and core.randperm(3).dtype == core.int64
    assert core.normal(0, 1, (2,)).dtype == core.float32
    assert core.multinomial(core.ones(3, dtype=core.float64), 2).dtype == core.int64
    assert core.bernoulli(core.rand(3, dtype=core.float64)).dtype == core.float64
    assert core.normal(core.zeros(2, dtype=core.float64), 1.0).dtype == core.float64
    assert core.rand(2, dtype=core.bfloat16).dtype == core.bfloat16
    previous = core.get_default_dtype()
    try:
        core.set_default_dtype(core.float64)
        assert core.rand(2).dtype == core.float64 and core.randn(2).dtype == core.float64
    finally:
        core.set_default_dtype(previous)


ERRORS = [
    (lambda: core.randint(5, 3, (2,)), RuntimeError, "randint(): expected 'from' to be less than 'to'"),
    (lambda: core.randint(0, 300, (2,), dtype=core.uint8), RuntimeError, "to - 1 is out of bounds for uint8"),
    (lambda: core.empty(3, dtype=core.uint8).random_(-1, 5), RuntimeError, "from is out of bounds"),
    (lambda: core.empty(3).random_(3, 3), RuntimeError, "random_(): expected 'from' to be less than 'to'"),
    (lambda: core.rand(-1, 2), RuntimeError, "negative dimension"),
    (lambda: core.randn((2, -3)), RuntimeError, "negative dimension"),
    (lambda: core.randperm(-1), RuntimeError, "randperm(): n must be non-negative"),
    (lambda: core.randperm(3, dtype=core.bool), NotImplementedError, "randperm(): not implemented for dtype bool"),
    (lambda: core.randperm(2**24 + 2, dtype=core.float32), RuntimeError, "n cannot be greater than 2^24+1"),
    (lambda: core.empty(3).bernoulli_(1.5), RuntimeError, "bernoulli_(): expected p to be in [0, 1]"),
    (lambda: core.empty(3).bernoulli_(-0.1), RuntimeError, "[0, 1]"),
    (lambda: core.bernoulli(core.tensor([1.5, 0.2])), RuntimeError, "probability in [0, 1]"),
    (lambda: core.bernoulli(core.tensor([float("nan")])), RuntimeError, "probability in [0, 1]"),
    (lambda: core.bernoulli(core.tensor([1, 0])), NotImplementedError, "floating point tensor of probabilities"),
    (lambda: core.empty(3).bernoulli_(core.rand(4)), RuntimeError, "bernoulli_"),
    (lambda: core.normal(0.0, -1.0, (2,)), RuntimeError, "normal(): expected std >= 0.0"),
    (lambda: core.normal(core.zeros(2), core.tensor([-1.0, 1.0])), RuntimeError, "all elements of std >= 0.0"),
    (lambda: core.normal(core.zeros(2), -1.0), RuntimeError, "std >= 0.0"),
    (lambda: core.normal(1.0, core.tensor([float("nan")])), RuntimeError, "std >= 0.0"),
    (lambda: core.empty(3).normal_(0, -1), RuntimeError, "normal_(): expected std >= 0.0"),
    (lambda: core.normal(core.zeros(2, dtype=core.int64), 1.0), NotImplementedError, "floating point"),
    (lambda: core.normal(core.zeros(2), core.ones(3)), RuntimeError, "size"),
    (lambda: core.multinomial(core.tensor([-1.0, 1.0]), 1), RuntimeError, "`inf`, `nan` or element < 0"),
    (lambda: core.multinomial(core.tensor([float("inf"), 1.0]), 1), RuntimeError, "`inf`, `nan` or element < 0"),
    (lambda: core.multinomial(core.tensor([0.0, 0.0]), 1), RuntimeError, "sum of probabilities <= 0"),
    (lambda: core.multinomial(core.tensor([1.0, 1.0]), 3), RuntimeError, "without replacement"),
    (lambda: core.multinomial(core.tensor([1.0, 1.0]), 0), RuntimeError, "n_sample <= 0"),
    (lambda: core.multinomial(core.tensor([1, 1]), 1), RuntimeError, "floating-point dtypes"),
    (lambda: core.multinomial(core.ones(2, 2, 2), 1), RuntimeError, "prob_dist must be 1 or 2 dim"),
    (lambda: core.multinomial(core.ones(0), 1), RuntimeError, "multinomial(): "),
    (lambda: core.multinomial(core.tensor([-1.0, 1.0]), 3, True), RuntimeError, "probability entry < 0"),
    (lambda: core.multinomial(core.tensor([float("nan"), 1.0]), 3, True), RuntimeError, "probability entry"),
    (lambda: core.multinomial(core.tensor([0.0, 0.0]), 3, True), RuntimeError, "sum of probabilities <= 0"),
    (lambda: core.rand(3, dtype=core.int64), NotImplementedError, "rand(): expected a floating point"),
    (lambda: core.randn(3, dtype=core.int32), NotImplementedError, "randn(): expected a floating point"),
    (lambda: core.rand_like(core.zeros(2, dtype=core.int64)), NotImplementedError, "rand_like()"),
    (lambda: core.empty(3, dtype=core.int64).uniform_(), NotImplementedError, "uniform_(): expected a floating"),
    (lambda: core.empty(3).uniform_(2, 1), RuntimeError, "uniform_(): expected a [from, to) range"),
    (lambda: core.empty(3, dtype=core.float16).uniform_(0, 1e6), RuntimeError, "to is out of bounds for float16"),
    (lambda: core.empty(3).exponential_(-1), RuntimeError, "exponential_(): expected lambda > 0.0"),
    (lambda: core.empty(3).exponential_(float("inf")), RuntimeError, "lambda > 0.0"),
    (lambda: core.empty(3, dtype=core.int64).exponential_(), NotImplementedError, "exponential_(): expected a floating"),
    (lambda: core.empty(3).geometric_(1.5), RuntimeError, "geometric_(): expected p to be in (0, 1)"),
    (lambda: core.empty(3, dtype=core.bool).geometric_(0.5), TypeError, "geometric_(): not implemented for dtype bool"),
    (lambda: core.empty(3).log_normal_(1, -2), RuntimeError, "log_normal_(): expected std > 0.0"),
    (lambda: core.empty(3).cauchy_(0, -1), RuntimeError, "cauchy_(): expected sigma > 0.0"),
    (lambda: core.empty(3, dtype=core.int32).random_(-2**63, None), RuntimeError, "full 64-bit range"),
    (lambda: core.empty(3, dtype=core.complex64).random_(), NotImplementedError, "random_(): not implemented"),
    (lambda: core.zeros(3).expand(2, 3).uniform_(), RuntimeError, "more than one element of the written-to tensor"),
    (lambda: core.zeros(3).expand(2, 3).normal_(), RuntimeError, "more than one element"),
    (lambda: core.rand(2, generator=3), TypeError, "Generator"),
    (lambda: core.eye(-1), RuntimeError, "eye(): n must be greater or equal to 0"),
    (lambda: core.eye(2, -1), RuntimeError, "m must be greater or equal to 0"),
    (lambda: core.linspace(0, 1, -1), RuntimeError, "linspace(): number of steps must be non-negative"),
    (lambda: core.logspace(0, 1, -1), RuntimeError, "logspace(): number of steps must be non-negative"),
    (lambda: core.Generator("cuda"), RuntimeError, "only the 'cpu' device"),
]


@pytest.mark.parametrize("call,kind,fragment", ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_errors_name_the_op(call, kind, fragment):
    with pytest.raises(kind) as info:
        call()
    assert fragment in str(info.value)


# ---------------------------------------------------------------------- deterministic factories

def test_factories_accept_varargs_and_size_keyword():
    for fn in [core.zeros, core.ones, core.empty, core.rand, core.randn]:
        assert fn(2, 3).shape == (2, 3) and fn((2, 3)).shape == (2, 3) and fn(size=(2, 3)).shape == (2, 3)
        assert fn([]).shape == ()
    assert core.full((2, 3), 1.5).numpy().tolist() == [[1.5] * 3] * 2
    assert core.ones(2, 3, dtype=core.int32).dtype == core.int32
    assert core.randint(5, size=(2, 2)).shape == (2, 2)


def test_eye_linspace_logspace():
    np.testing.assert_array_equal(core.eye(3).numpy(), np.eye(3, dtype=np.float32))
    np.testing.assert_array_equal(core.eye(2, 4, dtype=core.int64).numpy(), np.eye(2, 4, dtype=np.int64))
    assert core.eye(0).shape == (0, 0) and core.eye(2, dtype=core.bool).numpy().tolist() == [[True, False], [False, True]]
    x = core.linspace(0, 1, 5).numpy()
    np.testing.assert_array_equal(x, np.array([0, 0.25, 0.5, 0.75, 1], dtype=np.float32))
    assert core.linspace(3, 7, 1).numpy().tolist() == [3.0]
    assert core.linspace(0.5, 10.5, 11, dtype=core.int64).numpy().tolist() == list(range(11))
    x = core.linspace(-1, 1, 101).numpy()
    assert x[0] == -1 and x[-1] == 1  # both ends exact: computed from both sides
    np.testing.assert_allclose(core.logspace(0, 3, 4).numpy(), [1, 10, 100, 1000])
    assert core.logspace(0, 3, 4, dtype=core.int32).numpy().tolist() == [1, 10, 100, 1000]
    np.testing.assert_allclose(core.logspace(0, 4, 5, base=2.0).numpy(), [1, 2, 4, 8, 16])


def test_like_factories_keep_dtype_and_layout():
    x = core.transpose(core.ones(2, 3, dtype=core.int16), 0, 1)
    for fn in [core.zeros_like, core.ones_like, core.empty_like]:
        y = fn(x)
        assert y.dtype == core.int16 and y.shape == (3, 2) and y.stride() == (1, 3)
    assert core.full_like(x, 2.7).numpy().tolist() == [[2, 2]] * 3
    assert core.zeros_like(x, dtype=core.float64).dtype == core.float64
    # A non-dense input gives a contiguous result.
    strided = core.as_strided(core.zeros(10), (3,), (3,))
    assert core.zeros_like(strided).stride() == (1,)
