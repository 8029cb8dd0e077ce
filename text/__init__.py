"""tensorzoo text: iterator datasets, tokenizers and vocab (mirrors torchtext 0.9)."""
