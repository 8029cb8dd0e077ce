// DLPack: zero-copy exchange of CPU tensors with numpy and other array libraries.
// Producer: _to_dlpack(tensor) -> PyCapsule "dltensor" holding a DLManagedTensor.
// Consumer: _from_dlpack(capsule) -> Tensor over the producer's memory; the capsule is
// renamed "used_dltensor" and the producer's deleter runs when our storage dies.
#include <pybind11/pybind11.h>

#include <cstring>
#include <vector>

#include "bindings/module.h"
#include "bindings/py_tensor.h"
#include "ops/conversion.h"

namespace tz::py {

namespace pyb = pybind11;

namespace {

// The DLPack ABI (dlpack.h, v0.x "unversioned" layout), written out from the spec.
struct DLDevice {
  int32_t device_type;  // kDLCPU = 1, kDLCUDAHost = 3 (pinned host memory)
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;  // DLDataTypeCode
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; null means compact row-major
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

constexpr int32_t kDLCPU = 1;
constexpr int32_t kDLCUDAHost = 3;
enum : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };

constexpr const char* kCapsuleName = "dltensor";
constexpr const char* kUsedCapsuleName = "used_dltensor";

DLDataType dl_dtype(DType t) {
  const uint8_t bits = static_cast<uint8_t>(itemsize(t) * 8);
  switch (t) {
    case DType::Bool: return {kDLBool, 8, 1};
    case DType::UInt8: return {kDLUInt, bits, 1};
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64: return {kDLInt, bits, 1};
    case DType::Float16: case DType::Float32: case DType::Float64: return {kDLFloat, bits, 1};
    case DType::BFloat16: return {kDLBfloat, bits, 1};
    case DType::Complex64: return {kDLComplex, bits, 1};
    default:
      fail(ErrorKind::Type, "__dlpack__(): DLPack has no type for ", dtype_name(t),
           " (quantized tensors cannot be exported)");
  }
}

DType dtype_of(DLDataType dt) {
  TZ_CHECK(dt.lanes == 1, Runtime, "from_dlpack(): vector types (lanes = ", dt.lanes,
           ") are not supported");
  switch (dt.code) {
    case kDLBool:
      if (dt.bits == 8) return DType::Bool;
      break;
    case kDLUInt:
      if (dt.bits == 8) return DType::UInt8;
      break;
    case kDLInt:
      if (dt.bits == 8) return DType::Int8;
      if (dt.bits == 16) return DType::Int16;
      if (dt.bits == 32) return DType::Int32;
      if (dt.bits == 64) return DType::Int64;
      break;
    case kDLFloat:
      if (dt.bits == 16) return DType::Float16;
      if (dt.bits == 32) return DType::Float32;
      if (dt.bits == 64) return DType::Float64;
      break;
    case kDLBfloat:
      if (dt.bits == 16) return DType::BFloat16;
      break;
    case kDLComplex:
      if (dt.bits == 64) return DType::Complex64;
      break;
    default:
      break;
  }
  fail(ErrorKind::Type, "from_dlpack(): unsupported DLPack type (code ", int(dt.code), ", bits ",
       int(dt.bits), "); supported: bool, uint8, int8/16/32/64, float16/32/64, bfloat16, complex64");
}

// What a producer capsule owns: the tensor (keeping its storage alive) and the
// shape/strides arrays the DLTensor points into.
struct ExportContext {
  Tensor tensor;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  DLManagedTensor managed;
};

void delete_export(DLManagedTensor* managed) {
  delete static_cast<ExportContext*>(managed->manager_ctx);
}

// Runs when the capsule dies: an unconsumed tensor is ours to free.
void capsule_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, kUsedCapsuleName)) return;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);  // destructors must not clobber a pending error
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kCapsuleName));
  if (managed && managed->deleter) managed->deleter(managed);
  PyErr_Clear();
  PyErr_Restore(type, value, traceback);
}

