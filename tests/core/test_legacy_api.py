"""Issue 28: legacy constructors (core.Tensor(data), core.LongTensor, ...), Variable, out=, and the
modules programs import by PyTorch's paths (Transformer, MultiheadAttention, DataParallel, onnx,
serialization.add_safe_globals)."""
import collections
import warnings

import numpy as np
import pytest

import core
import core.nn as nn
from core.nn.modules.activation import MultiheadAttention
from core.nn.modules.linear import NonDynamicallyQuantizableLinear


# ---------------------------------------------------------------- legacy constructors
def test_tensor_constructor():
    t = core.Tensor([1, 2])
    assert type(t) is core.Tensor and t.dtype == core.float32 and t.tolist() == [1.0, 2.0]
    assert core.Tensor(2, 3).shape == (2, 3) and core.Tensor().shape == (0,)
    assert core.Tensor(core.Size([4, 1])).shape == (4, 1)
    assert core.Tensor([[1.5]], device="cpu").shape == (1, 1)
    src = core.ones(2)
    assert core.Tensor(src).data_ptr() == src.data_ptr()  # shares the data


@pytest.mark.parametrize("cls, dtype", [(core.FloatTensor, core.float32), (core.DoubleTensor, core.float64),
                                        (core.LongTensor, core.int64), (core.IntTensor, core.int32),
                                        (core.ByteTensor, core.uint8), (core.BoolTensor, core.bool),
                                        (core.HalfTensor, core.float16), (core.ShortTensor, core.int16)])
def test_typed_constructors(cls, dtype):
    t = cls([1, 0])
    assert t.dtype == dtype and t.tolist() in ([1, 0], [1.0, 0.0], [True, False])
    assert cls(2, 3).shape == (2, 3) and cls(2, 3).dtype == dtype and cls().numel() == 0
    assert isinstance(t, cls) and not isinstance(core.ones(1, dtype=core.complex64), cls)
    assert str(cls) == f"core.{cls.__name__}"


def test_legacy_conversions_and_errors():
    assert core.LongTensor([1.7, -1.7]).tolist() == [1, -1]  # truncation, as PyTorch
    assert core.ones(2).type() == "core.FloatTensor"
    assert core.ones(2).type(core.LongTensor).dtype == core.int64
    assert core.ones(2).type("torch.DoubleTensor").dtype == core.float64
    with pytest.raises(TypeError, match="expected core.LongTensor"):
        core.LongTensor(core.ones(2))
    with pytest.raises(TypeError, match="invalid combination"):
        core.FloatTensor(2, "a")
    with pytest.raises(AssertionError):
        core.FloatTensor([1.0], device="cuda")


