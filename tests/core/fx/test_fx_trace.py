"""core.fx: tracing modules and functions into graphs and running the generated code."""
import copy
import importlib
import operator
import sys

import pytest

import core
import core.fx as fx
import core.nn.functional as F
from core import nn


def free_helper(x, k):
    return x * k + 1


fx.wrap("free_helper")


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.seq = nn.Sequential(nn.ReLU(), nn.Conv2d(3, 3, 1))

    def forward(self, x, scale=2.0):
        y = self.seq(F.relu(self.bn(self.conv(x))))
        y = y + x * scale
        y += 1
        z = core.flatten(y, 1)
        a, b = z.chunk(2, dim=1)
        return core.cat([a, b], 1).softmax(-1), z.shape[0]


def assert_close_relative(got, want, rtol=1e-5):
    # in-place adds of the eager model run out of place in the graph: rounding may differ
    assert got.shape == want.shape
    assert (got - want).abs().max().item() <= rtol * want.abs().max().item()


def _summary(gm):
    return [(n.op, n.name, n.target if isinstance(n.target, str) else n.target.__name__) for n in gm.graph.nodes]


def test_trace_records_every_kind_of_call():
    gm = fx.symbolic_trace(Block())
    assert _summary(gm) == [
        ("placeholder", "x", "x"), ("placeholder", "scale", "scale"),
        ("call_module", "conv", "conv"), ("call_module", "bn", "bn"),
        ("call_function", "relu", "relu"), ("call_module", "seq_0", "seq.0"),
        ("call_module", "seq_1", "seq.1"), ("call_function", "mul", "mul"),
        ("call_function", "add", "add"), ("call_function", "add_1", "add"),
        ("call_function", "flatten", "flatten"), ("call_method", "chunk", "chunk"),
        ("call_function", "getitem", "getitem"), ("call_function", "getitem_1", "getitem"),
        ("call_function", "cat", "cat"), ("call_method", "softmax", "softmax"),
        ("call_function", "getattr_1", "getattr"), ("call_function", "getitem_2", "getitem"),
        ("output", "output", "output")]
    nodes = {n.name: n for n in gm.graph.nodes}
    assert nodes["mul"].target is operator.mul and nodes["relu"].target is F.relu
    assert nodes["flatten"].target is core.flatten
    assert list(nodes["x"].users) == [nodes["conv"], nodes["mul"]]
    assert nodes["cat"].all_input_nodes == [nodes["getitem"], nodes["getitem_1"]]
    assert nodes["chunk"].kwargs == {"dim": 1}


def test_generated_code_runs_like_the_module():
    block = Block().eval()
    gm = fx.symbolic_trace(block)
    assert "core.flatten(add_1, 1)" in gm.code and "getattr(self.seq, '0')(relu)" in gm.code
    assert "def forward(self, x, scale = 2.0):" in gm.code
    x = core.randn(2, 3, 4, 4)
    (got, n), (want, m) = gm(x), block(x)
    assert n == m == 2 and core.equal(got, want)
    assert core.equal(gm(x, 0.5)[0], block(x, 0.5)[0])
    assert list(gm.state_dict()) == list(block.state_dict())


def test_parameters_and_constants_become_get_attr():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(core.randn(4))
            self.register_buffer("offset", core.ones(4))

        def forward(self, x):
            return x * self.weight + self.offset + core.tensor([1.0, 2.0, 3.0, 4.0])

    m = M()
    gm = fx.symbolic_trace(m)
    get_attrs = [n.target for n in gm.graph.nodes if n.op == "get_attr"]
    assert get_attrs == ["weight", "offset", "_tensor_constant0"]
    x = core.randn(3, 4)
    assert core.allclose(gm(x), m(x))
    assert set(gm.state_dict()) == {"weight", "offset"}


@pytest.mark.parametrize("name", ["mobilenet_v3_small", "mobilenet_v3_large", "resnet18", "mobilenet_v2"])
def test_vision_models_trace_exactly(name):
    import vision

    core.manual_seed(0)
    model = getattr(vision.models, name)(num_classes=10).eval()
    gm = fx.symbolic_trace(model)
    gm.graph.lint(gm)
    assert list(gm.state_dict()) == list(model.state_dict())
    x = core.randn(1, 3, 64, 64)
    with core.no_grad():
        want = model(x)
        assert_close_relative(gm(x), want)
        assert_close_relative(fx.Interpreter(gm).run(x), want)
    ops = {n.op for n in gm.graph.nodes}
    assert ops == {"placeholder", "call_module", "call_function", "output"}


def test_mobilenet_v3_se_block_is_traced_through():
    import vision

    gm = fx.symbolic_trace(vision.models.mobilenet_v3_small(num_classes=10))
    targets = [n.target for n in gm.graph.nodes if n.op == "call_function"]
    assert F.adaptive_avg_pool2d in targets and F.hardsigmoid in targets and operator.mul in targets
    hs = next(n for n in gm.graph.nodes if n.target is F.hardsigmoid)
    assert hs.kwargs == {"inplace": True}


