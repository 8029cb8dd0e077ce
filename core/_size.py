"""core.Size: the shape of a tensor, a tuple of ints (like torch.Size)."""
import operator


def _as_int(value, position):
    try:
        return operator.index(value)  # ints, numpy ints, one-element integer tensors
    except TypeError:
        raise TypeError(f"core.Size() takes an iterable of 'int' (item {position} is "
                        f"'{type(value).__name__}')") from None


class Size(tuple):
    __slots__ = ()

    def __new__(cls, sizes=()):
        return super().__new__(cls, (_as_int(s, i) for i, s in enumerate(sizes)))

    def numel(self):
        """The number of elements of a tensor of this shape."""
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, index):
        item = super().__getitem__(index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(self) + other)

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(other + tuple(self))

    def __mul__(self, times):
        return Size(tuple(self) * times)

    __rmul__ = __mul__

    def __repr__(self):
        return f"core.Size([{', '.join(str(s) for s in self)}])"

    def __reduce__(self):
        return (Size, (tuple(self),))


def _shape_of(sizes):
    """The Size of a tensor's own shape, a tuple of ints already: no per-item checks (Size()
    costs several times more, and x.shape is on every model's path)."""
    return tuple.__new__(Size, sizes)
