// Op signatures in PyTorch's schema language, e.g.
//   "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
//   "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
#pragma once
#include <string>
#include <vector>

#include "ops/value.h"

namespace tz {

enum class ArgType {
  Tensor, Scalar, Int, Float, Bool, Str, DType, MemoryFormat, Generator, IntList, TensorList, OptTensorList,
};

struct ArgSpec {
  std::string name;
  ArgType type;
  bool optional = false;     // `T?`: None is accepted
  bool kwarg_only = false;   // after `*`
  bool has_default = false;
  int list_size = 0;         // `int[2]`: a single int is repeated this many times
  Value default_value;
};

struct ReturnSpec {
  std::string name;  // empty when unnamed
  std::string type;  // "Tensor", "Tensor[]", "Scalar", "bool", "int", "float", ...
};

struct Schema {
  std::string name;      // base name: "max"
  std::string overload;  // "dim" for "max.dim"; empty for the default overload
  std::vector<ArgSpec> args;
  std::vector<ReturnSpec> returns;
  bool returns_tuple = false;
  bool inplace() const { return !name.empty() && name.back() == '_'; }
};

Schema parse_schema(const std::string& signature);

}  // namespace tz
