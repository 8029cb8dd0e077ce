// The op profiler: while a session is active, every op call through the registry, every
// backward node the engine runs and every user scope (record_function) becomes an Event.
// Inactive, the cost at each of those places is one relaxed atomic load.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/value.h"

namespace tz {
// The sequence number the next autograd node will take (autograd/node.cpp): forward events
// carry it, so that backward events (which carry their node's) pair with them.
uint64_t peek_sequence_nr();
}  // namespace tz

namespace tz::profiler {

enum class EventKind : uint8_t { Op, Backward, UserScope };

struct Event {
  std::string name;
  EventKind kind = EventKind::Op;
  int64_t start_ns = 0, end_ns = 0;  // since the session started
  uint64_t thread_id = 0;            // the OS thread id
  int64_t sequence_nr = -1;          // forward: the autograd node it records; backward: its node's
  int64_t memory_bytes = 0;          // bytes allocated minus freed on its thread, children included
  std::vector<std::vector<int64_t>> input_shapes;  // per argument; [] for non-tensors
  std::vector<std::string> stack;    // Python frames, innermost first
};

struct Config {
  bool record_shapes = false;
  bool profile_memory = false;
  bool with_stack = false;
};

extern std::atomic<bool> g_active;
inline bool active() { return g_active.load(std::memory_order_relaxed); }

// Starts a session (an error if one is running); stop() ends it and hands back its events in
// the order they finished.
void start(const Config& config);
std::vector<Event> stop();

// Set by the Python bindings: the calling thread's Python frames ("file(line): function").
extern std::vector<std::string> (*g_python_stack)();

// Records the span of its lifetime when a session is active at construction.
class RecordScope {
 public:
  RecordScope(std::string name, EventKind kind, int64_t sequence_nr = -1, const Stack* inputs = nullptr);
  ~RecordScope();
  RecordScope(const RecordScope&) = delete;
  RecordScope& operator=(const RecordScope&) = delete;

 private:
  Event event_;
  uint64_t session_ = 0;  // 0: not recording
};

}  // namespace tz::profiler
