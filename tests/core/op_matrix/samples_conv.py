"""Sample kinds of the convolution family. The first cases of each kind are small (at most
40 elements per array) so the gradcheck matrix differentiates them: bias, stride, padding,
groups, depthwise, 1x1, unbatched. Larger ones cover dilation, multipliers, float16 and
empty batches for the forward comparison."""
import numpy as np

from .registry import Case, sample
from .samples import random_array


def _arrays(rng, dtype, *shapes):
    return tuple(None if s is None else random_array(rng, s, dtype, -1, 1) for s in shapes)


def _cases(rng, specs, dtypes=("float64", "float32", "float16")):
    """specs: (shapes (input, weight, bias or None), kwargs); each in every dtype, the small
    float64 ones first."""
    return [Case(_arrays(rng, d, *shapes), dict(kw), label=f"{d}{shapes}{kw}") for d in dtypes for shapes, kw in specs]


@sample("conv2d")
def conv2d(rng):
    return _cases(rng, [
        (((1, 2, 3, 3), (2, 2, 2, 2), (2,)), dict(padding=1)),
        (((1, 2, 4, 4), (2, 1, 3, 3), (2,)), dict(stride=2, padding=1, groups=2)),         # depthwise
        (((1, 4, 3, 3), (2, 2, 1, 1), None), dict(groups=2)),                               # grouped 1x1
        (((2, 3, 3), (2, 2, 2, 2), None), dict(stride=(1, 2))),                             # unbatched
        (((2, 3, 7, 6), (4, 3, 3, 3), (4,)), dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2))),
        (((2, 3, 6, 6), (6, 1, 3, 3), (6,)), dict(padding=1, groups=3)),                    # multiplier 2
        (((2, 5, 9, 9), (5, 1, 5, 5), (5,)), dict(stride=2, padding=2, groups=5)),          # depthwise 5x5 s2
        (((2, 8, 5, 5), (4, 8, 1, 1), (4,)), {}),                                           # 1x1
        (((2, 8, 5, 5), (4, 8, 1, 1), None), dict(stride=2)),                               # strided 1x1
        (((2, 6, 5, 4), (4, 3, 2, 3), (4,)), dict(groups=2, dilation=2, padding=1)),
        (((0, 3, 5, 5), (4, 3, 3, 3), (4,)), {}),                                           # empty batch
    ])


@sample("conv1d")
def conv1d(rng):
    return _cases(rng, [
        (((1, 2, 5), (3, 2, 3), (3,)), dict(padding=1)),
        (((1, 4, 6), (4, 1, 3), (4,)), dict(stride=2, padding=1, groups=4)),
        (((2, 5), (3, 2, 2), None), dict(dilation=2)),                                      # unbatched
        (((2, 6, 11), (4, 3, 3), (4,)), dict(stride=2, padding=2, dilation=2, groups=2)),
        (((3, 4, 8), (5, 4, 1), None), {}),
    ])


@sample("conv_transpose2d")
def conv_transpose2d(rng):
    return _cases(rng, [
        (((1, 2, 3, 3), (2, 2, 2, 2), (2,)), dict(stride=2, padding=1, output_padding=1)),
        (((1, 2, 3, 3), (2, 1, 3, 3), None), dict(stride=2, groups=2)),                     # depthwise
        (((1, 4, 2, 2), (4, 2, 1, 1), (4,)), dict(groups=2)),                               # grouped 1x1
        (((2, 3, 2), (2, 2, 2, 2), None), dict(dilation=2)),                                # unbatched
        (((2, 4, 5, 4), (4, 3, 3, 3), (6,)), dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=2,
                                                  dilation=(1, 2))),
        (((2, 3, 5, 5), (3, 2, 3, 3), (6,)), dict(stride=2, padding=1, groups=3)),         # depthwise, multiplier 2
        (((0, 3, 5, 5), (3, 4, 3, 3), (4,)), {}),
    ])


@sample("conv_transpose1d")
def conv_transpose1d(rng):
    return _cases(rng, [
        (((1, 2, 4), (2, 3, 3), (3,)), dict(stride=2, output_padding=1)),
        (((1, 4, 5), (4, 1, 3), None), dict(padding=1, groups=4)),
        (((2, 4), (2, 2, 2), (2,)), dict(dilation=2)),
        (((2, 4, 7), (4, 3, 3), (6,)), dict(stride=3, padding=2, output_padding=2, groups=2, dilation=2)),
    ])


@sample("im2col")
def im2col(rng):
    specs = [((1, 2, 4, 4), (2, 2), (1, 1), (0, 0), (1, 1)),
             ((2, 3, 3), (2, 1), (1, 1), (1, 0), (2, 1)),
             ((1, 1, 5, 6), (3, 2), (2, 1), (1, 2), (1, 3)),
             ((2, 3, 7, 6), (3, 3), (1, 2), (1, 1), (2, 2))]
    return [Case((random_array(rng, x, d),) + tuple(rest), label=f"{d}{x}{rest}")
            for d in ("float64", "float32") for x, *rest in specs]


@sample("col2im")
def col2im(rng):
    # (input shape, output_size, kernel, dilation, padding, stride)
    specs = [((1, 8, 4), (3, 3), (2, 2), (1, 1), (0, 0), (1, 1)),
             ((6, 6), (3, 3), (2, 1), (1, 1), (1, 0), (2, 1)),
             ((1, 6, 9), (5, 6), (3, 2), (2, 1), (1, 2), (1, 3)),
             ((2, 27, 8), (7, 6), (3, 3), (1, 2), (1, 1), (2, 2))]
    return [Case((random_array(rng, x, d),) + tuple(rest), label=f"{d}{x}{rest}")
            for d in ("float64", "float32") for x, *rest in specs]
