"""Resampling functions of torch.nn.functional (PyTorch 1.8 semantics): interpolate and its
deprecated upsample_* aliases, grid_sample, affine_grid, pixel_shuffle / pixel_unshuffle."""
import math
import warnings

from core._native import _C
from core.nn.functional._pooling import adaptive_avg_pool1d, adaptive_avg_pool2d

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "grid_sample", "affine_grid",
           "pixel_shuffle", "pixel_unshuffle"]

_ops = _C._functions
pixel_shuffle = _ops["pixel_shuffle"]
pixel_unshuffle = _ops["pixel_unshuffle"]

_INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")


def _output_size_and_scales(input, dim, size, scale_factor, recompute_scale_factor, mode):
    """(output_size, scale_factors) exactly as PyTorch 1.8's interpolate decides them: with a
    scale factor the size is floor(in * scale), and unless recomputed the kernels get the
    scale itself (source index = dst / scale), not in/out."""
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    scale_factors = None
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError("size shape must match input shape. Input is {}D, size is {}".format(dim, len(size)))
            output_size = [int(s) for s in size]
        else:
            output_size = [int(size)] * dim
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError("scale_factor shape must match input shape. Input is {}D, scale_factor size is {}"
                                 .format(dim, len(scale_factor)))
            scale_factors = [float(s) for s in scale_factor]
        else:
            scale_factors = [float(scale_factor)] * dim
        if not all(math.isfinite(s) for s in scale_factors):
            raise ValueError(f"interpolate(): scale_factor must be finite, but got {scale_factor}")
    else:
        raise ValueError("either size or scale_factor should be defined")

    if recompute_scale_factor is None:
        if scale_factors is not None and any(math.floor(s) != s for s in scale_factors):
            warnings.warn("The default behavior for interpolate/upsample with float scale_factor changed in 1.6.0 to "
                          "align with other frameworks/libraries, and now uses scale_factor directly, instead of "
                          "relying on the computed output size. If you wish to restore the old behavior, please set "
                          "recompute_scale_factor=True. See the documentation of nn.Upsample for details. ")
    elif recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")

    # "area" always works from a size.
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if output_size is None:
        output_size = [int(math.floor(float(input.size(i + 2)) * scale_factors[i])) for i in range(dim)]
    if recompute_scale_factor:
        scale_factors = None
    return output_size, scale_factors


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    if mode in ("nearest", "area"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    else:
        if align_corners is None:
            warnings.warn("Default upsampling behavior when mode={} is changed to align_corners=False since 0.4.0. "
                          "Please specify align_corners=True if the old behavior is desired. See the documentation "
                          "of nn.Upsample for details.".format(mode))
            align_corners = False
    dim = input.dim() - 2
    if dim < 1 or dim > 3:
        raise NotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) for the modes: "
                                  "nearest | linear | bilinear | bicubic | trilinear (got {})".format(input.dim(), mode))
    output_size, scales = _output_size_and_scales(input, dim, size, scale_factor, recompute_scale_factor, mode)
    s = scales if scales is not None else [None] * dim

    if input.dim() == 3 and mode == "nearest":
        return _ops["upsample_nearest1d"](input, output_size, s[0])
    if input.dim() == 4 and mode == "nearest":
        return _ops["upsample_nearest2d"](input, output_size, s[0], s[1])
    if input.dim() == 3 and mode == "area":
        return adaptive_avg_pool1d(input, output_size)
    if input.dim() == 4 and mode == "area":
        return adaptive_avg_pool2d(input, output_size)
    if input.dim() == 3 and mode == "linear":
        return _ops["upsample_linear1d"](input, output_size, align_corners, s[0])
    if input.dim() == 4 and mode == "bilinear":
        return _ops["upsample_bilinear2d"](input, output_size, align_corners, s[0], s[1])
    if input.dim() == 4 and mode == "bicubic":
        return _ops["upsample_bicubic2d"](input, output_size, align_corners, s[0], s[1])

    if input.dim() == 3 and mode == "bilinear":
        raise NotImplementedError("Got 3D input, but bilinear mode needs 4D input")
    if input.dim() == 3 and mode == "trilinear":
        raise NotImplementedError("Got 3D input, but trilinear mode needs 5D input")
    if input.dim() == 4 and mode == "linear":
        raise NotImplementedError("Got 4D input, but linear mode needs 3D input")
    if input.dim() == 4 and mode == "trilinear":
        raise NotImplementedError("Got 4D input, but trilinear mode needs 5D input")
    if input.dim() == 5 and mode == "linear":
        raise NotImplementedError("Got 5D input, but linear mode needs 3D input")
    if input.dim() == 5 and mode == "bilinear":
        raise NotImplementedError("Got 5D input, but bilinear mode needs 4D input")
    if input.dim() == 5:
        raise NotImplementedError("interpolate(): 5D (volumetric) modes are not implemented (got {})".format(mode))
    raise NotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) for the modes: "
                              "nearest | linear | bilinear | bicubic | trilinear (got {})".format(input.dim(), mode))


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


_GRID_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_GRID_PADDING = {"zeros": 0, "border": 1, "reflection": 2}


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    if mode not in _GRID_MODES:
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         "but got: '{}'".format(mode))
    if padding_mode not in _GRID_PADDING:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         "'reflection', but got: '{}'".format(padding_mode))
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since "
                      "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
                      "documentation of grid_sample for details.")
        align_corners = False
    return _ops["grid_sampler"](input, grid, _GRID_MODES[mode], _GRID_PADDING[padding_mode], align_corners)


def affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since "
                      "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
                      "documentation of grid_sample for details.")
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError("Expected theta to have floating point type, but got {}".format(theta.dtype))
    size = list(size)
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError("Expected a batch of 2D affine matrices of shape Nx2x3 for size {}. Got {}."
                             .format(size, theta.shape))
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError("Expected a batch of 3D affine matrices of shape Nx3x4 for size {}. Got {}."
                             .format(size, theta.shape))
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  "respectively. Got size {}.".format(size))
    if min(size) <= 0:
        raise ValueError("Expected non-zero, positive output size. Got {}".format(size))
    return _ops["affine_grid_generator"](theta, size, align_corners)
