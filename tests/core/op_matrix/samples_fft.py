"""Sample kinds of the FFT primitives: complex and real inputs in both precisions, one to
three transformed dims, odd and even lengths, a prime length, every normalization."""
import numpy as np

from .registry import Case, sample


def _complex(rng, shape, dtype):
    return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)


def _real(rng, shape, dtype):
    return rng.uniform(-1, 1, shape).astype(dtype)


@sample("fft_c2c")
def fft_c2c(rng):
    return [
        Case((_complex(rng, (3, 8), "complex64"), [1], 0, True), label="c64 last dim"),
        Case((_complex(rng, (5, 3), "complex128"), [0], 2, False), label="c128 first dim inverse by n"),
        Case((_complex(rng, (2, 6, 7), "complex128"), [1, 2], 1, True), label="2 dims ortho"),
        Case((_complex(rng, (4, 3, 5), "complex64"), [0, 1, 2], 1, False), label="3 dims inverse"),
        Case((_complex(rng, (2, 13), "complex128"), [-1], 0, True), label="prime length"),
    ]


@sample("fft_r2c")
def fft_r2c(rng):
    return [
        Case((_real(rng, (3, 8), "float32"), [1], 0, True), label="f32 onesided even"),
        Case((_real(rng, (2, 9), "float64"), [-1], 2, True), label="f64 onesided odd by n"),
        Case((_real(rng, (7, 4), "float64"), [0], 1, False), label="full spectrum, first dim"),
        Case((_real(rng, (2, 6, 5), "float64"), [1, 2], 0, True), label="2 dims"),
    ]


@sample("fft_c2r")
def fft_c2r(rng):
    return [
        Case((_complex(rng, (3, 5), "complex64"), [1], 2, 8), label="c64 even length"),
        Case((_complex(rng, (2, 5), "complex128"), [-1], 0, 9), label="odd length"),
        Case((_complex(rng, (3, 4), "complex128"), [0], 1, 5), label="first dim ortho"),
        Case((_complex(rng, (2, 4, 3), "complex128"), [1, 2], 2, 4), label="2 dims"),
    ]
