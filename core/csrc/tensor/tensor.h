// The tensor: a strided view (sizes, strides, offset, dtype) of refcounted storage, plus
// the optional fields later layers hang on it (names, quantizer, autograd metadata).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensor/dtype.h"
#include "tensor/scalar.h"
#include "tensor/storage.h"

namespace tz {

using Shape = std::vector<int64_t>;
using DimNames = std::vector<std::optional<std::string>>;

struct AutogradMeta;  // owned by the autograd layer
struct Quantizer;     // owned by the quantization layer

// Whether tensors made now (on this thread) are inference tensors: autograd's inference
// mode sets it (InferenceMode in autograd/grad_mode.h is the interface).
bool making_inference_tensors();
void set_making_inference_tensors(bool enabled);

// Shared by a tensor and all its views; bumped by every in-place write. `inference`: the
// memory was made in inference mode (a view of a normal tensor stays normal).
struct VersionCounter {
  std::atomic<uint32_t> version{0};
  const bool inference = making_inference_tensors();
};

class TensorImpl {
 public:
  TensorImpl(StoragePtr storage, Shape sizes, Shape strides, int64_t offset, DType dtype,
             std::shared_ptr<VersionCounter> version);
  ~TensorImpl();

  StoragePtr storage;
  Shape sizes;
  Shape strides;
  int64_t offset;  // in elements
  DType dtype;
  bool contiguous;  // cached; refreshed by refresh_contiguous()
  bool wrapped_number = false;  // a 0-dim tensor made from a Python number (type promotion)
  std::shared_ptr<VersionCounter> version;
  std::unique_ptr<DimNames> names;          // null for unnamed tensors: one branch of cost
  std::shared_ptr<Quantizer> quantizer;     // set only on quantized tensors
  std::shared_ptr<AutogradMeta> autograd;   // set only when autograd is involved
  void* pyobj = nullptr;                    // the live Python wrapper, if any (borrowed)

  void refresh_contiguous();
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // A new contiguous tensor with uninitialised memory.
  static Tensor empty(const Shape& sizes, DType dtype);
  // A view sharing storage and version counter with `base`.
  static Tensor view_of(const Tensor& base, Shape sizes, Shape strides, int64_t offset);

  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }

  const Shape& sizes() const { return impl_->sizes; }
  const Shape& strides() const { return impl_->strides; }
  int64_t dim() const { return static_cast<int64_t>(impl_->sizes.size()); }
  int64_t size(int64_t d) const;    // negative d allowed
  int64_t stride(int64_t d) const;  // negative d allowed
  int64_t numel() const;
  DType dtype() const { return impl_->dtype; }
  int64_t itemsize() const { return tz::itemsize(impl_->dtype); }
  int64_t offset() const { return impl_->offset; }
  bool is_contiguous() const { return impl_->contiguous; }
  const StoragePtr& storage() const { return impl_->storage; }
  bool has_names() const { return impl_->names != nullptr; }

  void* raw_data() const {
    return static_cast<char*>(impl_->storage->data()) + impl_->offset * itemsize();
  }
  template <typename T> T* data() const { return static_cast<T*>(raw_data()); }

  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }
  void bump_version() const { impl_->version->version++; }
  uint32_t version() const { return impl_->version->version.load(); }
  bool is_inference() const { return impl_->version->inference; }

 private:
  std::shared_ptr<TensorImpl> impl_;
};

using TensorList = std::vector<Tensor>;

// Shape helpers shared by ops.
int64_t numel_of(const Shape& sizes);  // throws on overflow
Shape contiguous_strides(const Shape& sizes);
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op);  // python-style negative dims
std::string shape_str(const Shape& s);

}  // namespace tz
