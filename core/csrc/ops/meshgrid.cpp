// meshgrid, cartesian_prod and broadcasting to a common shape (views where PyTorch's are).
#include "iter/tensor_iter.h"
#include "ops/joining.h"
#include "ops/views.h"

namespace tz {

TensorList meshgrid(const TensorList& tensors, const std::string& indexing) {
  TZ_CHECK(!tensors.empty(), Runtime, "meshgrid expects a non-empty TensorList");
  TZ_CHECK(indexing == "ij" || indexing == "xy", Runtime,
           "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ", indexing);
  for (const Tensor& t : tensors) {
    TZ_CHECK(t.dim() <= 1, Runtime, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ",
             shape_str(t.sizes()));
    TZ_CHECK(t.dtype() == tensors[0].dtype(), Runtime, "meshgrid expects all tensors to have the same dtype");
  }
  // 'xy' is 'ij' with the first two axes swapped.
  const bool swap = indexing == "xy" && tensors.size() >= 2;
  const size_t n = tensors.size();
  IntList shape(n);
  for (size_t i = 0; i < n; ++i) shape[i] = tensors[i].numel();
  if (swap) std::swap(shape[0], shape[1]);
  TensorList out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t axis = swap && i < 2 ? 1 - i : i;
    IntList view_shape(n, 1);
    view_shape[axis] = shape[axis];
    out.push_back(expand(reshape(tensors[i], view_shape), shape));
  }
  return out;
}

Tensor cartesian_prod(const TensorList& tensors) {
  for (const Tensor& t : tensors)
    TZ_CHECK(t.dim() == 1, Runtime, "Expect a 1D vector, but got shape ", shape_str(t.sizes()));
  if (tensors.size() == 1) return tensors[0];
  TensorList grids = meshgrid(tensors, "ij");
  for (Tensor& g : grids) g = reshape(g, {-1});
  return stack(grids, 1);
}

TensorList broadcast_tensors(const TensorList& tensors) {
  Shape shape;
  for (const Tensor& t : tensors) shape = broadcast_shapes(shape, t.sizes(), "broadcast_tensors");
  TensorList out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(expand(t, IntList(shape.begin(), shape.end())));
  return out;
}

Tensor broadcast_to(const Tensor& t, const IntList& size) {
  try {
    return expand(t, size);
  } catch (const Error& e) {
    // Same checks as expand; name this op instead.
    std::string msg = e.what();
    const std::string prefix = "expand(): ";
    if (msg.rfind(prefix, 0) == 0) msg = msg.substr(prefix.size());
    throw Error(e.kind(), "broadcast_to(): " + msg);
  }
}

}  // namespace tz
