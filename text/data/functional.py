"""torchtext.data.functional: sentencepiece helpers (the optional `sentencepiece` package),
regex replacement, space splitting and numericalisation of token streams."""
import io
import os
import re

__all__ = ["generate_sp_model", "load_sp_model", "sentencepiece_numericalizer", "sentencepiece_tokenizer",
           "custom_replace", "simple_space_split", "numericalize_tokens_from_iterator"]


def _sentencepiece(caller):
    try:
        import sentencepiece
    except ImportError as e:
        raise ModuleNotFoundError(f"{caller}() needs the sentencepiece package, which is not installed: "
                                  f"pip install sentencepiece (or pip install 'tensorzoo[text]')") from e
    return sentencepiece


def generate_sp_model(filename, vocab_size=20000, model_type="unigram", model_prefix="m_user"):
    """Trains a SentencePiece model on the text file `filename`; writes `model_prefix`.model
    and `model_prefix`.vocab. model_type: unigram, bpe, char or word."""
    spm = _sentencepiece("generate_sp_model")
    spm.SentencePieceTrainer.train(input=os.fspath(filename), vocab_size=vocab_size, model_prefix=model_prefix,
                                   model_type=model_type)


def load_sp_model(spm):
    """A SentencePiece model from a file path or from a binary file object holding one."""
    sentencepiece = _sentencepiece("load_sp_model")
    if isinstance(spm, (str, os.PathLike)):
        return sentencepiece.SentencePieceProcessor(model_file=os.fspath(spm))
    if isinstance(spm, (io.BufferedIOBase, io.RawIOBase)):
        return sentencepiece.SentencePieceProcessor(model_proto=spm.read())
    raise TypeError(f"Unsupported type for spm argument: {type(spm).__name__}. Supported types are: str, "
                    f"os.PathLike, io.BufferedReader")


def sentencepiece_numericalizer(sp_model):
    """A function turning an iterator of sentences into a generator of id lists."""
    def _internal_func(txt_iter):
        for line in txt_iter:
            yield sp_model.EncodeAsIds(line)
    return _internal_func


def sentencepiece_tokenizer(sp_model):
    """A function turning an iterator of sentences into a generator of piece lists."""
    def _internal_func(txt_iter):
        for line in txt_iter:
            yield sp_model.EncodeAsPieces(line)
    return _internal_func


def custom_replace(replace_pattern):
    """A function applying the (regex, replacement) pairs, in order, to each line of an iterator.

    >>> list(custom_replace([(r'S', 's'), (r'\\s+', ' ')])(['Sentencepiece encode  aS  pieces']))
    ['sentencepiece encode as pieces']
    """
    patterns = [(re.compile(p), r) for p, r in replace_pattern]

    def _internal_func(txt_iter):
        for line in txt_iter:
            for pattern, replacement in patterns:
                line = pattern.sub(replacement, line)
            yield line
    return _internal_func


def simple_space_split(iterator):
    """Yields each line split on whitespace."""
    for line in iterator:
        yield line.split()


def numericalize_tokens_from_iterator(vocab, iterator, removed_tokens=None):
    """Yields, per token list, an iterator over the tokens' ids in `vocab` (tokens in
    `removed_tokens` dropped)."""
    for tokens in iterator:
        if removed_tokens is None:
            yield iter(vocab[token] for token in tokens)
        else:
            yield iter(vocab[token] for token in tokens if token not in removed_tokens)
