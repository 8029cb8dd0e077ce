"""torchtext.data (0.9): tokenizers, functional helpers and metrics."""
from text.data import functional, metrics, utils
from text.data.functional import (custom_replace, generate_sp_model, load_sp_model, numericalize_tokens_from_iterator,
                                  sentencepiece_numericalizer, sentencepiece_tokenizer, simple_space_split)
from text.data.metrics import bleu_score
from text.data.utils import get_tokenizer, ngrams_iterator

__all__ = ["get_tokenizer", "ngrams_iterator", "bleu_score", "generate_sp_model", "load_sp_model",
           "sentencepiece_numericalizer", "sentencepiece_tokenizer", "custom_replace", "simple_space_split",
           "numericalize_tokens_from_iterator", "functional", "metrics", "utils"]
