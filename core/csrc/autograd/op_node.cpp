#include "autograd/op_node.h"

#include "autograd/functions.h"
#include "autograd/grad_mode.h"
#include "autograd/profiler.h"
#include "autograd/views.h"
#include "ops/conversion.h"
#include "ops/creation.h"

namespace tz {

bool BackwardContext::has_input(std::string_view name) const {
  for (const ArgSpec& a : op->schema.args)
    if (a.name == name) return a.type == ArgType::Tensor;
  return false;
}

namespace {

bool differentiable(const Tensor& t) { return is_floating(t.dtype()) || is_complex(t.dtype()); }

// Tensor inputs in argument order (TensorList arguments contribute each element).
template <typename F>
void for_each_input(const Stack& args, const Op& op, F f) {
  for (size_t i = 0; i < args.size() && i < op.schema.args.size(); ++i) {
    ArgType type = op.schema.args[i].type;
    if (type == ArgType::Tensor) {
      f(args[i].opt_tensor());
    } else if ((type == ArgType::TensorList || type == ArgType::OptTensorList) && !args[i].is_none()) {
      for (const Tensor& t : args[i].tensor_list()) f(t);
    }
  }
}

// Tensor outputs of a result value.
template <typename F>
void for_each_output(const Value& v, F f) {
  if (v.is_tensor()) {
    f(v.tensor());
  } else if (v.is_tuple()) {
    for (const Value& item : v.tuple())
      if (item.is_tensor()) f(item.tensor());
  } else if (v.holds<TensorList>()) {
    for (const Tensor& t : v.tensor_list()) f(t);
  }
}

class OpNode final : public Node {
 public:
  OpNode(const Op& op, const Stack& args) : op_(&op) {
    // Keep non-tensor arguments; tensors only if the entry saves them (below).
    args_.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      ArgType type = op.schema.args[i].type;
      const bool tensors = type == ArgType::Tensor || type == ArgType::TensorList || type == ArgType::OptTensorList;
      args_.push_back(tensors ? Value() : args[i]);
    }
    // One allocation per list: an op's inputs are known before they are walked.
    size_t inputs = 0;
    for_each_input(args, op, [&](const Tensor&) { ++inputs; });
    needs_.reserve(inputs);
    input_meta_.reserve(inputs);
    next_edges.reserve(inputs);
    if (op.saves_geometry) geometry_.reserve(inputs);
    for_each_input(args, op, [&](const Tensor& t) {
      needs_.push_back(t.defined() && autograd::requires_grad(t));
      input_meta_.push_back(t.defined() ? OutputMeta{t.sizes(), t.dtype()} : OutputMeta{});
      next_edges.push_back(t.defined() ? autograd::gradient_edge(t) : Edge{});
      if (op.saves_geometry) geometry_.push_back(t.defined() ? TensorGeometry::of(t) : TensorGeometry{});
    });
  }

  std::string name() const override { return op_->node_name; }

  void save_arg(int index, const Value& v) {
    std::vector<SavedVariable> saved;
    if (v.is_tensor()) saved.emplace_back(v.tensor(), false);
    else if (v.holds<TensorList>())
      for (const Tensor& t : v.tensor_list()) saved.emplace_back(t, false);
    saved_args_.emplace_back(index, std::move(saved));
  }
  void save_result(const Tensor& t) { saved_results_.emplace_back(t, true); }

  TensorList apply(TensorList&& grads) override {
    bool any = false;
    for (const Tensor& g : grads) any = any || g.defined();
    if (!any) return TensorList(next_edges.size());
    // Formulas see a gradient for every output: zeros where none arrived.
    for (size_t i = 0; i < grads.size() && i < outputs.size(); ++i)
      if (!grads[i].defined()) grads[i] = zeros(outputs[i].sizes, outputs[i].dtype);
    Stack args = args_;
    for (auto& [index, saved] : saved_args_) {
      if (op_->schema.args[index].type == ArgType::Tensor) {
        args[index] = saved.empty() ? Value() : Value(saved[0].unpack(*this));
      } else {
        TensorList list;
        for (const SavedVariable& s : saved) list.push_back(s.unpack(*this));
        args[index] = Value(list);
      }
    }
    TensorList results;
    for (const SavedVariable& s : saved_results_) results.push_back(s.unpack(*this));
    BackwardContext ctx{grads, args, results, needs_, input_meta_, &geometry_, op_};
    TensorList out = op_->def.backward(ctx);
    out.resize(next_edges.size());
    for (size_t i = 0; i < out.size(); ++i)
      if (!needs_[i]) out[i] = Tensor();
    return out;
  }

