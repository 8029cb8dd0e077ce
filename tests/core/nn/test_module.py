"""nn.Parameter and nn.Module: registration, iteration, state_dict, hooks, conversions, repr."""
import copy
import pickle
from collections import OrderedDict

import numpy as np
import pytest

import core
import core.nn as nn
from core.nn import Parameter


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = Parameter(core.ones(3))
        self.register_buffer("running", core.zeros(3))
        self.register_buffer("scratch", core.zeros(1), persistent=False)
        self.sub = nn.Linear(3, 2)

    def forward(self, x):
        return self.sub(x * self.w)


# ---- Parameter
def test_parameter_basics():
    data = core.ones(2, 3)
    p = Parameter(data)
    assert isinstance(p, core.Tensor) and type(p) is Parameter
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    p.detach().fill_(5)
    assert data.sum().item() == 30  # shares memory
    assert not Parameter(core.ones(1), requires_grad=False).requires_grad
    assert Parameter().shape == (0,)
    assert repr(p).startswith("Parameter containing:\ntensor([[5., 5., 5.],")
    with pytest.raises(TypeError, match="Parameter"):
        Parameter([1.0])


def test_parameter_of_nonleaf_is_leaf():
    x = core.ones(2, requires_grad=True)
    p = Parameter(x * 2)
    assert p.is_leaf and p.grad_fn is None and p.requires_grad


def test_parameter_deepcopy_and_pickle_keep_class():
    p = Parameter(core.arange(4.0))
    p.tag = "x"
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(q) is Parameter and q.requires_grad and q.is_leaf
        assert q.tolist() == [0.0, 1.0, 2.0, 3.0] and q.tag == "x"
        assert q._storage_ptr() != p._storage_ptr()
    q = pickle.loads(pickle.dumps(Parameter(core.ones(1), requires_grad=False)))
    assert not q.requires_grad


def test_tensor_data_is_detached_alias():
    t = core.ones(2, requires_grad=True)
    d = t.data
    assert not d.requires_grad
    d.fill_(3)
    assert t.tolist() == [3.0, 3.0]


# ---- registration and attribute routing
def test_registration_routing():
    m = Net()
    assert list(m._parameters) == ["w"] and list(m._buffers) == ["running", "scratch"]
    assert list(m._modules) == ["sub"]
    assert m.w is m._parameters["w"] and m.running is m._buffers["running"]
    m.running = core.ones(3)  # stays a buffer
    assert m._buffers["running"].tolist() == [1.0, 1.0, 1.0]
    m.w = None
    assert m._parameters["w"] is None
    m.sub = None
    assert m._modules["sub"] is None
    m.extra = 3
    assert "extra" in m.__dict__
    m.extra = Parameter(core.ones(1))  # moves from __dict__ to _parameters
    assert "extra" not in m.__dict__ and "extra" in m._parameters
    del m.extra
    assert "extra" not in m._parameters
    del m.running
    assert "running" not in m._buffers
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'nope'"):
        m.nope


def test_registration_errors():
    m = Net()
    with pytest.raises(TypeError, match="cannot assign 'core.FloatTensor' as parameter 'w'"):
        m.w = core.ones(3)
    with pytest.raises(TypeError, match="as child module 'sub'"):
        m.sub = 3
    with pytest.raises(TypeError, match="as buffer 'running'"):
        m.running = 3
    with pytest.raises(KeyError, match="attribute 'w' already exists"):
        m.register_buffer("w", core.ones(1))
    with pytest.raises(KeyError, match="contain"):
        m.register_buffer("a.b", core.ones(1))
    with pytest.raises(KeyError, match="empty string"):
        m.register_parameter("", None)
    with pytest.raises(TypeError, match="buffer name should be a string"):
        m.register_buffer(1, None)
    with pytest.raises(TypeError, match="cannot assign 'int' object to buffer 'x'"):
        m.register_buffer("x", 1)
    with pytest.raises(TypeError, match="torch.nn.Parameter or None required"):
        m.register_parameter("x", core.ones(1))
    with pytest.raises(TypeError, match="is not a Module subclass"):
        m.add_module("x", 3)
    with pytest.raises(KeyError, match="contain"):
        m.add_module("a.b", nn.Module())

    class Early(nn.Module):
        def __init__(self):
            self.p = Parameter(core.ones(1))

    with pytest.raises(AttributeError, match="cannot assign parameters before Module.__init__"):
        Early()


