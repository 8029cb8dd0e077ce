// Zero-copy interop with numpy: core.from_numpy and Tensor.numpy().
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "bindings/module.h"
#include "bindings/py_tensor.h"

namespace tz::py {

namespace pyb = pybind11;

namespace {

std::optional<DType> dtype_from_numpy(const pyb::dtype& dt) {
  char kind = dt.kind();
  ssize_t size = dt.itemsize();
  if (kind == 'b') return DType::Bool;
  if (kind == 'u' && size == 1) return DType::UInt8;
  if (kind == 'i') {
    if (size == 1) return DType::Int8;
    if (size == 2) return DType::Int16;
    if (size == 4) return DType::Int32;
    if (size == 8) return DType::Int64;
  }
  if (kind == 'f') {
    if (size == 2) return DType::Float16;
    if (size == 4) return DType::Float32;
    if (size == 8) return DType::Float64;
  }
  if (kind == 'c' && size == 8) return DType::Complex64;
  if (kind == 'c' && size == 16) return DType::Complex128;
  return std::nullopt;
}

pyb::dtype numpy_dtype(DType t) {
  switch (t) {
    case DType::Bool: return pyb::dtype("bool");
    case DType::UInt8: case DType::QUInt8: return pyb::dtype("uint8");
    case DType::Int8: case DType::QInt8: return pyb::dtype("int8");
    case DType::Int16: return pyb::dtype("int16");
    case DType::Int32: case DType::QInt32: return pyb::dtype("int32");
    case DType::Int64: return pyb::dtype("int64");
    case DType::Float16: return pyb::dtype("float16");
    case DType::Float32: return pyb::dtype("float32");
    case DType::Float64: return pyb::dtype("float64");
    case DType::Complex64: return pyb::dtype("complex64");
    case DType::Complex128: return pyb::dtype("complex128");
    default: fail(ErrorKind::Type, "numpy(): got unsupported ScalarType ", dtype_name(t));
  }
}

Tensor from_numpy(pyb::array arr) {
  auto dt = dtype_from_numpy(arr.dtype());
  TZ_CHECK(dt.has_value(), Type, "from_numpy(): can't convert np.ndarray of type numpy.",
           std::string(pyb::str(arr.dtype().attr("type").attr("__name__"))),
           ". The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, "
           "int16, int8, uint8, and bool.");
  TZ_CHECK(arr.dtype().byteorder() != '>', Value, "from_numpy(): given numpy array has byte order "
           "different from the native byte order. Conversion between byte orders is currently "
           "not supported.");
  const int64_t isz = itemsize(*dt);
  Shape sizes(arr.ndim()), strides(arr.ndim());
  int64_t extent = arr.size() == 0 ? 0 : isz;
  for (ssize_t d = 0; d < arr.ndim(); ++d) {
    sizes[d] = arr.shape(d);
    ssize_t st = arr.strides(d);
    TZ_CHECK(st >= 0, Value, "from_numpy(): at least one stride in the given numpy array is "
             "negative, and tensors with negative strides are not currently supported. (You can "
             "probably work around this by making a copy of your array with array.copy().)");
    TZ_CHECK(st % isz == 0, Value, "from_numpy(): given numpy array strides not a multiple of the element byte size");
    strides[d] = st / isz;
    if (arr.size() > 0) extent += (sizes[d] - 1) * st;
  }
  // The array stays alive as long as the storage does; released under the GIL.
  PyObject* owner = arr.ptr();
  Py_INCREF(owner);
  std::shared_ptr<void> keep(owner, [](void* o) {
    PyGILState_STATE s = PyGILState_Ensure();
    Py_DECREF(static_cast<PyObject*>(o));
    PyGILState_Release(s);
  });
  auto storage = Storage::wrap(const_cast<void*>(arr.data()), static_cast<size_t>(extent), std::move(keep));
  return Tensor(std::make_shared<TensorImpl>(storage, sizes, strides, 0, *dt, std::make_shared<VersionCounter>()));
}

pyb::array to_numpy(const Tensor& t) {
  std::vector<ssize_t> shape(t.sizes().begin(), t.sizes().end()), strides(t.dim());
  for (int64_t d = 0; d < t.dim(); ++d) strides[d] = t.strides()[d] * t.itemsize();
  auto* keep = new Tensor(t);
  pyb::capsule base(keep, [](void* p) { delete static_cast<Tensor*>(p); });
  return pyb::array(numpy_dtype(t.dtype()), shape, strides, t.raw_data(), base);
}

}  // namespace

void init_numpy(pyb::module_& m) {
  m.def("from_numpy", [](pyb::handle arr) {
    TZ_CHECK(pyb::isinstance<pyb::array>(arr), Type, "from_numpy(): expected np.ndarray (got ",
             Py_TYPE(arr.ptr())->tp_name, ")");
    return pyb::reinterpret_steal<pyb::object>(wrap(from_numpy(pyb::reinterpret_borrow<pyb::array>(arr))));
  });
  m.def("_to_numpy", [](pyb::handle t) {
    TZ_CHECK(is_tensor(t.ptr()), Type, "numpy(): expected a Tensor");
    return to_numpy(unwrap(t.ptr()));
  });
}

}  // namespace tz::py
