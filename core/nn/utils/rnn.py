"""Packed variable-length sequences (torch.nn.utils.rnn): PackedSequence and the functions that
pack and pad them. Every step is a differentiable core op (narrow / cat / stack / index_select)."""
from collections import namedtuple

import core

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "pack_sequence"]

_PackedSequenceBase = namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])


class PackedSequence(_PackedSequenceBase):
    """data: the time steps' rows concatenated (sum(batch_sizes), *); batch_sizes: how many
    sequences are still running at each step (int64, non-increasing)."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence(data_and_batch_sizes_tuple) like torch
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def float(self):
        return self.to(dtype=core.float32)

    def double(self):
        return self.to(dtype=core.float64)

    def half(self):
        return self.to(dtype=core.float16)

    def cpu(self):
        return self

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    if permutation is None:
        return None
    output = core.empty_like(permutation)
    output.scatter_(0, permutation, core.arange(permutation.numel(), dtype=permutation.dtype))
    return output


def _as_lengths(lengths):
    if isinstance(lengths, core.Tensor):
        return [int(v) for v in lengths.reshape(-1).tolist()]
    return [int(v) for v in lengths]


def _batch_sizes(lengths):
    """batch_sizes[t]: how many of the (decreasingly sorted) lengths exceed t."""
    sizes = []
    b = len(lengths)
    for t in range(lengths[0] if lengths else 0):
        while b and lengths[b - 1] <= t:
            b -= 1
        sizes.append(b)
    return sizes


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    lengths = _as_lengths(lengths)
    batch_dim = 0 if batch_first else 1
    if len(lengths) != input.shape[batch_dim]:
        raise RuntimeError(f"pack_padded_sequence(): Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(lengths)} (batch_size={input.shape[batch_dim]})")
    if enforce_sorted:
        if any(a < b for a, b in zip(lengths, lengths[1:])):
            raise RuntimeError("pack_padded_sequence(): `lengths` array must be sorted in decreasing order when "
                               "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                               "pack_padded_sequence and/or pack_sequence to sidestep this requirement if you do "
                               "not need ONNX exportability.")
        sorted_indices = None
    else:
        order = sorted(range(len(lengths)), key=lambda i: -lengths[i])  # stable, like a stable descending sort
        sorted_indices = core.tensor(order, dtype=core.int64)
        lengths = [lengths[i] for i in order]
        input = input.index_select(batch_dim, sorted_indices)
    if lengths and lengths[-1] <= 0:
        raise RuntimeError("pack_padded_sequence(): Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if batch_first:
        input = input.transpose(0, 1)
    if lengths and lengths[0] > input.shape[0]:
        raise RuntimeError(f"pack_padded_sequence(): Expected the longest length ({lengths[0]}) to be at most the "
                           f"padded sequence length ({input.shape[0]})")
    sizes = _batch_sizes(lengths)
    steps = [input[t].narrow(0, 0, b) for t, b in enumerate(sizes)]
    data = core.cat(steps) if steps else input.reshape((0,) + tuple(input.shape[2:]))
    return PackedSequence(data, core.tensor(sizes, dtype=core.int64), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    data, batch_sizes, _, unsorted_indices = sequence
    sizes = batch_sizes.tolist()
    max_len = len(sizes)
    if total_length is not None:
        if total_length < max_len:
            raise ValueError("pad_packed_sequence(): Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max sequence length "
                             f"being {max_len}")
        max_len = total_length
    batch = sizes[0] if sizes else 0
    rest = tuple(data.shape[1:])
    steps, offset = [], 0
    for b in sizes:
        step = data.narrow(0, offset, b)
        offset += b
        if b < batch:
            step = core.cat([step, core.full((batch - b,) + rest, padding_value, dtype=data.dtype)])
        steps.append(step)
    for _ in range(max_len - len(sizes)):
        steps.append(core.full((batch,) + rest, padding_value, dtype=data.dtype))
    padded = core.stack(steps, 1 if batch_first else 0) if steps else core.full(
        ((batch, 0) if batch_first else (0, batch)) + rest, padding_value, dtype=data.dtype)
    lengths = [sum(1 for s in sizes if s > i) for i in range(batch)]
    lengths = core.tensor(lengths, dtype=core.int64)
    if unsorted_indices is not None:
        padded = padded.index_select(0 if batch_first else 1, unsorted_indices)
        lengths = lengths.index_select(0, unsorted_indices)
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    if isinstance(sequences, core.Tensor):
        sequences = sequences.unbind(0)
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("pad_sequence(): received an empty list of sequences")
    max_len = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        if s.shape[0] < max_len:
            fill = core.full((max_len - s.shape[0],) + tuple(s.shape[1:]), padding_value, dtype=s.dtype)
            s = core.cat([s, fill])
        padded.append(s)
    return core.stack(padded, 0 if batch_first else 1)


def pack_sequence(sequences, enforce_sorted=True):
    lengths = [v.shape[0] for v in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)
