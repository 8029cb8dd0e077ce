#include "ops/registry.h"

#include <cctype>
#include <sstream>


namespace tz {

OpRegistry& OpRegistry::get() {
  static OpRegistry registry;
  return registry;
}

TensorList not_differentiable(BackwardContext&) { return {}; }

namespace {
// "self result" -> indices of the named arguments, and whether the output is saved.
void parse_saves(Op& op) {
  std::istringstream words(op.def.saves);
  for (std::string w; words >> w;) {
    if (w == "geometry") {
      op.saves_geometry = true;
      continue;
    }
    if (w.rfind("result", 0) == 0 && w.find_first_not_of("0123456789", 6) == std::string::npos) {
      // "result": every output; "result1": output 1 only
      op.saves_result = true;
      op.result_mask |= w == "result" ? ~0u : 1u << std::stoi(w.substr(6));
      continue;
    }
    size_t i = 0;
    while (i < op.schema.args.size() && op.schema.args[i].name != w) ++i;
    TZ_CHECK(i < op.schema.args.size(), Runtime, "op table: '", op.def.signature,
             "' saves unknown argument '", w, "'");
    op.saved_args.push_back(static_cast<int>(i));
  }
}

// "log_softmax" + overload 0 -> "LogSoftmaxBackward0"; as in PyTorch, a "_forward" suffix is
// dropped ("_nll_loss_forward" -> "NllLossBackward0").
std::string node_name(const Op& op) {
  std::string base = op.schema.name, out;
  if (!base.empty() && base.back() == '_') base.pop_back();
  const std::string forward = "_forward";
  if (base.size() > forward.size() && base.compare(base.size() - forward.size(), forward.size(), forward) == 0)
    base.resize(base.size() - forward.size());
  bool upper = true;
  for (char c : base) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out + "Backward" + std::to_string(op.overload_index);
}

void count_inputs(Op& op) {
  for (const ArgSpec& a : op.schema.args) {
    op.inputs_before.emplace_back(op.tensor_args, op.list_args);
    if (a.type == ArgType::Tensor) ++op.tensor_args;
    else if (a.type == ArgType::TensorList || a.type == ArgType::OptTensorList) ++op.list_args;
  }
  // Tensor[] lengths are inferred from the call's input count: one list at most.
  const bool differentiable = op.def.backward && op.def.backward != &not_differentiable;
  TZ_CHECK(op.list_args <= 1 || !differentiable, Runtime, "op table: '", op.def.signature,
           "' has a derivative and several Tensor[] arguments");
}
}  // namespace

size_t Op::arg_index(std::string_view name) const {
  for (size_t i = 0; i < schema.args.size(); ++i)
    if (schema.args[i].name == name) return i;
  fail(ErrorKind::Runtime, "the derivative of '", def.signature, "' asks for argument '", name,
       "', which its schema lacks");
}

size_t Op::input_index(size_t arg, size_t num_inputs) const {
  const auto [tensors, lists] = inputs_before.at(arg);
  const size_t list_length = list_args ? (num_inputs - tensor_args) / list_args : 0;
  return tensors + lists * list_length;
}

void OpRegistry::add(const OpDef* defs, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    Op op{parse_schema(defs[i].signature), defs[i]};
    parse_saves(op);
    count_inputs(op);
    for (const Op& other : ops_) op.overload_index += other.schema.name == op.schema.name;
    op.node_name = node_name(op);
    ops_.push_back(std::move(op));
    // Keep a built index current; references it handed out stay valid.
    if (!by_name_.empty()) by_name_[ops_.back().schema.name].push_back(&ops_.back());
  }
}

const Op& find_op(const std::string& full_name) {
  size_t dot = full_name.find('.');
  std::string overload = dot == std::string::npos ? "" : full_name.substr(dot + 1);
  for (const Op* op : OpRegistry::get().overloads(full_name.substr(0, dot)))
    if (op->schema.overload == overload) return *op;
  fail(ErrorKind::Runtime, "no op named ", full_name, " in the op table");
}

const std::vector<const Op*>& OpRegistry::overloads(const std::string& name) const {
  if (by_name_.empty())
    for (const Op& op : ops_) by_name_[op.schema.name].push_back(&op);
  static const std::vector<const Op*> none;
  auto it = by_name_.find(name);
  return it == by_name_.end() ? none : it->second;
}

Value call_op_untracked(const Op& op, Stack& args) {
  try {
    return op.def.fn(args);
  } catch (const Error& e) {
    // Name the op in the message unless an inner check already did.
    const std::string msg = e.what();
    size_t paren = msg.find("(): ");
    if (paren != std::string::npos && msg.find(' ') > paren) throw;
    throw Error(e.kind(), op.schema.name + "(): " + msg);
  }
}

}  // namespace tz
