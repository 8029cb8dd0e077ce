// DLPack: zero-copy exchange of CPU tensors with numpy and other array libraries.
// Producer: _to_dlpack(tensor) -> PyCapsule "dltensor" (DLManagedTensor) or, for consumers
// asking for DLPack >= 1.0, "dltensor_versioned" (DLManagedTensorVersioned).
// Consumer: _from_dlpack(capsule) -> Tensor over the producer's memory; the capsule is
// renamed "used_dltensor[_versioned]" and the producer's deleter runs when our storage dies.
// Buffer protocol: _TensorBytes(tensor) -> the bytes of a contiguous tensor as a writable
// Python buffer, for C libraries that read buffers (mpi4py: ~10x cheaper per call than DLPack).
#include <pybind11/pybind11.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "bindings/module.h"
#include "bindings/py_tensor.h"
#include "ops/conversion.h"

namespace tz::py {

namespace pyb = pybind11;

namespace {

// The DLPack ABI (dlpack.h), written out from the spec: the v0.x "unversioned" managed
// tensor and the v1.x versioned one (which adds a version and flags such as read-only).
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
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

constexpr uint32_t kDLPackMajor = 1, kDLPackMinor = 0;
constexpr uint64_t kFlagReadOnly = 1ull << 0, kFlagIsCopied = 1ull << 1;
constexpr int32_t kDLCPU = 1;
constexpr int32_t kDLCUDAHost = 3;
enum : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };

// Capsule names, before and after a consumer takes ownership.
template <typename Managed> struct CapsuleNames;
template <> struct CapsuleNames<DLManagedTensor> {
  static constexpr const char* fresh = "dltensor";
  static constexpr const char* used = "used_dltensor";
};
template <> struct CapsuleNames<DLManagedTensorVersioned> {
  static constexpr const char* fresh = "dltensor_versioned";
  static constexpr const char* used = "used_dltensor_versioned";
};

DLDataType dl_dtype(DType t) {
  const uint8_t bits = static_cast<uint8_t>(itemsize(t) * 8);
  switch (t) {
    case DType::Bool: return {kDLBool, 8, 1};
    case DType::UInt8: return {kDLUInt, bits, 1};
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64: return {kDLInt, bits, 1};
    case DType::Float16: case DType::Float32: case DType::Float64: return {kDLFloat, bits, 1};
    case DType::BFloat16: return {kDLBfloat, bits, 1};
    case DType::Complex64: case DType::Complex128: return {kDLComplex, bits, 1};
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
      if (dt.bits == 128) return DType::Complex128;
      break;
    default:
      break;
  }
  fail(ErrorKind::Type, "from_dlpack(): unsupported DLPack type (code ", int(dt.code), ", bits ",
       int(dt.bits), "); supported: bool, uint8, int8/16/32/64, float16/32/64, bfloat16, complex64/128");
}

// What a producer capsule owns: the tensor (keeping its storage alive), the shape/strides
// arrays the DLTensor points into, and the managed struct handed out.
template <typename Managed>
struct ExportContext {
  Tensor tensor;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  Managed managed{};
};

template <typename Managed>
void delete_export(Managed* managed) {
  delete static_cast<ExportContext<Managed>*>(managed->manager_ctx);
}

// Runs when the capsule dies: a tensor no consumer took is ours to free.
template <typename Managed>
void capsule_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, CapsuleNames<Managed>::used)) return;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);  // destructors must not clobber a pending error
  auto* managed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, CapsuleNames<Managed>::fresh));
  if (managed && managed->deleter) managed->deleter(managed);
  PyErr_Clear();
  PyErr_Restore(type, value, traceback);
}

template <typename Managed>
PyObject* to_dlpack(const Tensor& t, uint64_t flags) {
  const DLDataType dtype = dl_dtype(t.dtype());
  auto* ctx = new ExportContext<Managed>{t, t.sizes(), t.strides()};
  Managed& m = ctx->managed;
  DLTensor& dl = m.dl_tensor;
  dl.data = t.raw_data();
  dl.device = {kDLCPU, 0};
  dl.ndim = static_cast<int32_t>(t.dim());
  dl.dtype = dtype;
  dl.shape = ctx->shape.data();
  dl.strides = ctx->strides.data();
  dl.byte_offset = 0;
  m.manager_ctx = ctx;
  m.deleter = delete_export<Managed>;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    m.version = {kDLPackMajor, kDLPackMinor};
    m.flags = flags;
  }
  PyObject* capsule = PyCapsule_New(&m, CapsuleNames<Managed>::fresh, capsule_destructor<Managed>);
  if (!capsule) {
    delete ctx;
    throw pyb::error_already_set();
  }
  return capsule;
}

