"""tensorzoo text: iterator datasets, tokenizers and vocab (mirrors torchtext 0.9).

- ``text.datasets``: the 19 raw datasets of torchtext 0.9 (AG_NEWS, IMDB, WikiText2, ...);
- ``text.data``: ``get_tokenizer``, ``ngrams_iterator``, ``functional`` (sentencepiece helpers,
  ``simple_space_split``, ``numericalize_tokens_from_iterator``) and ``metrics.bleu_score``;
- ``text.vocab``: the legacy ``Vocab`` and ``build_vocab_from_iterator`` of 0.9, and the later
  ``vocab()`` factory with ``set_default_index``;
- ``text.utils``: ``download_from_url``, ``extract_archive``, ``validate_file``.
"""
from text import data, datasets, utils, vocab

__all__ = ["data", "datasets", "utils", "vocab"]
