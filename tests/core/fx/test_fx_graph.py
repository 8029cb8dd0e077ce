"""core.fx: building and editing graphs by hand, printing them, Interpreter/Transformer and
subgraph_rewriter.replace_pattern."""
import operator

import pytest

import core
import core.fx as fx
from core import nn
from core.fx import subgraph_rewriter


def _hand_built():
    g = fx.Graph()
    x = g.placeholder("x")
    y = g.call_function(core.add, (x, 1.0))
    z = g.call_method("relu", (y,))
    g.output(z)
    return g, x, y, z


def test_hand_built_graph_runs():
    g, x, y, z = _hand_built()
    gm = fx.GraphModule(nn.Module(), g)
    assert gm.code.strip().splitlines() == [
        "def forward(self, x):",
        "    add = core.add(x, 1.0);  x = None",
        "    relu = add.relu();  add = None",
        "    return relu"]
    assert core.equal(gm(core.tensor([-3.0, 2.0])), core.tensor([0.0, 3.0]))
    assert str(g) == ("graph(x):\n"
                      "    %add : [#users=1] = call_function[target=core.add](args = (%x, 1.0), kwargs = {})\n"
                      "    %relu : [#users=1] = call_method[target=relu](args = (%add,), kwargs = {})\n"
                      "    return relu")


def test_inserting_and_erasing_nodes():
    g, x, y, z = _hand_built()
    with g.inserting_after(y):
        neg = g.call_function(operator.neg, (y,))
        doubled = g.call_function(operator.mul, (neg, 2))
    z.replace_input_with(y, doubled)
    assert [n.name for n in g.nodes] == ["x", "add", "neg", "mul", "relu", "output"]
    with g.inserting_before(z):
        g.call_function(core.sin, (x,))  # dead
    g.lint()
    gm = fx.GraphModule(nn.Module(), g)
    assert core.equal(gm(core.tensor([-3.0])), core.tensor([4.0]))
    assert g.eliminate_dead_code() and "sin" not in [n.name for n in g.nodes]
    with pytest.raises(RuntimeError, match="still had 1 users"):
        g.erase_node(doubled)
    assert neg.replace_all_uses_with(y) == [doubled]
    g.erase_node(neg)
    assert doubled.args == (y, 2) and neg not in y.users and doubled in y.users


def test_dead_code_keeps_inplace_calls():
    g = fx.Graph()
    x = g.placeholder("x")
    g.call_method("add_", (x, 1))
    g.output(x)
    assert not g.eliminate_dead_code()
    assert len(g.nodes) == 3


def test_lint_catches_broken_graphs():
    g, x, y, z = _hand_built()
    z.prev.prepend(z)  # relu before add: used before defined
    with pytest.raises(RuntimeError, match="used before it is defined"):
        g.lint()
    g2, x2, *_ = _hand_built()
    with g2.inserting_before(x2):
        g2.get_attr("missing.weight")
    with pytest.raises(RuntimeError, match="does not have"):
        g2.lint(nn.Module())


def test_node_validation():
    g = fx.Graph()
    with pytest.raises(ValueError, match="unknown opcode"):
        g.create_node("call_everything", "x")
    with pytest.raises(ValueError, match="must be callable"):
        g.call_function("relu", ())
    other = fx.Graph().placeholder("y")
    with pytest.raises(RuntimeError, match="another graph"):
        g.call_function(core.neg, (other,))


def test_graph_module_from_dict_root():
    g = fx.Graph()
    x = g.placeholder("x")
    lin = g.call_module("head.fc", (x,))
    g.output(lin)
    fc = nn.Linear(2, 3)
    gm = fx.GraphModule({"head.fc": fc}, g)
    assert gm.head.fc is fc
    x = core.randn(4, 2)
    assert core.equal(gm(x), fc(x))
    with pytest.raises(RuntimeError, match="not provided in root"):
        fx.GraphModule({}, g)


def test_print_tabular_layout(capsys):
    g, *_ = _hand_built()
    g.print_tabular()
    lines = capsys.readouterr().out.splitlines()
    target = str(core.add)
    width = max(len(target), len("target") + 2)
    assert lines[0] == "opcode         name    " + "target".ljust(width) + "  args      kwargs"
    assert lines[1] == "-------------  ------  " + "-" * width + "  --------  --------"
    assert lines[2] == "placeholder    x       " + "x".ljust(width) + "  ()        {}"
    assert lines[3] == "call_function  add     " + target.ljust(width) + "  (x, 1.0)  {}"
    assert lines[5] == "output         output  " + "output".ljust(width) + "  (relu,)   {}"


class _Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = core.relu(x + 1.0)
        z = self.lin(y)
        return core.relu(z + 1.0) * 2


def test_replace_pattern_swaps_every_match():
    def pattern(a):
        return core.relu(a + 1.0)

    def replacement(a):
        return core.clamp(a, min=-1.0) + 1.0

    net = _Net()
    gm = fx.symbolic_trace(net)
    x = core.randn(3, 4)
    want = core.clamp(net.lin(core.clamp(x, min=-1.0) + 1.0), min=-1.0) * 0 + 0  # shape only
    matches = subgraph_rewriter.replace_pattern(gm, pattern, replacement)
    assert len(matches) == 2
    assert all(m.anchor.op == "call_function" for m in matches)
    targets = [n.target for n in gm.graph.nodes if n.op == "call_function"]
    assert core.relu not in targets and targets.count(core.clamp) == 2
    gm.graph.lint(gm)
    expected = (core.clamp(net.lin(core.clamp(x, min=-1.0) + 1.0), min=-1.0) + 1.0) * 2
    assert core.allclose(gm(x), expected) and gm(x).shape == want.shape


def test_replace_pattern_skips_matches_whose_values_escape():
    def f(x):
        y = x + 1.0
        return core.relu(y), y

    def pattern(a):
        return core.relu(a + 1.0)

    gm = fx.symbolic_trace(f)
    assert fx.replace_pattern(gm, pattern, lambda a: core.sigmoid(a)) == []


class _SwapReluForSigmoid(fx.Transformer):
    def call_function(self, target, args, kwargs):
        if target is core.relu:
            target = core.sigmoid
        return super().call_function(target, args, kwargs)


def test_transformer_rewrites_and_interpreter_runs():
    net = _Net()
    gm = fx.symbolic_trace(net)
    new = _SwapReluForSigmoid(gm).transform()
    x = core.randn(2, 4)
    assert core.allclose(new(x), core.sigmoid(net.lin(core.sigmoid(x + 1.0)) + 1.0) * 2)
    assert [n.op for n in new.graph.nodes] == [n.op for n in gm.graph.nodes]

    class CountingInterpreter(fx.Interpreter):
        calls = 0

        def call_module(self, target, args, kwargs):
            CountingInterpreter.calls += 1
            return super().call_module(target, args, kwargs)

    assert core.equal(CountingInterpreter(gm).run(x), net(x))
    assert CountingInterpreter.calls == 1
    with pytest.raises(RuntimeError, match="Expected positional argument for parameter x"):
        fx.Interpreter(gm).run()
