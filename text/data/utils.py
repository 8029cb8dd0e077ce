"""get_tokenizer and ngrams_iterator (torchtext.data.utils).

'basic_english' is torchtext's normalisation, rule for rule: lowercase; a quote ' becomes
" '  "; '"' is removed; . , ( ) ! ? get spaces around them; '<br />' ; and : become spaces;
then the line is split on whitespace. torchtext applies these as twelve regular expressions
in turn; every pattern but the last is a literal string, so here each is a str.replace in
the same order (the order matters: removing a '"' can complete a '<br />') and split() does
the whitespace rule, which gives the same tokens several times faster.
"""
import functools
import importlib
import warnings

__all__ = ["get_tokenizer", "ngrams_iterator"]

# torchtext's substitutions, in its order; the final whitespace rule is split()'s job
_REPLACEMENTS = (("'", " '  "), ('"', ""), (".", " . "), ("<br />", " "), (",", " , "), ("(", " ( "), (")", " ) "),
                 ("!", " ! "), ("?", " ? "), (";", " "), (":", " "))


def _basic_english_normalize(line):
    """torchtext's basic_english tokenizer: the normalised line split on whitespace."""
    line = line.lower()
    for old, new in _REPLACEMENTS:
        line = line.replace(old, new)
    return line.split()


def _split_tokenizer(x):
    return x.split()


def _spacy_tokenize(x, spacy):
    return [tok.text for tok in spacy.tokenizer(x)]


# spaCy 3 dropped the two-letter model shortcuts torchtext 0.9 passed ('en'); their full names
_SPACY_MODELS = {"en": "en_core_web_sm", "de": "de_core_news_sm", "fr": "fr_core_news_sm", "es": "es_core_news_sm",
                 "it": "it_core_news_sm", "nl": "nl_core_news_sm", "pt": "pt_core_news_sm", "zh": "zh_core_web_sm"}


def _require(module, tokenizer, package, extra=""):
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ModuleNotFoundError(f"get_tokenizer({tokenizer!r}) needs the {package} package, which is not "
                                  f"installed: pip install {package}{extra}") from e


def _load_spacy(language):
    spacy = _require("spacy", "spacy", "spacy", " (and a model: python -m spacy download en_core_web_sm)")
    for name in (language, _SPACY_MODELS.get(language)):
        if name is None:
            continue
        try:
            return spacy.load(name)
        except OSError:  # no such model installed
            continue
    try:
        nlp = spacy.blank(language)
    except Exception as e:
        raise OSError(f"get_tokenizer('spacy', language={language!r}): no spaCy model or language named "
                      f"{language!r} (install one: python -m spacy download {_SPACY_MODELS.get(language, language)})"
                      ) from e
    warnings.warn(f"get_tokenizer('spacy'): no spaCy model for {language!r} is installed; using spaCy's rule-based "
                  f"{language!r} tokenizer (spacy.blank), which tokenizes like the models do", stacklevel=3)
    return nlp


def get_tokenizer(tokenizer, language="en"):
    """A function that splits a string into a list of tokens.

    Args:
        tokenizer: None (str.split), "basic_english" (torchtext's normalisation), a callable
            (returned as it is), or a library tokenizer: "spacy" (for `language`), "moses"
            (sacremoses), "toktok" (nltk), "revtok", "subword" (revtok, caps-aware).
        language (str): the language of "basic_english" (only "en") and "spacy".

    Examples:
        >>> get_tokenizer("basic_english")("You can now install TorchText using pip!")
        ['you', 'can', 'now', 'install', 'torchtext', 'using', 'pip', '!']
    """
    if tokenizer is None:
        return _split_tokenizer
    if tokenizer == "basic_english":
        if language != "en":
            raise ValueError("Basic normalization is only available for Enlish(en)")
        return _basic_english_normalize
    if callable(tokenizer):
        return tokenizer
    if tokenizer == "spacy":
        return functools.partial(_spacy_tokenize, spacy=_load_spacy(language))
    if tokenizer == "moses":
        return _require("sacremoses", "moses", "sacremoses").MosesTokenizer().tokenize
    if tokenizer == "toktok":
        _require("nltk", "toktok", "nltk")
        from nltk.tokenize.toktok import ToktokTokenizer
        return ToktokTokenizer().tokenize
    if tokenizer == "revtok":
        return _require("revtok", "revtok", "revtok").tokenize
    if tokenizer == "subword":
        return functools.partial(_require("revtok", "subword", "revtok").tokenize, decap=True)
    raise ValueError(f"Requested tokenizer {tokenizer}, valid choices are a callable that takes a single string as "
                     f"input, \"revtok\" for the revtok reversible tokenizer, \"subword\" for the revtok caps-aware "
                     f"tokenizer, \"spacy\" for the SpaCy English tokenizer, or \"moses\" for the NLTK port of the "
                     f"Moses tokenization script.")


def ngrams_iterator(token_list, ngrams):
    """Yields the tokens, then their 2-grams, ..., `ngrams`-grams, each joined by a space.

    >>> list(ngrams_iterator(['here', 'we', 'are'], 2))
    ['here', 'we', 'are', 'here we', 'we are']
    """
    yield from token_list
    for n in range(2, ngrams + 1):
        for gram in zip(*(token_list[i:] for i in range(n))):
            yield " ".join(gram)
