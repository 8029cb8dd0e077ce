// The op registry. Every op is one OpDef entry in the op table (op_table/<family>.cpp): its
// signature (parsed into a Schema), whether it is a function and/or a Tensor method, its
// named-tensor rule, its boxed kernel, the sample kind the generated tests draw inputs from,
// and its derivative. The Python bindings and autograd recording are derived from them.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ops/schema.h"

namespace tz {

// How an op treats dimension names (shared/SPEC.md 1.5).
enum class NameRule : uint8_t {
  Keep,        // unary and pointwise: output keeps the input's names
  Unify,       // broadcasting binary ops: names unify from the right
  Reduce,      // reductions, select, int indexing: drop the reduced dims' names
  Permute,     // transpose, permute: reorder names
  Contract,    // mm, matmul, bmm, dot: drop contracted names without checking them
  Factory,     // factories: names come from `names=`
  Custom,      // the op sets names itself
  Unsupported, // raises "not yet supported with named tensors"
  None,        // results carry no names: not a tensor with dims (item, equal), data-dependent
               // shapes (nonzero, unique), in-place steps returning nothing (fused optimizers)
};

// kInternal: in the table (find_op, autograd) but not exported to Python (backward helpers,
// the pieces of Tensor.__getitem__).
enum Variants : uint8_t { kInternal = 0, kFunction = 1, kMethod = 2, kBoth = 3 };

using BoxedKernel = Value (*)(Stack&);

struct BackwardContext;  // autograd/op_node.h
// A derivative formula: gradients of the tensor inputs (in argument order; undefined where
// not needed) from those of the outputs, written with differentiable ops.
using BackwardFn = TensorList (*)(BackwardContext&);
// For entries whose float outputs carry no gradient (random draws, rounding, ...).
TensorList not_differentiable(BackwardContext&);

struct OpDef {
  const char* signature;
  uint8_t variants;
  NameRule names;
  BoxedKernel fn;
  const char* sample;            // input kind for tests/core/test_op_matrix.py; "" = tested by hand
  const char* saves = "";        // what backward needs: argument names, "result" (every
                                 // output) or "result<i>" (output i only), and/or "geometry"
                                 // (strides and storage offset of the tensor inputs)
  BackwardFn backward = nullptr; // null: no derivative yet (recording it raises)
  bool gradgrad = true;          // the formula is itself differentiable: gradgradcheck it
};

struct Op {
  Schema schema;
  OpDef def;
  std::vector<int> saved_args;  // parsed from def.saves
  bool saves_result = false;
  uint32_t result_mask = 0;     // which outputs "result"/"result<i>" saves (bit i: output i)
  bool saves_geometry = false;  // "geometry" in saves
  int overload_index = 0;       // among entries of the same base name (MulBackward<i>)
  std::string node_name;        // its autograd nodes' name: "MulBackward0"
  // Per argument: how many Tensor and Tensor[] arguments precede it (for input_index).
  std::vector<std::pair<int, int>> inputs_before;
  int tensor_args = 0, list_args = 0;

  // The position of argument `name` in the schema; throws for a name the schema lacks.
  size_t arg_index(std::string_view name) const;
  // The tensor-input position of argument `arg` (its first element for a Tensor[]), given the
  // number of tensor inputs of the call (Tensor[] lengths are only known then).
  size_t input_index(size_t arg, size_t num_inputs) const;
};

class OpRegistry {
 public:
  static OpRegistry& get();
  void add(const OpDef* defs, size_t n);
  const std::deque<Op>& ops() const { return ops_; }
  // Every overload registered under a base name, in table order.
  const std::vector<const Op*>& overloads(const std::string& name) const;

 private:
  // A deque: extension modules (audio._C, ...) add tables after core's, and the Op references
  // already handed out (TZ_OP caches, the Python callables) must stay valid.
  std::deque<Op> ops_;
  mutable std::unordered_map<std::string, std::vector<const Op*>> by_name_;
};

// A static table of entries.
struct OpTableRef {
  const OpDef* defs;
  size_t size;
  template <size_t N> constexpr OpTableRef(const OpDef (&table)[N]) : defs(table), size(N) {}
};

// Registers a static table at load time: an extension module's (audio._C, vision._C); the
// core's tables are registered in one fixed order by op_table/register.cpp.
struct OpTableRegistrar {
  template <size_t N> explicit OpTableRegistrar(const OpDef (&defs)[N]) {
    OpRegistry::get().add(defs, N);
  }
};

// Runs an op's kernel on boxed arguments (already matched to its schema), without autograd:
// what autograd's call_op (autograd/op_node.h) and the recorded nodes call.
Value call_op_untracked(const Op& op, Stack& args);
// The op registered under a full name ("add", "max.dim"); throws if there is none.
const Op& find_op(const std::string& full_name);

}  // namespace tz
