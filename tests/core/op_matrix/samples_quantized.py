"""Sample kinds of the quantization family's float-in, float-out entries (op_table/quantized.cpp)."""
import numpy as np

from .registry import Case, sample
from .samples import random_array


@sample("fake_quantize_per_tensor")
def fake_quantize_per_tensor(rng):
    # Power-of-two scales: x / scale is exact, so no case sits on a rounding knife-edge.
    return [Case((random_array(rng, s, d, -3, 3), 0.125, zp, qmin, qmax), label=f"{d}{s} zp={zp} [{qmin},{qmax}]")
            for d in ("float32",) for s in [(), (5,), (3, 4)]
            for zp, qmin, qmax in [(0, -128, 127), (10, 0, 255), (3, 0, 15)]]


@sample("fake_quantize_per_channel")
def fake_quantize_per_channel(rng):
    cases = []
    for d in ("float32",):  # quantization takes float32 only, as in PyTorch
        x = random_array(rng, (3, 4, 2), d, -3, 3)
        cases.append(Case((x, np.array([0.25, 0.125, 0.5], np.float32), np.array([0, 5, -2], np.int32), 0, -128, 127),
                          label=f"{d} axis 0"))
        cases.append(Case((x, np.array([0.5, 0.25, 0.25, 1.0], np.float32), np.array([1, 0, 3, 2], np.int32), 1, 0, 255),
                          label=f"{d} axis 1"))
    return cases
