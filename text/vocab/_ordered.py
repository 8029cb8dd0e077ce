"""The vocabulary of torchtext >= 0.10 (vocab() and build_vocab_from_iterator with specials):
tokens in the order given, index = position, and an optional default index for unknown
tokens (without one, an unknown token is an error)."""
import collections

from core import nn

__all__ = ["OrderedVocab", "vocab", "build_ordered_vocab"]


class OrderedVocab(nn.Module):
    """A token <-> index table; calling it maps a list of tokens to their indices."""

    def __init__(self, tokens):
        super().__init__()
        self._itos = []
        self._stoi = {}
        self._default_index = None
        for token in tokens:
            self.append_token(token)

    def forward(self, tokens):
        return self.lookup_indices(tokens)

    def __len__(self):
        return len(self._itos)

    def __contains__(self, token):
        return token in self._stoi

    def __getitem__(self, token):
        index = self._stoi.get(token, self._default_index)
        if index is None:
            raise RuntimeError(f"Token {token} not found and default index is not set")
        return index

    def set_default_index(self, index):
        """The index returned for unknown tokens (None: unknown tokens raise RuntimeError)."""
        if index is not None and not isinstance(index, int):
            raise TypeError(f"set_default_index(): expected an int or None, got {type(index).__name__}")
        self._default_index = index

    def get_default_index(self):
        return self._default_index

    def insert_token(self, token, index):
        """Puts `token` at `index`, shifting the tokens from there on by one."""
        if token in self._stoi:
            raise RuntimeError(f"Token {token} already exists in the Vocab with index: {self._stoi[token]}")
        if not 0 <= index <= len(self._itos):
            raise RuntimeError(f"Specified index {index} is out of bounds for vocab of size {len(self._itos)}")
        self._itos.insert(index, token)
        for i in range(index, len(self._itos)):
            self._stoi[self._itos[i]] = i

    def append_token(self, token):
        if not isinstance(token, str):
            raise TypeError(f"Vocab tokens are str, got {type(token).__name__}")
        if token in self._stoi:
            raise RuntimeError(f"Token {token} already exists in the Vocab with index: {self._stoi[token]}")
        self._stoi[token] = len(self._itos)
        self._itos.append(token)

    def lookup_token(self, index):
        if not 0 <= index < len(self._itos):
            raise RuntimeError(f"Specified index {index} is out of bounds of the size of itos dictionary: "
                               f"{len(self._itos)}.")
        return self._itos[index]

    def lookup_tokens(self, indices):
        return [self.lookup_token(i) for i in indices]

    def lookup_indices(self, tokens):
        get, default = self._stoi.get, self._default_index
        indices = [get(token, default) for token in tokens]
        if default is None and None in indices:
            missing = next(t for t, i in zip(tokens, indices) if i is None)
            raise RuntimeError(f"Token {missing} not found and default index is not set")
        return indices

    def get_stoi(self):
        return dict(self._stoi)

    def get_itos(self):
        return list(self._itos)

    def extra_repr(self):
        return f"{len(self)} tokens, default index {self._default_index}"


def vocab(ordered_dict, min_freq=1, specials=None, special_first=True):
    """An OrderedVocab of the tokens of `ordered_dict` (token -> frequency, in the order wanted)
    whose frequency is at least `min_freq`, with `specials` first (or last)."""
    specials = list(specials or [])
    tokens = [token for token, freq in ordered_dict.items() if freq >= min_freq and token not in specials]
    tokens = specials + tokens if special_first else tokens + specials
    return OrderedVocab(tokens)


def build_ordered_vocab(iterator, min_freq=1, specials=None, special_first=True, max_tokens=None):
    """torchtext >= 0.10's build_vocab_from_iterator: counts the tokens of an iterator of token
    lists; most frequent first, ties alphabetically; at most `max_tokens` tokens with specials."""
    counter = collections.Counter()
    for tokens in iterator:
        counter.update(tokens)
    specials = list(specials or [])
    ranked = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
    if max_tokens is not None:
        if len(specials) >= max_tokens:
            raise ValueError("len(specials) >= max_tokens, so the vocab will be entirely special tokens.")
        ranked = ranked[:max_tokens - len(specials)]
    return vocab(collections.OrderedDict(ranked), min_freq=min_freq, specials=specials, special_first=special_first)
