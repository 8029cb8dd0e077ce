"""The DCGAN generator step of bench_programs.py taken apart, ours vs PyTorch: per transposed
convolution its forward, input gradient (a regular stride-2 convolution; none for the first
layer, whose input is the noise) and weight gradient, and per BatchNorm + ReLU its training
forward + backward, on the step's shapes (batch 64, nz 100, ngf 64, 64x64 output).

    python benchmarks/bench_dcgan_layers.py [--threads 1,2] [--repeats R] [--filter SUBSTRING]
"""
import sys

import _paths  # noqa: F401  (an in-place build wins over an installed one)

import numpy as np  # noqa: E402

import harness  # noqa: E402

torch = harness.torch

BATCH = 64
# (in channels, out channels, kernel, stride, padding, input size) of each ConvTranspose2d
LAYERS = [(100, 512, 4, 1, 0, 1), (512, 256, 4, 2, 1, 4), (256, 128, 4, 2, 1, 8), (128, 64, 4, 2, 1, 16),
          (64, 3, 4, 2, 1, 32)]


def _out_size(size, k, stride, pad):
    return (size - 1) * stride - 2 * pad + k


def _conv_ops(lib, cin, cout, k, stride, pad, size):
    rng = np.random.default_rng(0)
    osz = _out_size(size, k, stride, pad)
    x = lib.tensor(rng.standard_normal((BATCH, cin, size, size), dtype=np.float32))
    w = lib.tensor(rng.standard_normal((cin, cout, k, k), dtype=np.float32) * 0.05)
    gy = lib.tensor(rng.standard_normal((BATCH, cout, osz, osz), dtype=np.float32))
    F = lib.nn.functional
    ops = {"fwd": lambda: F.conv_transpose2d(x, w, None, stride, pad)}
    if size > 1:
        ops["grad input"] = lambda: F.conv2d(gy, w, None, stride, pad)
    if lib is torch:
        ops["grad weight"] = lambda: torch.ops.aten.convolution_backward(
            gy, x, w, None, [stride] * 2, [pad] * 2, [1, 1], True, [0, 0], 1, [False, True, False])[1]
    else:
        weight_grad = lib._C._op("_conv_backward_weight")
        ops["grad weight"] = lambda: weight_grad(gy, x, list(w.shape), [stride] * 2, [pad] * 2,
                                                              [1, 1], 1)
    return ops


def _bn_relu(lib, channels, size):
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal((BATCH, channels, size, size), dtype=np.float32)).requires_grad_()
    g = lib.tensor(rng.standard_normal((BATCH, channels, size, size), dtype=np.float32))
    bn = lib.nn.BatchNorm2d(channels)

    def step():
        y = lib.relu(bn(x))
        y.backward(g)
        return y.detach()
    return step


def benches():
    import core

    out = []
    for cin, cout, k, stride, pad, size in LAYERS:
        osz = _out_size(size, k, stride, pad)
        name = f"convT {cin}->{cout} {size}->{osz}"
        ours = _conv_ops(core, cin, cout, k, stride, pad, size)
        theirs = _conv_ops(torch, cin, cout, k, stride, pad, size) if torch is not None else {}
        for what, fn in ours.items():
            out.append(harness.bench_of(f"{name} {what}", fn, theirs.get(what), check=False))
        if cout > 3:
            out.append(harness.bench_of(f"bn+relu {cout}x{osz}x{osz} fwd+bwd", _bn_relu(core, cout, osz),
                                        _bn_relu(torch, cout, osz) if torch is not None else None, check=False))
    return out


if __name__ == "__main__":
    sys.exit(harness.bench_main(__doc__, benches))
