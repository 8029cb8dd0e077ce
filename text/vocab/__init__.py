"""torchtext.vocab: the 0.9 (legacy) Vocab and the later vocab() / OrderedVocab.

``build_vocab_from_iterator(iterator, num_lines=None)`` is 0.9's: it returns the legacy
``Vocab`` with the specials ('<unk>', '<pad>'). Called the later way, with any of
``min_freq``, ``specials``, ``special_first`` or ``max_tokens`` as keywords, it returns the
later ``OrderedVocab`` (then use ``set_default_index`` for unknown tokens).
"""
import collections

from text.vocab._legacy import Vocab
from text.vocab._ordered import OrderedVocab, build_ordered_vocab, vocab

__all__ = ["Vocab", "OrderedVocab", "vocab", "build_vocab_from_iterator"]

_LATER_KEYWORDS = ("min_freq", "specials", "special_first", "max_tokens")


def build_vocab_from_iterator(iterator, num_lines=None, **later):
    """A vocabulary of the tokens of an iterator of token lists.

    Args:
        iterator: yields lists of tokens.
        num_lines (int, optional): 0.9's progress hint (the number of lists); unused here.
        min_freq, specials, special_first, max_tokens: the later (>= 0.10) form; given any of
            them, the result is an OrderedVocab built with those rules.

    Returns:
        Vocab (0.9 form: specials '<unk>' and '<pad>' first) or OrderedVocab (later form).
    """
    unknown = sorted(set(later) - set(_LATER_KEYWORDS))
    if unknown:
        raise TypeError(f"build_vocab_from_iterator() got unexpected keyword arguments {unknown}")
    if later:
        return build_ordered_vocab(iterator, **later)
    counter = collections.Counter()
    for tokens in iterator:
        counter.update(tokens)
    return Vocab(counter)
