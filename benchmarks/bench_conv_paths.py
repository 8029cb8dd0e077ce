"""Our algorithms for regular convolutions against each other: the tile kernel
(ops/conv_tile.cpp), im2col + GEMM and, for stride-1 3x3, Winograd F(4x4, 3x3)
(ops/conv_winograd.cpp), forward and input gradient, on ResNet's KxK shapes and a few others; and
forward 1x1 NHWC convolutions (MobileNetV3-Large's at batch 1, the weight input-channel-major as
core.compile stores it) on the tile kernel against BLAS. The measurements behind
ops/conv_tile.cpp's tile_kernel_wins table and kTilePointwiseMaxChannels, and
ops/conv_winograd.cpp's winograd_wins table.

    PYTHONPATH=. python benchmarks/bench_conv_paths.py [--threads 1,2] [--repeats 5] [--filter S]

Median times (harness.time_interleaved: the algorithms take turns); tile/gemm below 1 means
the tile kernel is faster. The harness's columns: ours = tile, pytorch = GEMM, numpy = Winograd.
"""
import sys

import _paths  # noqa: F401  (an in-place build wins over an installed one)

import numpy as np  # noqa: E402

import harness  # noqa: E402

# (batch, in channels, out channels, kernel, stride, spatial size[, padding: kernel // 2])
SHAPES = [
    (1, 64, 64, 3, 1, 56), (1, 128, 128, 3, 1, 28), (1, 256, 256, 3, 1, 14), (1, 512, 512, 3, 1, 7),
    (1, 128, 128, 3, 2, 56), (1, 256, 256, 3, 2, 28), (1, 512, 512, 3, 2, 14),
    (8, 64, 64, 3, 1, 56), (8, 128, 128, 3, 1, 28), (8, 256, 256, 3, 1, 14), (8, 512, 512, 3, 1, 7),
    (16, 128, 128, 3, 1, 28), (16, 256, 256, 3, 1, 14), (16, 512, 512, 3, 1, 7),
    (1, 16, 16, 3, 1, 56), (1, 8, 32, 3, 1, 32), (1, 32, 64, 5, 1, 28), (1, 16, 64, 7, 2, 112),
    # DCGAN's 4x4 stride-2 padding-1 convolutions (the generator's transposed ones are their
    # input gradients, its discriminator's are these), batch 64
    (64, 256, 512, 4, 2, 8, 1), (64, 128, 256, 4, 2, 16, 1), (64, 64, 128, 4, 2, 32, 1),
]
# 1x1 NHWC: (batch, in channels, out channels, spatial size)
POINTWISE = [(1, 16, 16, 112), (1, 16, 64, 112), (1, 24, 72, 56), (1, 32, 96, 56), (1, 40, 120, 28),
             (1, 64, 24, 56), (1, 112, 672, 14), (1, 160, 960, 7)]


def _timed(core, algorithm, fn):
    def run():
        core._C._set_conv_algorithm(algorithm)
        return fn()
    return run


def benches():
    import core
    import core.nn.functional as F

    out = []
    for n, cin, cout, k, stride, size, *padding in SHAPES:
        pad = padding[0] if padding else k // 2
        rng = np.random.default_rng(0)
        x = core.tensor(rng.standard_normal((n, cin, size, size), dtype=np.float32))
        w = core.tensor(rng.standard_normal((cout, cin, k, k), dtype=np.float32) * 0.05)
        y = F.conv2d(x, w, None, stride, pad)
        gy = core.ones_like(y)
        extra = size - ((y.shape[2] - 1) * stride - 2 * pad + k)  # the output_padding back to `size`
        name = f"{n}x{cin}x{size}x{size} {k}x{k} s{stride} ->{cout}"
        fwd = lambda x=x, w=w, s=stride, p=pad: F.conv2d(x, w, None, s, p)  # noqa: E731
        # The input gradient alone: conv_transpose2d runs the same kernels.
        bwd = lambda gy=gy, w=w, s=stride, p=pad, e=extra: F.conv_transpose2d(gy, w, None, s, p, output_padding=e)  # noqa: E731
        for what, fn in (("fwd", fwd), ("grad input", bwd)):
            makers = {"ours": lambda fn=fn: _timed(core, "tile", fn), "pytorch": lambda fn=fn: _timed(core, "gemm", fn)}
            if k == 3 and stride == 1:
                makers["numpy"] = lambda fn=fn: _timed(core, "winograd", fn)
            out.append(harness.Bench(f"{name} {what}", makers, check=False))
    for n, cin, cout, size in POINTWISE:
        rng = np.random.default_rng(0)
        x = core.tensor(rng.standard_normal((n, cin, size, size), dtype=np.float32)).contiguous(
            memory_format=core.channels_last)
        w = core.tensor(np.ascontiguousarray(rng.standard_normal((cin, cout), dtype=np.float32).T * 0.05))
        w = w.t().contiguous().t().unsqueeze(-1).unsqueeze(-1)  # (O, C, 1, 1) over (C, O) memory
        fwd = lambda x=x, w=w: F.conv2d(x, w)  # noqa: E731
        out.append(harness.Bench(f"{n}x{cin}x{size}x{size} 1x1 nhwc ->{cout} fwd",
                                 {"ours": lambda fn=fwd: _timed(core, "tile", fn),
                                  "pytorch": lambda fn=fwd: _timed(core, "gemm", fn)}, check=False))
    return out


def main(argv=None):
    import core

    print("columns: ours = tile kernel, pytorch = im2col + GEMM, numpy = Winograd (all ours); ratio tile / gemm")
    try:
        return harness.bench_main(__doc__, benches, argv)
    finally:
        core._C._set_conv_algorithm("auto")


if __name__ == "__main__":
    sys.exit(main())