class _WithGradFn(Parameter):
    """A Parameter that reports a grad_fn (a non-leaf Parameter, as in PyTorch's check)."""

    @property
    def grad_fn(self):
        return "SomeBackward"


def test_nonleaf_parameter_rejected():
    m = nn.Module()
    with pytest.raises(ValueError, match="Cannot assign non-leaf Tensor to parameter 'q'"):
        m.register_parameter("q", _WithGradFn(core.ones(2)))


def test_forward_unimplemented():
    with pytest.raises(NotImplementedError, match=r'Module \[Module\] is missing the required "forward"'):
        nn.Module()(1)


# ---- iteration
def test_named_members_and_sharing():
    m = Net()
    m.shared = m.sub  # the same module twice: listed once
    assert [n for n, _ in m.named_parameters()] == ["w", "sub.weight", "sub.bias"]
    assert [n for n, _ in m.named_parameters(prefix="model")] == ["model.w", "model.sub.weight", "model.sub.bias"]
    assert [n for n, _ in m.named_parameters(recurse=False)] == ["w"]
    assert [n for n, _ in m.named_buffers()] == ["running", "scratch"]
    assert [n for n, _ in m.named_modules()] == ["", "sub"]
    assert [n for n, _ in m.named_modules(prefix="root")] == ["root", "root.sub"]
    assert [n for n, _ in m.named_children()] == ["sub"]
    assert len(list(m.modules())) == 2 and len(list(m.children())) == 1
    assert len(list(m.parameters())) == 3 and len(list(m.buffers())) == 2
    assert m.get_submodule("sub") is m.sub
    with pytest.raises(AttributeError, match="has no attribute `x`"):
        m.get_submodule("x")


def test_dir_lists_members():
    names = dir(Net())
    for key in ("w", "running", "sub", "forward", "training"):
        assert key in names


# ---- state_dict
def test_state_dict_keys_metadata_and_keep_vars():
    m = Net()
    sd = m.state_dict()
    assert list(sd) == ["w", "running", "sub.weight", "sub.bias"]
    assert sd._metadata == OrderedDict([("", {"version": 1}), ("sub", {"version": 1})])
    assert not sd["w"].requires_grad and type(sd["w"]) is core.Tensor
    assert sd["w"]._storage_ptr() == m.w._storage_ptr()
    assert m.state_dict(keep_vars=True)["w"] is m.w
    assert list(m.state_dict(prefix="p.")) == ["p.w", "p.running", "p.sub.weight", "p.sub.bias"]


def test_load_state_dict_roundtrip_and_errors():
    a, b = Net(), Net()
    with core.no_grad():
        a.w.fill_(7)
    result = b.load_state_dict(a.state_dict())
    assert b.w.tolist() == [7.0, 7.0, 7.0] and repr(result) == "<All keys matched successfully>"
    assert b.w.requires_grad and type(b.w) is Parameter

    sd = a.state_dict()
    del sd["running"]
    sd["bogus"] = core.ones(1)
    sd["sub.bogus"] = core.ones(1)
    with pytest.raises(RuntimeError) as info:
        b.load_state_dict(sd)
    msg = str(info.value)
    assert msg.startswith("Error(s) in loading state_dict for Net:\n\t")
    assert 'Missing key(s) in state_dict: "running". ' in msg
    assert 'Unexpected key(s) in state_dict: "bogus", "sub.bogus". ' in msg
    assert msg.index("Missing") < msg.index("Unexpected")
    result = b.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["running"] and result.unexpected_keys == ["bogus", "sub.bogus"]
    missing, unexpected = result
    assert missing == ["running"]

    sd = a.state_dict()
    sd["w"] = core.ones(4)
    with pytest.raises(RuntimeError, match=r"size mismatch for w: copying a param with shape "
                                           r"core.Size\(\[4\]\) from checkpoint, the shape in current "
                                           r"model is core.Size\(\[3\]\)"):
        b.load_state_dict(sd)


