"""crypto_rng generators: the torchcsprng stream layout checked against an independent AES
(`cryptography`), distribution sanity for every sampling function (moments and chi-square on
histograms), reproducibility of mt19937 streams, parallel = serial, thread safety, the random
device generator, and errors. Statistical checks run on fixed seeds (deterministic) with
thresholds many standard errors wide."""
import math
import threading

import numpy as np
import pytest

import core
import crypto_rng
from crypto_reference import ref_keystream
from support import run_python
from test_random import _chi2_normal  # core's random tests: chi-square against N(0, 1)

M53 = (1 << 53) - 1


def mt19937_keys(seed, calls):
    """The AES keys of a seeded mt19937 generator's first `calls` sampling calls: four
    std::mt19937 draws each (core's CPU engine is that mt19937 for 32-bit seeds), unpacked
    little-endian."""
    engine = core.Generator().manual_seed(seed)
    return [b"".join(engine.random().to_bytes(4, "little") for _ in range(4)) for _ in range(calls)]


def stream(seed, nbytes, call=0):
    """The keystream bytes a seeded mt19937 generator's `call`-th sampling call uses."""
    key = mt19937_keys(seed, call + 1)[call]
    return ref_keystream(key, -(-nbytes // 16))[:nbytes]


def sub_blocks(seed, n, dtype, per_element=1, call=0):
    """n elements' sub-blocks of `dtype` (each element takes `per_element` of them)."""
    size = np.dtype(dtype).itemsize
    per_block = 16 // (size * per_element)
    nbytes = -(-n // per_block) * 16
    return np.frombuffer(stream(seed, nbytes, call), dtype)[: n * per_element].reshape(n, per_element)


def uniform53(v):
    return (v & np.uint64(M53)).astype(np.float64) * 2.0**-53


# ---------------------------------------------------------------------- the stream layout

def test_mt19937_engine_is_std_mt19937():
    g = crypto_rng.create_mt19937_generator()  # default seed 5489
    draws = [g.random() for _ in range(10000)]
    assert draws[-1] == 4123659995  # the C++ standard's check value for mt19937


def test_key_is_four_engine_draws_little_endian():
    g = crypto_rng.create_mt19937_generator(42)
    assert [g._next_key(), g._next_key()] == mt19937_keys(42, 2)


N = 1001  # odd: the last block is only partly used


def _check_layout(seed, make, expected, exact=True):
    x = make(crypto_rng.create_mt19937_generator(seed))
    got = x.to(core.float64).numpy() if x.dtype in (core.float16, core.bfloat16) else x.numpy()
    if exact:
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)


def test_layout_random_int64():
    v = sub_blocks(1, N, "<u8")[:, 0]
    _check_layout(1, lambda g: core.empty(N, dtype=core.int64).random_(generator=g),
                  (v & np.uint64(2**63 - 1)).astype(np.int64))


@pytest.mark.parametrize("dtype, np_dtype, sub, modulus", [
    (core.int32, np.int32, "<u4", 2**31), (core.uint8, np.uint8, "<u4", 256), (core.int8, np.int8, "<u4", 128),
    (core.int16, np.int16, "<u4", 2**15), (core.float32, np.float32, "<u4", 2**24 + 1),
    (core.float64, np.float64, "<u8", 2**53 + 1), (core.float16, np.float16, "<u2", 2**11 + 1),
])
def test_layout_random(dtype, np_dtype, sub, modulus):
    v = sub_blocks(2, N, sub)[:, 0].astype(np.uint64)
    _check_layout(2, lambda g: core.empty(N, dtype=dtype).random_(generator=g),
                  (v % np.uint64(modulus)).astype(np.float64).astype(np_dtype))


def test_layout_random_bool():
    v = sub_blocks(3, N, "<u4")[:, 0]
    _check_layout(3, lambda g: core.empty(N, dtype=core.bool).random_(generator=g), (v & 1).astype(bool))


def test_layout_random_from_to():
    # int32: 32-bit sub-blocks; int64 with a range below 2^32: 64-bit sub-blocks, low 32 bits used.
    v = sub_blocks(4, N, "<u4")[:, 0]
    _check_layout(4, lambda g: core.empty(N, dtype=core.int32).random_(-5, 10, generator=g),
                  (v % 15).astype(np.int64) - 5)
    v = sub_blocks(5, N, "<u8")[:, 0]
    _check_layout(5, lambda g: core.randint(-3, 1000, (N,), generator=g),
                  ((v & np.uint64(0xFFFFFFFF)) % np.uint64(1003)).astype(np.int64) - 3)
    # A range of 2^32 or more takes all 64 bits.
    lo, hi = -(2**40), 2**41
    expected = ((v % np.uint64(hi - lo)) + np.uint64(lo % 2**64)).view(np.int64)
    _check_layout(5, lambda g: core.randint(lo, hi, (N,), generator=g), expected)


def test_layout_uniform():
    v = sub_blocks(6, N, "<u8")[:, 0]
    _check_layout(6, lambda g: core.empty(N, dtype=core.float64).uniform_(-2, 3, generator=g),
                  uniform53(v) * 5.0 + -2.0)
    f = (uniform53(v) * 1.0 + 0.0).astype(np.float32)
    f[f >= np.float32(1)] = 0  # [0, 1) kept (see counter_sampling.h)
    _check_layout(6, lambda g: core.rand(N, generator=g), f)


def test_layout_normal_and_log_normal():
    v = sub_blocks(7, N, "<u8", per_element=2)
    u1, u2 = uniform53(v[:, 0]), uniform53(v[:, 1])
    z = np.sqrt(-2.0 * np.log(1.0 - u2)) * np.cos(2.0 * math.pi * u1)
    _check_layout(7, lambda g: core.empty(N, dtype=core.float64).normal_(1.5, 2.0, generator=g), z * 2.0 + 1.5,
                  exact=False)
    _check_layout(7, lambda g: core.empty(N, dtype=core.float64).log_normal_(0.5, 0.25, generator=g),
                  np.exp(z * 0.25 + 0.5), exact=False)


def test_layout_exponential_cauchy_geometric_bernoulli():
    u = uniform53(sub_blocks(8, N, "<u8")[:, 0])
    _check_layout(8, lambda g: core.empty(N, dtype=core.float64).exponential_(2.0, generator=g),
                  (-1.0 / 2.0) * np.log(1.0 - u), exact=False)
    _check_layout(8, lambda g: core.empty(N, dtype=core.float64).cauchy_(1.0, 3.0, generator=g),
                  1.0 + 3.0 * np.tan(math.pi * (u - 0.5)), exact=False)
    _check_layout(8, lambda g: core.empty(N, dtype=core.float64).geometric_(0.25, generator=g),
                  np.ceil(np.log(u) / np.log(1.0 - 0.25)))
    _check_layout(8, lambda g: core.empty(N, dtype=core.float64).bernoulli_(0.3, generator=g),
                  (u < 0.3).astype(np.float64))
    p = np.linspace(0, 1, N)
    _check_layout(8, lambda g: core.bernoulli(core.from_numpy(p), generator=g), (u < p).astype(np.float64))


def test_each_call_takes_a_new_key():
    g = crypto_rng.create_mt19937_generator(9)
    first = core.empty(64, dtype=core.int64).random_(generator=g).numpy()
    second = core.empty(64, dtype=core.int64).random_(generator=g).numpy()
    expected = [(sub_blocks(9, 64, "<u8", call=c)[:, 0] & np.uint64(2**63 - 1)).astype(np.int64) for c in (0, 1)]
    np.testing.assert_array_equal(first, expected[0])
    np.testing.assert_array_equal(second, expected[1])


def test_elements_are_filled_in_memory_order():
    base = core.empty(8, 5, dtype=core.float64)
    base.t().uniform_(generator=crypto_rng.create_mt19937_generator(10))  # memory order = base's order
    ref = core.empty(8, 5, dtype=core.float64).uniform_(generator=crypto_rng.create_mt19937_generator(10))
    np.testing.assert_array_equal(base.numpy(), ref.numpy())
    strided = core.zeros(10, 6, dtype=core.float64)[:, ::2]
    strided.uniform_(generator=crypto_rng.create_mt19937_generator(10))
    np.testing.assert_array_equal(strided.numpy().ravel(), ref.numpy().ravel()[:30])


# ---------------------------------------------------------------------- distributions

def _chi2(counts, expected):
    return float(((counts - expected) ** 2 / expected).sum())


def _chi2_limit(df):
    # Far beyond the 99.99th percentile: mean df, sd sqrt(2 df).
    return df + 8 * math.sqrt(2 * df)


SAMPLES = 200_000


def generators():
    return [crypto_rng.create_mt19937_generator(123), crypto_rng.create_random_device_generator()]


@pytest.mark.parametrize("dtype", [core.float16, core.bfloat16, core.float32, core.float64])
def test_uniform_distribution(dtype):
    for g in generators():
        x = core.empty(SAMPLES, dtype=dtype).uniform_(2, 5, generator=g).to(core.float64).numpy()
        assert x.min() >= 2 and x.max() < 5
        # bfloat16's steps of 1/64 to 1/32 leave its mean about 0.015 low, PyTorch's too (3.483 over
        # ten of its runs); sampling adds about 0.002
        tol = {core.float16: 0.02, core.bfloat16: 0.03}.get(dtype, 0.01)
        assert abs(x.mean() - 3.5) < tol and abs(x.var() - 0.75) < 5 * tol
        counts = np.histogram(x, bins=20, range=(2, 5))[0]
        if dtype not in (core.float16, core.bfloat16):  # coarse types do not fill bins evenly
            assert _chi2(counts, SAMPLES / 20) < _chi2_limit(19)


@pytest.mark.parametrize("dtype", [core.float32, core.float64, core.float16])
def test_normal_distribution(dtype):
    for g in generators():
        x = core.empty(SAMPLES, dtype=dtype).normal_(1.0, 2.0, generator=g).to(core.float64).numpy()
        assert abs(x.mean() - 1.0) < 0.03 and abs(x.std() - 2.0) < 0.03
        assert _chi2_normal((x - 1.0) / 2.0) < _chi2_limit(19)
    x = core.randn(SAMPLES, generator=crypto_rng.create_mt19937_generator(5)).numpy()
    assert abs(x.mean()) < 0.015 and abs(x.std() - 1) < 0.015


def test_log_normal_distribution():
    x = core.empty(SAMPLES, dtype=core.float64).log_normal_(0.5, 0.25, generator=generators()[0]).numpy()
    assert x.min() > 0
    y = np.log(x)
    assert abs(y.mean() - 0.5) < 0.005 and abs(y.std() - 0.25) < 0.005
    assert _chi2_normal((y - 0.5) / 0.25) < _chi2_limit(19)


def test_exponential_distribution():
    for g in generators():
        x = core.empty(SAMPLES, dtype=core.float32).exponential_(2.0, generator=g).to(core.float64).numpy()
        assert x.min() >= 0 and abs(x.mean() - 0.5) < 0.01 and abs(x.var() - 0.25) < 0.02
        edges = np.linspace(0, 2, 21)  # P(bin) from the CDF 1 - exp(-2x), plus the tail
        counts = np.histogram(x, bins=np.concatenate([edges, [np.inf]]))[0]
        cdf = np.concatenate([1 - np.exp(-2 * edges), [1.0]])
        assert _chi2(counts, np.diff(cdf) * SAMPLES) < _chi2_limit(20)


def test_cauchy_distribution():
    x = core.empty(SAMPLES, dtype=core.float64).cauchy_(1.0, 3.0, generator=generators()[0]).numpy()
    q1, med, q3 = np.percentile(x, [25, 50, 75])
    assert abs(med - 1.0) < 0.06 and abs(q1 - (1.0 - 3.0)) < 0.1 and abs(q3 - 4.0) < 0.1
    edges = 1.0 + 3.0 * np.tan(math.pi * (np.linspace(0, 1, 21)[1:-1] - 0.5))  # equiprobable bins
    counts = np.histogram(x, bins=np.concatenate([[-np.inf], edges, [np.inf]]))[0]
    assert _chi2(counts, SAMPLES / 20) < _chi2_limit(19)


@pytest.mark.parametrize("dtype", [core.float32, core.float64, core.int64, core.float16])
def test_geometric_distribution(dtype):
    p = 0.2
    x = core.empty(SAMPLES, dtype=dtype).geometric_(p, generator=generators()[0]).to(core.float64).numpy()
    assert x.min() >= 1 and np.all(x == np.round(x))
    assert abs(x.mean() - 1 / p) < 0.05 and abs(x.var() - (1 - p) / p**2) < 1.0
    k = np.arange(1, 16)
    counts = np.array([(x == v).sum() for v in k] + [(x > 15).sum()])
    probs = np.concatenate([(1 - p) ** (k - 1) * p, [(1 - p) ** 15]])
    assert _chi2(counts, probs * SAMPLES) < _chi2_limit(15)


@pytest.mark.parametrize("dtype", [core.bool, core.uint8, core.float32, core.float64])
def test_bernoulli_distribution(dtype):
    for g in generators():
        x = core.empty(SAMPLES, dtype=dtype).bernoulli_(0.3, generator=g).to(core.float64).numpy()
        assert set(np.unique(x)) <= {0.0, 1.0} and abs(x.mean() - 0.3) < 0.005
    p = core.full((SAMPLES,), 0.7, dtype=core.float32)
    assert abs(core.bernoulli(p, generator=generators()[0]).numpy().mean() - 0.7) < 0.005


@pytest.mark.parametrize("dtype", [core.int8, core.uint8, core.int16, core.int32, core.int64, core.float32,
                                   core.float64, core.bfloat16])
def test_random_from_to_distribution(dtype):
    for g in generators():
        x = core.empty(SAMPLES, dtype=dtype).random_(-3, 7, generator=g).to(core.float64).numpy() \
            if dtype != core.uint8 else core.empty(SAMPLES, dtype=dtype).random_(0, 10, generator=g).numpy()
        lo = 0 if dtype == core.uint8 else -3
        counts = np.bincount((x - lo).astype(np.int64), minlength=10)
        assert len(counts) == 10 and _chi2(counts, SAMPLES / 10) < _chi2_limit(9)


@pytest.mark.parametrize("dtype, hi", [(core.uint8, 256), (core.int8, 128), (core.int16, 2**15), (core.bool, 2)])
def test_random_full_dtype_range(dtype, hi):
    x = core.empty(SAMPLES, dtype=dtype).random_(generator=generators()[1]).to(core.int64).numpy()
    assert x.min() >= 0 and x.max() < hi
    counts = np.bincount(x * 16 // hi, minlength=16) if hi >= 16 else np.bincount(x, minlength=hi)
    assert _chi2(counts, SAMPLES / len(counts)) < _chi2_limit(len(counts) - 1)


def test_random_64_bit_range():
    x = core.empty(SAMPLES, dtype=core.int64).random_(-(2**63), None, generator=generators()[0]).numpy()
    assert (x < 0).mean() == pytest.approx(0.5, abs=0.005)
    counts = np.bincount((x.view(np.uint64) >> np.uint64(60)).astype(np.int64), minlength=16)
    assert _chi2(counts, SAMPLES / 16) < _chi2_limit(15)


def test_randint_randperm_multinomial_and_factories():
    g = crypto_rng.create_mt19937_generator(77)
    x = core.randint(10, 20, (SAMPLES,), generator=g).numpy()
    assert x.min() == 10 and x.max() == 19
    assert _chi2(np.bincount(x - 10), SAMPLES / 10) < _chi2_limit(9)
    perm = core.randperm(1000, generator=g).numpy()
    assert sorted(perm.tolist()) == list(range(1000))
    # randperm draws from the engine (torchcsprng's Fisher-Yates on random()), like core's CPU one.
    same = core.randperm(1000, generator=core.Generator().manual_seed(5)).numpy()
    np.testing.assert_array_equal(core.randperm(1000, generator=crypto_rng.create_mt19937_generator(5)).numpy(), same)
    m = core.multinomial(core.tensor([0.1, 0.2, 0.7]), 20_000, True, generator=g).numpy()
    assert abs((m == 2).mean() - 0.7) < 0.02
    assert core.rand(3, 4, generator=g).shape == (3, 4)
    assert core.randn(2, 5, generator=g, dtype=core.float64).dtype == core.float64
    y = core.normal(core.zeros(SAMPLES), 2.0, generator=g).numpy()
    assert abs(y.std() - 2.0) < 0.03
    assert core.rand_like(core.zeros(4), generator=g).shape == (4,)


def test_usable_as_a_core_generator():
    g = crypto_rng.create_random_device_generator()
    assert isinstance(g, core.Generator) and g.device == "cpu"
    assert "AES-128-CTR" in repr(g)
    sampler = core.utils.data.RandomSampler(range(100), generator=g)
    assert sorted(sampler) == list(range(100))


# ---------------------------------------------------------------------- reproducibility

OPS = {
    "uniform_": lambda g: core.empty(5000).uniform_(generator=g),
    "normal_": lambda g: core.empty(5000, dtype=core.float64).normal_(generator=g),
    "random_": lambda g: core.empty(5000, dtype=core.int32).random_(generator=g),
    "randint": lambda g: core.randint(0, 7, (5000,), generator=g),
    "exponential_": lambda g: core.empty(5000).exponential_(generator=g),
    "cauchy_": lambda g: core.empty(5000).cauchy_(generator=g),
    "log_normal_": lambda g: core.empty(5000).log_normal_(generator=g),
    "geometric_": lambda g: core.empty(5000).geometric_(0.5, generator=g),
    "bernoulli_": lambda g: core.empty(5000).bernoulli_(0.5, generator=g),
    "randperm": lambda g: core.randperm(5000, generator=g),
}


@pytest.mark.parametrize("op", list(OPS))
def test_mt19937_streams_are_reproducible(op):
    a = [OPS[op](crypto_rng.create_mt19937_generator(2024)).numpy() for _ in range(2)]
    b = OPS[op](crypto_rng.create_mt19937_generator(2025)).numpy()
    np.testing.assert_array_equal(a[0], a[1])
    assert not np.array_equal(a[0], b)
    g = crypto_rng.create_mt19937_generator(2024)
    first, second = OPS[op](g).numpy(), OPS[op](g).numpy()
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(first, a[0])


@pytest.mark.parametrize("op", list(OPS))
def test_random_device_streams_differ(op):
    g = crypto_rng.create_random_device_generator()
    assert not np.array_equal(OPS[op](g).numpy(), OPS[op](g).numpy())


def test_mt19937_seed_state_and_default():
    g = crypto_rng.create_mt19937_generator(7)
    assert g.initial_seed() == 7
    state = g.get_state()
    a = core.rand(100, generator=g).numpy()
    g.set_state(state)
    np.testing.assert_array_equal(core.rand(100, generator=g).numpy(), a)
    g.manual_seed(7)
    np.testing.assert_array_equal(core.rand(100, generator=g).numpy(), a)
    # std::mt19937 takes the seed's low 32 bits; no seed means its default, 5489.
    np.testing.assert_array_equal(core.rand(100, generator=crypto_rng.create_mt19937_generator(2**32 + 7)).numpy(), a)
    np.testing.assert_array_equal(core.rand(10, generator=crypto_rng.create_mt19937_generator()).numpy(),
                                  core.rand(10, generator=crypto_rng.create_mt19937_generator(5489)).numpy())


def test_parallel_generation_equals_serial():
    before = core.get_num_threads()
    results = {}
    try:
        for threads in (1, 2, 3):
            core.set_num_threads(threads)
            results[threads] = [OPS_LARGE[name](crypto_rng.create_mt19937_generator(31)).numpy() for name in OPS_LARGE]
    finally:
        core.set_num_threads(before)
    for name, a, b, c in zip(OPS_LARGE, results[1], results[2], results[3]):
        np.testing.assert_array_equal(a, b, err_msg=name)
        np.testing.assert_array_equal(a, c, err_msg=name)


OPS_LARGE = {  # big enough to be split over threads
    "uniform_": lambda g: core.empty(1_000_003).uniform_(generator=g),
    "normal_": lambda g: core.empty(300_001, dtype=core.float64).normal_(generator=g),
    "random_": lambda g: core.empty(1_000_003, dtype=core.int16).random_(generator=g),
    "strided": lambda g: core.empty(2000, 1000).t().bernoulli_(0.25, generator=g),
}


def test_thread_safety():
    # Eight threads share one generator: every call still gets its own key, so the set of
    # results equals that of the same calls made one after another.
    def call(g):
        return core.empty(20_000).uniform_(generator=g).numpy().tobytes()

    g = crypto_rng.create_mt19937_generator(99)
    serial = sorted(call(g) for _ in range(64))
    g = crypto_rng.create_mt19937_generator(99)
    results, errors = [], []

    def worker():
        try:
            for _ in range(8):
                results.append(call(g))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(results) == serial


def test_random_device_after_fork_differs_from_parent():
    code = (
        "import os, core, crypto_rng\n"
        "g = crypto_rng.create_random_device_generator()\n"
        "g.random()\n"  # fills the buffer before the fork
        "r, w = os.pipe()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os.write(w, repr([g.random() for _ in range(8)]).encode()); os._exit(0)\n"
        "os.waitpid(pid, 0)\n"
        "child = eval(os.read(r, 4096).decode())\n"
        "print(child != [g.random() for _ in range(8)])\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_random_device_token():
    g = crypto_rng.create_random_device_generator("/dev/urandom")
    x = core.empty(1000).uniform_(generator=g).numpy()
    assert 0 <= x.min() and x.max() < 1 and len(np.unique(x)) > 990
    for token in (None, ""):  # the OS generator (getrandom)
        assert core.empty(100).uniform_(generator=crypto_rng.create_random_device_generator(token)).numpy().std() > 0.2


# ---------------------------------------------------------------------- errors

@pytest.mark.parametrize("call, message", [
    (lambda g: g.manual_seed(1), r"manual_seed\(\): a random device generator is not seedable"),
    (lambda g: g.initial_seed(), r"initial_seed\(\): a random device generator is not seedable"),
    (lambda g: g.get_state(), r"get_state\(\): a random device generator is not seedable"),
    (lambda g: g.set_state(core.zeros(5056, dtype=core.uint8)), r"set_state\(\): .* not seedable"),
    (lambda g: g.seed(), r"not seedable"),
])
def test_random_device_is_not_seedable(call, message):
    with pytest.raises(RuntimeError, match=message):
        call(crypto_rng.create_random_device_generator())


def test_bad_arguments():
    with pytest.raises(RuntimeError, match="cannot open the random device 'no-such-source'"):
        crypto_rng.create_random_device_generator("no-such-source")
    with pytest.raises(TypeError):
        crypto_rng.create_mt19937_generator(-1)
    with pytest.raises(TypeError):
        crypto_rng.create_mt19937_generator("42")
    g = crypto_rng.create_mt19937_generator(1)
    # core's own checks still apply with these generators.
    with pytest.raises(RuntimeError, match=r"uniform_\(\): expected a \[from, to\) range"):
        core.empty(3).uniform_(2, 1, generator=g)
    with pytest.raises(RuntimeError, match=r"bernoulli_\(\): expected every probability in \[0, 1\]"):
        core.bernoulli(core.tensor([0.5, 1.5]), generator=g)
    with pytest.raises(RuntimeError, match=r"geometric_\(\): expected p to be in \(0, 1\)"):
        core.empty(3).geometric_(1.5, generator=g)
    with pytest.raises(NotImplementedError, match=r"exponential_\(\): expected a floating point tensor"):
        core.empty(3, dtype=core.int32).exponential_(generator=g)
    with pytest.raises(RuntimeError, match=r"randperm\(\): n must be non-negative"):
        core.randperm(-1, generator=g)