def test_control_flow_on_values_raises_trace_error():
    class Branchy(nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x
            return -x

    with pytest.raises(fx.TraceError, match="symbolically traced variables cannot be used as inputs to control flow"):
        fx.symbolic_trace(Branchy())


def test_concrete_args_specialise_python_control_flow():
    def f(x, flag):
        return x + 1 if flag else x - 1

    gm = fx.symbolic_trace(f, concrete_args={"flag": True})
    assert [n.op for n in gm.graph.nodes] == ["placeholder", "call_function", "output"]
    assert core.equal(gm(core.zeros(2)), core.ones(2))
    with pytest.raises(TypeError, match="concrete_args"):
        fx.symbolic_trace(f, concrete_args={"nope": 1})


def test_proxy_iteration_and_len_are_refused():
    def iterate(x):
        return [y for y in x]

    def length(x):
        return len(x)

    with pytest.raises(fx.TraceError, match="cannot be iterated"):
        fx.symbolic_trace(iterate)
    with pytest.raises(RuntimeError, match="'len' is not supported"):
        fx.symbolic_trace(length)


def test_wrap_keeps_a_free_function_as_a_leaf():
    def f(x):
        return free_helper(x, 3).relu()

    gm = fx.symbolic_trace(f)
    calls = [n for n in gm.graph.nodes if n.op == "call_function"]
    assert len(calls) == 1 and calls[0].target is free_helper and calls[0].args[1] == 3
    assert free_helper(core.ones(1), 2).item() == 3.0  # unpatched after tracing
    x = core.randn(5)
    assert core.equal(gm(x), f(x))
    with pytest.raises(NotImplementedError, match="top level"):
        fx.wrap("free_helper")


def test_custom_tracer_leaf_rule():
    class TraceEverything(fx.Tracer):
        def is_leaf_module(self, m, qualname):
            return isinstance(m, (nn.Conv2d, nn.BatchNorm2d))

    class Wrapper(nn.Module):
        def __init__(self):
            super().__init__()
            self.act = nn.Hardswish()
            self.conv = nn.Conv2d(2, 2, 1)

        def forward(self, x):
            return self.act(self.conv(x))

    graph = TraceEverything().trace(Wrapper())
    ops = [(n.op, n.target if isinstance(n.target, str) else n.target.__name__) for n in graph.nodes]
    assert ("call_module", "conv") in ops and ("call_function", "hardswish") in ops


def test_unknown_module_raises_name_error():
    outsider = nn.ReLU()

    class M(nn.Module):
        def forward(self, x):
            return outsider(x)

    with pytest.raises(NameError, match="not installed as a submodule"):
        fx.symbolic_trace(M())


def test_graph_module_copies_and_recompiles():
    block = Block().eval()
    gm = fx.symbolic_trace(block)
    clone = copy.deepcopy(gm)
    x = core.randn(1, 3, 4, 4)
    assert core.equal(clone(x)[0], gm(x)[0])
    assert clone.conv.weight is not gm.conv.weight
    for node in gm.graph.nodes:
        if node.op == "call_method" and node.target == "softmax":
            node.target = "log_softmax"
    gm.recompile()
    assert "cat.log_softmax(-1)" in gm.code
    assert core.allclose(gm(x)[0], block(x)[0].log())
    assert "cat.softmax(-1)" in clone.code  # the copy keeps its own graph


def test_to_folder_round_trip(tmp_path):
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(16, 2)).eval()
    gm = fx.symbolic_trace(model)
    gm.to_folder(tmp_path / "pkg", "Exported")
    sys.path.insert(0, str(tmp_path))
    try:
        exported = importlib.import_module("pkg").Exported().eval()
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("pkg", None)
        sys.modules.pop("pkg.module", None)
    x = core.randn(2, 3, 4, 4)
    assert core.equal(exported(x), model(x))


def test_ops_reached_outside_patched_namespaces_are_recorded():
    flatten = core.flatten  # bound before tracing: reaches the op through __torch_function__

    def f(x, y):
        return flatten(x, 1) + core.ones(4).add(y)

    gm = fx.symbolic_trace(f)
    summary = [(n.op, n.target if isinstance(n.target, str) else n.target.__name__) for n in gm.graph.nodes]
    assert summary == [("placeholder", "x"), ("placeholder", "y"), ("call_function", "flatten"),
                       ("get_attr", "_tensor_constant0"), ("call_function", "add"),
                       ("call_function", "add"), ("output", "output")]
    x, y = core.randn(2, 2, 2), core.randn(4)
    assert core.equal(gm(x, y), f(x, y))