def test_load_state_dict_custom_hooks_and_version():
    seen = {}

    class Old(nn.Module):
        _version = 2

        def __init__(self):
            super().__init__()
            self.register_buffer("count", core.zeros(1))

        def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
            seen["version"] = local_metadata.get("version")
            state_dict.pop(prefix + "legacy", None)  # drop an old key, as FrozenBN does
            super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing, unexpected, errors)

    m = nn.Sequential(Old())
    sd = m.state_dict()
    assert sd._metadata["0"] == {"version": 2}
    sd["0.legacy"] = core.ones(1)
    m.load_state_dict(sd)
    assert seen["version"] == 2
    assert "0.legacy" in sd  # the caller's dict is not modified

    calls = []
    h = m[0]._register_state_dict_hook(lambda mod, d, prefix, meta: calls.append(prefix))
    m.state_dict()
    h.remove()
    m.state_dict()
    assert calls == ["0."]


def test_non_persistent_buffer_not_loaded_or_saved():
    m = Net()
    assert "scratch" not in m.state_dict()
    m.register_buffer("scratch", core.zeros(1), persistent=True)
    assert "scratch" in m.state_dict()


# ---- hooks
def test_forward_hooks_replace_input_and_output():
    m = nn.Identity()
    calls = []
    h1 = m.register_forward_pre_hook(lambda mod, inp: (inp[0] + 1,))
    h2 = m.register_forward_pre_hook(lambda mod, inp: inp[0] * 10)  # single value gets wrapped
    h3 = m.register_forward_hook(lambda mod, inp, out: calls.append((inp[0].item(), out.item())))
    h4 = m.register_forward_hook(lambda mod, inp, out: out - 1)
    assert m(core.tensor(1.0)).item() == 19.0
    assert calls == [(20.0, 20.0)]
    for h in (h1, h2, h3, h4):
        h.remove()
    h1.remove()  # twice is fine
    assert m(core.tensor(1.0)).item() == 1.0
    with m.register_forward_hook(lambda mod, inp, out: out * 0):
        assert m(core.tensor(1.0)).item() == 0.0
    assert m(core.tensor(1.0)).item() == 1.0


def test_global_forward_hooks():
    from core.nn.modules.module import register_module_forward_hook

    seen = []
    handle = register_module_forward_hook(lambda mod, inp, out: seen.append(type(mod).__name__))
    try:
        nn.Sequential(nn.Identity())(core.ones(1))
    finally:
        handle.remove()
    nn.Identity()(core.ones(1))
    assert seen == ["Identity", "Sequential"]


def test_full_backward_hook():
    lin = nn.Linear(3, 2)
    seen = {}

    def hook(mod, grad_input, grad_output):
        seen["gi"], seen["go"] = grad_input, grad_output
        return (grad_input[0] * 2,)

    handle = lin.register_full_backward_hook(hook)
    x = core.ones(4, 3, requires_grad=True)
    lin(x).sum().backward()
    assert seen["go"][0].shape == (4, 2) and np.allclose(seen["go"][0].numpy(), 1)
    expected = lin.weight.detach().numpy().sum(0)
    assert np.allclose(seen["gi"][0].numpy(), np.broadcast_to(expected, (4, 3)), atol=1e-6)
    assert np.allclose(x.grad.numpy(), 2 * np.broadcast_to(expected, (4, 3)), atol=1e-6)
    handle.remove()
    x.grad = None
    lin(x).sum().backward()
    assert np.allclose(x.grad.numpy(), np.broadcast_to(expected, (4, 3)), atol=1e-6)


def test_full_backward_hook_no_input_grad_and_bad_result():
    lin = nn.Linear(3, 2)
    seen = []
    lin.register_full_backward_hook(lambda m, gi, go: seen.append(gi))
    lin(core.ones(1, 3)).sum().backward()  # only the parameters need grads
    assert seen == [(None,)]
    lin2 = nn.Linear(3, 2)
    lin2.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    with pytest.raises(RuntimeError, match="invalid number of grad_input, got 2, but expected 1"):
        lin2(core.ones(1, 3, requires_grad=True)).sum().backward()
    with pytest.raises(NotImplementedError, match="register_full_backward_hook"):
        lin.register_backward_hook(lambda *a: None)


