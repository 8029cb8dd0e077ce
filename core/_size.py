"""core.Size: the shape of a tensor, a tuple of ints."""


class Size(tuple):
    __slots__ = ()

    def __new__(cls, sizes=()):
        return super().__new__(cls, (int(s) for s in sizes))

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, index):
        item = super().__getitem__(index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def __repr__(self):
        return f"core.Size([{', '.join(str(s) for s in self)}])"

    def __reduce__(self):
        return (Size, (tuple(self),))
