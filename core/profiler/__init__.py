"""core.profiler: the profiler API of torch.profiler (1.8.1+): activities, a wait/warmup/active
schedule driven by step(), on_trace_ready handlers such as tensorboard_trace_handler.

    with core.profiler.profile(schedule=core.profiler.schedule(wait=1, warmup=1, active=2),
                               on_trace_ready=core.profiler.tensorboard_trace_handler("log")) as prof:
        for batch in loader:
            train_step(batch)
            prof.step()
"""
import enum
import os
import socket
import time
import warnings

from core import _C
from core.autograd.profiler import collect, record_function

__all__ = [
    "ProfilerAction",
    "ProfilerActivity",
    "profile",
    "record_function",
    "schedule",
    "tensorboard_trace_handler",
]


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0):
    """step number -> ProfilerAction: skip `skip_first` steps, then cycles of `wait` idle steps,
    `warmup` steps recorded and thrown away, `active` recorded steps (the last one saves);
    `repeat` cycles (0: until the profiler stops)."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise ValueError("schedule: wait, warmup, repeat and skip_first must be >= 0 and active > 0")

    def action(step):
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        cycle = wait + warmup + active
        if repeat > 0 and step >= repeat * cycle:
            return ProfilerAction.NONE
        phase = step % cycle
        if phase < wait:
            return ProfilerAction.NONE
        if phase < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if phase < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    return action


def _always_record(step):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """An on_trace_ready handler writing <dir_name>/<worker>.<time ns>.pt.trace.json(.gz), the
    files TensorBoard's profiler plugin lists."""
    worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"

    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        suffix = ".pt.trace.json.gz" if use_gzip else ".pt.trace.json"
        prof.export_chrome_trace(os.path.join(dir_name, f"{worker}.{time.time_ns()}{suffix}"))
    return handler


_RECORDING = (ProfilerAction.WARMUP, ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)


class profile:
    """A profiler driven by step(): each step, `schedule(step)` says whether to record; when a
    recording cycle ends, `on_trace_ready(self)` runs with its results (events(),
    key_averages(), export_chrome_trace(), ...). Without a schedule, everything between start
    and stop is one cycle."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, use_cuda=None):
        activities = set(activities) if activities is not None else {ProfilerActivity.CPU}
        if ProfilerActivity.CUDA in activities or use_cuda:
            warnings.warn("profile: there is no CUDA device; profiling the CPU only")
        if with_flops:
            raise NotImplementedError("profile(with_flops=True): FLOP estimates are not implemented")
        self.activities = activities
        self.schedule = schedule or _always_record
        self.record_steps = schedule is not None
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.step_num = 0
        self.current_action = ProfilerAction.NONE
        self._events = None
        self._recording = False
        self._step_scope = None

    # ---- driving
    def start(self):
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self._enter(ProfilerAction.NONE, self.current_action)
        self._open_step()

    def step(self):
        self._close_step()
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._enter(previous, self.current_action)
        self._open_step()

    def stop(self):
        self._close_step()
        self._enter(self.current_action, ProfilerAction.NONE)
        self.current_action = ProfilerAction.NONE

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def _enter(self, previous, action):
        if previous == ProfilerAction.WARMUP and action != ProfilerAction.WARMUP:
            _C._profiler_stop()  # warmup events are thrown away
            self._recording = False
        elif previous == ProfilerAction.RECORD_AND_SAVE or (
                previous == ProfilerAction.RECORD and action == ProfilerAction.NONE):
            self._finish_cycle()
        if action in _RECORDING and not self._recording:
            _C._profiler_start(self.record_shapes, self.profile_memory, self.with_stack)
            self._recording = True

    def _finish_cycle(self):
        self._events = collect(_C._profiler_stop(), self.profile_memory, self.record_shapes)
        self._recording = False
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def _open_step(self):
        if self.record_steps and self._recording:
            self._step_scope = record_function(f"ProfilerStep#{self.step_num}").__enter__()

    def _close_step(self):
        if self._step_scope is not None:
            self._step_scope.__exit__(None, None, None)
            self._step_scope = None

    # ---- results of the last cycle
    def events(self):
        if self._events is None:
            raise RuntimeError("profile: no recording cycle has finished yet")
        return self._events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        return self.events().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path):
        self.events().export_chrome_trace(path)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        if not self.with_stack:
            raise ValueError("export_stacks needs profile(with_stack=True)")
        self.events().export_stacks(path, metric)
