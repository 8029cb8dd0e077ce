"""Named tensors (shared/SPEC.md 1.5): Tensor.names, rename, refine_names, align_to/align_as
and the named forms of flatten/unflatten. Names live on the C++ tensor (core/csrc/tensor/names.h);
ops infer their results' names from their op-table rule (core/csrc/ops/name_inference.cpp)."""
import math

from core._native import _C

_GLOB = "..."
# The pickled object-state key under which core.save stores a tensor's names: PyTorch's loader
# sets it as a plain attribute and otherwise ignores it, core.load gives the names back.
NAMES_STATE_KEY = "_tensorzoo_names"


def names_repr(names):
    """['N', None], as PyTorch writes dim names in its messages."""
    return "[" + ", ".join("None" if n is None else repr(n) for n in names) + "]"


def _tensor_repr(t):
    return "Tensor" + names_repr(t.names)


def _expand_glob(op, names, current):
    """`names` with a single '...' replaced by the dims of `current` it stands for."""
    names = list(names)
    globs = [i for i, n in enumerate(names) if n == _GLOB]
    if not globs:
        return names
    if len(globs) > 1:
        raise RuntimeError(f"{op}: More than one '...' found in names ({names_repr(names)}). "
                           f"This function supports up to one '...'.")
    at = globs[0]
    before, after = names[:at], names[at + 1:]
    if len(before) + len(after) > len(current):
        raise RuntimeError(f"{op}: {names_repr(names)} is longer than the number of dims of "
                           f"Tensor{names_repr(current)}.")
    return before + list(current[len(before):len(current) - len(after)]) + after


def _with_names(t, names):
    """A view of t (an autograd alias) carrying `names`."""
    out = _C._internal["alias"](t)
    _C._set_names(out, list(names))
    return out


def _new_names(t, op, names, rename_map):
    if names and rename_map:
        raise RuntimeError(f"{op}: This function takes either positional names or keyword arguments "
                           f"but not both.")
    if len(names) == 1 and names[0] is None:
        return None
    if names:
        return _expand_glob(op, names, t.names)
    current = list(t.names)
    for old, new in rename_map.items():
        if old not in current:
            raise RuntimeError(f"{op}: Tried to rename dim '{old}' to dim {new} in {_tensor_repr(t)} "
                               f"but dim '{old}' does not exist")
        current[current.index(old)] = new
    return current


def _is_names(seq):
    return isinstance(seq, (tuple, list)) and len(seq) > 0 and all(isinstance(n, str) for n in seq)


