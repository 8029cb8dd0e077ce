"""Flatten and Unflatten."""
from core.nn.modules.module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Flattens dims start_dim..end_dim into one (default: all but the batch dim)."""

    __constants__ = ["start_dim", "end_dim"]

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits dim `dim` into `unflattened_size`: ints for a positional dim, or a named shape
    ((name, size), ...) for a named dim."""

    __constants__ = ["dim", "unflattened_size"]

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, int):
            self._require_tuple_int(unflattened_size)
        elif isinstance(dim, str):
            self._require_tuple_tuple(unflattened_size)
        else:
            raise TypeError("invalid argument type for dim parameter")
        self.dim = dim
        self.unflattened_size = unflattened_size

    @staticmethod
    def _require_tuple_tuple(value):
        if isinstance(value, tuple):
            for idx, elem in enumerate(value):
                if not isinstance(elem, tuple):
                    raise TypeError("unflattened_size must be tuple of tuples, but found element of "
                                    f"type {type(elem).__name__} at pos {idx}")
            return
        raise TypeError(f"unflattened_size must be a tuple of tuples, but found type {type(value).__name__}")

    @staticmethod
    def _require_tuple_int(value):
        if isinstance(value, (tuple, list)):
            for idx, elem in enumerate(value):
                if not isinstance(elem, int):
                    raise TypeError("unflattened_size must be tuple of ints, but found element of "
                                    f"type {type(elem).__name__} at pos {idx}")
            return
        raise TypeError(f"unflattened_size must be a tuple of ints, but found type {type(value).__name__}")

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
