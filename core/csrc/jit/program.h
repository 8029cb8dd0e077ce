// An inference program: a straight list of op-table calls over numbered value slots, run in
// C++ from start to end (core.jit.optimize_for_inference builds one from a traced graph).
// Each instruction names its op, its operands (slots, constants, or lists of either), the
// slot its result goes to (or element `take` of a tuple result) and the slots whose last use
// it is: those are released at once, so the memory of dead values is reused by later ones
// (the plan decides which results are written in place over dead operands).
#pragma once
#include <vector>

#include "ops/registry.h"

namespace tz::jit {

struct Operand {
  enum Kind : uint8_t { Slot, Constant, List } kind = Constant;
  int slot = -1;
  Value constant;
  std::vector<Operand> items;  // List: a Tensor[] argument, element by element
};

struct Instr {
  const Op* op = nullptr;      // null: `take` from the tuple in args[0]
  std::vector<Operand> args;   // in the op's schema order, defaults filled in
  int out = -1;
  int take = -1;               // >= 0: keep only this element of a tuple result
  std::vector<int> frees;      // slots dead after this instruction
};

class Program {
 public:
  explicit Program(int num_slots) : num_slots_(num_slots) {}
  void add(Instr instr);
  void set_io(std::vector<int> inputs, std::vector<int> outputs);
  int size() const { return int(instrs_.size()); }
  // Runs the program without autograd recording; returns the output slots' values. With
  // `seconds`, also the wall time of each instruction (for per-op profiles).
  std::vector<Value> run(std::vector<Value> inputs, std::vector<double>* seconds = nullptr) const;
  // The op name of instruction i ("take" for tuple elements).
  std::string name(int i) const;

 private:
  Value operand(const Operand& o, const std::vector<Value>& slots) const;
  void check_slot(int slot, const char* what) const;

  int num_slots_;
  std::vector<Instr> instrs_;
  std::vector<int> inputs_, outputs_;
};

}  // namespace tz::jit