def test_variable():
    from core.autograd import Variable

    v = Variable(core.ones(2), requires_grad=True)
    assert v.requires_grad and v.is_leaf and isinstance(v, Variable) and isinstance(core.ones(1), Variable)
    (v * 2).sum().backward()
    assert v.grad.tolist() == [2.0, 2.0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Variable(core.ones(1), volatile=True)
    assert "volatile was removed" in str(caught[0].message)
    with pytest.raises(TypeError, match="Variable data has to be a tensor"):
        Variable([1.0])


# ---------------------------------------------------------------- out=
def test_out_writes_in_place_and_returns_out():
    a, b = core.tensor([[1.0, 2.0], [3.0, 4.0]]), core.eye(2)
    for op, args in [(core.matmul, (a, b)), (core.mm, (a, b)), (core.add, (a, b)), (core.mul, (a, 2.0)),
                     (core.sub, (a, b)), (core.div, (a, 2.0)), (core.exp, (a,)), (core.sum, (a, 0)),
                     (core.cat, ([a, b],)), (core.stack, ([a, b],)), (core.clamp, (a, 0, 2)),
                     (core.sigmoid, (a,)), (core.where, (a > 2, a, b)), (core.pow, (a, 2))]:
        out = core.empty(0)
        expected = op(*args)
        result = op(*args, out=out)
        assert result is out
        np.testing.assert_array_equal(out.numpy(), expected.numpy())
    out = core.empty(2, 2)
    ptr = out.data_ptr()
    core.add(a, 1, out=out)
    assert out.data_ptr() == ptr and out.tolist() == [[2.0, 3.0], [4.0, 5.0]]


def test_out_of_factories_and_tuples():
    out = core.empty(0, dtype=core.int64)
    assert core.arange(4, out=out) is out and out.tolist() == [0, 1, 2, 3]
    assert core.zeros(2, 2, out=core.empty(0)).shape == (2, 2)
    values, indices = core.empty(0), core.empty(0, dtype=core.int64)
    result = core.max(core.tensor([[1.0, 5.0], [7.0, 2.0]]), 1, out=(values, indices))
    assert result.values is values and values.tolist() == [5.0, 7.0] and indices.tolist() == [1, 0]


def test_out_errors_and_warnings():
    with pytest.raises(RuntimeError, match=r"add\(\): functions with out=\.\.\. arguments don't support "
                                           "automatic differentiation"):
        core.add(core.ones(2, requires_grad=True), 1, out=core.empty(2))
    with core.no_grad():
        core.add(core.ones(2, requires_grad=True), 1, out=core.empty(2))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        core.add(core.ones(2), 1.5, out=core.empty(2, dtype=core.int64))
    out = core.empty(2)
    core.add(core.ones(2, dtype=core.int64), 1, out=out)  # Long results cast to a float out
    assert out.tolist() == [2.0, 2.0]
    with pytest.warns(UserWarning, match="An output with one or more elements was resized"):
        core.add(core.ones(3), 1, out=core.empty(2))
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        core.flip(core.ones(2), [0], out=core.empty(2))  # PyTorch's flip has no out=
    with pytest.raises(TypeError, match="argument 'out' must be Tensor"):
        core.add(core.ones(2), 1, out=[1, 2])


# ---------------------------------------------------------------- module paths
def test_module_paths():
    assert nn.MultiheadAttention is MultiheadAttention
    assert issubclass(NonDynamicallyQuantizableLinear, nn.Linear)
    from core.nn.modules.transformer import MultiheadAttention as from_transformer
    assert from_transformer is MultiheadAttention
    assert isinstance(nn.MultiheadAttention(8, 2).out_proj, NonDynamicallyQuantizableLinear)


def test_transformer_shapes_masks_and_keys():
    core.manual_seed(0)
    model = nn.Transformer(d_model=16, nhead=2, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=32,
                           dropout=0.0)
    src, tgt = core.randn(5, 3, 16), core.randn(4, 3, 16)
    mask = nn.Transformer.generate_square_subsequent_mask(4)
    assert mask.tolist()[0] == [0.0, float("-inf"), float("-inf"), float("-inf")] and mask[3].tolist() == [0.0] * 4
    out = model(src, tgt, tgt_mask=mask)
    assert out.shape == (4, 3, 16)
    out.sum().backward()
    assert all(p.grad is not None for p in model.parameters())
    keys = list(model.state_dict())
    assert "decoder.layers.0.multihead_attn.in_proj_weight" in keys and "encoder.norm.weight" in keys
    assert "decoder.layers.0.norm3.bias" in keys and "decoder.norm.weight" in keys
    # the causal mask: changing a later target step leaves earlier outputs unchanged
    model.eval()
    tgt2 = tgt.clone()
    tgt2[3] += 1.0
    with core.no_grad():
        a, b = model(src, tgt, tgt_mask=mask), model(src, tgt2, tgt_mask=mask)
    np.testing.assert_allclose(a[:3].numpy(), b[:3].numpy(), atol=1e-5)
    batch_first = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                                 dim_feedforward=16, batch_first=True)
    assert batch_first(core.randn(2, 5, 8), core.randn(2, 3, 8)).shape == (2, 3, 8)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(core.randn(5, 3, 16), core.randn(4, 2, 16))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal to d_model"):
        model(core.randn(5, 3, 8), core.randn(4, 3, 8))


def test_data_parallel_on_cpu():
    core.manual_seed(0)
    inner = nn.Linear(3, 2)
    model = nn.DataParallel(inner, device_ids=[0])
    x = core.randn(4, 3)
    assert core.equal(model(x), inner(x))
    assert list(model.state_dict()) == ["module.weight", "module.bias"] and model.module is inner
    assert core.nn.parallel.data_parallel(inner, x).shape == (4, 2)


def test_onnx_imports_and_export_says_what_is_missing():
    import core.onnx

    assert core.onnx.is_in_onnx_export() is False
    with pytest.raises(NotImplementedError, match="ONNX export is not implemented"):
        core.onnx.export(nn.Linear(2, 2), (core.ones(1, 2),), "model.onnx")


Point = collections.namedtuple("Point", "x y")


class Config:
    def __init__(self, lr):
        self.lr = lr


def test_add_safe_globals(tmp_path):
    from core import serialization

    path = str(tmp_path / "ckpt.pt")
    core.save({"config": Config(0.1), "w": core.ones(2)}, path)
    with pytest.raises(Exception, match="add_safe_globals"):
        core.load(path)
    with serialization.safe_globals([Config]):
        loaded = core.load(path)
        assert Config in serialization.get_safe_globals()
    assert isinstance(loaded["config"], Config) and loaded["config"].lr == 0.1 and loaded["w"].tolist() == [1.0, 1.0]
    assert Config not in serialization.get_safe_globals()
    with pytest.raises(Exception, match="refuses the global"):
        core.load(path)
    serialization.add_safe_globals([Config])
    try:
        assert core.load(path)["config"].lr == 0.1
    finally:
        serialization.clear_safe_globals()
    core.save({"p": Point(1, 2)}, path)
    with serialization.safe_globals([(Point, f"{__name__}.Point")]):
        assert core.load(path)["p"] == Point(1, 2)