# ---- modes and grads
def test_train_eval_requires_grad_zero_grad():
    m = Net()
    assert m.training and m.sub.training
    assert m.eval() is m and not m.sub.training
    m.train()
    assert m.sub.training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        m.train("no")
    m.requires_grad_(False)
    assert not any(p.requires_grad for p in m.parameters())
    m.requires_grad_()
    m(core.ones(1, 3)).sum().backward()
    grad = m.w.grad
    m.zero_grad(set_to_none=False)  # PyTorch 1.8's default: zero in place
    assert m.w.grad is grad and grad.abs().sum().item() == 0
    m.zero_grad()  # PyTorch 2.x's default: set_to_none=True
    assert all(p.grad is None for p in m.parameters())


def test_apply_and_conversions():
    m = Net()
    names = []
    m.apply(lambda mod: names.append(type(mod).__name__))
    assert names == ["Linear", "Net"]
    m.register_buffer("steps", core.zeros(1, dtype=core.int64))
    m(core.ones(1, 3)).sum().backward()
    w = m.w
    assert m.float() is m and m.w is w  # nothing to convert: the same Parameter objects
    m.double()
    assert m.w.dtype == core.float64 and type(m.w) is Parameter and m.w.requires_grad
    assert m.w.grad.dtype == core.float64 and m.running.dtype == core.float64
    assert m.steps.dtype == core.int64  # integer buffers keep their dtype
    m.to(core.float32)
    assert m.sub.weight.dtype == core.float32
    m.to(core.zeros(1, dtype=core.float64))
    assert m.w.dtype == core.float64
    m.to("cpu", dtype=core.float32)
    assert m.w.dtype == core.float32
    m.half()
    assert m.w.dtype == core.float16
    m.bfloat16()
    assert m.w.dtype == core.bfloat16
    m.type(core.float32)
    assert m.w.dtype == core.float32
    assert m.cpu() is m and m.share_memory() is m
    with pytest.raises(TypeError, match="nn.Module.to only accepts floating point or complex dtypes"):
        m.to(core.int32)
    with pytest.raises(RuntimeError, match="only the cpu device"):
        m.to("cuda")
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        m.cuda()


def test_deepcopy_and_pickle_module():
    m = Net()
    m.register_forward_pre_hook(_double_input)
    for c in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert type(c.w) is Parameter and c.w is not m.w
        assert list(c.state_dict()) == list(m.state_dict())
        x = core.ones(1, 3)
        assert np.allclose(c(x).detach().numpy(), m(x).detach().numpy())
        assert c.scratch is not None and "scratch" in c._non_persistent_buffers_set


def _double_input(mod, inp):
    return (inp[0] * 2,)


# ---- repr
def test_repr_nesting_and_extra_repr():
    class Custom(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(2, 3), nn.Identity())

        def extra_repr(self):
            return "k=1\nj=2"

    assert repr(nn.Module()) == "Module()"
    assert repr(nn.Linear(2, 3, bias=False)) == "Linear(in_features=2, out_features=3, bias=False)"
    assert repr(Custom()) == (
        "Custom(\n"
        "  k=1\n"
        "  j=2\n"
        "  (body): Sequential(\n"
        "    (0): Linear(in_features=2, out_features=3, bias=True)\n"
        "    (1): Identity()\n"
        "  )\n"
        ")")


def test_incompatible_keys_repr():
    from core.nn.modules.module import _IncompatibleKeys

    keys = _IncompatibleKeys(["a"], [])
    assert repr(keys) == "_IncompatibleKeys(missing_keys=['a'], unexpected_keys=[])"


def test_dtype_conversion_keeps_parameter_objects_and_grads():
    m = nn.Linear(3, 2)
    weight = m.weight
    m(core.randn(4, 3)).sum().backward()
    m.double()
    assert m.weight is weight and weight.dtype == core.float64 and weight.grad.dtype == core.float64
    assert isinstance(weight, nn.Parameter) and weight.requires_grad


def test_tensor_data_assignment_rebinds_values_not_identity():
    t = core.zeros(2, requires_grad=True)
    t.data = core.arange(3.0)
    assert t.shape == (3,) and t.requires_grad and t.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(TypeError, match="must be a Tensor"):
        t.data = [1, 2]