class NamedTensorMethods:
    """The named-tensor methods of core.Tensor."""

    @property
    def names(self):
        """The name of each dim (None where unnamed)."""
        return _C._get_names(self)

    @names.setter
    def names(self, names):
        _C._set_names(self, None if names is None else list(names))

    def rename(self, *names, **rename_map):
        """A view with new names: positional (every dim, '...' allowed; None drops all) or old=new keywords."""
        return _with_names(self, _new_names(self, "rename", names, rename_map) or [None] * self.dim())

    def rename_(self, *names, **rename_map):
        """rename() in place."""
        _C._set_names(self, _new_names(self, "rename_", names, rename_map))
        return self

    def refine_names(self, *names):
        """Names the unnamed dims; a named dim may only be 'refined' to its own name. One '...' allowed."""
        current = self.names
        refined = _expand_glob("refine_names", names, current)
        if len(refined) != len(current):
            raise RuntimeError(f"refine_names: cannot coerce {_tensor_repr(self)} to Tensor{names_repr(refined)}: "
                               f"it has {len(current)} dims but {len(refined)} names were given")
        for i, (old, new) in enumerate(zip(current, refined)):
            if old is not None and old != new:
                raise RuntimeError(f"refine_names: cannot coerce {_tensor_repr(self)} to Tensor{names_repr(refined)} "
                                   f"because {old!r} is different from {new!r} at index {i}")
        return _with_names(self, refined)

    def align_to(self, *names):
        """Permutes the dims to `names` order, adding size-1 dims for names self lacks ('...' once:
        the dims not mentioned, in their order)."""
        current = self.names
        globs = [i for i, n in enumerate(names) if n == _GLOB]
        if len(globs) > 1:
            raise RuntimeError(f"align_to: More than one '...' found in names ({names_repr(names)}).")
        if not globs:
            for i, n in enumerate(current):
                if n is None:
                    raise RuntimeError(f"align_to: All input dims must be named. Found unnamed dim at index {i} "
                                       f"of {_tensor_repr(self)}")
                if n not in names:
                    # PyTorch's words: "from Tensor[<the desired names>]".
                    raise RuntimeError(f"align_to: Cannot find dim {n!r} from Tensor{names_repr(names)} in "
                                       f"desired alignment {names_repr(names)}.")
            target = list(names)
        else:
            at = globs[0]
            rest = [n for n in current if n is None or n not in names]
            target = list(names[:at]) + rest + list(names[at + 1:])
        if len(set(n for n in target if n is not None)) != len([n for n in target if n is not None]):
            raise RuntimeError(f"align_to: duplicate names in desired alignment {names_repr(target)}.")
        # Dims of self in target order (unnamed ones by position within the glob), then size-1 dims.
        unnamed = iter(i for i, n in enumerate(current) if n is None)
        source = [next(unnamed) if n is None else (current.index(n) if n in current else None) for n in target]
        present = [s for s in source if s is not None]
        out = self.rename(None).permute(present)
        for i, s in enumerate(source):
            if s is None:
                out = out.unsqueeze(i)
        return _with_names(out, target)

    def align_as(self, other):
        """align_to(*other.names)."""
        return self.align_to(*other.names)

    def flatten(self, start_dim=0, end_dim=-1, out_dim=None):
        """flatten(start_dim, end_dim), or the named form flatten(dims, out_dim): consecutive dims into one named dim."""
        if out_dim is None and not isinstance(start_dim, (list, tuple)):
            return _C._methods["flatten"](self, start_dim, end_dim)
        dims = list(start_dim)
        out_dim = end_dim if out_dim is None else out_dim
        if not isinstance(out_dim, str):
            raise TypeError("flatten(dims, out_dim): out_dim must be a str")
        index = [_C._dim_of_name(self, d) if isinstance(d, str) else d % max(self.dim(), 1) for d in dims]
        if not index or index != list(range(index[0], index[0] + len(index))):
            raise RuntimeError(f"flatten(tensor, dims, out_dim): dims {names_repr(dims)} must be consecutive "
                               f"in {_tensor_repr(self)}")
        names = list(self.names)
        flat = _C._methods["flatten"](self.rename(None), index[0], index[-1])
        return _with_names(flat, names[:index[0]] + [out_dim] + names[index[-1] + 1:])

    def diagonal(self, offset=0, dim1=0, dim2=1, *, outdim=None):
        """diagonal(offset, dim1, dim2); with names, PyTorch's diagonal(outdim=, dim1=, dim2=) names the new last dim."""
        diag = _C._methods["diagonal"](self, offset, dim1, dim2)
        return diag if outdim is None else diag.rename(*diag.names[:-1], outdim)

    def unflatten(self, dim, sizes):
        """unflatten(dim, sizes), or with a namedshape (('C', 2), ('H', 3)): the new dims take those names."""
        named = isinstance(sizes, (list, tuple)) and len(sizes) > 0 and all(
            isinstance(s, (list, tuple)) and len(s) == 2 and isinstance(s[0], str) for s in sizes)
        d = _C._dim_of_name(self, dim) if isinstance(dim, str) else dim
        if not named:
            return _C._methods["unflatten"](self, d, sizes)
        d %= max(self.dim(), 1)
        names = list(self.names)
        shape = [s for _, s in sizes]
        if math.prod(shape) != self.shape[d] and -1 not in shape:
            raise RuntimeError(f"unflatten: Provided sizes {shape} don't multiply up to the size of dim {d} "
                               f"({names[d]!r}: {self.shape[d]}) in {_tensor_repr(self)}")
        out = _C._methods["unflatten"](self.rename(None), d, shape)
        return _with_names(out, names[:d] + [n for n, _ in sizes] + names[d + 1:])
