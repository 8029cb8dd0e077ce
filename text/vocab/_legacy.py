"""torchtext 0.9's Vocab (the class later moved to torchtext.legacy.vocab).

Tokens are ordered by frequency, ties alphabetically; the specials come first (or last);
``stoi`` is a defaultdict that answers unknown tokens with the '<unk>' index, ``itos`` the
list of tokens, ``freqs`` the Counter the vocabulary was built from.
"""
import collections

__all__ = ["Vocab"]


class Vocab:
    """Maps tokens to indices and back.

    Args:
        counter (collections.Counter): token frequencies.
        max_size (int, optional): most tokens kept, specials not counted (None: no limit).
        min_freq (int): least frequency kept (values below 1 count as 1).
        specials (sequence of str): tokens put first (or last), e.g. ('<unk>', '<pad>').
        vectors: pretrained vectors to attach (see load_vectors).
        unk_init (callable, optional): fills the vector of a token without one (default zeros).
        vectors_cache: unused here (pretrained names are not downloaded); must be None.
        specials_first (bool): specials at the start (True) or at the end.
    """

    UNK = "<unk>"

    def __init__(self, counter, max_size=None, min_freq=1, specials=("<unk>", "<pad>"), vectors=None,
                 unk_init=None, vectors_cache=None, specials_first=True):
        self.freqs = counter
        counter = collections.Counter(counter)
        min_freq = max(min_freq, 1)
        specials = list(specials)
        self.itos = list(specials) if specials_first else []
        if specials_first and max_size is not None:
            max_size += len(specials)  # the limit counts ordinary tokens only
        for tok in specials:
            del counter[tok]  # specials are placed, not ranked
        by_frequency = sorted(counter.items(), key=lambda item: item[0])
        by_frequency.sort(key=lambda item: item[1], reverse=True)
        for word, freq in by_frequency:
            if freq < min_freq or len(self.itos) == max_size:
                break
            self.itos.append(word)
        self.unk_index = None
        if Vocab.UNK in specials:
            position = specials.index(Vocab.UNK)
            self.unk_index = position if specials_first else len(self.itos) + position
            self.stoi = collections.defaultdict(self._default_unk_index)
        else:
            self.stoi = collections.defaultdict()
        if not specials_first:
            self.itos.extend(specials)
        self.stoi.update({tok: i for i, tok in enumerate(self.itos)})
        self.vectors = None
        if vectors is not None:
            self.load_vectors(vectors, unk_init=unk_init, cache=vectors_cache)
        elif unk_init is not None or vectors_cache is not None:
            raise ValueError("Vocab(): unk_init and vectors_cache only apply together with vectors")

    def _default_unk_index(self):
        return self.unk_index

    def __getitem__(self, token):
        return self.stoi.get(token, self.stoi.get(Vocab.UNK))

    def __len__(self):
        return len(self.itos)

    def __eq__(self, other):
        if not isinstance(other, Vocab):
            return NotImplemented
        return (self.freqs == other.freqs and self.stoi == other.stoi and self.itos == other.itos
                and _same_vectors(self.vectors, other.vectors))

    __hash__ = None

    def __getstate__(self):
        state = dict(self.__dict__)
        state["stoi"] = dict(self.stoi)  # a defaultdict of a bound method does not pickle portably
        return state

    def __setstate__(self, state):
        stoi = collections.defaultdict() if state.get("unk_index") is None else \
            collections.defaultdict(self._default_unk_index)
        stoi.update(state["stoi"])
        state["stoi"] = stoi
        self.__dict__.update(state)

    def lookup_indices(self, tokens):
        """The indices of `tokens` (unknown tokens get the '<unk>' index)."""
        unk = self.stoi.get(Vocab.UNK)
        get = self.stoi.get
        return [get(token, unk) for token in tokens]

    def extend(self, v, sort=False):
        """Appends the tokens of Vocab `v` that are missing here (alphabetically if `sort`)."""
        for word in (sorted(v.itos) if sort else v.itos):
            if word not in self.stoi:
                self.itos.append(word)
                self.stoi[word] = len(self.itos) - 1

    def set_vectors(self, stoi, vectors, dim, unk_init=None):
        """Sets self.vectors (len(self) x dim, float32) from a token -> row map and a matrix;
        tokens without a row get unk_init(zero vector) (default: zeros)."""
        import core

        self.vectors = core.zeros(len(self), dim)
        for i, token in enumerate(self.itos):
            row = stoi.get(token)
            if row is not None:
                self.vectors[i] = vectors[row]
            elif unk_init is not None:
                self.vectors[i] = unk_init(self.vectors[i])

    def load_vectors(self, vectors, **kwargs):
        """Concatenates, per token, the rows of one or more Vectors objects (anything with
        `dim` and `__getitem__(token) -> tensor`) into self.vectors."""
        import core

        vectors = vectors if isinstance(vectors, list) else [vectors]
        for v in vectors:
            if isinstance(v, str):
                raise ValueError(f"Vocab.load_vectors(): pretrained vector names such as {v!r} are not downloaded "
                                 f"by tensorzoo; load the file with text.vocab.Vectors(path) and pass that")
            if not hasattr(v, "dim") or not hasattr(v, "__getitem__"):
                raise ValueError(f"Vocab.load_vectors(): got {type(v).__name__}; expected Vectors objects")
        total = sum(v.dim for v in vectors)
        self.vectors = core.zeros(len(self), total)
        for i, token in enumerate(self.itos):
            start = 0
            for v in vectors:
                self.vectors[i, start:start + v.dim] = v[token.strip()]
                start += v.dim


def _same_vectors(a, b):
    if a is None or b is None:
        return a is b
    return tuple(a.shape) == tuple(b.shape) and bool((a == b).all())
