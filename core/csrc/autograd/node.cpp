#include "autograd/node.h"

namespace tz {

namespace {
std::atomic<uint64_t> g_next_sequence_nr{0};

// Destroying a chain of 100k nodes recursively would overflow the stack: nested node
// destructors hand their edges to this thread's queue and the outermost one drains it.
thread_local bool t_draining = false;
thread_local std::vector<NodePtr>* t_pending = nullptr;
}  // namespace

Node::Node() : sequence_nr_(g_next_sequence_nr++) {}

uint64_t peek_sequence_nr() { return g_next_sequence_nr.load(std::memory_order_relaxed); }

uint64_t next_hook_id() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

Node::~Node() {
  if (t_draining) {  // inside an outer destructor: hand the edges to its queue
    for (Edge& e : next_edges)
      if (e.fn) t_pending->push_back(std::move(e.fn));
    return;
  }
  // The outermost destructor drops its edges in place: a node that dies of it queues its own
  // edges instead of recursing, so the queue is only allocated for graphs that chain.
  std::vector<NodePtr> local;
  t_draining = true;
  t_pending = &local;
  for (Edge& e : next_edges) e.fn.reset();
  while (!local.empty()) {
    NodePtr n = std::move(local.back());
    local.pop_back();
    n.reset();  // may push more nodes onto `local`
  }
  t_pending = nullptr;
  t_draining = false;
}

GraphRoot::GraphRoot(std::vector<Edge> edges, TensorList grads) : grads_(std::move(grads)) {
  next_edges = std::move(edges);
}

}  // namespace tz
