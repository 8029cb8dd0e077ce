#include "ops/elementwise_util.h"

#include "ops/conversion.h"

namespace tz {


void check_inplace(const Tensor& self, DType result, const Shape& shape, const char* name) {
  TZ_CHECK(can_cast(result, self.dtype()), Runtime, name, "(): result type ", scalar_type_name(result),
           " can't be cast to the desired output type ", scalar_type_name(self.dtype()));
  TZ_CHECK(shape == self.sizes(), Runtime, name, "(): output with shape ", shape_str(self.sizes()),
           " doesn't match the broadcast shape ", shape_str(shape));
  for (int64_t d = 0; d < self.dim() && self.numel() > 1; ++d)
    TZ_CHECK(self.strides()[d] != 0 || self.sizes()[d] <= 1, Runtime, name,
             "(): unsupported operation: more than one element of the written-to tensor refers to a "
             "single memory location. Please clone() the tensor before performing the operation.");
}

Tensor unalias(const Tensor& input, const Tensor& self) {
  if (!input.defined() || input.storage() != self.storage() || input.is_same(self)) return input;
  const bool same_view = input.offset() == self.offset() && input.sizes() == self.sizes() &&
                         input.strides() == self.strides() && input.dtype() == self.dtype();
  return same_view ? input : clone(input);
}

Tensor to_compute(const Tensor& t, DType compute) {
  if (t.dtype() == compute) return t;
  return to_dtype(t, compute);  // a wrapped Python number wraps around like PyTorch's, unchecked
}

}  // namespace tz
