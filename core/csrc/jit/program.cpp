#include "jit/program.h"

#include <chrono>

#include "tensor/errors.h"

namespace tz::jit {

void Program::check_slot(int slot, const char* what) const {
  TZ_CHECK(slot >= 0 && slot < num_slots_, Runtime, "jit program: ", what, " slot ", slot, " out of range [0, ",
           num_slots_, ")");
}

void Program::add(Instr instr) {
  check_slot(instr.out, "output");
  for (const Operand& o : instr.args) {
    if (o.kind == Operand::Slot) check_slot(o.slot, "operand");
    for (const Operand& item : o.items)
      if (item.kind == Operand::Slot) check_slot(item.slot, "list operand");
  }
  for (int f : instr.frees) check_slot(f, "freed");
  TZ_CHECK(instr.op || (instr.take >= 0 && instr.args.size() == 1 && instr.args[0].kind == Operand::Slot), Runtime,
           "jit program: an instruction without an op must take an element of one slot");
  instrs_.push_back(std::move(instr));
}

void Program::set_io(std::vector<int> inputs, std::vector<int> outputs) {
  for (int s : inputs) check_slot(s, "input");
  for (int s : outputs) check_slot(s, "output");
  inputs_ = std::move(inputs);
  outputs_ = std::move(outputs);
}

Value Program::operand(const Operand& o, const std::vector<Value>& slots) const {
  if (o.kind == Operand::Slot) return slots[o.slot];
  if (o.kind == Operand::Constant) return o.constant;
  TensorList list;
  list.reserve(o.items.size());
  for (const Operand& item : o.items) list.push_back(operand(item, slots).opt_tensor());
  return Value(std::move(list));
}

std::string Program::name(int i) const {
  TZ_CHECK(i >= 0 && i < size(), Index, "jit program: no instruction ", i);
  return instrs_[i].op ? instrs_[i].op->schema.name : "take";
}

std::vector<Value> Program::run(std::vector<Value> inputs, std::vector<double>* seconds) const {
  TZ_CHECK(inputs.size() == inputs_.size(), Type, "jit program: expected ", inputs_.size(), " inputs, got ",
           inputs.size());
  std::vector<Value> slots(num_slots_);
  for (size_t i = 0; i < inputs.size(); ++i) slots[inputs_[i]] = std::move(inputs[i]);
  Stack stack;
  if (seconds) seconds->assign(instrs_.size(), 0.0);
  for (size_t i = 0; i < instrs_.size(); ++i) {
    const Instr& instr = instrs_[i];
    const auto start = seconds ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    Value result;
    if (instr.op) {
      stack.clear();
      for (const Operand& o : instr.args) stack.push_back(operand(o, slots));
      result = call_op_untracked(*instr.op, stack);
    } else {
      result = slots[instr.args[0].slot];
    }
    if (instr.take >= 0) {
      TZ_CHECK(result.is_tuple() && instr.take < int64_t(result.tuple().size()), Runtime,
               "jit program: cannot take element ", instr.take, " of a ", instr.op ? instr.op->schema.name : "value",
               " result");
      Value element = result.tuple()[instr.take];
      result = std::move(element);
    }
    slots[instr.out] = std::move(result);
    for (int f : instr.frees) slots[f] = Value();
    if (seconds) (*seconds)[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  std::vector<Value> outputs;
  outputs.reserve(outputs_.size());
  for (int s : outputs_) outputs.push_back(slots[s]);
  return outputs;
}

}  // namespace tz::jit