  void release_variables() override {
    for (auto& [index, saved] : saved_args_)
      for (SavedVariable& s : saved) s.reset();
    for (SavedVariable& s : saved_results_) s.reset();
    released_ = !saved_args_.empty() || !saved_results_.empty();
  }
  bool released() const override { return released_; }

 private:
  const Op* op_;
  Stack args_;
  std::vector<std::pair<int, std::vector<SavedVariable>>> saved_args_;
  std::vector<SavedVariable> saved_results_;
  std::vector<bool> needs_;
  std::vector<OutputMeta> input_meta_;
  std::vector<TensorGeometry> geometry_;  // entries that save "geometry"
  bool released_ = false;
};

}  // namespace

namespace autograd {

bool any_requires_grad(const Stack& args) {
  for (const Value& v : args) {
    if (v.is_tensor()) {
      if (v.tensor().defined() && requires_grad(v.tensor())) return true;
    } else if (v.holds<TensorList>()) {
      for (const Tensor& t : v.tensor_list())
        if (t.defined() && requires_grad(t)) return true;
    }
  }
  return false;
}

// Set by the Python layer: returns the current Python traceback for anomaly mode.
std::string (*g_anomaly_traceback)() = nullptr;

namespace {

bool is_input(const Tensor& t, const Stack& args, const Op& op) {
  bool same = false;
  for_each_input(args, op, [&](const Tensor& in) { same = same || t.is_same(in); });
  return same;
}

// Outputs sharing an input's storage are views of it (an op handing back an input itself,
// like contiguous() of a contiguous tensor, makes no view).
void note_views(const Value& out, const Stack& args, const Op& op) {
  if (InferenceMode::is_enabled()) return;
  for_each_output(out, [&](const Tensor& t) {
    if (!t.defined()) return;
    Tensor source;
    bool same = false;
    for_each_input(args, op, [&](const Tensor& in) {
      if (!in.defined()) return;
      same = same || in.is_same(t);
      if (!source.defined() && in.storage() == t.storage()) source = in;
    });
    if (!same && source.defined()) as_view(t, source);
  });
}

// What an in-place op's formula sees as `self`: its value before the op, as a recorded clone
// so that double backward reaches self's history through it.
Value original_self(const Tensor& self) { return F::tensor_call(TZ_OP("clone"), {self}); }

void check_derivative_exists(const Op& op) {
  TZ_CHECK(op.def.backward != nullptr, NotImplemented, "the derivative for '", op.schema.name,
           "' is not implemented");
}

// An in-place op on a view, when autograd is involved: the op's node takes the gradient of
// the view's region, and the base's history is rebased onto a CopySlices node around it.
Value record_inplace_on_view(const Op& op, Stack& args) {
  const Tensor self = args[0].tensor();
  AutogradMeta& m = *meta(self);
  const ViewInfo& info = *m.view;
  const Tensor base = info.base;
  TZ_CHECK(!info.created_in_no_grad, Runtime, op.schema.name, "(): A view was created in no_grad mode and "
           "is being modified inplace with grad mode enabled. Given that this use case is ambiguous and "
           "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
           "inplace either both inside the no_grad block (if you don't want the inplace to be tracked) "
           "or both outside (if you want the inplace to be tracked).");
  TZ_CHECK(info.rebasable, Runtime, op.schema.name, "(): in-place operation on a view of a tensor that "
           "requires grad is not supported yet for views of another dtype (view_as_real, view_as_complex)");
  TZ_CHECK(!(is_leaf(base) && requires_grad(base)), Runtime, op.schema.name, "(): a view of a leaf Variable "
           "that requires grad is being used in an in-place operation.");
  check_derivative_exists(op);

  auto fn = std::make_shared<OpNode>(op, args);
  for (int index : op.saved_args) fn->save_arg(index, index == 0 ? original_self(self) : args[index]);
  Value out = call_op_untracked(op, args);
  fn->outputs.assign(1, OutputMeta{self.sizes(), self.dtype()});

  NodePtr copy_slices = make_copy_slices(base, self, fn);
  set_history(base, copy_slices, 0);
  set_view_grad_fn_from_base(self, m);
  if (AnomalyMode::is_enabled() && g_anomaly_traceback) copy_slices->anomaly_trace = g_anomaly_traceback();
  return out;
}

bool view_of_grad_requiring_base(const Tensor& t) {
  const ViewInfo* v = view_info(t);
  return v && requires_grad(v->base);
}

}  // namespace

Value call_with_autograd(const Op& op, Stack& args) {
  const bool inplace = op.schema.inplace();
  if (inplace && args[0].is_tensor()) check_inplace_allowed(args[0].tensor(), op.schema.name.c_str());
  if (!GradMode::is_enabled() || !any_requires_grad(args)) {
    if (inplace && GradMode::is_enabled() && view_of_grad_requiring_base(args[0].tensor()))
      return record_inplace_on_view(op, args);
    Value out = call_op_untracked(op, args);
    if (!inplace) note_views(out, args, op);
    return out;
  }

  const Tensor self = inplace ? args[0].tensor() : Tensor();
  if (inplace && is_leaf(self) && requires_grad(self))
    fail(ErrorKind::Runtime, op.schema.name, "(): a leaf Variable that requires grad is being used "
         "in an in-place operation.");
  if (inplace && view_info(self)) return record_inplace_on_view(op, args);
  if (op.def.backward == &not_differentiable) {
    Value out = call_op_untracked(op, args);
    if (!inplace) note_views(out, args, op);
    return out;
  }

  auto node = std::make_shared<OpNode>(op, args);
  // In-place ops overwrite self: a formula that needs it gets the value from before.
  for (int index : op.saved_args) {
    if (inplace && index == 0) node->save_arg(index, original_self(self));
    else node->save_arg(index, args[index]);
  }
  Value out = call_op_untracked(op, args);

  bool any_float_output = false;
  for_each_output(out, [&](const Tensor& t) { any_float_output = any_float_output || (t.defined() && differentiable(t)); });
  if (!any_float_output) {
    if (!inplace) note_views(out, args, op);
    return out;  // integer/bool results carry no gradient
  }
  check_derivative_exists(op);

  uint32_t index = 0;
  for_each_output(out, [&](const Tensor&) { ++index; });
  node->outputs.reserve(index);
  index = 0;
  for_each_output(out, [&](const Tensor& t) {
    // An input handed back as is (contiguous() of a contiguous tensor) keeps its history.
    if (t.defined() && differentiable(t) && (inplace || !is_input(t, args, op))) set_history(t, node, index);
    else node->outputs.resize(std::max<size_t>(node->outputs.size(), index + 1));
    index++;
  });
  if (op.saves_result) {
    uint32_t i = 0;  // outputs left out of the mask are kept as undefined placeholders
    for_each_output(out, [&](const Tensor& t) { node->save_result((op.result_mask >> i++) & 1u ? t : Tensor()); });
  }
  if (AnomalyMode::is_enabled() && g_anomaly_traceback) node->anomaly_trace = g_anomaly_traceback();
  if (!inplace) note_views(out, args, op);
  return out;
}

}  // namespace autograd

namespace {
// The profiled path, out of line so that call_op stays a load, a branch and a call.
[[gnu::noinline]] Value call_op_profiled(const Op& op, Stack& args) {
  // Forward ops carry the sequence number of the autograd node they are about to record.
  const int64_t sequence_nr = GradMode::is_enabled() ? static_cast<int64_t>(peek_sequence_nr()) : -1;
  profiler::RecordScope scope("aten::" + op.schema.name, profiler::EventKind::Op, sequence_nr, &args);
  return autograd::call_with_autograd(op, args);
}
}  // namespace

Value call_op(const Op& op, Stack& args) {
  if (profiler::active()) [[unlikely]]
    return call_op_profiled(op, args);
  return autograd::call_with_autograd(op, args);
}

}  // namespace tz
