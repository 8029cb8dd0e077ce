"""PyTorch-style printing of tensors."""


def tensor_repr(t):
    import numpy as np

    from core._native import _C

    if t.dtype in (_C.bfloat16,) or t.dtype.is_quantized:
        array = t.to(_C.float32).numpy() if not t.dtype.is_quantized else t.int_repr().numpy()
    else:
        array = t.numpy()
    body = np.array2string(array, separator=", ", prefix="tensor(")
    suffix = "" if t.dtype in (_C.float32, _C.int64, _C.bool) else f", dtype={t.dtype!r}"
    return f"tensor({body}{suffix})"
