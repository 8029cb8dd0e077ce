"""core.jit: tracing by execution, the saved graph format, and loading without model code."""
import io
import json
import pickle
import warnings
import zipfile

import pytest

import core
import core.jit as jit
import core.nn.functional as F
from core import nn
from graph_helpers import randomised
from support import run_python


class _Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.Hardswish())
        self.head = nn.Linear(8, 4)

    def forward(self, x):
        y = F.adaptive_avg_pool2d(self.body(x), 1)
        y = y.view(y.size(0), -1)
        return self.head(y).softmax(-1), y.shape[1]


def test_trace_records_functions_only_and_matches_eager():
    model = randomised(_Small())
    x = core.randn(2, 3, 8, 8)
    traced = jit.trace(model, x)
    assert isinstance(traced, jit.TracedModule)
    assert {n.op for n in traced.graph.nodes} <= {"placeholder", "get_attr", "call_function", "call_method", "output"}
    with core.no_grad():
        got, want = traced(x), model(x)
        assert got[1] == want[1] == 8
        assert core.allclose(got[0], want[0], atol=1e-6)
        # sizes are recorded, not frozen: another batch size runs too
        x5 = core.randn(5, 3, 8, 8)
        assert core.allclose(traced(x5)[0], model(x5)[0], atol=1e-6)


def test_control_flow_follows_the_example_and_warns():
    def f(x):
        if x.sum() > 0:
            return x * 2
        return x - 1

    with pytest.warns(jit.TracerWarning, match="Python boolean"):
        traced = jit.trace(f, core.ones(3))
    assert core.equal(traced(-core.ones(3)), -2 * core.ones(3))  # the branch of the example


def test_check_trace_catches_disagreement():
    model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)).train()
    with pytest.raises(jit.TracingCheckError, match="differ"):
        jit.trace(model, core.randn(64, 4))
    jit.trace(model, core.randn(64, 4), check_trace=False)


def test_strict_refuses_list_outputs():
    def f(x):
        return [x, x + 1]

    with pytest.raises(RuntimeError, match="list or dict at the output"):
        jit.trace(f, core.ones(2))
    assert len(jit.trace(f, core.ones(2), strict=False)(core.ones(2))) == 2


def test_wrong_number_of_examples():
    with pytest.raises(TypeError, match="more than the function takes"):
        jit.trace(lambda x: x + 1, (core.ones(1), core.ones(1)))


def test_save_load_round_trip(tmp_path):
    model = randomised(_Small())
    x = core.randn(2, 3, 8, 8)
    traced = jit.trace(model, x)
    path = tmp_path / "small.pt"
    jit.save(traced, path)
    loaded = jit.load(path)
    assert isinstance(loaded, jit.ScriptModule)
    with core.no_grad():
        assert core.equal(loaded(x)[0], traced(x)[0])
    assert set(loaded.state_dict()) == set(traced.state_dict())
    buffer = io.BytesIO()
    loaded.save(buffer)  # a loaded module saves again
    buffer.seek(0)
    assert core.equal(jit.load(buffer)(x)[0], traced(x)[0])
    weights = core.load(path)  # the archive is also a checkpoint of its tensors
    assert core.equal(weights["head.weight"], model.head.weight)
    with pytest.raises(TypeError, match="ScriptModule"):
        jit.save(model, tmp_path / "eager.pt")


@pytest.mark.parametrize("name", ["mobilenet_v3_small", "resnet18"])
def test_vision_model_runs_without_model_code(tmp_path, name):
    import vision

    model = randomised(getattr(vision.models, name)(num_classes=10))
    x = core.randn(1, 3, 64, 64)
    path = tmp_path / f"{name}.pt"
    jit.save(jit.trace(model, x), path)
    core.save(x, tmp_path / "x.pt")
    with core.no_grad():
        core.save(model(x), tmp_path / "want.pt")
    script = (
        "import sys\n"
        "sys.modules['vision'] = None  # no model code importable\n"
        "import core, core.jit\n"
        f"m = core.jit.load({str(path)!r})\n"
        f"x, want = core.load({str(tmp_path / 'x.pt')!r}), core.load({str(tmp_path / 'want.pt')!r})\n"
        "with core.no_grad():\n"
        "    got = m(x)\n"
        "assert (got - want).abs().max().item() <= 1e-5 * want.abs().max().item(), (got - want).abs().max()\n"
        "print('ok')\n")
    result = run_python(script)
    assert result.stdout.strip() == "ok", result.stderr


# ---- hostile and corrupt files
def _archive_bytes():
    traced = jit.trace(randomised(_Small()), core.randn(1, 3, 8, 8))
    buffer = io.BytesIO()
    jit.save(traced, buffer)
    return buffer.getvalue()