// A tensor over a producer's DLTensor; the capsule is marked used, and the producer's
// deleter runs when the last tensor on the storage dies.
template <typename Managed>
Tensor adopt(PyObject* capsule, Managed* managed) {
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
  if (PyCapsule_SetName(capsule, CapsuleNames<Managed>::used) != 0) throw pyb::error_already_set();
  // ...our storage does.
  std::shared_ptr<void> owner(managed, [](void* p) {
    auto* m = static_cast<Managed*>(p);
    if (m->deleter) m->deleter(m);
  });
  auto storage = Storage::wrap(data, static_cast<size_t>(extent), std::move(owner));
  return Tensor(std::make_shared<TensorImpl>(storage, sizes, strides, 0, dtype,
                                             std::make_shared<VersionCounter>()));
}

Tensor from_dlpack(PyObject* capsule) {
  TZ_CHECK(PyCapsule_CheckExact(capsule), Type, "from_dlpack(): expected a DLPack capsule or an "
           "object with __dlpack__, got ", Py_TYPE(capsule)->tp_name);
  using V = DLManagedTensorVersioned;
  if (PyCapsule_IsValid(capsule, CapsuleNames<V>::fresh)) {
    auto* managed = static_cast<V*>(PyCapsule_GetPointer(capsule, CapsuleNames<V>::fresh));
    TZ_CHECK(managed->version.major <= kDLPackMajor, Runtime, "from_dlpack(): DLPack version ",
             managed->version.major, ".", managed->version.minor, " is newer than the supported ",
             kDLPackMajor, ".x");
    if ((managed->flags & kFlagReadOnly) &&
        PyErr_WarnEx(PyExc_UserWarning, "from_dlpack(): the producer marked this memory read-only, "
                     "and tensors do not support read-only memory: writing to the tensor is "
                     "undefined behavior", 1) != 0)
      throw pyb::error_already_set();
    return adopt(capsule, managed);
  }
  TZ_CHECK(PyCapsule_IsValid(capsule, CapsuleNames<DLManagedTensor>::fresh), Runtime,
           "from_dlpack(): received an invalid capsule. Note that DLTensor capsules can be consumed "
           "only once, so you might have already constructed a tensor from it once.");
  return adopt(capsule, static_cast<DLManagedTensor*>(
                            PyCapsule_GetPointer(capsule, CapsuleNames<DLManagedTensor>::fresh)));
}

// Tensors themselves offer no buffer protocol (as in PyTorch: bytes(t) and memoryview(t) keep
// their meaning); this holder does, and keeps the storage alive while a buffer is out.
struct TensorBytes {
  Tensor tensor;
};

TensorBytes tensor_bytes(pyb::handle t) {
  TZ_CHECK(is_tensor(t.ptr()), Type, "_TensorBytes(): expected a Tensor, got ", Py_TYPE(t.ptr())->tp_name);
  const Tensor& tensor = unwrap(t.ptr());
  TZ_CHECK(tensor.is_contiguous(), Runtime, "_TensorBytes(): the tensor must be contiguous");
  return TensorBytes{tensor};
}

}  // namespace

void init_dlpack(pyb::module_& m) {
  pyb::class_<TensorBytes>(m, "_TensorBytes", pyb::buffer_protocol())
      .def(pyb::init(&tensor_bytes), pyb::arg("tensor"))
      .def_buffer([](TensorBytes& b) {
        const int64_t nbytes = b.tensor.numel() * b.tensor.itemsize();
        return pyb::buffer_info(b.tensor.raw_data(), 1, "B", 1, {nbytes}, {int64_t(1)}, /*readonly=*/false);
      });
  // _to_dlpack(tensor, versioned=False, copied=False): a "dltensor" (v0) or
  // "dltensor_versioned" (v1, flags IS_COPIED when copied) capsule.
  m.def("_to_dlpack", [](pyb::handle t, bool versioned, bool copied) {
    TZ_CHECK(is_tensor(t.ptr()), Type, "to_dlpack(): expected a Tensor, got ", Py_TYPE(t.ptr())->tp_name);
    const Tensor& tensor = unwrap(t.ptr());
    PyObject* capsule = versioned ? to_dlpack<DLManagedTensorVersioned>(tensor, copied ? kFlagIsCopied : 0)
                                  : to_dlpack<DLManagedTensor>(tensor, 0);
    return pyb::reinterpret_steal<pyb::object>(capsule);
  }, pyb::arg("tensor"), pyb::arg("versioned") = false, pyb::arg("copied") = false);
  m.def("_from_dlpack", [](pyb::handle capsule) {
    return pyb::reinterpret_steal<pyb::object>(wrap(from_dlpack(capsule.ptr())));
  });
}

}  // namespace tz::py
