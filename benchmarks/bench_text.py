"""Tokenizing and numericalising text: text vs torchtext (or a plain-Python baseline):

    python benchmarks/bench_text.py [--lines 100000] [--repeats R]

Each call turns 100,000 AG_NEWS-like lines (news sentences with punctuation, quotes, '<br />'
and unknown words) into lists of token ids with the 'basic_english' tokenizer and a vocabulary
built from the first half of the lines: ours is ``vocab.lookup_indices(tokenizer(line))``.
The yardstick is torchtext when it can be imported (its basic_english and vocab), else the
plain-Python baseline of what torchtext 0.9 runs: its twelve regular expressions in turn and a
dict lookup per token. Both produce the same ids (checked before timing). The work is single
threaded Python; it is run with core at 1 and 2 threads all the same, as every benchmark is.
Times are medians over interleaved runs (harness.time_interleaved); ratio = ours / yardstick,
below 1 means we are faster.
"""
import argparse
import collections
import random
import re

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

# torchtext 0.9's basic_english: these substitutions in this order, then split()
_RULES = [(re.compile(p), r) for p, r in [
    (r"\'", " '  "), (r"\"", ""), (r"\.", " . "), (r"<br \/>", " "), (r",", " , "), (r"\(", " ( "), (r"\)", " ) "),
    (r"\!", " ! "), (r"\?", " ? "), (r"\;", " "), (r"\:", " "), (r"\s+", " ")]]


def baseline_tokenize(line):
    line = line.lower()
    for pattern, replacement in _RULES:
        line = pattern.sub(replacement, line)
    return line.split()


def make_lines(count, seed=0):
    rng = random.Random(seed)
    words = ["".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(rng.randint(1, 4)))
             for _ in range(5000)]
    capitalised = [w.capitalize() for w in words[:500]]
    marks = [",", ".", "!", "?", ";", ":", "'s", " (AP)", ' "quoted"', "<br />", " 3.5%", "--"]
    lines = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(15, 45)):
            parts.append(rng.choice(capitalised) if rng.random() < 0.1 else rng.choice(words))
            if rng.random() < 0.12:
                parts[-1] += rng.choice(marks)
        lines.append(" ".join(parts))
    return lines


def _ours(lines):
    from text.data.utils import get_tokenizer
    from text.vocab import build_vocab_from_iterator

    tokenizer = get_tokenizer("basic_english")
    vocab = build_vocab_from_iterator(map(tokenizer, lines[:len(lines) // 2]))
    lookup = vocab.lookup_indices
    return lambda: [lookup(tokenizer(line)) for line in lines]


def _torchtext(lines):
    """(name, callable) of torchtext's tokenizer and vocab, or None when it cannot be imported."""
    try:
        import torchtext
        from torchtext.data.utils import get_tokenizer
    except Exception:  # noqa: BLE001 - missing or broken: the baseline is used instead
        return None
    tokenizer = get_tokenizer("basic_english")
    counter = collections.Counter()
    for line in lines[:len(lines) // 2]:
        counter.update(tokenizer(line))
    vocab_module = torchtext.vocab
    if hasattr(vocab_module, "Vocab") and "counter" in vocab_module.Vocab.__init__.__code__.co_varnames:
        vocab = vocab_module.Vocab(counter)  # 0.9: the legacy class, '<unk>' first
        return f"torchtext {torchtext.__version__}", lambda: [[vocab[t] for t in tokenizer(line)] for line in lines]
    ranked = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
    vocab = vocab_module.vocab(collections.OrderedDict(ranked), specials=["<unk>", "<pad>"])
    vocab.set_default_index(0)
    return f"torchtext {torchtext.__version__}", lambda: [vocab(tokenizer(line)) for line in lines]


def _baseline(lines):
    counter = collections.Counter()
    for line in lines[:len(lines) // 2]:
        counter.update(baseline_tokenize(line))
    ranked = sorted(counter.items(), key=lambda item: item[0])
    ranked.sort(key=lambda item: item[1], reverse=True)
    stoi = {token: i for i, token in enumerate(["<unk>", "<pad>"] + [t for t, _ in ranked])}
    return lambda: [[stoi.get(t, 0) for t in baseline_tokenize(line)] for line in lines]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per library and setting (median)")
    args = parser.parse_args(argv)

    import harness

    lines = make_lines(args.lines)
    ours = _ours(lines)
    found = _torchtext(lines)
    name, theirs = found if found is not None else ("plain-Python torchtext 0.9 baseline", _baseline(lines))
    if ours() != theirs():
        raise AssertionError(f"ours and the {name} give different token ids")
    print(harness.header(1))
    print(f"data: {args.lines} lines, {sum(len(line) for line in lines) / 2**20:.1f} MiB of text; "
          f"yardstick: {name}\n")
    rows = [("threads", "ours", "yardstick", "ours/yardstick", "ours lines/s")]
    for threads in (1, 2):
        harness.set_threads(threads)
        times = harness.time_interleaved({"ours": ours, "yardstick": theirs}, repeats=args.repeats)
        rows.append((str(threads), harness.format_seconds(times["ours"]), harness.format_seconds(times["yardstick"]),
                     harness.format_ratio(times["ours"], times["yardstick"]), f"{args.lines / times['ours']:,.0f}"))
    harness.print_rows(rows)


if __name__ == "__main__":
    main()
