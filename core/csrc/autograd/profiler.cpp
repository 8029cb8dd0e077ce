#include "autograd/profiler.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <mutex>

#include "tensor/errors.h"
#include "tensor/allocator.h"

namespace tz::profiler {

std::atomic<bool> g_active{false};
std::vector<std::string> (*g_python_stack)() = nullptr;

namespace {

std::mutex g_mutex;  // guards everything below
std::vector<Event> g_events;
Config g_config;
std::chrono::steady_clock::time_point g_origin;
// Which session is running (0: none): a scope that outlives its session drops its event.
std::atomic<uint64_t> g_session{0};
uint64_t g_last_session = 0;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - g_origin).count();
}

uint64_t this_thread_id() {
  thread_local const uint64_t id = static_cast<uint64_t>(::syscall(SYS_gettid));
  return id;
}

std::vector<std::vector<int64_t>> shapes_of(const Stack& inputs) {
  std::vector<std::vector<int64_t>> shapes;
  shapes.reserve(inputs.size());
  for (const Value& v : inputs) {
    if (v.is_tensor() && v.tensor().defined()) shapes.emplace_back(v.tensor().sizes().begin(), v.tensor().sizes().end());
    else shapes.emplace_back();
  }
  return shapes;
}

}  // namespace

void start(const Config& config) {
  std::lock_guard<std::mutex> lock(g_mutex);
  TZ_CHECK(g_session.load() == 0, Runtime, "profiler: a profiling session is already running");
  g_events.clear();
  g_config = config;
  g_origin = std::chrono::steady_clock::now();
  g_session.store(++g_last_session);
  g_active.store(true);
}

std::vector<Event> stop() {
  std::lock_guard<std::mutex> lock(g_mutex);
  TZ_CHECK(g_session.load() != 0, Runtime, "profiler: no profiling session is running");
  g_active.store(false);
  g_session.store(0);
  return std::move(g_events);
}

RecordScope::RecordScope(std::string name, EventKind kind, int64_t sequence_nr, const Stack* inputs) {
  session_ = g_session.load(std::memory_order_acquire);
  if (session_ == 0) return;
  event_.name = std::move(name);
  event_.kind = kind;
  event_.sequence_nr = sequence_nr;
  event_.thread_id = this_thread_id();
  if (g_config.record_shapes && inputs) event_.input_shapes = shapes_of(*inputs);
  if (g_config.with_stack && g_python_stack) event_.stack = g_python_stack();
  if (g_config.profile_memory) event_.memory_bytes = -allocator::thread_net_bytes();
  event_.start_ns = now_ns();
}

RecordScope::~RecordScope() {
  if (session_ == 0) return;
  event_.end_ns = now_ns();
  if (g_config.profile_memory) event_.memory_bytes += allocator::thread_net_bytes();
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_session.load() == session_) g_events.push_back(std::move(event_));
}

}  // namespace tz::profiler
