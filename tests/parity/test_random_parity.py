"""Random ops against PyTorch's CPU generator: after the same seed, the same calls must
give the same numbers bit for bit and leave the generator in the same state (compared
through get_rng_state, which has torch's byte layout), across dtypes, sizes below and
above the 16-element Box-Muller blocks, layouts, explicit generators and call sequences."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int64", "int32", "int16", "int8", "uint8"]
SIZES = [(), (0,), (1,), (5,), (15,), (16,), (17,), (3, 7), (31,), (33,), (100,), (1000,)]
SEEDS = [0, 1, 2024]


def _np(t):
    if isinstance(t, core.Tensor):
        return (t.to(core.float32) if t.dtype == core.bfloat16 else t).numpy()
    return (t.float() if t.dtype == torch.bfloat16 else t).numpy()


def _same(ours, theirs, what=""):
    a, b = _np(ours), _np(theirs)
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1], f"{what}: dtype"
    mismatch = ~((a == b) | (np.isnan(a) & np.isnan(b))) if a.dtype.kind in "fc" else a != b
    assert not mismatch.any(), f"{what}: {int(mismatch.sum())} of {a.size} values differ, e.g. {a[mismatch][:4]} vs {b[mismatch][:4]}"


def _same_state(what=""):
    ours, theirs = core.get_rng_state().numpy(), torch.get_rng_state().numpy()
    assert np.array_equal(ours, theirs), f"{what}: generator states differ"


def _check(seed, ours_fn, theirs_fn, what):
    """Seeds both default generators, compares the results and the states after. Where
    torch refuses the call, core must refuse it too."""
    core.manual_seed(seed)
    torch.manual_seed(seed)
    try:
        theirs = theirs_fn()
    except (RuntimeError, ValueError, TypeError, NotImplementedError) as e:
        with pytest.raises((RuntimeError, ValueError, TypeError, NotImplementedError)):
            ours_fn()
        return
    ours = ours_fn()
    if isinstance(theirs, torch.Tensor):
        _same(ours, theirs, what)
    _same_state(what)


def _dt(name):
    return getattr(core, name), getattr(torch, name)


def _t(x):
    """x.t() for core and torch tensors (core's view family may not have .t())."""
    return core.transpose(x, 0, 1) if isinstance(x, core.Tensor) else x.t()


def _every_other_column(x):
    """x[:, ::2] for core and torch tensors."""
    if isinstance(x, core.Tensor):
        rows, cols = x.shape
        return core.as_strided(x, (rows, (cols + 1) // 2), (cols, 2))
    return x[:, ::2]


# ---------------------------------------------------------------------- state layout

def test_fresh_and_seeded_states_match_torch():
    for seed in SEEDS + [2**63, -1, 2**64 - 1]:
        core.manual_seed(seed)
        torch.manual_seed(seed)
        _same_state(f"seed {seed}")
        assert core.initial_seed() == torch.initial_seed()


def test_state_moves_between_torch_and_core():
    torch.manual_seed(7)
    torch.randn(3)  # leaves a cached normal in the state
    core.set_rng_state(core.tensor(torch.get_rng_state().numpy()))
    _same(core.randn(5), torch.randn(5), "after torch state")
    torch.set_rng_state(torch.from_numpy(core.get_rng_state().numpy()))
    _same(core.rand(40), torch.rand(40), "after core state")


# ---------------------------------------------------------------------- factories

@pytest.mark.parametrize("dtype", FLOATS + ["complex64"])
def test_rand(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    for seed in SEEDS:
        for size in SIZES:
            _check(seed, lambda: core.rand(size, dtype=ours_dt), lambda: torch.rand(size, dtype=theirs_dt),
                   f"rand {size} {dtype} seed {seed}")


@pytest.mark.parametrize("dtype", FLOATS + ["complex64"])
def test_randn(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    for seed in SEEDS:
        for size in SIZES + [(4, 4), (2, 9), (1024,), (1027,)]:
            _check(seed, lambda: core.randn(size, dtype=ours_dt), lambda: torch.randn(size, dtype=theirs_dt),
                   f"randn {size} {dtype} seed {seed}")


def test_varargs_and_size_keyword():
    _check(3, lambda: core.rand(2, 3), lambda: torch.rand(2, 3), "rand varargs")
    _check(3, lambda: core.randn(size=(4, 5)), lambda: torch.randn(size=(4, 5)), "randn size=")


@pytest.mark.parametrize("dtype", INTS + FLOATS + ["bool"])
def test_randint(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    ranges = {"bool": [(0, 2)], "uint8": [(0, 10), (3, 256)], "int8": [(-128, 128), (-5, 5)],
              "int16": [(-300, 300)], "float16": [(-2048, 2048), (0, 10)], "bfloat16": [(-256, 257), (0, 3)]}
    wide = [(0, 10), (-5, 5), (0, 2**28), (0, 2**28 - 1), (7, 8)]
    if dtype in ("int64",):
        wide += [(-2**40, 2**40), (-2**63, 2**63 - 1)]
    if dtype in ("float32",):
        wide += [(-2**24, 2**24)]
    if dtype in ("float64",):
        wide += [(-2**53, 2**53)]
    for low, high in ranges.get(dtype, wide):
        for size in [(1,), (17,), (3, 5), (200,)]:
            _check(5, lambda: core.randint(low, high, size, dtype=ours_dt),
                   lambda: torch.randint(low, high, size, dtype=theirs_dt), f"randint [{low},{high}) {size} {dtype}")
    _check(5, lambda: core.randint(9, (6,), dtype=ours_dt), lambda: torch.randint(9, (6,), dtype=theirs_dt),
           f"randint(high) {dtype}")


def test_randint_keywords():
    _check(1, lambda: core.randint(low=2, high=9, size=(5,)), lambda: torch.randint(low=2, high=9, size=(5,)), "kw")
    _check(1, lambda: core.randint(high=9, size=(5,)), lambda: torch.randint(high=9, size=(5,)), "kw high")


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "float32", "float64", "float16", "bfloat16", "uint8"])
def test_randperm(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    for seed in SEEDS:
        for n in [0, 1, 2, 5, 16, 17, 100, 255, 1000]:
            if dtype in ("uint8", "bfloat16") and n > 256:
                continue
            _check(seed, lambda: core.randperm(n, dtype=ours_dt), lambda: torch.randperm(n, dtype=theirs_dt),
                   f"randperm {n} {dtype}")


def test_randperm_large():
    _check(11, lambda: core.randperm(100_000), lambda: torch.randperm(100_000), "randperm 1e5")


# ---------------------------------------------------------------------- normal

@pytest.mark.parametrize("dtype", FLOATS)
def test_normal_float_float(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    for size in [(3,), (16,), (20,), (2, 50)]:
        for mean, std in [(0.0, 1.0), (2.5, 3.0), (-1.3, 0.1), (0.3, 0.0)]:
            _check(4, lambda: core.normal(mean, std, size, dtype=ours_dt),
                   lambda: torch.normal(mean, std, size, dtype=theirs_dt), f"normal({mean},{std}) {size} {dtype}")


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_normal_tensor_forms(dtype):
    rng = np.random.default_rng(0)
    for shape_m, shape_s in [((5,), (5,)), ((20,), (20,)), ((3, 1), (1, 17)), ((), (40,))]:
        m = rng.uniform(-3, 3, shape_m).astype(dtype)
        s = rng.uniform(0, 2, shape_s).astype(dtype)
        cm, cs, tm, ts = core.tensor(m), core.tensor(s), torch.from_numpy(m), torch.from_numpy(s)
        _check(2, lambda: core.normal(cm, cs), lambda: torch.normal(tm, ts), f"normal(T, T) {shape_m}{shape_s}")
        _check(2, lambda: core.normal(cm, 2.5), lambda: torch.normal(tm, 2.5), f"normal(T, f) {shape_m}")
        _check(2, lambda: core.normal(cm), lambda: torch.normal(tm), f"normal(T) {shape_m}")
        _check(2, lambda: core.normal(1.5, cs), lambda: torch.normal(1.5, ts), f"normal(f, T) {shape_s}")


@pytest.mark.parametrize("dtype", FLOATS)
def test_normal_inplace_layouts(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    for shape in [(4, 3), (8, 5), (20, 7)]:
        for mean, std in [(0.0, 1.0), (0.7, 2.0)]:
            def ours(layout):
                base = core.zeros(shape, dtype=ours_dt)
                return {"c": base, "t": _t(base), "s": _every_other_column(base)}[layout]

            def theirs(layout):
                base = torch.zeros(shape, dtype=theirs_dt)
                return {"c": base, "t": _t(base), "s": _every_other_column(base)}[layout]

            for layout in "cts":
                o, t = ours(layout), theirs(layout)
                _check(9, lambda: o.normal_(mean, std), lambda: t.normal_(mean, std), f"normal_ {shape} {layout} {dtype}")


# ---------------------------------------------------------------------- in-place samplers

@pytest.mark.parametrize("dtype", FLOATS)
def test_uniform_(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    for a, b in [(0.0, 1.0), (-3.7, 5.3), (2.0, 2.0), (-1e3, 1e3)]:
        for shape in [(7,), (5, 6)]:
            o, t = core.empty(shape, dtype=ours_dt), torch.empty(shape, dtype=theirs_dt)
            _check(6, lambda: o.uniform_(a, b), lambda: t.uniform_(a, b), f"uniform_({a},{b}) {dtype}")
            o, t = core.empty(shape, dtype=ours_dt), torch.empty(shape, dtype=theirs_dt)
            if len(shape) == 2:
                _check(6, lambda: _t(o).uniform_(a, b), lambda: _t(t).uniform_(a, b), f"uniform_ .t() {dtype}")


@pytest.mark.parametrize("dtype", INTS + FLOATS + ["bool"])
def test_random_(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    for seed in SEEDS:
        o, t = core.empty(37, dtype=ours_dt), torch.empty(37, dtype=theirs_dt)
        _check(seed, lambda: o.random_(), lambda: t.random_(), f"random_() {dtype}")
        _check(seed, lambda: o.random_(2), lambda: t.random_(2), f"random_(2) {dtype}")
        _check(seed, lambda: o.random_(1, 100), lambda: t.random_(1, 100), f"random_(1, 100) {dtype}")
        _check(seed, lambda: o.random_(0, None), lambda: t.random_(0, None), f"random_(0, None) {dtype}")
        if dtype in ("int64", "float64", "float32", "bfloat16"):
            _check(seed, lambda: o.random_(-2**63, None), lambda: t.random_(-2**63, None), f"full range {dtype}")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "bool", "float16"])
def test_bernoulli(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    for p in [0.0, 0.3, 0.5, 1.0]:
        o, t = core.empty((4, 9), dtype=ours_dt), torch.empty((4, 9), dtype=theirs_dt)
        _check(8, lambda: o.bernoulli_(p), lambda: t.bernoulli_(p), f"bernoulli_({p}) {dtype}")
        _check(8, lambda: core.bernoulli(o, p), lambda: torch.bernoulli(t, p), f"bernoulli(x, {p}) {dtype}")
    rng = np.random.default_rng(1)
    for pdtype in ["float32", "float64", "float16"]:
        probs = rng.uniform(0, 1, (4, 9)).astype(pdtype)
        cp, tp = core.tensor(probs), torch.from_numpy(probs)
        if dtype == pdtype:
            _check(8, lambda: core.bernoulli(cp), lambda: torch.bernoulli(tp), f"bernoulli(p) {pdtype}")
            _check(8, lambda: cp.bernoulli(), lambda: tp.bernoulli(), f"p.bernoulli() {pdtype}")
        o, t = core.empty((4, 9), dtype=ours_dt), torch.empty((4, 9), dtype=theirs_dt)
        _check(8, lambda: o.bernoulli_(cp), lambda: t.bernoulli_(tp), f"bernoulli_(T {pdtype}) {dtype}")
        row_c, row_t = core.tensor(probs[0]), torch.from_numpy(probs[0].copy())
        _check(8, lambda: o.bernoulli_(row_c), lambda: t.bernoulli_(row_t), f"bernoulli_ broadcast {dtype}")
        fc, ft = _t(_t(cp).contiguous()), _t(_t(tp).contiguous())
        _check(8, lambda: o.bernoulli_(fc), lambda: t.bernoulli_(ft), f"bernoulli_ transposed p {dtype}")


@pytest.mark.parametrize("dtype", FLOATS)
def test_continuous_distributions(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    cases = [("exponential_", (1.0,)), ("exponential_", (0.25,)), ("cauchy_", (0.0, 1.0)), ("cauchy_", (2.0, 0.5)),
             ("log_normal_", (1.0, 2.0)), ("log_normal_", (0.0, 0.25)), ("geometric_", (0.3,)), ("geometric_", (0.9,))]
    for name, args in cases:
        for shape in [(5,), (40,), (3, 7)]:
            o, t = core.empty(shape, dtype=ours_dt), torch.empty(shape, dtype=theirs_dt)
            _check(3, lambda: getattr(o, name)(*args), lambda: getattr(t, name)(*args), f"{name}{args} {shape} {dtype}")


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
def test_geometric_integers(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    o, t = core.empty(50, dtype=ours_dt), torch.empty(50, dtype=theirs_dt)
    _check(3, lambda: o.geometric_(0.2), lambda: t.geometric_(0.2), f"geometric_ {dtype}")


def test_log_normal_uses_the_cached_normal():
    def ours():
        core.randn(1)
        return core.empty(3).log_normal_()

    def theirs():
        torch.randn(1)
        return torch.empty(3).log_normal_()

    _check(12, ours, theirs, "randn(1) then log_normal_")


# ---------------------------------------------------------------------- *_like

def test_like_factories_follow_the_input_layout():
    for shape in [(3, 5), (6, 7)]:
        o, t = _t(core.zeros(shape)), _t(torch.zeros(shape))
        _check(1, lambda: core.rand_like(o), lambda: torch.rand_like(t), "rand_like .t()")
        _check(1, lambda: core.randn_like(o), lambda: torch.randn_like(t), "randn_like .t()")
        _check(1, lambda: core.randint_like(o, 10), lambda: torch.randint_like(t, 10), "randint_like .t()")
        _check(1, lambda: core.randint_like(o, 3, 10, dtype=core.int32),
               lambda: torch.randint_like(t, 3, 10, dtype=torch.int32), "randint_like low high")
        _check(1, lambda: core.randn_like(o, dtype=core.float64), lambda: torch.randn_like(t, dtype=torch.float64),
               "randn_like dtype")
        assert core.rand_like(o).stride() == torch.rand_like(t).stride()


# ---------------------------------------------------------------------- multinomial

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_multinomial(dtype):
    ours_dt, theirs_dt = _dt(dtype)
    rng = np.random.default_rng(2)
    for shape in [(10,), (4, 10), (3, 100)]:
        probs = rng.uniform(0, 1, shape).astype(np.float32)
        probs[..., 3] = 0
        cp, tp = core.tensor(probs).to(ours_dt), torch.from_numpy(probs).to(theirs_dt)
        for n, repl in [(1, False), (1, True), (5, False), (5, True), (10, False), (40, True)]:
            _check(5, lambda: core.multinomial(cp, n, repl), lambda: torch.multinomial(tp, n, repl),
                   f"multinomial {shape} n={n} replacement={repl} {dtype}")
        _check(5, lambda: cp.multinomial(3), lambda: tp.multinomial(3), "method")


def test_multinomial_transposed_input():
    probs = np.random.default_rng(3).uniform(0, 1, (10, 4)).astype(np.float32)
    cp, tp = _t(core.tensor(probs)), _t(torch.from_numpy(probs))
    for n, repl in [(1, False), (3, False), (6, True)]:
        _check(5, lambda: core.multinomial(cp, n, repl), lambda: torch.multinomial(tp, n, repl), f"multinomial .t() {n}")


def test_multinomial_ties_between_zero_probabilities():
    # Zero-probability categories all get the key 0; their order is what PyTorch's topk
    # selection (partial_sort or nth_element + sort) leaves.
    for p in [[0.5, 0.5, 0, 0, 0], [0, 0, 1] + [0] * 17, [1] * 3 + [0] * 200, [0.2] * 30 + [0] * 70]:
        cp, tp = core.tensor(p, dtype=core.float32), torch.tensor(p, dtype=torch.float32)
        for k in sorted({2, 3, len(p) // 2, len(p) - 1, len(p)}):
            for seed in range(5):
                _check(seed, lambda: core.multinomial(cp, k), lambda: torch.multinomial(tp, k), f"ties {len(p)} k={k}")


# ---------------------------------------------------------------------- generators and sequences

def test_explicit_generators():
    for seed in SEEDS:
        g, tg = core.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
        _same(core.rand(20, generator=g), torch.rand(20, generator=tg), "rand g")
        _same(core.randn(7, generator=g), torch.randn(7, generator=tg), "randn g (caches)")
        _same(core.randn(3, generator=g), torch.randn(3, generator=tg), "randn g (uses cache)")
        _same(core.randint(0, 5, (9,), generator=g), torch.randint(0, 5, (9,), generator=tg), "randint g")
        _same(core.randperm(30, generator=g), torch.randperm(30, generator=tg), "randperm g")
        _same(core.normal(0.0, 2.0, (18,), generator=g), torch.normal(0.0, 2.0, (18,), generator=tg), "normal g")
        _same(core.empty(6).exponential_(generator=g), torch.empty(6).exponential_(generator=tg), "exponential_ g")
        _same(core.bernoulli(core.full((8,), 0.4), generator=g), torch.bernoulli(torch.full((8,), 0.4), generator=tg),
              "bernoulli g")
        _same(core.multinomial(core.ones(6), 4, generator=g), torch.multinomial(torch.ones(6), 4, generator=tg), "mn g")
        _same(core.rand_like(core.zeros(4), generator=g), torch.rand_like(torch.zeros(4), generator=tg), "rand_like g")
        assert np.array_equal(g.get_state().numpy(), tg.get_state().numpy())
        assert g.initial_seed() == tg.initial_seed() == seed


def test_default_generator_untouched_by_explicit_generator():
    core.manual_seed(0)
    torch.manual_seed(0)
    core.rand(50, generator=core.Generator().manual_seed(1))
    _same(core.rand(5), torch.rand(5), "default stream")


def _sequence(lib, gen):
    """A mixed program: every function, sizes on both sides of 16, cached normals."""
    out = []
    out.append(lib.randn(3, generator=gen))          # odd count leaves a cached normal
    out.append(lib.rand(17, generator=gen))
    out.append(lib.randn(1, generator=gen, dtype=lib.float64))  # takes the cached one
    out.append(lib.randn(33, generator=gen))         # block path with a redrawn tail
    out.append(lib.randint(-7, 7, (5, 3), generator=gen))
    out.append(lib.randperm(23, generator=gen))
    x = lib.zeros(6, 5)
    out.append(_t(x).normal_(1.0, 2.0, generator=gen))
    out.append(lib.empty(9).uniform_(-2, 3, generator=gen))
    out.append(lib.empty(9, dtype=lib.int16).random_(generator=gen))
    out.append(lib.empty(9).random_(4, 60, generator=gen))
    out.append(lib.empty(11).bernoulli_(0.25, generator=gen))
    out.append(lib.empty(5).exponential_(3.0, generator=gen))
    out.append(lib.empty(5).cauchy_(generator=gen))
    out.append(lib.empty(5).log_normal_(generator=gen))
    out.append(lib.empty(5, dtype=lib.int32).geometric_(0.4, generator=gen))
    out.append(lib.multinomial(lib.arange(1, 8).to(lib.float32), 4, generator=gen))
    out.append(lib.multinomial(lib.arange(1, 8).to(lib.float32), 12, True, generator=gen))
    out.append(lib.normal(lib.zeros(19), lib.ones(19), generator=gen))
    out.append(lib.randn(16, dtype=lib.float16, generator=gen))
    out.append(lib.rand(4, dtype=lib.bfloat16, generator=gen))
    out.append(lib.randn(2, 2, dtype=lib.complex64, generator=gen))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_mixed_sequence(seed):
    for explicit in (False, True):
        core.manual_seed(seed)
        torch.manual_seed(seed)
        g = core.Generator().manual_seed(seed) if explicit else None
        tg = torch.Generator().manual_seed(seed) if explicit else None
        ours, theirs = _sequence(core, g), _sequence(torch, tg)
        for i, (o, t) in enumerate(zip(ours, theirs)):
            _same(o, t, f"step {i}")
        if explicit:
            assert np.array_equal(g.get_state().numpy(), tg.get_state().numpy())
        else:
            _same_state("after the sequence")


def test_parallel_transform_matches_serial():
    n = 300_000
    threads = core.get_num_threads()
    try:
        core.set_num_threads(1)
        _check(21, lambda: core.randn(n), lambda: torch.randn(n), "randn 3e5 serial")
        core.set_num_threads(max(2, threads))
        _check(21, lambda: core.randn(n), lambda: torch.randn(n), "randn 3e5 parallel")
        _check(21, lambda: core.randn(n, dtype=core.float64), lambda: torch.randn(n, dtype=torch.float64), "f64")
    finally:
        core.set_num_threads(threads)
