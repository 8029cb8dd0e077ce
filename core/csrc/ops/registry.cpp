#include "ops/registry.h"

namespace tz {

OpRegistry& OpRegistry::get() {
  static OpRegistry registry;
  return registry;
}

void OpRegistry::add(const OpDef* defs, size_t n) {
  ops_.reserve(ops_.size() + n);
  for (size_t i = 0; i < n; ++i) ops_.push_back(Op{parse_schema(defs[i].signature), defs[i]});
  by_name_.clear();  // `ops_` may have moved: rebuild the index on next use
}

const std::vector<const Op*>& OpRegistry::overloads(const std::string& name) const {
  if (by_name_.empty())
    for (const Op& op : ops_) by_name_[op.schema.name].push_back(&op);
  static const std::vector<const Op*> none;
  auto it = by_name_.find(name);
  return it == by_name_.end() ? none : it->second;
}

Value call_op(const Op& op, Stack& args) {
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
