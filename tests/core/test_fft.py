"""core.fft against numpy.fft: every length 1..128, every prime up to 10007, long lengths
(four-step and Bluestein-on-four-step plans), each norm, dim layouts, float32 and float64.

Tolerances are relative to the largest output magnitude: 1e-12 in float64 and 2e-6 in
float32 (numpy computes in float64; the errors seen are about 1e-15 and 3e-7).
"""
import numpy as np
import pytest

import core

F64_TOL, F32_TOL = 1e-12, 2e-6
NORMS = [None, "backward", "ortho", "forward"]


def _primes(limit):
    sieve = np.ones(limit + 1, bool)
    sieve[:2] = False
    for i in range(2, int(limit ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = False
    return [int(p) for p in np.nonzero(sieve)[0]]


def _close(ours, expected, tol):
    ours = ours.numpy() if isinstance(ours, core.Tensor) else ours
    scale = max(np.abs(expected).max(), 1e-30)
    err = np.abs(ours.astype(expected.dtype) - expected).max() / scale
    assert err < tol, f"relative error {err:.3g} >= {tol}"


def _signal(rng, shape, complex_=True):
    x = rng.standard_normal(shape)
    return x + 1j * rng.standard_normal(shape) if complex_ else x


@pytest.mark.parametrize("dtype,tol", [("float64", F64_TOL), ("float32", F32_TOL)])
def test_every_length_up_to_128(dtype, tol):
    rng = np.random.default_rng(1)
    cdtype = np.complex128 if dtype == "float64" else np.complex64
    for n in range(1, 129):
        x = _signal(rng, (3, n))
        ours = core.fft.fft(core.tensor(x.astype(cdtype)))
        assert ours.dtype == getattr(core, np.dtype(cdtype).name)
        _close(ours, np.fft.fft(x.astype(cdtype).astype(np.complex128)), tol)
        _close(core.fft.ifft(core.tensor(x.astype(cdtype))), np.fft.ifft(x.astype(cdtype).astype(np.complex128)), tol)
        r = x.real.astype(dtype)
        _close(core.fft.rfft(core.tensor(r)), np.fft.rfft(r.astype(np.float64)), tol)
        spectrum = np.fft.rfft(r.astype(np.float64)).astype(cdtype)
        _close(core.fft.irfft(core.tensor(spectrum), n=n), np.fft.irfft(spectrum.astype(np.complex128), n=n), tol)


def test_every_prime_up_to_10007():
    rng = np.random.default_rng(2)
    for p in _primes(10007):
        x = _signal(rng, (2, p))
        _close(core.fft.fft(core.tensor(x)), np.fft.fft(x), F64_TOL)


def test_large_primes_float32_and_real():
    rng = np.random.default_rng(3)
    for p in [131, 1021, 4099, 9973, 10007]:
        x = rng.standard_normal((2, p)).astype(np.float32)
        _close(core.fft.rfft(core.tensor(x)), np.fft.rfft(x.astype(np.float64)), F32_TOL)
        spec = np.fft.rfft(x.astype(np.float64))
        _close(core.fft.irfft(core.tensor(spec), n=p), np.fft.irfft(spec, n=p), F64_TOL)


@pytest.mark.parametrize("n", [4096 * 3, 65536, 2 ** 20, 100003, 3 * 5 * 7 * 11 * 13 * 17])
def test_long_lengths(n):
    rng = np.random.default_rng(4)
    x = _signal(rng, (n,))
    _close(core.fft.fft(core.tensor(x)), np.fft.fft(x), F64_TOL)
    x32 = x.astype(np.complex64)
    _close(core.fft.ifft(core.tensor(x32)), np.fft.ifft(x32.astype(np.complex128)), F32_TOL * 5)
    r = x.real.copy()
    _close(core.fft.rfft(core.tensor(r)), np.fft.rfft(r), F64_TOL)
    _close(core.fft.irfft(core.tensor(np.fft.rfft(r)), n=n), r, F64_TOL)


@pytest.mark.parametrize("norm", NORMS)
def test_norms_and_one_dim_functions(norm):
    rng = np.random.default_rng(5)
    x = _signal(rng, (4, 10))
    r = x.real.copy()
    np_norm = norm or "backward"
    t, tr = core.tensor(x), core.tensor(r)
    _close(core.fft.fft(t, norm=norm), np.fft.fft(x, norm=np_norm), F64_TOL)
    _close(core.fft.ifft(t, norm=norm), np.fft.ifft(x, norm=np_norm), F64_TOL)
    _close(core.fft.rfft(tr, norm=norm), np.fft.rfft(r, norm=np_norm), F64_TOL)
    _close(core.fft.irfft(t, norm=norm), np.fft.irfft(x, norm=np_norm), F64_TOL)
    _close(core.fft.hfft(t, norm=norm), np.fft.hfft(x, norm=np_norm), F64_TOL)
    _close(core.fft.ihfft(tr, norm=norm), np.fft.ihfft(r, norm=np_norm), F64_TOL)
    _close(core.fft.fft(tr, norm=norm), np.fft.fft(r, norm=np_norm), F64_TOL)  # real input
    _close(core.fft.ifft(tr, norm=norm), np.fft.ifft(r, norm=np_norm), F64_TOL)


@pytest.mark.parametrize("norm", NORMS)
def test_n_dimensional_functions(norm):
    rng = np.random.default_rng(6)
    x = _signal(rng, (3, 6, 5))
    r = x.real.copy()
    np_norm = norm or "backward"
    t, tr = core.tensor(x), core.tensor(r)
    for ours, theirs, arg in [(core.fft.fft2, np.fft.fft2, t), (core.fft.ifft2, np.fft.ifft2, t),
                              (core.fft.fftn, np.fft.fftn, t), (core.fft.ifftn, np.fft.ifftn, t),
                              (core.fft.rfft2, np.fft.rfft2, tr), (core.fft.rfftn, np.fft.rfftn, tr)]:
        data = x if arg is t else r
        _close(ours(arg, norm=norm), theirs(data, norm=np_norm), F64_TOL)
    spec = np.fft.rfftn(r)
    _close(core.fft.irfftn(core.tensor(spec), s=r.shape, norm=norm), np.fft.irfftn(spec, s=r.shape, axes=(0, 1, 2), norm=np_norm), F64_TOL)
    _close(core.fft.irfft2(core.tensor(spec), norm=norm), np.fft.irfft2(spec, norm=np_norm), F64_TOL)


def test_n_and_s_resize_and_dim_layouts():
    rng = np.random.default_rng(7)
    x = _signal(rng, (5, 7, 6))
    t = core.tensor(x)
    _close(core.fft.fft(t, n=4, dim=1), np.fft.fft(x, n=4, axis=1), F64_TOL)       # trimmed
    _close(core.fft.fft(t, n=11, dim=0), np.fft.fft(x, n=11, axis=0), F64_TOL)     # zero-padded
    _close(core.fft.rfft(t.real, n=9, dim=-2), np.fft.rfft(x.real, n=9, axis=-2), F64_TOL)
    _close(core.fft.fftn(t, s=(3, 8), dim=(0, 2)), np.fft.fftn(x, s=(3, 8), axes=(0, 2)), F64_TOL)
    _close(core.fft.fftn(t, s=(4, 4)), np.fft.fftn(x, s=(4, 4), axes=(1, 2)), F64_TOL)
    _close(core.fft.rfftn(t.real, dim=(2, 0)), np.fft.rfftn(x.real, axes=(2, 0)), F64_TOL)
    # Non-contiguous input: a transposed view and a strided slice.
    _close(core.fft.fft(t.transpose(0, 2)), np.fft.fft(x.transpose(2, 1, 0)), F64_TOL)
    _close(core.fft.fft(t[:, ::2, :], dim=1), np.fft.fft(x[:, ::2, :], axis=1), F64_TOL)


def test_dtypes():
    assert core.fft.fft(core.tensor([1.0, 2.0], dtype=core.float64)).dtype == core.complex128
    assert core.fft.fft(core.tensor([1.0, 2.0])).dtype == core.complex64
    assert core.fft.rfft(core.tensor([1, 2, 3])).dtype == core.complex64      # integers: default float
    assert core.fft.irfft(core.tensor([1.0, 2.0], dtype=core.float64)).dtype == core.float64
    assert core.fft.ifft(core.tensor([True, False])).dtype == core.complex64


def test_helpers():
    for n, d in [(1, 1.0), (6, 0.5), (7, 2.0)]:
        np.testing.assert_allclose(core.fft.fftfreq(n, d).numpy(), np.fft.fftfreq(n, d), rtol=1e-6)
        np.testing.assert_allclose(core.fft.rfftfreq(n, d).numpy(), np.fft.rfftfreq(n, d), rtol=1e-6)
    assert core.fft.fftfreq(4, dtype=core.float64).dtype == core.float64
    x = np.arange(30.0).reshape(5, 6)
    t = core.tensor(x)
    np.testing.assert_array_equal(core.fft.fftshift(t).numpy(), np.fft.fftshift(x))
    np.testing.assert_array_equal(core.fft.ifftshift(t).numpy(), np.fft.ifftshift(x))
    np.testing.assert_array_equal(core.fft.fftshift(t, dim=1).numpy(), np.fft.fftshift(x, axes=1))
    np.testing.assert_array_equal(core.fft.ifftshift(t, dim=(0,)).numpy(), np.fft.ifftshift(x, axes=(0,)))


def test_bad_input():
    x = core.randn(8)
    with pytest.raises(RuntimeError, match=r"Invalid number of data points \(0\)"):
        core.fft.fft(x, n=0)
    with pytest.raises(RuntimeError, match=r"Invalid number of data points \(-2\)"):
        core.fft.rfft(x, n=-2)
    with pytest.raises(RuntimeError, match="Invalid number of data points"):
        core.fft.irfft(core.randn(1, dtype=core.complex64))       # 2 * (1 - 1) = 0 points
    with pytest.raises(RuntimeError, match="rfft expects a real input tensor"):
        core.fft.rfft(core.randn(4, dtype=core.complex64))
    with pytest.raises(RuntimeError, match="ihfft expects a real input tensor"):
        core.fft.ihfft(core.randn(4, dtype=core.complex64))
    with pytest.raises(ValueError, match="Invalid normalization mode"):
        core.fft.fft(x, norm="both")
    with pytest.raises(IndexError, match="Dimension out of range"):
        core.fft.fft(x, dim=1)
    with pytest.raises(RuntimeError, match="same length"):
        core.fft.fftn(x, s=(4, 4), dim=(0,))
    with pytest.raises(RuntimeError, match="must be unique"):
        core.fft.fftn(core.randn(2, 2), dim=(0, 0))
    with pytest.raises(RuntimeError, match="expects a complex input"):
        core._fft_c2c(x, [0], 0, True)
    with pytest.raises(RuntimeError, match="normalization must be"):
        core._fft_c2c(x.to(core.complex64), [0], 3, True)
    with pytest.raises(RuntimeError, match="bins"):
        core._fft_c2r(core.randn(4, dtype=core.complex64), [0], 0, 10)


@pytest.mark.parametrize("dtype,tol", [("float64", F64_TOL), ("float32", F32_TOL)])
@pytest.mark.parametrize("n", [400, 401, 4096])
def test_real_lines_in_full_blocks(dtype, tol, n):
    """Many real lines: full blocks of lines, written tile by tile straight into the output
    (400, 401) or through the staging area (irfft of 4096: the lines share L1 sets; rfft of
    4096 goes within-line), with the real transform's untangle computed as the rows are
    written; the full spectrum too."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((37, n)).astype(dtype)
    ref = x.astype(np.float64)
    _close(core.fft.rfft(core.tensor(x)), np.fft.rfft(ref), tol)
    _close(core.fft.fft(core.tensor(x)), np.fft.fft(ref), tol)
    _close(core.fft.rfft(core.tensor(x), norm="ortho"), np.fft.rfft(ref, norm="ortho"), tol)
    spectrum = np.fft.rfft(ref).astype(np.complex128 if dtype == "float64" else np.complex64)
    _close(core.fft.irfft(core.tensor(spectrum), n=n), np.fft.irfft(spectrum.astype(np.complex128), n=n), tol)


@pytest.mark.parametrize("dtype,tol", [("float64", F64_TOL), ("float32", F32_TOL)])
@pytest.mark.parametrize("n", [256, 384, 640, 768, 896, 1280, 1792, 2048, 4096, 7808, 8192])
def test_long_real_lines_within_line(dtype, tol, n):
    """Long contiguous real lines are transformed along the line (a first radix-8 pass
    transposed into rows, then radix 8, 4, 2, 3, 5, 7 or 61 passes on rows, the untangle
    reading Z_{h-k} backwards; irfft's tangle likewise from 1024 values): the bits of the
    blocked kernel that strided lines take."""
    rng = np.random.default_rng(12)
    x = rng.standard_normal((5, n)).astype(dtype)
    ref = x.astype(np.float64)
    ours = core.fft.rfft(core.tensor(x)).numpy()
    _close(ours, np.fft.rfft(ref), tol)
    _close(core.fft.fft(core.tensor(x)), np.fft.fft(ref), tol)
    _close(core.fft.rfft(core.tensor(x), norm="forward"), np.fft.rfft(ref, norm="forward"), tol)
    strided = core.fft.rfft(core.tensor(x.T.copy()), dim=0).numpy().T
    assert ours.tobytes() == np.ascontiguousarray(strided).tobytes()
    full = core.fft.fft(core.tensor(x)).numpy()
    assert full.tobytes() == np.ascontiguousarray(core.fft.fft(core.tensor(x.T.copy()), dim=0).numpy().T).tobytes()
    spectrum = np.fft.rfft(ref).astype(np.complex128 if dtype == "float64" else np.complex64)
    spectrum[:, 0] += 0.5j  # ignored, as the imaginary part of bin n / 2
    spectrum[:, -1] -= 0.25j
    back = core.fft.irfft(core.tensor(spectrum), n=n).numpy()
    _close(back, np.fft.irfft(spectrum.astype(np.complex128), n=n), tol)
    _close(core.fft.irfft(core.tensor(spectrum), n=n, norm="ortho"), np.fft.irfft(spectrum.astype(np.complex128), n=n, norm="ortho"), tol)
    strided = core.fft.irfft(core.tensor(spectrum.T.copy()), n=n, dim=0).numpy().T
    assert back.tobytes() == np.ascontiguousarray(strided).tobytes()


def test_threads_give_the_same_result():
    rng = np.random.default_rng(8)
    x = core.tensor(rng.standard_normal((64, 1000)).astype(np.float32))
    threads = core.get_num_threads()
    try:
        core.set_num_threads(1)
        one = core.fft.rfft(x).numpy()
        core.set_num_threads(2)
        two = core.fft.rfft(x).numpy()
    finally:
        core.set_num_threads(threads)
    np.testing.assert_array_equal(one, two)


def test_complex128_dtype_basics():
    z = core.tensor([1 + 2j, 2 - 3j], dtype=core.complex128)
    assert z.dtype == core.complex128 and z.numpy().dtype == np.complex128
    assert (z + core.tensor([1.0, 2.0], dtype=core.float64)).dtype == core.complex128
    assert (core.tensor([1.0], dtype=core.float64) * core.tensor(1j, dtype=core.complex64)).dtype == core.complex128
    assert (core.tensor([1.0]) * core.tensor(1j, dtype=core.complex128)).dtype == core.complex64
    np.testing.assert_allclose(z.abs().numpy(), [np.sqrt(5.0), np.sqrt(13.0)])
    np.testing.assert_allclose(z.angle().numpy(), np.angle([1 + 2j, 2 - 3j]))
    np.testing.assert_array_equal(z.conj().numpy(), [1 - 2j, 2 + 3j])
    np.testing.assert_array_equal(z.real.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(z.imag.numpy(), [2.0, -3.0])
    assert z.real.dtype == core.float64
    pairs = core.view_as_real(z)
    assert pairs.dtype == core.float64 and pairs.shape == (2, 2)
    assert core.view_as_complex(pairs).dtype == core.complex128
    np.testing.assert_array_equal((z * z).numpy(), np.array([1 + 2j, 2 - 3j]) ** 2)
    np.testing.assert_array_equal((z / 2).numpy(), np.array([1 + 2j, 2 - 3j]) / 2)
    assert z.sum().item() == 3 - 1j
    assert repr(z) == "tensor([1.+2.j, 2.-3.j], dtype=core.complex128)"


# ---- every SIMD build gives bit-identical transforms

_SIMD_SCRIPT = r"""
import sys
import numpy as np
import core
rng = np.random.default_rng(9)
out = {}
# blocked Stockham (radices 8, 4, 2, 3, 5, 7, 61), Bluestein on blocks (1009) and on four-step
# lines (4099), four-step (8192, 6000), lines side by side (dim 0) and partial blocks (odd counts);
# real lines within-line (640, 896, 7808: passes of radix 5, 7, 61 on rows; 8192)
for n in [1, 2, 6, 16, 100, 400, 427, 640, 896, 1009, 4099, 6000, 7808, 8192]:
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal((3, n)).astype(dtype)
        z = (x + 1j * rng.standard_normal((3, n))).astype(np.complex64 if dtype == np.float32 else np.complex128)
        out[f"fft{n}{dtype.__name__}"] = core.fft.fft(core.tensor(z)).numpy()
        out[f"ifft{n}{dtype.__name__}"] = core.fft.ifft(core.tensor(z)).numpy()
        out[f"rfft{n}{dtype.__name__}"] = core.fft.rfft(core.tensor(x)).numpy()
        out[f"irfft{n}{dtype.__name__}"] = core.fft.irfft(core.fft.rfft(core.tensor(x)), n=n).numpy()
        out[f"fft0{n}{dtype.__name__}"] = core.fft.fft(core.tensor(z.T.copy()), dim=0).numpy()
x = rng.standard_normal((37, 4096)).astype(np.float32)
out["rfft_lines"] = core.fft.rfft(core.tensor(x)).numpy()
out["rfft_lines400"] = core.fft.rfft(core.tensor(x[:, :400].copy())).numpy()
out["fft_real_lines400"] = core.fft.fft(core.tensor(x[:, :400].copy())).numpy()
out["rfft_cols"] = core.fft.rfft(core.tensor(x[:, :1000].T.copy()), dim=0).numpy()
np.savez(sys.argv[1], capability=core._C._cpu_capability(), **out)
"""


def test_simd_builds_give_bit_identical_transforms(tmp_path):
    """Each line is transformed by the same adds and multiplies in the same order whatever
    the vector width: the AVX-512, AVX2 and baseline builds agree to the bit."""
    import os

    from support import run_python

    results = {}
    for capability in (None, "avx2", "baseline"):
        path = tmp_path / f"{capability or 'default'}.npz"
        env = dict(os.environ)
        env.pop("TENSORZOO_CPU_CAPABILITY", None)
        if capability:
            env["TENSORZOO_CPU_CAPABILITY"] = capability
        run = run_python(_SIMD_SCRIPT, str(path), env=env, timeout=300)
        assert run.returncode == 0, run.stderr
        results[capability] = dict(np.load(path))
    default = results.pop(None)
    levels = ["baseline", "avx2", "avx512"]
    for capability, capped in results.items():
        assert levels.index(str(capped["capability"])) <= levels.index(capability)
        for key, value in default.items():
            if key != "capability":
                assert value.tobytes() == capped[key].tobytes(), f"{key} differs between {default['capability']} and {capability}"
