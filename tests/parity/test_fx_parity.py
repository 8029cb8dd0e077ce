"""core.fx against torch.fx: the same module written twice traces to the same graph (node
kinds, names, targets, arguments), runs to the same values, and fails the same way."""
import numpy as np
import pytest

import core
import core.fx
import core.nn.functional as F

torch = pytest.importorskip("torch")
pytest.importorskip("torch.fx")  # binds torch.fx


def _pair():
    """Two copies of one module: (tensorzoo, torch), with equal weights."""

    def define(lib, nn, functional, flatten, cat):
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 4, 3, padding=1)
                self.bn = nn.BatchNorm2d(4)
                self.seq = nn.Sequential(nn.ReLU(), nn.Conv2d(4, 4, 1))
                self.scale = nn.Parameter(lib.ones(4, 1, 1) * 0.5)

            def forward(self, x, alpha=2.0):
                y = self.seq(functional.hardswish(self.bn(self.conv(x))))
                y = y * self.scale + y * alpha
                y += 1
                z = flatten(y, 1)
                a, b = z.chunk(2, dim=1)
                return cat([b, a], 1).softmax(-1), z.shape[0], y.mean(dim=(2, 3), keepdim=True)

        return Block().eval()

    ours = define(core, core.nn, F, core.flatten, core.cat)
    theirs = define(torch, torch.nn, torch.nn.functional, torch.flatten, torch.cat)
    theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours.state_dict().items()})
    return ours, theirs


def _target(node):
    t = node.target
    return t if isinstance(t, str) else t.__name__


def _args(node):
    return repr(node.args)


def test_same_graph_as_torch_fx():
    ours, theirs = _pair()
    g_ours = core.fx.symbolic_trace(ours).graph
    g_theirs = torch.fx.symbolic_trace(theirs).graph
    assert [(n.op, n.name, _target(n), _args(n)) for n in g_ours.nodes] == \
           [(n.op, n.name, _target(n), _args(n)) for n in g_theirs.nodes]
    assert [sorted(u.name for u in n.users) for n in g_ours.nodes] == \
           [sorted(u.name for u in n.users) for n in g_theirs.nodes]


def test_same_values_as_torch_fx():
    ours, theirs = _pair()
    x = np.random.default_rng(0).standard_normal((2, 3, 6, 6)).astype(np.float32)
    got = core.fx.symbolic_trace(ours)(core.from_numpy(x), 0.5)
    want = torch.fx.symbolic_trace(theirs)(torch.from_numpy(x), 0.5)
    assert got[1] == want[1]
    for g, w in ((got[0], want[0]), (got[2], want[2])):
        np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_same_trace_error_as_torch_fx():
    def branchy(lib):
        def f(x):
            if x.sum() > 0:
                return x
            return x

        return f

    with pytest.raises(torch.fx.proxy.TraceError) as theirs:
        torch.fx.symbolic_trace(branchy(torch))
    with pytest.raises(core.fx.TraceError) as ours:
        core.fx.symbolic_trace(branchy(core))
    assert str(ours.value) == str(theirs.value)


def test_print_tabular_matches_torch_fx_columns(capsys):
    ours, theirs = _pair()
    pytest.importorskip("tabulate")
    torch.fx.symbolic_trace(theirs).graph.print_tabular()
    theirs_lines = capsys.readouterr().out.splitlines()
    core.fx.symbolic_trace(ours).graph.print_tabular()
    ours_lines = capsys.readouterr().out.splitlines()
    assert len(ours_lines) == len(theirs_lines)
    # opcode and name columns are identical, character for character
    assert [line[:26] for line in ours_lines] == [line[:26] for line in theirs_lines]
