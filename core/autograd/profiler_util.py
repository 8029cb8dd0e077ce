"""Profiler results: events with their parents and children, averages per key, PyTorch's
table layout, Chrome traces and flame-graph stacks (torch.autograd.profiler_util)."""
import gzip
import json
import os
import tempfile
from collections import defaultdict

# Python frames of the profiler itself ("file(line): function") are left out of recorded stacks.
_HERE = os.path.dirname(os.path.abspath(__file__))
_PROFILER_FILES = tuple(os.path.join(_HERE, *parts) + "(" for parts in
                        (("profiler.py",), ("profiler_util.py",), ("..", "profiler", "__init__.py")))
_PROFILER_FILES += tuple(os.path.normpath(f[:-1]) + "(" for f in _PROFILER_FILES)


def _keep_frame(frame):
    return not frame.startswith(_PROFILER_FILES)


class FunctionEvent:
    """One recorded span: an op, a backward node or a record_function scope (times in us)."""

    def __init__(self, id, name, kind, start_ns, end_ns, thread, sequence_nr, memory_bytes,
                 input_shapes, stack):
        self.id = id
        self.name = name
        self.kind = kind  # "op", "backward" or "user_scope"
        self.start_ns, self.end_ns = start_ns, end_ns
        self.thread = thread
        self.sequence_nr = sequence_nr
        self.cpu_memory_usage = memory_bytes
        self.input_shapes = input_shapes
        self.stack = [f for f in stack if _keep_frame(f)]
        self.cpu_parent = None
        self.cpu_children = []
        self.count = 1

    key = property(lambda self: self.name)
    is_user_annotation = property(lambda self: self.kind == "user_scope")
    is_backward = property(lambda self: self.kind == "backward")
    cpu_time_total = property(lambda self: (self.end_ns - self.start_ns) / 1000)
    cpu_time = cpu_time_total

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def self_cpu_memory_usage(self):
        return self.cpu_memory_usage - sum(c.cpu_memory_usage for c in self.cpu_children)

    @property
    def time_range(self):
        return (self.start_ns / 1000, self.end_ns / 1000)

    def __repr__(self):
        return (f"<FunctionEvent id={self.id} name={self.name} thread={self.thread} "
                f"cpu_time_total={format_time(self.cpu_time_total)} "
                f"self_cpu_time_total={format_time(self.self_cpu_time_total)} "
                f"sequence_nr={self.sequence_nr} input_shapes={self.input_shapes} "
                f"cpu_memory_usage={self.cpu_memory_usage}>")


class FunctionEventAvg:
    """The sum of the events that share a key (name, and input shapes or stack when grouped)."""

    def __init__(self, key, input_shapes=None, stack=None):
        self.key = key
        self.input_shapes = input_shapes
        self.stack = stack or []
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.is_user_annotation = False

    def add(self, event):
        self.count += event.count
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        self.cpu_memory_usage += event.cpu_memory_usage
        self.self_cpu_memory_usage += event.self_cpu_memory_usage
        self.is_user_annotation = event.is_user_annotation
        return self

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={format_time(self.self_cpu_time_total)} "
                f"cpu_time={format_time(self.cpu_time_total)} count={self.count} "
                f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage}>")


def link_parents(events):
    """Sets cpu_parent/cpu_children: per thread, the innermost span enclosing each event."""
    by_thread = defaultdict(list)
    for e in events:
        by_thread[e.thread].append(e)
    for thread_events in by_thread.values():
        thread_events.sort(key=lambda e: (e.start_ns, -e.end_ns))
        open_spans = []
        for e in thread_events:
            while open_spans and open_spans[-1].end_ns < e.end_ns:
                open_spans.pop()
            if open_spans:
                e.cpu_parent = open_spans[-1]
                open_spans[-1].cpu_children.append(e)
            open_spans.append(e)


class EventList(list):
    """The events of a session, ordered by start time."""

    def __init__(self, events=(), profile_memory=False, with_shapes=False):
        super().__init__(events)
        self._profile_memory = profile_memory
        self._with_shapes = with_shapes

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        """One FunctionEventAvg per name (and per input shapes / top stack frames), in order
        of first appearance."""
        averages = {}
        for e in self:
            key = (e.key,)
            if group_by_input_shape:
                key += (str(e.input_shapes),)
            if group_by_stack_n > 0:
                key += tuple(e.stack[:group_by_stack_n])
            if key not in averages:
                averages[key] = FunctionEventAvg(
                    e.key, e.input_shapes if group_by_input_shape else None,
                    e.stack[:group_by_stack_n] if group_by_stack_n > 0 else None)
            averages[key].add(e)
        result = EventList(averages.values(), self._profile_memory, group_by_input_shape)
        result._stack_n = group_by_stack_n
        return result

    def total_average(self):
        total = FunctionEventAvg("Total")
        for e in self:
            total.add(e)
        return total

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, header=None,
              top_level_events_only=False, max_name_column_width=55):
        return build_table(self, sort_by, row_limit, header, top_level_events_only,
                           max_name_column_width, max_src_column_width,
                           profile_memory=self._profile_memory, with_shapes=self._with_shapes,
                           stack_n=getattr(self, "_stack_n", 0))

    def __str__(self):
        return self.table()

    def export_chrome_trace(self, path):
        export_chrome_trace(self, path)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        export_stacks(self, path, metric)


# ---- formatting (PyTorch's units and layout)

def format_time(time_us):
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def format_memory(nbytes):
    for unit, size in (("Gb", 1 << 30), ("Mb", 1 << 20), ("Kb", 1 << 10)):
        if abs(nbytes) >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{nbytes} B"


