"""core.qscheme: how a quantized tensor maps its integers to real values (torch.qscheme)."""


class qscheme:  # noqa: N801 - mirrors torch.qscheme
    """One quantization scheme; compare by identity (core.per_tensor_affine, ...)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "core." + self.name

    def __reduce__(self):
        return (_by_name, (self.name,))


per_tensor_affine = qscheme("per_tensor_affine")
per_channel_affine = qscheme("per_channel_affine")
per_tensor_symmetric = qscheme("per_tensor_symmetric")
per_channel_symmetric = qscheme("per_channel_symmetric")
per_channel_affine_float_qparams = qscheme("per_channel_affine_float_qparams")

_ALL = {s.name: s for s in (per_tensor_affine, per_channel_affine, per_tensor_symmetric, per_channel_symmetric,
                            per_channel_affine_float_qparams)}


def _by_name(name):
    return _ALL[name]
