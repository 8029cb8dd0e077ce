"""core.autograd.profiler: which ops ran, for how long, on which shapes, with how much memory
(torch.autograd.profiler). The op registry's dispatch and the autograd engine record every
op and backward node while a profile is active; otherwise recording costs one flag check.

    with profiler.profile(record_shapes=True) as prof:
        model(x).sum().backward()
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10))
    prof.export_chrome_trace("trace.json")
"""
import functools
import warnings

from core import _C
from core.autograd.profiler_util import EventList, FunctionEvent, link_parents

__all__ = ["EventList", "FunctionEvent", "profile", "record_function"]


def collect(raw_events, profile_memory, record_shapes):
    """An EventList, by start time, from the tuples of _C._profiler_stop()."""
    events = [FunctionEvent(i, *raw) for i, raw in enumerate(raw_events)]
    events.sort(key=lambda e: (e.start_ns, -e.end_ns))
    for i, e in enumerate(events):
        e.id = i
    link_parents(events)
    return EventList(events, profile_memory=profile_memory, with_shapes=record_shapes)


class profile:
    """Records ops while the context is active; results in `function_events`.

    record_shapes: keep each op's input shapes (key_averages(group_by_input_shape=True));
    profile_memory: bytes each op allocated net of what it freed (its children included);
    with_stack: the Python stack of each op (export_stacks, group_by_stack_n)."""

    def __init__(self, enabled=True, *, use_cuda=False, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, use_kineto=False, use_cpu=True):
        if use_cuda:
            warnings.warn("profile(use_cuda=True): there is no CUDA device; profiling the CPU only")
        if with_flops:
            raise NotImplementedError("profile(with_flops=True): FLOP estimates are not implemented")
        if not use_cpu:
            raise ValueError("profile(use_cpu=False): the CPU is the only device to profile")
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.function_events = None
        self._running = False

    def __enter__(self):
        if self.enabled:
            if self._running:
                raise RuntimeError("profile: this profiler is already running")
            _C._profiler_start(self.record_shapes, self.profile_memory, self.with_stack)
            self._running = True
        return self

    def __exit__(self, *exc):
        if self._running:
            self._running = False
            self.function_events = collect(_C._profiler_stop(), self.profile_memory, self.record_shapes)
        return False

    def _events(self):
        if self.function_events is None:
            raise RuntimeError("profile: results are available once the profiler has stopped")
        return self.function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        if group_by_input_shape and not self.record_shapes:
            raise ValueError("key_averages(group_by_input_shape=True) needs profile(record_shapes=True)")
        if group_by_stack_n > 0 and not self.with_stack:
            raise ValueError("key_averages(group_by_stack_n>0) needs profile(with_stack=True)")
        return self._events().key_averages(group_by_input_shape, group_by_stack_n)

    def total_average(self):
        return self._events().total_average()

    @property
    def self_cpu_time_total(self):
        return self._events().self_cpu_time_total

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, header=None,
              top_level_events_only=False, max_name_column_width=55):
        return self._events().table(sort_by, row_limit, max_src_column_width, header,
                                    top_level_events_only, max_name_column_width)

    def export_chrome_trace(self, path):
        self._events().export_chrome_trace(path)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        if not self.with_stack:
            raise ValueError("export_stacks needs profile(with_stack=True)")
        self._events().export_stacks(path, metric)

    def __str__(self):
        return "<unfinished profile>" if self.function_events is None else str(self.function_events)

    __repr__ = __str__


class record_function:
    """Names a region in the profile: a context manager or a decorator. Free when no profiler
    is running."""

    def __init__(self, name, args=None):
        self.name = name if args is None else f"{name}({args})"
        self._scope = None

    def __enter__(self):
        self._scope = _C._UserScope(self.name) if _C._profiler_active() else None
        return self

    def __exit__(self, *exc):
        if self._scope is not None:
            self._scope.end()
            self._scope = None
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with record_function(self.name):
                return fn(*args, **kwargs)
        return wrapper
