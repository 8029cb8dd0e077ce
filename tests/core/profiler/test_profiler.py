"""core.autograd.profiler / core.profiler: what the dispatch records, the results' views
(averages, table, Chrome trace, stacks) and the step schedule."""
import json
import threading

import pytest

import core
import core.nn as nn
from core.autograd import profiler
from core.profiler import ProfilerAction, schedule, tensorboard_trace_handler


def small_step():
    x = core.randn(4, 8, requires_grad=True)
    w = core.randn(8, 3, requires_grad=True)
    with profiler.record_function("forward"):
        loss = (x @ w).relu().sum()
    loss.backward()


def by_name(events, name):
    return [e for e in events if e.name == name]


def test_ops_backward_nodes_and_scopes_are_recorded_and_nested():
    with profiler.profile(record_shapes=True) as prof:
        small_step()
    events = prof.function_events
    (scope,) = by_name(events, "forward")
    (mm,) = [e for e in by_name(events, "aten::matmul") if e.cpu_parent is scope]
    assert mm.input_shapes == [[4, 8], [8, 3]] and mm in scope.cpu_children
    for e in events:  # children lie within their parent on the same thread
        for c in e.cpu_children:
            assert c.thread == e.thread and e.start_ns <= c.start_ns <= c.end_ns <= e.end_ns
        assert e.self_cpu_time_total == pytest.approx(
            e.cpu_time_total - sum(c.cpu_time_total for c in e.cpu_children))
    # Backward nodes carry the sequence number of the forward op that recorded them.
    (relu_backward,) = by_name(events, "ReluBackward0")
    (relu,) = by_name(events, "aten::relu")
    assert relu_backward.sequence_nr == relu.sequence_nr >= 0
    assert relu_backward.is_backward and relu_backward.cpu_parent is None


def test_nothing_is_recorded_outside_a_profile():
    with profiler.profile() as prof:
        pass
    small_step()  # record_function without a profiler is free and records nothing
    assert len(prof.function_events) == 0
    with profiler.profile(enabled=False) as off:
        small_step()
    assert off.function_events is None


def test_key_averages_and_input_shape_groups():
    a, b = core.randn(3, 4), core.randn(5, 6)
    with profiler.profile(record_shapes=True) as prof:
        for _ in range(3):
            a.exp()
        b.exp()
    averages = {e.key: e for e in prof.key_averages()}
    assert averages["aten::exp"].count == 4
    exp_events = by_name(prof.function_events, "aten::exp")
    assert averages["aten::exp"].cpu_time_total == pytest.approx(sum(e.cpu_time_total for e in exp_events))
    grouped = {(e.key, str(e.input_shapes)): e.count for e in prof.key_averages(group_by_input_shape=True)}
    assert grouped[("aten::exp", "[[3, 4]]")] == 3 and grouped[("aten::exp", "[[5, 6]]")] == 1
    with profiler.profile() as plain:
        a.exp()
    with pytest.raises(ValueError, match="record_shapes"):
        plain.key_averages(group_by_input_shape=True)


def test_memory_is_counted_per_op_net_of_frees():
    with profiler.profile(profile_memory=True) as prof:
        kept = core.empty(1000, 1000)
        with profiler.record_function("scratch"):
            core.empty(500, 500).add_(1)  # allocated and freed inside the scope
    (empty_big,) = [e for e in by_name(prof.function_events, "aten::empty") if e.cpu_parent is None]
    assert empty_big.cpu_memory_usage == 4_000_000
    (scratch,) = by_name(prof.function_events, "scratch")
    assert scratch.cpu_memory_usage == 0
    assert sum(c.cpu_memory_usage for c in scratch.cpu_children) >= 1_000_000
    del kept


def test_record_function_as_a_decorator_and_on_other_threads():
    @profiler.record_function("helper")
    def helper(t):
        return t * 2

    def worker():
        helper(core.ones(3))

    with profiler.profile() as prof:
        helper(core.ones(3))
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
    helpers = by_name(prof.function_events, "helper")
    assert len(helpers) == 2 and helpers[0].thread != helpers[1].thread
    for h in helpers:
        assert [c.name for c in h.cpu_children] == ["aten::mul"]


def test_only_one_session_at_a_time():
    with profiler.profile(), pytest.raises(RuntimeError, match="already running"), profiler.profile():
        pass


def validate_trace_event_format(trace):
    """Checks the Trace Event Format's rules for what the profiler emits: metadata ("M") and
    complete ("X") events with their required fields; complete events on one thread nest."""
    assert isinstance(trace, dict) and isinstance(trace["traceEvents"], list)
    spans = {}
    for ev in trace["traceEvents"]:
        assert ev["ph"] in ("X", "M"), ev
        assert isinstance(ev["name"], str) and isinstance(ev["pid"], int) and isinstance(ev["tid"], int)
        assert isinstance(ev.get("args", {}), dict)
        if ev["ph"] == "M":
            assert ev["name"] in ("process_name", "thread_name") and isinstance(ev["args"]["name"], str)
            continue
        assert isinstance(ev["ts"], (int, float)) and isinstance(ev["dur"], (int, float)) and ev["dur"] >= 0
        start = round(ev["ts"] * 1000)
        spans.setdefault((ev["pid"], ev["tid"]), []).append((start, start + round(ev["dur"] * 1000), ev["name"]))
    for thread_spans in spans.values():
        thread_spans.sort(key=lambda s: (s[0], -s[1]))
        open_spans = []
        for start, end, name in thread_spans:
            while open_spans and open_spans[-1][1] <= start and not (open_spans[-1][1] == start == end):
                open_spans.pop()
            assert not open_spans or end <= open_spans[-1][1], f"{name} overlaps {open_spans[-1][2]} without nesting"
            open_spans.append((start, end, name))
    return spans


