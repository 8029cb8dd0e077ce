// The sink at a leaf: adds arriving gradients into leaf.grad.
#pragma once
#include "autograd/autograd_meta.h"

namespace tz {

class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(Tensor leaf);
  std::string name() const override { return "AccumulateGrad"; }
  TensorList apply(TensorList&& grads) override;
  const Tensor& variable() const { return leaf_; }

 private:
  Tensor leaf_;  // holds the leaf alive while it is part of a graph, like PyTorch
};

}  // namespace tz
