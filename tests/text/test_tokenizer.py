"""get_tokenizer and ngrams_iterator: basic_english against torchtext's rules applied as its
twelve regular expressions, the library tokenizers wired to their packages (installed or
stood in for), and clear errors when a package is missing."""
import random
import re
import sys
import types
import warnings

import pytest

from text.data import get_tokenizer, ngrams_iterator
from text.data.utils import _basic_english_normalize

# torchtext 0.9's definition of basic_english: these substitutions in this order, then split()
_RULES = [(r"\'", " '  "), (r"\"", ""), (r"\.", " . "), (r"<br \/>", " "), (r",", " , "), (r"\(", " ( "),
          (r"\)", " ) "), (r"\!", " ! "), (r"\?", " ? "), (r"\;", " "), (r"\:", " "), (r"\s+", " ")]
_COMPILED = [(re.compile(p), r) for p, r in _RULES]


def reference_basic_english(line):
    line = line.lower()
    for pattern, replacement in _COMPILED:
        line = pattern.sub(replacement, line)
    return line.split()


TRICKY = [
    "You can now install TorchText using pip!",
    "It's 5 p.m.; the \"end\": (really)?! Yes...",
    "a<br />b<BR />c<br/>d<br  />e",
    'Quote inside a break: <br "/> and <br ""/>',  # removing the quotes completes a <br />
    "Colon and semicolon inside: <br;/> <br:/>",  # these become spaces only after the <br /> rule
    "Tabs\tand\nnewlines\r\nand\u00a0non-breaking\u2003spaces\x1c\x1d\x1e\x1f",
    "İstanbul ΣΊΣΥΦΟΣ Straße ǅ",  # lowercasing that changes the length
    "", "   ", "''\"\".,()!?;:",
]


def test_basic_english_examples():
    tok = get_tokenizer("basic_english")
    assert tok("You can now install TorchText using pip!") == ["you", "can", "now", "install", "torchtext", "using",
                                                                "pip", "!"]
    assert tok("It's a \"test\"") == ["it", "'", "s", "a", "test"]


@pytest.mark.parametrize("line", TRICKY)
def test_basic_english_matches_the_regex_rules(line):
    assert _basic_english_normalize(line) == reference_basic_english(line)


def test_basic_english_matches_the_regex_rules_on_random_text():
    rng = random.Random(0)
    alphabet = list("abcXYZ '\".,()!?;:<>/br \t\n\u00a0\u2028É") + ["<br />", "<br \"/>", "<br;/>", "''"]
    for _ in range(3000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        assert _basic_english_normalize(line) == reference_basic_english(line), repr(line)


def test_other_choices():
    assert get_tokenizer(None)("a  b\tc") == ["a", "b", "c"]

    def mine(s):
        return list(s)

    assert get_tokenizer(mine) is mine
    with pytest.raises(ValueError, match="only available for Enlish"):
        get_tokenizer("basic_english", language="de")
    with pytest.raises(ValueError, match="Requested tokenizer nope"):
        get_tokenizer("nope")


def test_tokenizers_pickle():
    import pickle

    for name in (None, "basic_english"):
        tok = pickle.loads(pickle.dumps(get_tokenizer(name)))
        assert tok("Hi, there.") == get_tokenizer(name)("Hi, there.")


# ---------------------------------------------------------------- library tokenizers

@pytest.mark.parametrize("name,package", [("spacy", "spacy"), ("moses", "sacremoses"), ("toktok", "nltk"),
                                          ("revtok", "revtok"), ("subword", "revtok")])
def test_missing_package_is_named(monkeypatch, name, package):
    monkeypatch.setitem(sys.modules, package, None)  # import fails as if not installed
    with pytest.raises(ModuleNotFoundError, match=f"get_tokenizer\\('{name}'\\) needs the {package} package.*"
                                                  f"pip install {package}"):
        get_tokenizer(name)


def _fake_module(monkeypatch, name, **attrs):
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    monkeypatch.setitem(sys.modules, name, module)
    return module


def test_moses_toktok_revtok_are_wired(monkeypatch):
    class Moses:
        def tokenize(self, text):
            return ["moses", text]

    class Toktok:
        def tokenize(self, text):
            return ["toktok", text]

    _fake_module(monkeypatch, "sacremoses", MosesTokenizer=Moses)
    _fake_module(monkeypatch, "nltk")
    _fake_module(monkeypatch, "nltk.tokenize")
    _fake_module(monkeypatch, "nltk.tokenize.toktok", ToktokTokenizer=Toktok)
    _fake_module(monkeypatch, "revtok", tokenize=lambda text, decap=False: ["revtok", text, decap])
    assert get_tokenizer("moses")("x") == ["moses", "x"]
    assert get_tokenizer("toktok")("x") == ["toktok", "x"]
    assert get_tokenizer("revtok")("x") == ["revtok", "x", False]
    assert get_tokenizer("subword")("x") == ["revtok", "x", True]


def test_spacy_model_names_and_blank_fallback(monkeypatch):
    loaded = []

    class Nlp:
        def __init__(self, name):
            self.name = name

        def tokenizer(self, text):
            return [types.SimpleNamespace(text=f"{self.name}:{w}") for w in text.split()]

    def load(name):
        loaded.append(name)
        if name != "en_core_web_sm":
            raise OSError(f"[E050] Can't find model '{name}'")
        return Nlp(name)

    spacy = _fake_module(monkeypatch, "spacy", load=load, blank=lambda lang: Nlp("blank-" + lang))
    assert get_tokenizer("spacy")("a b") == ["en_core_web_sm:a", "en_core_web_sm:b"]  # 'en' -> the full name
    assert loaded == ["en", "en_core_web_sm"]
    with pytest.warns(UserWarning, match="rule-based 'xx' tokenizer"):
        assert get_tokenizer("spacy", language="xx")("a") == ["blank-xx:a"]

    def no_language(lang):
        raise ImportError(f"[E048] Can't import language {lang}")

    spacy.blank = no_language
    with pytest.raises(OSError, match="no spaCy model or language named 'zz'"):
        get_tokenizer("spacy", language="zz")


def test_real_moses_when_installed():
    pytest.importorskip("sacremoses")
    assert get_tokenizer("moses")("Hello, world!") == ["Hello", ",", "world", "!"]


def test_real_toktok_when_installed():
    pytest.importorskip("nltk")
    assert get_tokenizer("toktok")("Hello, world!") == ["Hello", ",", "world", "!"]


def test_real_revtok_when_installed():
    revtok = pytest.importorskip("revtok")
    assert get_tokenizer("revtok")("Hello world") == revtok.tokenize("Hello world")


def test_real_spacy_when_installed():
    pytest.importorskip("spacy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # without a model: spaCy's rule-based tokenizer, with a warning
        tokens = get_tokenizer("spacy")("Hello, world! Don't stop.")
    assert tokens[:4] == ["Hello", ",", "world", "!"] and "Do" in tokens


# ---------------------------------------------------------------- ngrams

def test_ngrams_iterator():
    assert list(ngrams_iterator(["here", "we", "are"], 2)) == ["here", "we", "are", "here we", "we are"]
    assert list(ngrams_iterator(["a", "b", "c"], 3)) == ["a", "b", "c", "a b", "b c", "a b c"]
    assert list(ngrams_iterator(["a", "b"], 1)) == ["a", "b"]
    assert list(ngrams_iterator(["a"], 4)) == ["a"]
