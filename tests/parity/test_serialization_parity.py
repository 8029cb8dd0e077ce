"""Checkpoints cross between torch and core: torch.save -> core.load and core.save ->
torch.load(weights_only=True); safetensors bytes vs the reference package when installed."""
import collections
import io

import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")

PAIRS = [(core.bool, torch.bool), (core.uint8, torch.uint8), (core.int8, torch.int8),
         (core.int16, torch.int16), (core.int32, torch.int32), (core.int64, torch.int64),
         (core.float16, torch.float16), (core.bfloat16, torch.bfloat16),
         (core.float32, torch.float32), (core.float64, torch.float64),
         (core.complex64, torch.complex64)]
TORCH_OF = dict(PAIRS)


def _np_core(t):
    return (t.to(core.float32) if t.dtype == core.bfloat16 else t).numpy()


def _np_torch(t):
    t = t.detach()
    return (t.float() if t.dtype == torch.bfloat16 else t).numpy()


def _to_core(value):
    """A torch object tree converted to core (by values), for comparisons."""
    if isinstance(value, torch.Tensor):
        return core.tensor(_np_torch(value)).to(dict((v, k) for k, v in PAIRS)[value.dtype])
    if isinstance(value, dict):
        out = type(value)((k, _to_core(v)) for k, v in value.items())
        if hasattr(value, "_metadata"):
            out._metadata = value._metadata
        return out
    if isinstance(value, (list, tuple)):
        return type(value)(_to_core(v) for v in value)
    return value


def _assert_same(ours, theirs):
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, core.Tensor), type(ours)
        assert ours.dtype == dict((v, k) for k, v in PAIRS)[theirs.dtype]
        assert tuple(ours.shape) == tuple(theirs.shape) and ours.stride() == theirs.stride()
        assert ours.storage_offset() == theirs.storage_offset()
        assert bool(getattr(ours, "requires_grad", False)) == theirs.requires_grad
        np.testing.assert_array_equal(_np_core(ours), _np_torch(theirs))
    elif isinstance(theirs, dict):
        assert type(ours) is type(theirs) and list(ours) == list(theirs)
        assert getattr(ours, "_metadata", None) == getattr(theirs, "_metadata", None)
        for k in theirs:
            _assert_same(ours[k], theirs[k])
    elif isinstance(theirs, (list, tuple)):
        assert type(ours) is type(theirs) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _assert_same(a, b)
    else:
        assert ours == theirs


def _torch_to_core(obj, **kw):
    buffer = io.BytesIO()
    torch.save(obj, buffer, **kw)
    buffer.seek(0)
    return core.load(buffer)


def _core_to_torch(obj, **kw):
    buffer = io.BytesIO()
    core.save(obj, buffer, **kw)
    buffer.seek(0)
    return torch.load(buffer, weights_only=True)


def _module():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
                               torch.nn.Flatten(), torch.nn.Linear(8, 4))


@pytest.mark.parametrize("legacy", [False, True])
def test_torch_module_state_dict_both_ways(legacy):
    sd = _module().state_dict()
    kw = {"_use_new_zipfile_serialization": not legacy}
    ours = _torch_to_core(sd, **kw)
    _assert_same(ours, sd)
    _assert_same(ours, _core_to_torch(ours, **kw))
    model = _module()
    model.load_state_dict(_core_to_torch(ours, **kw))  # torch accepts what we wrote


@pytest.mark.parametrize("core_dtype, torch_dtype", PAIRS, ids=[str(p[1]) for p in PAIRS])
def test_every_dtype_both_ways(core_dtype, torch_dtype):
    theirs = {"x": (torch.arange(-3, 9) * 1.5).reshape(3, 4).to(torch_dtype),
              "t": (torch.arange(6) % 2).to(torch_dtype).reshape(2, 3).t(),
              "scalar": torch.tensor(1).to(torch_dtype), "empty": torch.zeros(0, 2, dtype=torch_dtype)}
    ours = _torch_to_core(theirs)
    _assert_same(ours, theirs)
    _assert_same(ours, _core_to_torch(ours))


def test_shared_storages_both_ways():
    base = torch.arange(24.)
    theirs = {"base": base, "view": base[4:16].view(3, 4), "strided": base[1::5], "t": base[:6].view(2, 3).t()}
    ours = _torch_to_core(theirs)
    _assert_same(ours, theirs)
    assert len({t._storage_ptr() for t in ours.values()}) == 1
    back = _core_to_torch(ours)
    _assert_same(ours, back)
    assert len({t.untyped_storage().data_ptr() for t in back.values()}) == 1