def _rewrite(data, edit_graph=None, replace=None):
    """A copy of the archive with graph.json edited (a function of the parsed JSON) or
    records replaced ({suffix: bytes})."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            payload = src.read(info)
            if edit_graph and info.filename.endswith("/graph.json"):
                doc = json.loads(payload)
                edit_graph(doc)
                payload = json.dumps(doc).encode()
            for suffix, new in (replace or {}).items():
                if info.filename.endswith(suffix):
                    payload = new
            dst.writestr(info.filename, payload)
    return out.getvalue()


def _first(doc, op):
    return next(n for n in doc["nodes"] if n["op"] == op)


class _Tripwire:
    ran = False


def _trip(*args):
    _Tripwire.ran = True


_HOSTILE_EDITS = {
    "eval target": (lambda d: _first(d, "call_function").update(target="builtins.eval"), "not an allowed function"),
    "os.system target": (lambda d: _first(d, "call_function").update(target="os.system"), "not an allowed function"),
    "unknown op": (lambda d: _first(d, "call_function").update(target="op:no_such_op"), "does not have"),
    "save as a target": (lambda d: _first(d, "call_function").update(target="core.save"), "not an allowed function"),
    "dunder method": (lambda d: _first(d, "call_method").update(target="__reduce__"), "not allowed"),
    "private getattr": (lambda d: d["nodes"].insert(2, {"name": "g", "op": "call_function", "target": "builtins.getattr",
                                                       "args": {"tuple": [{"node": "x"}, "__class__"]},
                                                       "kwargs": {"dict": []}}), "not allowed"),
    "call_module": (lambda d: _first(d, "call_function").update(op="call_module", target="head"), "allowed"),
    "forward reference": (lambda d: d.update(nodes=d["nodes"][-2::-1] + d["nodes"][-1:]), "not defined before"),
    "injected kwarg": (lambda d: _first(d, "call_function").update(
        kwargs={"dict": [["x=__import__('os').system('true'),y", 1]]}), "malformed arguments"),
    "injected input name": (lambda d: _first(d, "placeholder").update(target="x=print(1)"), "bad name"),
    "reserved attribute": (lambda d: (d["attributes"].update(forward=d["attributes"].pop("head.weight")),
                                      [n.update(target="forward") for n in d["nodes"] if n["target"] == "head.weight"]),
                           "does not match|reserved"),
    "unknown value tag": (lambda d: _first(d, "call_function").update(args={"pickle": "cos\nsystem\n"}), "malformed"),
    "wrong version": (lambda d: d.update(version=99), "version"),
    "no output": (lambda d: d["nodes"].pop(), "output"),
}


@pytest.mark.parametrize("case", sorted(_HOSTILE_EDITS))
def test_hostile_graphs_are_refused(tmp_path, case):
    edit, message = _HOSTILE_EDITS[case]
    data = _rewrite(_archive_bytes(), edit_graph=edit)
    with pytest.raises((jit.ArchiveError, jit.UnsafeTargetError), match=message):
        jit.load(io.BytesIO(data))


def test_hostile_pickle_is_refused():
    evil = pickle.dumps({"head.weight": _Tripwire()}, protocol=2).replace(b"tests.core.jit.test_jit", b"builtins")
    data = _rewrite(_archive_bytes(), replace={"/data.pkl": evil})
    with pytest.raises(pickle.UnpicklingError):
        jit.load(io.BytesIO(data))
    assert not _Tripwire.ran


def test_corrupt_and_truncated_files_raise(tmp_path):
    data = _archive_bytes()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    with pytest.raises(RuntimeError):
        jit.load(io.BytesIO(bytes(flipped)))
    with pytest.raises(RuntimeError):
        jit.load(io.BytesIO(data[: len(data) // 3]))
    with pytest.raises(jit.ArchiveError, match="not a zip"):
        jit.load(io.BytesIO(b"not an archive at all"))
    checkpoint = io.BytesIO()
    core.save({"w": core.ones(2)}, checkpoint)
    checkpoint.seek(0)
    with pytest.raises(jit.ArchiveError, match="no graph.json"):
        jit.load(checkpoint)
    bad_json = _rewrite(data, replace={"/graph.json": b'{"format": "tensorzoo.jit", "version": NaN'})
    with pytest.raises(jit.ArchiveError, match="not valid JSON"):
        jit.load(io.BytesIO(bad_json))


def test_unsaveable_calls_are_named():
    def f(x):
        return x + 1

    traced = jit.trace(f, core.ones(1))
    node = next(n for n in traced.graph.nodes if n.op == "call_function")
    node.target = print
    with pytest.raises(jit.UnsafeTargetError, match="cannot store a call"):
        jit.save(traced, io.BytesIO())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jit.trace(f, core.ones(1))  # no warning without tensor-to-Python conversions
