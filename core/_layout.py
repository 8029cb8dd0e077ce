"""core.layout: how a tensor's elements are laid out. Tensors here are strided (dense); the
sparse layouts exist as values so that programs naming them get a clear error when they use one."""


class layout:  # noqa: N801 - torch.layout's name
    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"core.{self._name}"

    def __reduce__(self):
        return self._name  # pickled by reference: core.strided unpickles as itself


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
_mkldnn = layout("_mkldnn")


def check_layout(value, op):
    if value is not None and value is not strided:
        raise RuntimeError(f"{op}(): layout {value!r} is not supported: tensorzoo tensors are strided")
