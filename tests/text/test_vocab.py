"""text.vocab: 0.9's legacy Vocab (ordering, specials, min_freq, max_size, stoi/itos, unknown
tokens, vectors, pickling), build_vocab_from_iterator in both forms, and the later vocab()."""
import collections
import pickle

import pytest

import core
from text.vocab import OrderedVocab, Vocab, build_vocab_from_iterator, vocab

COUNTS = collections.Counter({"b": 3, "a": 3, "c": 5, "d": 1, "e": 2, "<unk>": 9})


def test_order_frequency_then_alphabet_with_specials_first():
    v = Vocab(COUNTS)
    assert v.itos == ["<unk>", "<pad>", "c", "a", "b", "e", "d"]  # '<unk>' counted in COUNTS is not ranked
    assert v.stoi["a"] == 3 and v["a"] == 3 and len(v) == 7
    assert v.freqs is COUNTS and v.unk_index == 0


def test_unknown_tokens():
    v = Vocab(COUNTS)
    assert v["zzz"] == 0 and v.lookup_indices(["c", "zzz", "d"]) == [2, 0, 6]
    assert v.stoi["zzz"] == 0 and "zzz" in v.stoi  # a defaultdict: looking up stoi inserts the key, as in 0.9
    without_unk = Vocab(COUNTS, specials=["<pad>"])
    assert without_unk.unk_index is None
    assert without_unk.itos[0] == "<pad>" and without_unk["<unk>"] == 1  # '<unk>' is an ordinary token here
    no_unk_at_all = Vocab(collections.Counter("abc"), specials=[])
    assert no_unk_at_all["zzz"] is None
    with pytest.raises(KeyError):
        no_unk_at_all.stoi["zzz"]


def test_min_freq_and_max_size():
    assert Vocab(COUNTS, min_freq=3).itos == ["<unk>", "<pad>", "c", "a", "b"]
    assert Vocab(COUNTS, min_freq=0).itos == Vocab(COUNTS).itos  # below 1 counts as 1
    assert Vocab(COUNTS, max_size=2).itos == ["<unk>", "<pad>", "c", "a"]  # specials not counted
    last = Vocab(COUNTS, max_size=2, specials_first=False)
    assert last.itos == ["c", "a", "<unk>", "<pad>"] and last.unk_index == 2 and last["zzz"] == 2


def test_extend_and_equality():
    v = Vocab(collections.Counter("aab"))
    v.extend(Vocab(collections.Counter("zyb")), sort=True)
    assert v.itos == ["<unk>", "<pad>", "a", "b", "y", "z"] and v["z"] == 5
    assert Vocab(COUNTS) == Vocab(COUNTS) and Vocab(COUNTS) != Vocab(COUNTS, min_freq=3)


def test_pickle_keeps_unknown_handling():
    v = pickle.loads(pickle.dumps(Vocab(COUNTS)))
    assert v == Vocab(COUNTS) and v["zzz"] == 0 and v.stoi["qqq"] == 0
    plain = pickle.loads(pickle.dumps(Vocab(COUNTS, specials=[])))
    with pytest.raises(KeyError):
        plain.stoi["qqq"]


class _Vectors:
    dim = 2

    def __getitem__(self, token):
        return core.tensor([float(len(token)), 1.0])


def test_vectors():
    v = Vocab(collections.Counter("aab"))
    v.set_vectors({"a": 0, "b": 1}, core.tensor([[1.0, 2.0], [3.0, 4.0]]), 2,
                  unk_init=lambda t: t.fill_(-1.0))
    assert v.vectors.tolist() == [[-1.0, -1.0], [-1.0, -1.0], [1.0, 2.0], [3.0, 4.0]]
    v.load_vectors([_Vectors(), _Vectors()])
    assert v.vectors.shape == (4, 4) and v.vectors[0].tolist() == [5.0, 1.0, 5.0, 1.0]
    with pytest.raises(ValueError, match="not downloaded"):
        v.load_vectors("glove.6B.100d")
    loaded = Vocab(collections.Counter("ab"), vectors=_Vectors())
    assert loaded.vectors.shape == (4, 2)
    with pytest.raises(ValueError, match="only apply together with vectors"):
        Vocab(COUNTS, unk_init=lambda t: t)


def test_build_vocab_from_iterator_09_form():
    v = build_vocab_from_iterator([["a", "b"], ["b", "c", "b"]], num_lines=2)
    assert isinstance(v, Vocab) and v.itos == ["<unk>", "<pad>", "b", "a", "c"]


def test_build_vocab_from_iterator_later_form():
    lines = [["a", "b"], ["b", "c", "b"], ["d", "c"]]
    v = build_vocab_from_iterator(iter(lines), specials=["<unk>"])
    assert isinstance(v, OrderedVocab) and v.get_itos() == ["<unk>", "b", "c", "a", "d"]
    v.set_default_index(v["<unk>"])
    assert v(["c", "zzz"]) == [2, 0]
    assert build_vocab_from_iterator(lines, min_freq=2).get_itos() == ["b", "c"]
    assert build_vocab_from_iterator(lines, specials=["<pad>", "<unk>"], special_first=False,
                                     max_tokens=4).get_itos() == ["b", "c", "<pad>", "<unk>"]
    with pytest.raises(ValueError, match="entirely special tokens"):
        build_vocab_from_iterator(lines, specials=["<unk>"], max_tokens=1)
    with pytest.raises(TypeError, match="unexpected keyword"):
        build_vocab_from_iterator(lines, min_frequency=2)


def test_vocab_factory_and_lookups():
    v = vocab(collections.OrderedDict([("x", 4), ("<unk>", 1), ("y", 2), ("z", 1)]), min_freq=2, specials=["<unk>"])
    assert v.get_itos() == ["<unk>", "x", "y"] and v.get_stoi() == {"<unk>": 0, "x": 1, "y": 2}
    assert "x" in v and "z" not in v and len(v) == 3
    with pytest.raises(RuntimeError, match="Token z not found and default index is not set"):
        v["z"]
    with pytest.raises(RuntimeError, match="Token z not found"):
        v(["x", "z"])
    assert v.get_default_index() is None
    v.set_default_index(0)
    assert v["z"] == 0 and v.lookup_indices(["y", "z"]) == [2, 0] and v.forward(["x"]) == [1]
    assert v.lookup_token(2) == "y" and v.lookup_tokens([1, 0]) == ["x", "<unk>"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        v.lookup_token(3)


def test_insert_and_append_tokens():
    v = vocab(collections.OrderedDict([("a", 1), ("b", 1)]))
    v.insert_token("<pad>", 0)
    assert v.get_itos() == ["<pad>", "a", "b"] and v["b"] == 2
    v.append_token("c")
    assert v["c"] == 3
    with pytest.raises(RuntimeError, match="already exists in the Vocab with index: 1"):
        v.append_token("a")
    with pytest.raises(RuntimeError, match="out of bounds for vocab of size 4"):
        v.insert_token("z", 9)
    with pytest.raises(RuntimeError, match="already exists"):
        OrderedVocab(["a", "a"])


def test_ordered_vocab_is_a_module_and_pickles():
    v = vocab(collections.OrderedDict([("a", 1)]), specials=["<unk>"])
    v.set_default_index(0)
    model = core.nn.Sequential(v)
    assert model(["a", "q"]) == [1, 0]
    copy = pickle.loads(pickle.dumps(v))
    assert copy(["a", "q"]) == [1, 0]