@pytest.mark.parametrize("suffix", [".json", ".json.gz"])
def test_chrome_trace_follows_the_trace_event_format(tmp_path, suffix):
    import gzip
    with profiler.profile(record_shapes=True, profile_memory=True) as prof:
        small_step()
    path = tmp_path / f"trace{suffix}"
    prof.export_chrome_trace(path)
    raw = path.read_bytes()
    trace = json.loads(gzip.decompress(raw) if suffix.endswith(".gz") else raw)
    spans = validate_trace_event_format(trace)
    names = {name for thread_spans in spans.values() for _, _, name in thread_spans}
    assert {"forward", "aten::relu", "ReluBackward0"} <= names
    relu = next(e for e in trace["traceEvents"] if e["name"] == "aten::relu")
    assert relu["args"]["Input Dims"] == [[4, 3]] and relu["args"]["Sequence number"] >= 0
    assert list(tmp_path.iterdir()) == [path]  # written through a temporary file, renamed


def test_the_validator_rejects_bad_nesting():
    bad = {"traceEvents": [{"name": "a", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1, "args": {}},
                           {"name": "b", "ph": "X", "ts": 5, "dur": 10, "pid": 1, "tid": 1, "args": {}}]}
    with pytest.raises(AssertionError, match="overlaps"):
        validate_trace_event_format(bad)


def test_export_stacks_writes_collapsed_python_stacks(tmp_path):
    with profiler.profile(with_stack=True) as prof:
        small_step()
    path = tmp_path / "stacks.txt"
    prof.export_stacks(path)
    lines = path.read_text().splitlines()
    assert lines
    for line in lines:
        frames, value = line.rsplit(" ", 1)
        assert int(value) > 0 and " " not in frames
    assert any("small_step" in line and line.split(" ")[0].endswith(";aten::relu") for line in lines)
    frames = {f for e in prof.function_events for f in e.stack}
    own_files = tuple(m.__file__ + "(" for m in (profiler, core.profiler, core.autograd.profiler_util))
    assert frames and not any(f.startswith(own_files) for f in frames)
    with pytest.raises(ValueError, match="metric"):
        prof.export_stacks(path, "self_cuda_time_total")


def test_table_layout():
    with profiler.profile(record_shapes=True, profile_memory=True) as prof:
        small_step()
    text = prof.key_averages(group_by_input_shape=True).table(sort_by="self_cpu_time_total", row_limit=3)
    lines = text.splitlines()
    titles = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "CPU Mem",
              "Self CPU Mem", "# of Calls", "Input Shapes"]
    assert lines[0] == lines[2] == lines[-2] and set(lines[0]) == {"-", " "}
    widths = [len(d) for d in lines[0].split()]
    assert widths[1:9] == [12] * 8 and len(widths) == len(titles)
    assert lines[1].split("  ") and [t.strip() for t in _cells(lines[1], widths)] == titles
    assert len(lines) == 3 + 3 + 2
    rows = [_cells(line, widths) for line in lines[3:6]]
    self_times = [_us(r[2]) for r in rows]
    assert self_times == sorted(self_times, reverse=True)
    assert lines[-1].startswith("Self CPU time total: ")
    with pytest.raises(ValueError, match="sort_by"):
        prof.key_averages().table(sort_by="cuda_time")


def _cells(line, widths):
    cells, pos = [], 0
    for w in widths:
        cells.append(line[pos:pos + w])
        pos += w + 2
    return cells


def _us(text):
    text = text.strip()
    for unit, scale in (("ms", 1e3), ("us", 1.0), ("s", 1e6)):
        if text.endswith(unit):
            return float(text[:-len(unit)]) * scale
    raise ValueError(text)


def test_schedule_actions():
    fn = schedule(skip_first=1, wait=1, warmup=1, active=2, repeat=2)
    A = ProfilerAction
    assert [fn(i) for i in range(11)] == [A.NONE, A.NONE, A.WARMUP, A.RECORD, A.RECORD_AND_SAVE,
                                         A.NONE, A.WARMUP, A.RECORD, A.RECORD_AND_SAVE, A.NONE, A.NONE]
    with pytest.raises(ValueError):
        schedule(wait=0, warmup=0, active=0)


def test_profile_steps_through_cycles_and_saves_traces(tmp_path):
    model = nn.Linear(8, 2)
    cycles = []

    def on_ready(prof):
        cycles.append(sorted(e.name for e in prof.events() if e.name.startswith("ProfilerStep#")))
        tensorboard_trace_handler(str(tmp_path), worker_name="w0")(prof)

    with core.profiler.profile(activities=[core.profiler.ProfilerActivity.CPU],
                               schedule=schedule(wait=1, warmup=1, active=2, repeat=2),
                               on_trace_ready=on_ready) as prof:
        for _ in range(9):
            model(core.randn(4, 8)).sum().backward()
            prof.step()
    assert cycles == [["ProfilerStep#2", "ProfilerStep#3"], ["ProfilerStep#6", "ProfilerStep#7"]]
    traces = sorted(tmp_path.glob("w0.*.pt.trace.json"))
    assert len(traces) == 2
    for path in traces:
        validate_trace_event_format(json.loads(path.read_text()))
    step = next(e for e in prof.events() if e.name == "ProfilerStep#6")
    assert any(c.name == "aten::linear" or c.name == "aten::addmm" for c in step.cpu_children)


def test_profile_without_schedule_records_everything():
    with core.profiler.profile(record_shapes=True) as prof:
        core.ones(2).exp()
    assert [e.name for e in prof.events()] == ["aten::ones", "aten::exp"]
    assert prof.key_averages()[0].count == 1
