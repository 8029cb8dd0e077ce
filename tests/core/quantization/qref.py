"""Numpy references of the int8 kernels: int64 accumulation and the float32 output stage
written out step by step (the same rounding as the C++ kernels, so results match exactly)."""
import numpy as np

F32 = np.float32


def requant(v, zp, lo=0, hi=255):
    return np.clip(np.rint(v) + F32(zp), lo, hi).astype(np.uint8)


def output_stage(acc, x_scale, w_scales, bias, out_scale, out_zp, relu, qnnpack=False):
    """fbgemm: float bias / (sx * sw); qnnpack: the bias rounded to int32 of scale sx * sw."""
    w_scales = np.asarray(w_scales, dtype=F32)
    act_w = F32(x_scale) * w_scales
    v = acc.astype(F32)
    if qnnpack:
        mult = w_scales * F32(x_scale) * (F32(1) / F32(out_scale))
        if bias is not None:
            bias_scale = (w_scales.astype(np.float64) * np.float64(F32(x_scale))).astype(F32)
            v = v + np.rint(np.asarray(bias, dtype=F32) * (F32(1) / bias_scale))
    else:
        mult = act_w / F32(out_scale)
        if bias is not None:
            v = v + np.asarray(bias, dtype=F32) / act_w
    return requant(v * mult, out_zp, out_zp if relu else 0)


def qlinear(x, x_scale, x_zp, w, w_scales, w_zps, bias, out_scale, out_zp, relu=False, qnnpack=False):
    """x: uint8 (M, K); w: int8 (N, K); per-channel scales/zero points (N,)."""
    acc = (x.astype(np.int64) - x_zp) @ (w.astype(np.int64) - np.asarray(w_zps)[:, None]).T
    return output_stage(acc, x_scale, w_scales, bias, out_scale, out_zp, relu, qnnpack)


def qconv2d(x, x_scale, x_zp, w, w_scales, w_zps, bias, out_scale, out_zp, stride, padding, dilation, groups,
            relu=False):
    """x: uint8 (N, C, H, W); w: int8 (O, C/groups, KH, KW). Returns uint8 (N, O, OH, OW)."""
    N, C, H, W = x.shape
    O, Cg, KH, KW = w.shape
    sh, sw = stride
    ph, pw = padding
    dh, dw = dilation
    OH = (H + 2 * ph - dh * (KH - 1) - 1) // sh + 1
    OW = (W + 2 * pw - dw * (KW - 1) - 1) // sw + 1
    xp = np.pad(x.astype(np.int64) - x_zp, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    wz = w.astype(np.int64) - np.asarray(w_zps)[:, None, None, None]
    acc = np.zeros((N, O, OH, OW), dtype=np.int64)
    og = O // groups
    for kh in range(KH):
        for kw in range(KW):
            patch = xp[:, :, kh * dh: kh * dh + sh * (OH - 1) + 1: sh, kw * dw: kw * dw + sw * (OW - 1) + 1: sw]
            for g in range(groups):
                acc[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch[:, g * Cg:(g + 1) * Cg],
                                                         wz[g * og:(g + 1) * og, :, kh, kw])
    acc = acc.transpose(0, 2, 3, 1)
    out = output_stage(acc, x_scale, w_scales, bias, out_scale, out_zp, relu)
    return out.transpose(0, 3, 1, 2)


def quantize(x, scale, zp, qmin, qmax, dtype, zp_first=False):
    """zp_first: fbgemm's per-tensor 8-bit rounding, nearbyint(fma(x, 1 / scale, zp)) (the
    float64 sum of an exact float64 product stands in for the fused multiply-add)."""
    inv = F32(1) / F32(scale)
    if zp_first:
        rounded = np.rint((x.astype(np.float64) * np.float64(inv) + zp).astype(F32)).astype(np.float64)
    else:
        rounded = np.rint(x.astype(F32) * inv).astype(np.float64) + zp  # int32 bounds need float64
    return np.clip(rounded, qmin, qmax).astype(dtype)


def requant_zp_first(v, zp):
    """qnnpack's lookup-table entries: the zero point is added before rounding."""
    return np.clip(np.rint(v + F32(zp)), 0, 255).astype(np.uint8)


def dequantize(q, scale, zp):
    return (q.astype(np.int64) - zp).astype(F32) * F32(scale)
