// Backward graph nodes. A node turns the gradients of its forward outputs into gradients
// of its forward inputs; `next_edges[i]` says where input i's gradient goes.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace tz {

class Node;

struct Edge {
  std::shared_ptr<Node> fn;
  uint32_t input_nr = 0;  // which of fn's gradient inputs this edge feeds
  bool valid() const { return fn != nullptr; }
};

// What a forward output looked like, to materialise a zero gradient when none arrives.
struct OutputMeta {
  Shape sizes;
  DType dtype = DType::Float32;
  std::shared_ptr<const DimNames> names;  // a named tensor's names: its gradients carry them
};

// A hook on gradients. Pre-hooks get (grads flowing in, {}) and return the grads to use;
// post-hooks get (grads flowing out, grads that flowed in) and return the grads to pass on.
struct GradHook {
  uint64_t id;
  std::function<TensorList(const TensorList&, const TensorList&)> fn;
};
using HookList = std::vector<GradHook>;
uint64_t next_hook_id();

class Node : public std::enable_shared_from_this<Node> {
 public:
  Node();
  virtual ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  virtual std::string name() const = 0;
  // Gradients of the forward inputs (one per next edge) from those of the outputs.
  virtual TensorList apply(TensorList&& grad_outputs) = 0;
  // Frees saved tensors once backward no longer needs them.
  virtual void release_variables() {}
  // Whether apply would fail because release_variables already ran.
  virtual bool released() const { return false; }

  uint64_t sequence_nr() const { return sequence_nr_; }
  size_t num_outputs() const { return outputs.size(); }

  std::vector<Edge> next_edges;
  std::vector<OutputMeta> outputs;   // one per forward output (= gradient input)
  HookList pre_hooks;   // on the gradients flowing in
  HookList post_hooks;  // on the gradients flowing out
  std::string anomaly_trace;         // the forward traceback, recorded in anomaly mode

 private:
  uint64_t sequence_nr_;
};

using NodePtr = std::shared_ptr<Node>;

// The root of a backward pass: hands the given gradients to the roots' edges.
class GraphRoot final : public Node {
 public:
  GraphRoot(std::vector<Edge> edges, TensorList grads);
  std::string name() const override { return "GraphRoot"; }
  TensorList apply(TensorList&&) override { return grads_; }

 private:
  TensorList grads_;
};

}  // namespace tz
