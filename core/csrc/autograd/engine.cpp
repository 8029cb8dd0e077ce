#include "autograd/engine.h"

#include <cmath>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "autograd/accumulate_grad.h"
#include "autograd/functions.h"
#include "autograd/grad_mode.h"
#include "autograd/profiler.h"
#include "tensor/names.h"
#include "ops/ops.h"

namespace tz::autograd {

namespace {

struct CompareBySequence {
  bool operator()(Node* a, Node* b) const { return a->sequence_nr() < b->sequence_nr(); }
};

// Where the caller wants a gradient captured: node + which of its gradient inputs.
struct Capture {
  Node* fn;
  uint32_t input_nr;
  Tensor grad;
};

bool has_nan(const Tensor& t) {
  if (!t.defined() || !(is_floating(t.dtype()) || is_complex(t.dtype()))) return false;
  Tensor c = contiguous(to_dtype(t, is_complex(t.dtype()) ? DType::Complex128 : DType::Float64));
  int64_t n = t.numel();
  if (is_complex(t.dtype())) {
    const complex128* p = c.data<complex128>();
    for (int64_t i = 0; i < n; ++i)
      if (std::isnan(p[i].real()) || std::isnan(p[i].imag())) return true;
    return false;
  }
  const double* p = c.data<double>();
  for (int64_t i = 0; i < n; ++i)
    if (std::isnan(p[i])) return true;
  return false;
}

// Fits a gradient to the tensor it belongs to: un-broadcast, then cast.
Tensor fit_gradient(Tensor grad, const OutputMeta& meta, const Node& producer, size_t index) {
  if (!grad.defined()) return grad;
  if (grad.sizes() != meta.sizes) {
    Shape bs = broadcast_shapes(meta.sizes, grad.sizes(), "backward");
    TZ_CHECK(bs == grad.sizes(), Runtime, "Function ",
             producer.name(), " returned an invalid gradient at index ", index, " - got ",
             shape_str(grad.sizes()), " but expected shape compatible with ", shape_str(meta.sizes));
    grad = sum_to(grad, meta.sizes);
  }
  // Also real -> complex: a real gradient (of real(z), say) is the complex one with zero imaginary part.
  if (grad.dtype() != meta.dtype) grad = F::tensor_call(TZ_OP("to.dtype"), {grad, meta.dtype});
  if (meta.names && !(grad.has_names() && *grad.impl()->names == *meta.names)) [[unlikely]] {
    grad = F::tensor_call(TZ_OP("alias"), {grad});  // the formula's result may be shared: name a view
    set_names(grad, meta.names.get());
  }
  return grad;
}

void accumulate_into(TensorList& buffer, size_t slot, Tensor grad) {
  if (!grad.defined()) return;
  if (!buffer[slot].defined()) buffer[slot] = std::move(grad);
  else {
    buffer[slot] = F::add(buffer[slot], grad);  // recorded under create_graph
    if (grad.has_names()) [[unlikely]] set_names(buffer[slot], grad.impl()->names.get());  // the sum is new
  }
}

}  // namespace

Tensor sum_to(const Tensor& grad, const Shape& shape) {
  // Sum over the leading dims broadcasting added and the dims it stretched from size 1.
  int64_t lead = grad.dim() - static_cast<int64_t>(shape.size());
  IntList dims;
  for (int64_t d = 0; d < grad.dim(); ++d)
    if (d < lead || (shape[d - lead] == 1 && grad.sizes()[d] != 1)) dims.push_back(d);
  if (dims.empty()) return grad;
  Tensor summed = F::tensor_call(TZ_OP("sum"), {grad, dims, true});  // recorded under create_graph
  return F::reshape(summed, shape);
}

TensorList run_backward(const TensorList& roots, const TensorList& grad_roots,
                        const TensorList& inputs, const BackwardOptions& options) {
  // The root node feeds the given gradients to every root's edge.
  std::vector<Edge> root_edges;
  TensorList root_grads;
  for (size_t i = 0; i < roots.size(); ++i) {
    const Tensor& r = roots[i];
    TZ_CHECK(requires_grad(r), Runtime, "element ", i, " of tensors does not require grad and does "
             "not have a grad_fn");
    Tensor g = i < grad_roots.size() ? grad_roots[i] : Tensor();
    if (!g.defined()) {
      TZ_CHECK(r.numel() == 1, Runtime, "grad can be implicitly created only for scalar outputs");
      g = ones(r.sizes(), r.dtype());
    } else {
      TZ_CHECK(g.sizes() == r.sizes(), Runtime, "Mismatch in shape: grad_output[", i, "] has a shape of ",
               shape_str(g.sizes()), " and output[", i, "] has a shape of ", shape_str(r.sizes()), ".");
    }
    root_edges.push_back(gradient_edge(r));
    root_grads.push_back(g);
  }
  auto root = std::make_shared<GraphRoot>(root_edges, root_grads);

  // Captures for the requested inputs.
  std::vector<Capture> captures;
  for (const Tensor& t : inputs) {
    Edge e = gradient_edge(t);
    TZ_CHECK(e.valid(), Runtime, "One of the differentiated Tensors does not require grad");
    captures.push_back(Capture{e.fn.get(), e.input_nr, Tensor()});
  }
  std::unordered_set<Node*> capture_nodes;
  for (const Capture& c : captures) capture_nodes.insert(c.fn);
  const bool restrict = !captures.empty();

  // Reachable graph, iteratively: dependency counts and, when capturing, which nodes
  // actually lead to a captured input (the others are skipped).
  std::unordered_map<Node*, int> dependencies;
  std::unordered_map<Node*, bool> needed, feeds;  // leads to a captured input; its outputs do
  std::vector<std::pair<Node*, size_t>> stack{{root.get(), 0}};
  std::unordered_set<Node*> seen{root.get()};
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < node->next_edges.size()) {
      Node* child = node->next_edges[next++].fn.get();
      if (!child) continue;
      dependencies[child]++;
      if (seen.insert(child).second) stack.push_back({child, 0});
      continue;
    }
    bool feeding = !restrict;
    for (const Edge& e : node->next_edges)
      if (e.fn && needed[e.fn.get()]) feeding = true;
    feeds[node] = feeding;
    needed[node] = feeding || capture_nodes.count(node);
    stack.pop_back();
  }

  AutoGradMode grad_mode(options.create_graph);
  std::unordered_map<Node*, TensorList> buffers;
  std::priority_queue<Node*, std::vector<Node*>, CompareBySequence> ready;
  ready.push(root.get());
  while (!ready.empty()) {
    Node* fn = ready.top();
    ready.pop();
    TensorList grads;
    if (fn != root.get()) {
      auto it = buffers.find(fn);
      grads = std::move(it->second);
      buffers.erase(it);
    }
    for (const GradHook& hook : fn->pre_hooks) grads = hook.fn(grads, {});
    if (auto* acc = dynamic_cast<AccumulateGrad*>(fn))  // a leaf's own Tensor.register_hook
      if (AutogradMeta* m = meta(acc->variable()))
        for (const GradHook& hook : m->hooks) grads = hook.fn(grads, {});
    for (Capture& c : captures)
      if (c.fn == fn && c.input_nr < grads.size()) c.grad = grads[c.input_nr];
    // Leaves accumulate only in backward(); with inputs= only the chosen leaves are needed.
    // autograd.grad runs a node only for what its outputs feed: capturing its input is enough
    // (a captured non-leaf's own backward never runs, as in PyTorch).
    bool run = options.accumulate_grad ? needed[fn] : feeds[fn] && !dynamic_cast<AccumulateGrad*>(fn);
    TensorList out;
    if (run) {
      TZ_CHECK(!fn->released(), Runtime, "Trying to backward through the graph a second time (or "
               "directly access saved tensors after they have already been freed). Saved "
               "intermediate values of the graph are freed when you call .backward() or "
               "autograd.grad(). Specify retain_graph=True if you need to backward through the "
               "graph a second time or if you need to access saved tensors after calling backward.");
      TensorList inflow = fn->post_hooks.empty() ? TensorList() : grads;
      std::optional<profiler::RecordScope> scope;  // backward events carry their forward's number
      if (profiler::active() && fn != root.get()) [[unlikely]]
        scope.emplace(fn->name(), profiler::EventKind::Backward, static_cast<int64_t>(fn->sequence_nr()));
      out = fn->apply(std::move(grads));
      scope.reset();
      for (const GradHook& hook : fn->post_hooks) out = hook.fn(out, inflow);
      if (!options.keep_graph) fn->release_variables();
      if (AnomalyMode::is_enabled()) {
        for (size_t i = 0; i < out.size(); ++i)
          if (has_nan(out[i]))
            fail(ErrorKind::Runtime, "Function '", fn->name(), "' returned nan values in its ", i,
                 "th output.", fn->anomaly_trace.empty() ? "" : "\nThe forward call that created it:\n" + fn->anomaly_trace);
      }
    }
    for (size_t i = 0; i < fn->next_edges.size(); ++i) {
      const Edge& e = fn->next_edges[i];
      if (!e.fn) continue;
      Node* next = e.fn.get();
      if (run && i < out.size() && out[i].defined()) {
        TensorList& buffer = buffers[next];
        if (buffer.size() < next->num_outputs()) buffer.resize(next->num_outputs());
        accumulate_into(buffer, e.input_nr, fit_gradient(out[i], next->outputs[e.input_nr], *fn, i));
      }
      if (--dependencies[next] == 0) {
        buffers[next].resize(next->num_outputs());
        ready.push(next);
      }
    }
  }

  TensorList result;
  for (size_t i = 0; i < captures.size(); ++i) {
    if (!captures[i].grad.defined() && !options.allow_unused && !options.accumulate_grad)
      fail(ErrorKind::Runtime, "One of the differentiated Tensors appears to not have been used in "
           "the graph. Set allow_unused=True if this is the desired behavior.");
    result.push_back(captures[i].grad);
  }
  return result;
}

}  // namespace tz::autograd
