// A tensor saved by a backward node, with the version it had when saved so that later
// in-place changes are caught. Saved outputs don't keep their grad_fn (that would be a
// reference cycle through the node): it is restored from a weak pointer on unpack.
#pragma once
#include "autograd/autograd_meta.h"

namespace tz {

class SavedVariable {
 public:
  SavedVariable() = default;
  SavedVariable(const Tensor& t, bool is_output);

  bool defined() const { return data_.defined(); }
  // The saved tensor; `owner` is the node unpacking it (for error messages and outputs).
  Tensor unpack(const Node& owner) const;
  void reset() { data_ = Tensor(); }

 private:
  bool none_ = false;  // an absent optional tensor (a None in Tensor?[]): unpacks as undefined
  Tensor data_;  // inputs: the tensor itself; outputs: an alias without autograd history
  uint32_t saved_version_ = 0;
  bool is_output_ = false;
  uint32_t output_nr_ = 0;
  std::weak_ptr<Node> grad_fn_;  // outputs: the node that made them
};

}  // namespace tz
