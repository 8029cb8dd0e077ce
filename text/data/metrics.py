"""bleu_score (torchtext.data.metrics): corpus BLEU with clipped n-gram precisions and the
brevity penalty, computed in float32 like torchtext (so the scores agree to float32 rounding)."""
import collections
import math

from text.data.utils import ngrams_iterator

__all__ = ["bleu_score"]


def _ngram_counter(tokens, max_n):
    return collections.Counter(tuple(gram.split(" ")) for gram in ngrams_iterator(list(tokens), max_n))


def bleu_score(candidate_corpus, references_corpus, max_n=4, weights=[0.25] * 4):  # noqa: B006 - torchtext's default
    """The BLEU score of a candidate corpus against reference corpora.

    Args:
        candidate_corpus: iterable of candidate translations, each an iterable of tokens.
        references_corpus: iterable (one per candidate) of iterables of reference translations.
        max_n (int): the longest n-gram counted.
        weights (list of float): one weight per n-gram order (len(weights) == max_n).

    >>> bleu_score([['My', 'full', 'pytorch', 'test'], ['Another', 'Sentence']],
    ...            [[['My', 'full', 'pytorch', 'test'], ['Completely', 'Different']], [['No', 'Match']]])
    0.8408964276313782
    """
    import core

    if max_n != len(weights):
        raise ValueError('bleu_score(): the length of the "weights" list has to be equal to max_n')
    if len(candidate_corpus) != len(references_corpus):
        raise ValueError("bleu_score(): the candidate and reference corpora must have the same length")
    clipped, totals = [0] * max_n, [0] * max_n
    candidate_len = refs_len = 0.0
    for candidate, refs in zip(candidate_corpus, references_corpus):
        candidate_len += len(candidate)
        refs_len += min((float(len(ref)) for ref in refs), key=lambda x: abs(len(candidate) - x))
        reference_counts = collections.Counter()
        for ref in refs:
            reference_counts |= _ngram_counter(ref, max_n)
        candidate_counts = _ngram_counter(candidate, max_n)
        for ngram, count in (candidate_counts & reference_counts).items():
            clipped[len(ngram) - 1] += count
        for ngram, count in candidate_counts.items():
            totals[len(ngram) - 1] += count
    if min(clipped) == 0:
        return 0.0
    precisions = core.tensor(clipped, dtype=core.float32) / core.tensor(totals, dtype=core.float32)
    weighted = core.tensor(weights, dtype=core.float32) * precisions.log()
    log_score = weighted[0]
    for term in weighted[1:]:  # one float32 addition at a time, like torchtext's sum()
        log_score = log_score + term
    brevity = math.exp(min(1 - refs_len / candidate_len, 0))
    return brevity * log_score.exp().item()