def _cut_end(name, width):
    # Long names keep their start ("autograd::engine::evalu..."), as PyTorch cuts them.
    return name[:width - 3] + "..." if len(name) >= width - 3 else name


def _cut_start(path, width):
    # Long source locations keep their end (file and line).
    return "..." + path[len(path) - width + 3:] if len(path) > width else path


def _percent(part, whole):
    return f"{part * 100 / whole:.2f}%" if whole else "0.00%"


_SORT_KEYS = ("cpu_time", "cpu_time_total", "self_cpu_time_total", "cpu_memory_usage",
              "self_cpu_memory_usage", "count")


def build_table(events, sort_by=None, row_limit=100, header=None, top_level_events_only=False,
                max_name_column_width=55, max_src_column_width=75, profile_memory=False,
                with_shapes=False, stack_n=0):
    """The profiler summary, column for column as torch.autograd.profiler prints it."""
    if not events:
        return ""
    if sort_by is not None:
        if sort_by not in _SORT_KEYS:
            raise ValueError(f"table(): sort_by must be one of {', '.join(_SORT_KEYS)} (got {sort_by!r})")
        events = sorted(events, key=lambda e: getattr(e, sort_by), reverse=True)
    rows = [e for e in events if not (top_level_events_only and getattr(e, "cpu_parent", None))]
    if row_limit is not None and row_limit > 0:
        rows = rows[:row_limit]

    name_width = min(max(len(e.key) for e in events) + 4, max_name_column_width)
    columns = [("Name", name_width), ("Self CPU %", 12), ("Self CPU", 12), ("CPU total %", 12),
               ("CPU total", 12), ("CPU time avg", 12)]
    if profile_memory:
        columns += [("CPU Mem", 12), ("Self CPU Mem", 12)]
    columns.append(("# of Calls", 12))
    if with_shapes:
        shape_width = min(max(len(str(e.input_shapes)) for e in events) + 4, 80)
        columns.append(("Input Shapes", shape_width))
    if stack_n > 0:
        src_width = min(max((len(f) for e in events for f in e.stack), default=0) + 4, max_src_column_width)
        columns.append(("Source Location", src_width))

    def line(cells):
        return "  ".join(str(cell).rjust(width) for cell, (_, width) in zip(cells, columns)) + "  "

    separator = "  ".join("-" * width for _, width in columns) + "  "
    self_total = sum(e.self_cpu_time_total for e in events)
    out = []
    if header:
        out += ["=" * len(separator), header]
    out += [separator, line([title for title, _ in columns]), separator]
    for e in rows:
        cells = [_cut_end(e.key, max_name_column_width), _percent(e.self_cpu_time_total, self_total), format_time(e.self_cpu_time_total),
                 _percent(e.cpu_time_total, self_total), format_time(e.cpu_time_total),
                 format_time(e.cpu_time_total / e.count if e.count else 0)]
        if profile_memory:
            cells += [format_memory(e.cpu_memory_usage), format_memory(e.self_cpu_memory_usage)]
        cells.append(e.count)
        if with_shapes:
            cells.append(str(e.input_shapes))
        if stack_n > 0:
            cells.append(_cut_start(e.stack[0], src_width) if e.stack else "")
        out.append(line(cells))
        for frame in e.stack[1:stack_n]:
            out.append(line([""] * (len(cells) - 1) + [_cut_start(frame, src_width)]))
    out.append(separator)
    out.append(f"Self CPU time total: {format_time(self_total)}")
    return "\n".join(out) + "\n"


# ---- files

def _write_atomically(path, text):
    """Writes through a temporary file in the same folder, renamed into place when complete;
    gzip-compressed when the path ends in .gz."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "wb") as f:
            data = text.encode("utf-8")
            f.write(gzip.compress(data) if path.endswith(".gz") else data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def trace_events(events):
    """Trace Event Format "X" (complete) events, times in microseconds, plus the names of
    the process and its threads."""
    pid = os.getpid()
    out = [{"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": "CPU functions"}}]
    for thread in sorted({e.thread for e in events}):
        out.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": thread,
                    "args": {"name": f"thread {thread}"}})
    for e in events:
        args = {}
        if e.input_shapes:
            args["Input Dims"] = e.input_shapes
        if e.sequence_nr >= 0:
            args["Sequence number"] = e.sequence_nr
        if e.cpu_memory_usage:
            args["CPU Mem"] = e.cpu_memory_usage
        out.append({"name": e.name, "cat": "cpu_op" if e.kind != "user_scope" else "user_annotation",
                    "ph": "X", "ts": e.start_ns / 1000, "dur": (e.end_ns - e.start_ns) / 1000,
                    "pid": pid, "tid": e.thread, "args": args})
    return out


def export_chrome_trace(events, path):
    """A JSON trace that chrome://tracing and Perfetto (ui.perfetto.dev) open."""
    _write_atomically(path, json.dumps({"traceEvents": trace_events(events), "displayTimeUnit": "ms"}))


def export_stacks(events, path, metric="self_cpu_time_total"):
    """Collapsed stacks for flame graphs (flamegraph.pl, speedscope): one line per event with a
    Python stack, "outer;...;inner;op value" with the metric in microseconds."""
    if metric != "self_cpu_time_total":
        raise ValueError(f"export_stacks: metric must be 'self_cpu_time_total' (got {metric!r}); "
                         "there is no CUDA time to export")
    spaces_and_separators = str.maketrans(" ;\t\n", "____")
    lines = []
    for e in events:
        value = int(getattr(e, metric))
        if e.stack and value > 0:
            frames = [f.translate(spaces_and_separators) for f in reversed(e.stack)]
            lines.append(";".join(frames + [e.name.translate(spaces_and_separators)]) + f" {value}\n")
    _write_atomically(path, "".join(lines))
