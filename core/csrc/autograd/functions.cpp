#include "autograd/functions.h"

#include "ops/conversion.h"

namespace tz::F {

Value call(const Op& op, Stack args) {
  for (size_t i = args.size(); i < op.schema.args.size(); ++i) args.push_back(op.schema.args[i].default_value);
  return call_op(op, args);
}

Tensor mul(const Tensor& a, const Scalar& b) { return mul(a, scalar_to_tensor(b)); }

}  // namespace tz::F
