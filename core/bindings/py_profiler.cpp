// Python face of the op profiler (core.autograd.profiler drives it): sessions, user scopes
// (record_function) and the Python stacks of with_stack.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "autograd/profiler.h"
#include "bindings/module.h"

namespace tz::py {

namespace pyb = pybind11;
using profiler::Event;
using profiler::EventKind;

namespace {

// "file(line): function" per frame, innermost first; empty on threads Python never ran on.
std::vector<std::string> python_stack() {
  std::vector<std::string> frames;
  if (PyGILState_GetThisThreadState() == nullptr) return frames;
  pyb::gil_scoped_acquire gil;
  PyFrameObject* frame = PyThreadState_GetFrame(PyThreadState_Get());
  while (frame != nullptr) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    frames.push_back(pyb::str(code->co_filename).cast<std::string>() + "(" +
                     std::to_string(PyFrame_GetLineNumber(frame)) + "): " +
                     pyb::str(code->co_name).cast<std::string>());
    Py_DECREF(code);
    PyFrameObject* back = PyFrame_GetBack(frame);
    Py_DECREF(frame);
    frame = back;
  }
  return frames;
}

const char* kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::Op: return "op";
    case EventKind::Backward: return "backward";
    case EventKind::UserScope: return "user_scope";
  }
  return "op";
}

pyb::tuple to_py(const Event& e) {
  return pyb::make_tuple(e.name, kind_name(e.kind), e.start_ns, e.end_ns, e.thread_id, e.sequence_nr,
                         e.memory_bytes, e.input_shapes, e.stack);
}

// A record_function span: recorded from construction to end() when a session is active.
class UserScope {
 public:
  explicit UserScope(std::string name) { scope_.emplace(std::move(name), EventKind::UserScope); }
  void end() { scope_.reset(); }

 private:
  std::optional<profiler::RecordScope> scope_;
};

}  // namespace

void init_profiler(pyb::module_& m) {
  profiler::g_python_stack = &python_stack;
  m.def("_profiler_start", [](bool record_shapes, bool profile_memory, bool with_stack) {
    profiler::start(profiler::Config{record_shapes, profile_memory, with_stack});
  });
  // Events as tuples (name, kind, start_ns, end_ns, thread_id, sequence_nr, memory_bytes,
  // input_shapes, stack), in the order they ended.
  m.def("_profiler_stop", [] {
    std::vector<Event> events = profiler::stop();
    pyb::list out;
    for (const Event& e : events) out.append(to_py(e));
    return out;
  });
  m.def("_profiler_active", [] { return profiler::active(); });
  pyb::class_<UserScope>(m, "_UserScope").def(pyb::init<std::string>()).def("end", &UserScope::end);
}

}  // namespace tz::py