PyObject* to_dlpack(const Tensor& t) {
  auto* ctx = new ExportContext{t, t.sizes(), t.strides(), {}};
  DLTensor& dl = ctx->managed.dl_tensor;
  try {
    dl.dtype = dl_dtype(t.dtype());
  } catch (...) {
    delete ctx;
    throw;
  }
  dl.data = t.raw_data();
  dl.device = {kDLCPU, 0};
  dl.ndim = static_cast<int32_t>(t.dim());
  dl.shape = ctx->shape.data();
  dl.strides = ctx->strides.data();
  dl.byte_offset = 0;
  ctx->managed.manager_ctx = ctx;
  ctx->managed.deleter = delete_export;
  PyObject* capsule = PyCapsule_New(&ctx->managed, kCapsuleName, capsule_destructor);
  if (!capsule) {
    delete ctx;
    throw pyb::error_already_set();
  }
  return capsule;
}

Tensor from_dlpack(PyObject* capsule) {
  TZ_CHECK(PyCapsule_CheckExact(capsule), Type, "from_dlpack(): expected a DLPack capsule or an "
           "object with __dlpack__, got ", Py_TYPE(capsule)->tp_name);
  TZ_CHECK(PyCapsule_IsValid(capsule, kCapsuleName), Runtime,
           "from_dlpack(): received an invalid capsule. Note that DLTensor capsules can be consumed "
           "only once, so you might have already constructed a tensor from it once.");
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kCapsuleName));
  const DLTensor& dl = managed->dl_tensor;
  TZ_CHECK(dl.device.device_type == kDLCPU || dl.device.device_type == kDLCUDAHost, Runtime,
           "from_dlpack(): only CPU memory can be imported (got DLPack device type ",
           dl.device.device_type, ")");
  TZ_CHECK(dl.ndim >= 0, Runtime, "from_dlpack(): negative ndim ", dl.ndim);
  const DType dtype = dtype_of(dl.dtype);
  const int64_t isz = itemsize(dtype);
  Shape sizes(dl.shape, dl.shape + dl.ndim);
  Shape strides = dl.strides ? Shape(dl.strides, dl.strides + dl.ndim) : contiguous_strides(sizes);
  const int64_t n = numel_of(sizes);
  int64_t extent = n == 0 ? 0 : isz;
  for (int32_t d = 0; d < dl.ndim; ++d) {
    TZ_CHECK(strides[d] >= 0 || sizes[d] <= 1, Runtime, "from_dlpack(): negative strides are not "
             "supported (make a copy of the array first)");
    if (sizes[d] <= 1) strides[d] = std::max<int64_t>(strides[d], 0);
    if (n > 0) extent += (sizes[d] - 1) * strides[d] * isz;
  }
  void* data = static_cast<char*>(dl.data) + dl.byte_offset;
  // Consumed from here on: the capsule no longer frees it...
  if (PyCapsule_SetName(capsule, kUsedCapsuleName) != 0) throw pyb::error_already_set();
  // ...our storage does, running the producer's deleter when the last tensor on it dies.
  std::shared_ptr<void> owner(managed, [](void* p) {
    auto* m = static_cast<DLManagedTensor*>(p);
    if (m->deleter) m->deleter(m);
  });
  auto storage = Storage::wrap(data, static_cast<size_t>(extent), std::move(owner));
  return Tensor(std::make_shared<TensorImpl>(storage, sizes, strides, 0, dtype,
                                             std::make_shared<VersionCounter>()));
}

}  // namespace

void init_dlpack(pyb::module_& m) {
  m.def("_to_dlpack", [](pyb::handle t) {
    TZ_CHECK(is_tensor(t.ptr()), Type, "to_dlpack(): expected a Tensor, got ", Py_TYPE(t.ptr())->tp_name);
    return pyb::reinterpret_steal<pyb::object>(to_dlpack(unwrap(t.ptr())));
  });
  m.def("_from_dlpack", [](pyb::handle capsule) {
    return pyb::reinterpret_steal<pyb::object>(wrap(from_dlpack(capsule.ptr())));
  });
}

}  // namespace tz::py
