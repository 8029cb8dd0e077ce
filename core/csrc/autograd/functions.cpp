#include "autograd/functions.h"

#include "autograd/op_node.h"
#include "ops/conversion.h"

namespace tz::F {

Value call(const Op& op, Stack args) {
  for (size_t i = args.size(); i < op.schema.args.size(); ++i) args.push_back(op.schema.args[i].default_value);
  return call_op(op, args);
}

Tensor mul(const Tensor& a, const Scalar& b) { return mul(a, scalar_to_tensor(b)); }
Tensor add(const Tensor& a, const Scalar& b) { return add(a, scalar_to_tensor(b)); }
Tensor div(const Scalar& a, const Tensor& b) { return div(scalar_to_tensor(a), b); }
Tensor where(const Tensor& cond, const Scalar& a, const Tensor& b) { return where(cond, scalar_to_tensor(a), b); }
Tensor where(const Tensor& cond, const Tensor& a, const Scalar& b) { return where(cond, a, scalar_to_tensor(b)); }

Tensor number(double v) { return scalar_to_tensor(Scalar(v)); }
Tensor keep_where(const Tensor& mask, const Tensor& g) { return tensor_call(TZ_OP("where.self"), {mask, g, number(0.0)}); }
Tensor zero_where(const Tensor& mask, const Tensor& g) { return tensor_call(TZ_OP("where.self"), {mask, number(0.0), g}); }

Tensor expand_reduced(const Tensor& grad, const Shape& input_sizes, const std::optional<IntList>& dims,
                      bool keepdim) {
  const int64_t ndim = static_cast<int64_t>(input_sizes.size());
  Shape kept = input_sizes;  // the input's shape with reduced dims set to 1
  if (!dims || dims->empty()) {
    std::fill(kept.begin(), kept.end(), 1);
  } else {
    for (int64_t d : *dims)
      if (ndim > 0) kept[wrap_dim(d, ndim, "sum")] = 1;  // a 0-d input accepts dim 0 / -1
  }
  Tensor g = keepdim && dims && !dims->empty() ? grad : reshape(grad, kept);
  return expand(g, input_sizes);
}

}  // namespace tz::F
