"""float64 gradcheck and gradgradcheck of the FFT primitives and core.fft / stft / istft.
gradcheck is real-valued, so complex tensors enter and leave as view_as_real pairs
(complex128 <-> float64 (..., 2))."""
import numpy as np
import pytest

import core
from core import autograd

rng = np.random.default_rng(0)


def _pairs(*shape):
    return core.tensor(rng.standard_normal(shape + (2,))).requires_grad_()


def _real(*shape):
    return core.tensor(rng.standard_normal(shape)).requires_grad_()


def _check(fn, inputs):
    assert autograd.gradcheck(fn, inputs, atol=1e-7, rtol=1e-5)
    assert autograd.gradgradcheck(fn, inputs, atol=1e-6, rtol=1e-4)


def _c(x):
    return core.view_as_complex(x)


def _r(z):
    return core.view_as_real(z)


@pytest.mark.parametrize("dims,norm,forward", [([1], 0, True), ([0], 2, False), ([0, 1], 1, True), ([1, 0], 1, False)])
def test_c2c(dims, norm, forward):
    _check(lambda x: _r(core._fft_c2c(_c(x), dims, norm, forward)), [_pairs(3, 4)])


@pytest.mark.parametrize("n,onesided,norm", [(6, True, 0), (5, True, 2), (4, False, 1)])
def test_r2c(n, onesided, norm):
    _check(lambda x: _r(core._fft_r2c(x, [1], norm, onesided)), [_real(2, n)])


@pytest.mark.parametrize("n,norm", [(6, 2), (5, 0), (1, 1)])
def test_c2r(n, norm):
    _check(lambda x: core._fft_c2r(_c(x), [1], norm, n), [_pairs(2, n // 2 + 1)])


def test_c2r_two_dims():
    _check(lambda x: core._fft_c2r(_c(x), [0, 1], 1, 4), [_pairs(3, 3)])


@pytest.mark.parametrize("fn", [
    lambda x: _r(core.fft.fft(_c(x), n=5)),
    lambda x: _r(core.fft.ifft(_c(x), n=2, norm="ortho")),
    lambda x: core.fft.irfft(_c(x), n=5),
    lambda x: core.fft.hfft(_c(x), n=4, norm="forward"),
    lambda x: _r(core.fft.fft2(_c(x))),
    lambda x: core.fft.irfftn(_c(x), s=(3, 4)),
])
def test_complex_functions(fn):
    _check(fn, [_pairs(3, 3)])


@pytest.mark.parametrize("fn", [
    lambda x: _r(core.fft.rfft(x, n=6)),
    lambda x: _r(core.fft.ihfft(x)),
    lambda x: _r(core.fft.fft(x)),
    lambda x: _r(core.fft.rfftn(x, norm="ortho")),
])
def test_real_functions(fn):
    _check(fn, [_real(3, 4)])


def test_stft_istft():
    window = core.hann_window(8, dtype=core.float64)
    _check(lambda x: _r(core.stft(x, 8, 2, window=window, return_complex=True)), [_real(20)])
    spec = core.stft(core.tensor(rng.standard_normal(20)), 8, 2, window=window, return_complex=True)
    pairs = _r(spec).detach().clone().requires_grad_()
    assert autograd.gradcheck(lambda x: core.istft(_c(x), 8, 2, window=window, length=20), [pairs],
                              atol=1e-7, rtol=1e-5)