def test_optimizer_state_both_ways():
    model = _module()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    model(torch.randn(2, 3, 3, 3)).sum().backward()
    opt.step()
    checkpoint = {"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 3}
    ours = _torch_to_core(checkpoint)
    _assert_same(ours, checkpoint)
    back = _core_to_torch(ours)
    _assert_same(ours, back)
    opt.load_state_dict(back["optimizer"])


def test_parameters_and_requires_grad():
    theirs = {"p": torch.nn.Parameter(torch.ones(2, 2)), "g": torch.ones(3, requires_grad=True)}
    ours = _torch_to_core(theirs)
    assert type(ours["p"]) is core.nn.Parameter and ours["p"].requires_grad and ours["g"].requires_grad
    np.testing.assert_array_equal(ours["p"].detach().numpy(), np.ones((2, 2)))
    back = _core_to_torch(ours)
    assert back["p"].requires_grad and back["g"].requires_grad


def test_map_location_and_extras():
    theirs = {"x": torch.arange(3.), "size": torch.Size([2, 3]), "dtype": torch.float16,
              "od": collections.OrderedDict(a=1)}
    ours = _torch_to_core(theirs)
    assert ours["size"] == (2, 3) and type(ours["size"]) is core.Size and ours["dtype"] is core.float16
    back = _core_to_torch(ours)
    assert back["size"] == torch.Size([2, 3]) and back["dtype"] is torch.float16
    buffer = io.BytesIO()
    torch.save(theirs, buffer)
    for ml in ("cpu", {"cpu": "cpu"}, lambda s, loc: s):
        buffer.seek(0)
        np.testing.assert_array_equal(core.load(buffer, map_location=ml)["x"].numpy(), [0., 1., 2.])


def test_quantized_tensors_round_trip_both_ways():
    x = torch.randn(4, 3)
    theirs = {"t": torch.quantize_per_tensor(x, 0.05, 7, torch.quint8),
              "c": torch.quantize_per_channel(x, torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64),
                                              torch.tensor([0, 1, -2, 3]), 0, torch.qint8)}
    buffer = io.BytesIO()
    torch.save(theirs, buffer)
    buffer.seek(0)
    ours = core.load(buffer)
    for key, q in theirs.items():
        assert ours[key].dtype == getattr(core, str(q.dtype).split(".")[1])
        np.testing.assert_array_equal(ours[key].int_repr().numpy(), q.int_repr().numpy())
        # torch dequantizes with a fused multiply-add (q * s + (-z * s)): last-bit differences
        np.testing.assert_allclose(ours[key].dequantize().numpy(), q.dequantize().numpy(), rtol=1e-6, atol=1e-7)
    back = io.BytesIO()
    core.save(ours, back)
    back.seek(0)
    again = torch.load(back)
    for key, q in theirs.items():
        assert again[key].qscheme() == q.qscheme()
        assert torch.equal(again[key].int_repr(), q.int_repr())


def test_hostile_file_is_refused_by_both_loaders():
    from serialization_helpers import archive, program, rebuild_v2

    data = archive(program(rebuild_v2("0", 4, 0, (4,), (1,)) + b"K\x00K\x01s"),
                   {"0": np.zeros(4, np.float32).tobytes()})
    with pytest.raises(Exception):
        torch.load(io.BytesIO(data), weights_only=True)
    with pytest.raises(Exception, match="SETITEM"):
        core.load(io.BytesIO(data))


def test_safetensors_matches_reference():
    st_torch = pytest.importorskip("safetensors.torch")
    from core.utils import safetensors as ours

    theirs = {"w": torch.randn(3, 4), "h": torch.ones(5, dtype=torch.float16),
              "b": torch.tensor([True, False]), "bf": torch.randn(2, 2).bfloat16(),
              "i": torch.arange(7), "c": torch.randn(2, dtype=torch.complex64)}
    reference = st_torch.save(theirs, metadata={"format": "pt"})
    loaded = ours.load(reference)
    for name, t in theirs.items():
        np.testing.assert_array_equal(_np_core(loaded[name]), _np_torch(t))
    assert ours.save(loaded, metadata={"format": "pt"}) == reference
    back = st_torch.load(ours.save(loaded))
    for name, t in theirs.items():
        assert torch.equal(back[name], t)
