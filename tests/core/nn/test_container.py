"""Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict."""
import pickle
import warnings
from collections import OrderedDict

import pytest

import core
import core.nn as nn
from core.nn import Parameter


def _ids(mods):
    return [id(m) for m in mods]


def test_sequential_basics():
    a, b, c = nn.Identity(), nn.Flatten(), nn.Identity()
    s = nn.Sequential(a, b, c)
    assert len(s) == 3 and list(s._modules) == ["0", "1", "2"]
    assert s[0] is a and s[-1] is c and _ids(s) == _ids([a, b, c])
    sub = s[1:]
    assert type(sub) is nn.Sequential and list(sub._modules) == ["1", "2"] and sub[0] is b
    s[1] = nn.Identity()
    assert s[1] is not b
    del s[0]
    assert list(s._modules) == ["1", "2"]
    del s[0:1]
    assert list(s._modules) == ["2"]
    assert s.append(nn.Identity()) is s and list(s._modules) == ["2", "1"]
    with pytest.raises(IndexError, match="index 5 is out of range"):
        s[5]
    assert "0" not in dir(nn.Sequential(nn.Identity()))


def test_sequential_ordereddict_and_forward():
    s = nn.Sequential(OrderedDict([("flat", nn.Flatten()), ("un", nn.Unflatten(1, (2, 3)))]))
    assert list(s._modules) == ["flat", "un"] and s.flat is s[0]
    assert s(core.ones(4, 6)).shape == (4, 2, 3)
    assert nn.Sequential()(5) == 5


def test_module_list():
    mods = [nn.Identity() for _ in range(4)]
    ml = nn.ModuleList(mods[:2])
    ml.append(mods[2])
    ml.extend([mods[3]])
    assert _ids(ml) == _ids(mods) and len(ml) == 4 and ml[-1] is mods[3]
    ml.insert(1, nn.Flatten())
    assert type(ml[1]) is nn.Flatten and ml[2] is mods[1] and list(ml._modules) == ["0", "1", "2", "3", "4"]
    del ml[1]
    assert _ids(ml) == _ids(mods) and list(ml._modules) == ["0", "1", "2", "3"]
    del ml[::2]
    assert _ids(ml) == _ids([mods[1], mods[3]]) and list(ml._modules) == ["0", "1"]
    ml[-1] = mods[0]
    assert ml[1] is mods[0]
    assert type(ml[:1]) is nn.ModuleList
    ml += [nn.Identity()]
    assert len(ml) == 3
    with pytest.raises(TypeError, match="ModuleList.extend should be called with an iterable, but got int"):
        ml.extend(3)
    with pytest.raises(IndexError, match="index 3 is out of range"):
        ml[3]
    with pytest.raises(NotImplementedError):
        ml(1)


def test_module_dict():
    d = nn.ModuleDict({"b": nn.Identity(), "a": nn.Flatten()})
    assert list(d) == ["b", "a"]  # insertion order
    d.update([("c", nn.Identity())])
    d["e"] = nn.Identity()
    assert list(d.keys()) == ["b", "a", "c", "e"] and "c" in d and len(d) == 4
    assert type(d.pop("a")) is nn.Flatten and "a" not in d
    del d["b"]
    assert list(d) == ["c", "e"] and [k for k, _ in d.items()] == ["c", "e"] and len(list(d.values())) == 2
    d.clear()
    assert len(d) == 0
    with pytest.raises(TypeError, match="ModuleDict.update should be called with an iterable"):
        d.update(3)
    with pytest.raises(ValueError, match="element #0 has length 3; 2 is required"):
        d.update([("a", nn.Identity(), 1)])
    with pytest.raises(TypeError, match="element #0 should be Iterable"):
        d.update([3])


def test_parameter_list():
    ps = [Parameter(core.ones(i + 1)) for i in range(3)]
    pl = nn.ParameterList(ps[:2])
    pl.append(ps[2])
    assert _ids(pl) == _ids(ps) and pl[-1] is ps[2] and len(pl) == 3
    assert [n for n, _ in pl.named_parameters()] == ["0", "1", "2"]
    pl[0] = Parameter(core.zeros(2))
    assert pl[0].shape == (2,)
    assert type(pl[1:]) is nn.ParameterList
    pl += [Parameter(core.ones(1))]
    assert len(pl) == 4
    assert repr(nn.ParameterList([Parameter(core.ones(2, 3))])) == \
        "ParameterList(  (0): Parameter containing: [core.FloatTensor of size 2x3])"
    assert repr(nn.ParameterList([Parameter(core.ones(2)), Parameter(core.ones(1, dtype=core.float64))])) == (
        "ParameterList(\n"
        "    (0): Parameter containing: [core.FloatTensor of size 2]\n"
        "    (1): Parameter containing: [core.DoubleTensor of size 1]\n)")
    with pytest.raises(Exception, match="ParameterList should not be called."):
        pl(1)
    with pytest.warns(UserWarning, match="Setting attributes on ParameterList is not supported."):
        pl.foo = 3
    with pytest.raises(TypeError, match="ParameterList.extend should be called with an iterable"):
        pl.extend(1)
    copy = pickle.loads(pickle.dumps(pl))
    assert len(copy) == 4 and type(copy[0]) is Parameter


def test_parameter_dict():
    pd = nn.ParameterDict({"b": Parameter(core.ones(1)), "a": Parameter(core.ones(2))})
    assert list(pd) == ["a", "b"]  # PyTorch 1.8 sorts the keys of a plain dict
    pd.update(OrderedDict([("z", Parameter(core.ones(1))), ("c", Parameter(core.ones(1)))]))
    assert list(pd.keys()) == ["a", "b", "z", "c"]
    pd["d"] = Parameter(core.ones(3))
    assert "d" in pd and pd["d"].shape == (3,) and len(pd) == 5
    assert pd.pop("z").shape == (1,) and "z" not in pd
    del pd["c"]
    assert [n for n, _ in pd.named_parameters()] == ["a", "b", "d"]
    assert len(list(pd.values())) == len(list(pd.items())) == 3
    assert repr(pd).startswith("ParameterDict(\n    (a): Parameter containing: [core.FloatTensor of size 2]\n")
    with pytest.raises(Exception, match="ParameterDict should not be called."):
        pd()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pd.e = Parameter(core.ones(1))  # parameters are fine
    pd.clear()
    assert len(pd) == 0
    with pytest.raises(TypeError, match="ParametersDict.update should be called with an iterable"):
        pd.update(1)
