"""Python-level linear algebra functions: the argument forms PyTorch accepts for einsum and
tensordot, mapped onto the C++ ops of the same name."""
import builtins

from core._native import _C

__all__ = ["einsum", "tensordot"]

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def einsum(*args):
    """einsum(equation, *operands): Einstein summation, as torch.einsum.

    Accepts operands as varargs (``einsum('ij,jk', a, b)``), as one list
    (``einsum('ij,jk', [a, b])``), or in sublist form
    (``einsum(a, [0, 1], b, [1, 2], [0, 2])``, ``Ellipsis`` for ``...``).
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    equation, operands = args[0], args[1:]
    if not isinstance(equation, str):
        equation, operands = _sublist_equation(args)
    elif len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return _C._functions["einsum"](equation, list(operands))


def _sublist_equation(args):
    # (op, sublist, op, sublist, ..., [output sublist]) -> "ab,bc->ac" and the operands.
    operands = list(args[0::2])
    sublists = list(args[1::2])
    output = None
    if len(args) % 2 == 1:
        output = operands.pop()
    terms = [_sublist_term(s) for s in sublists]
    equation = ",".join(terms)
    if output is not None:
        equation += "->" + _sublist_term(output)
    return equation, operands


def _sublist_term(sublist):
    out = []
    for s in sublist:
        if s is Ellipsis:
            out.append("...")
        elif isinstance(s, builtins.int) and 0 <= s < len(_LETTERS):
            out.append(_LETTERS[s])
        else:
            raise ValueError(f"einsum(): expected subscript to be within the range [0, 52), but got {s}")
    return "".join(out)


def tensordot(a, b, dims=2, out=None):
    """tensordot(a, b, dims=2): contracts the last `dims` dims of a with the first of b, or the
    dims listed in ``dims=([dims of a], [dims of b])``, as torch.tensordot."""
    if out is not None:
        raise TypeError("tensordot(): the out= argument is not supported")
    if hasattr(dims, "tolist"):  # a tensor of dims
        dims = dims.tolist()
    if isinstance(dims, (list, tuple)):
        if len(dims) != 2:
            raise RuntimeError("tensordot expects dims to be a pair of lists of dims, "
                               f"but got {dims}")
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, (builtins.int, str)) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, (builtins.int, str)) else list(dims_b)
    elif isinstance(dims, builtins.int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > builtins.min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a = list(range(-dims, 0))
        dims_b = list(range(dims))
    else:
        raise TypeError(f"tensordot expects dims to be an int or a pair of lists, got {type(dims).__name__}")
    return _C._functions["tensordot"](a, b, _dim_indices(a, dims_a), _dim_indices(b, dims_b))


def _dim_indices(t, dims):
    """Dim names (named tensors) as indices."""
    return [_C._dim_of_name(t, d) if isinstance(d, str) else d for d in dims]


from core._argcheck import check_module as _check_module  # noqa: E402

_check_module(globals(), __all__)
