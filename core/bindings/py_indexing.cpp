// Tensor.__getitem__ / __setitem__, parsed in C++ with PyTorch's rules: ints select (the dim
// goes away), slices / None / Ellipsis make views, and tensors, sequences and bools are
// advanced indices, which make a copy on read (index) and write through index_put_.
// Masks are turned into integer indices here, so the list handed to index() has one entry
// per dim of the sliced tensor.
// When autograd must see them (grad mode on and a tensor involved requires grad), the
// steps go through the op table (select, slice, unsqueeze, alias, index, copy_, index_put_)
// so that they are recorded; otherwise the plain functions run and the result is only
// noted as a view of the indexed tensor (for in-place ops on it later).
#include <Python.h>

#include <cstring>
#include <vector>

#include "bindings/module.h"
#include "bindings/py_errors.h"
#include "bindings/py_nogil.h"
#include "bindings/py_tensor.h"
#include "autograd/functions.h"
#include "autograd/grad_mode.h"
#include "autograd/views.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/index_utils.h"
#include "ops/indexing.h"
#include "ops/views.h"

namespace tz::py {

namespace {

bool is_numpy_bool(PyObject* o) {
  const char* name = Py_TYPE(o)->tp_name;
  return std::strcmp(name, "numpy.bool") == 0 || std::strcmp(name, "numpy.bool_") == 0;
}
bool is_ndarray(PyObject* o) { return std::strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray") == 0; }
bool is_bool(PyObject* o) { return PyBool_Check(o) || is_numpy_bool(o); }
// Python ints and int-likes (numpy integers), but not bools or tensors.
bool is_int(PyObject* o) {
  if (PyLong_Check(o)) return !PyBool_Check(o);
  return PyIndex_Check(o) && !is_tensor(o) && !is_numpy_bool(o) && !PySequence_Check(o);
}
// Data that becomes an index tensor: lists, tuples and arrays (not strings).
bool is_index_data(PyObject* o) {
  return PySequence_Check(o) && !PyUnicode_Check(o) && !PyBytes_Check(o);
}

int64_t to_int64(PyObject* o) {
  long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) throw_python_error();
  return v;
}

// numpy's rule, kept by PyTorch: a short non-tuple sequence holding slices, Ellipsis, None,
// sequences or tensors is a tuple of indices (x[[0, slice(None)]] is x[0, :]).
bool sequence_is_tuple(PyObject* index) {
  if (is_tensor(index) || is_ndarray(index) || !is_index_data(index)) return false;
  Py_ssize_t n = PySequence_Size(index);
  if (n < 0) return PyErr_Clear(), false;
  if (n >= 32) return false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_GetItem(index, i);
    if (!item) return PyErr_Clear(), false;
    bool yes = is_tensor(item) || is_index_data(item) || PySlice_Check(item) || item == Py_Ellipsis ||
               item == Py_None;
    Py_DECREF(item);
    if (yes) return true;
  }
  return false;
}

// Whether autograd has to record indexing that involves `t`.
bool recording(const Tensor& t) { return GradMode::is_enabled() && autograd::requires_grad(t); }

// The view steps of basic indexing: recorded through the op table, or plain.
Tensor select_step(const Tensor& t, int64_t dim, int64_t i, bool record) {
  return record ? F::tensor_call(TZ_OP("select"), {t, dim, i}) : select(t, dim, i);
}
Tensor slice_step(const Tensor& t, int64_t dim, int64_t start, int64_t stop, int64_t step, bool record) {
  return record ? F::tensor_call(TZ_OP("slice"), {t, dim, start, stop, step}) : slice(t, dim, start, stop, step);
}
Tensor unsqueeze_step(const Tensor& t, int64_t dim, bool record) {
  return record ? F::tensor_call(TZ_OP("unsqueeze"), {t, dim}) : unsqueeze(t, dim);
}

// Python data used as an index -> a tensor: bool data stays a mask, uint8 stays a byte
// mask, anything else becomes int64 (so [1.0] indexes like [1], as in PyTorch).
Tensor data_to_index(PyObject* obj) {
  if (PyList_Check(obj) || PyTuple_Check(obj)) {  // fast path: flat ints or flat bools
    Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
    PyObject** items = PySequence_Fast_ITEMS(obj);
    bool ints = true, bools = n > 0;
    for (Py_ssize_t i = 0; i < n && (ints || bools); ++i) {
      ints = ints && PyLong_Check(items[i]) && !PyBool_Check(items[i]);
      bools = bools && PyBool_Check(items[i]);
    }
    if (ints || bools) {
      Tensor t = Tensor::empty({n}, bools ? DType::Bool : DType::Int64);
      for (Py_ssize_t i = 0; i < n; ++i) {
        if (bools) t.data<bool>()[i] = items[i] == Py_True;
        else t.data<int64_t>()[i] = to_int64(items[i]);
      }
      return t;
    }
  }
  static PyObject* make_tensor = [] {
    PyObject* mod = PyImport_ImportModule("core._creation");
    if (!mod) throw_python_error();
    PyObject* fn = PyObject_GetAttrString(mod, "tensor");
    Py_DECREF(mod);
    if (!fn) throw_python_error();
    return fn;
  }();
  PyObject* result = PyObject_CallOneArg(make_tensor, obj);
  if (!result) throw_python_error();
  Tensor t = unwrap(result);
  Py_DECREF(result);
  if (t.dtype() == DType::Bool || t.dtype() == DType::UInt8) return t;
  TZ_CHECK(!is_complex(t.dtype()), Index, "tensors used as indices must be long, int, byte or bool tensors");
  return to_dtype(t, DType::Int64);
}

Tensor bool_to_index(bool value) {
  // True keeps the one new size-1 dim, False keeps none of it.
  return value ? zeros({1}, DType::Int64) : Tensor::empty({0}, DType::Int64);
}

// The items of an index expression: a tuple's items, or the index itself.
class IndexItems {
 public:
  explicit IndexItems(PyObject* index) {
    if (PyTuple_Check(index)) {
      tuple_ = index;
      Py_INCREF(tuple_);
    } else if (sequence_is_tuple(index)) {
      tuple_ = PySequence_Tuple(index);
      if (!tuple_) throw_python_error();
    } else {
      single_ = index;
    }
  }
  ~IndexItems() { Py_XDECREF(tuple_); }
  IndexItems(const IndexItems&) = delete;
  IndexItems& operator=(const IndexItems&) = delete;
  Py_ssize_t size() const { return tuple_ ? PyTuple_GET_SIZE(tuple_) : 1; }
  PyObject* operator[](Py_ssize_t i) const { return tuple_ ? PyTuple_GET_ITEM(tuple_, i) : single_; }

 private:
  PyObject* tuple_ = nullptr;
  PyObject* single_ = nullptr;
};

// Basic indexing applied, advanced indices collected (aligned with result's dims).
struct Parsed {
  Tensor result;
  TensorList indices;  // empty when the index was basic only
};

class Slicer {
 public:
  Slicer(const Tensor& self, const IndexItems& items, bool record) : self_(self), result_(self), record_(record) {
    int64_t specified = count_dims(items);
    for (Py_ssize_t i = 0; i < items.size(); ++i) apply(items[i], specified);
  }
  Parsed parsed() const { return {result_, indices_}; }

 private:
  int64_t count_dims(const IndexItems& items) const {
    int64_t specified = 0, ellipses = 0;
    for (Py_ssize_t i = 0; i < items.size(); ++i) {
      PyObject* item = items[i];
      if (item == Py_Ellipsis) ellipses++;
      else if (item == Py_None || is_bool(item)) continue;
      else if (is_tensor(item) && (unwrap(item).dtype() == DType::Bool || unwrap(item).dtype() == DType::UInt8))
        specified += unwrap(item).dim();
      else specified++;
    }
    TZ_CHECK(ellipses <= 1, Index, "an index can only have a single ellipsis ('...')");
    TZ_CHECK(specified <= self_.dim(), Index, "too many indices for tensor of dimension ", self_.dim());
    return specified;
  }

  void apply(PyObject* item, int64_t specified) {
    if (is_int(item)) {
      select_int(to_int64(item));
    } else if (PySlice_Check(item)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) throw_python_error();
      TZ_CHECK(step > 0, Value, "step must be greater than zero");
      result_ = slice_step(result_, dim_, start, stop, step, record_);
      dim_++, real_dim_++;
    } else if (item == Py_Ellipsis) {
      dim_ += self_.dim() - specified;
      real_dim_ += self_.dim() - specified;
    } else if (item == Py_None) {
      result_ = unsqueeze_step(result_, dim_++, record_);
    } else if (is_bool(item)) {
      result_ = unsqueeze_step(result_, dim_, record_);
      record(bool_to_index(PyObject_IsTrue(item) == 1));
    } else if (is_tensor(item)) {
      apply_tensor(unwrap(item));
    } else if (is_index_data(item)) {
      apply_tensor(data_to_index(item));
    } else {
      fail(ErrorKind::Index, "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
           "Variables are valid indices (got ", Py_TYPE(item)->tp_name, ")");
    }
  }

  void apply_tensor(const Tensor& t) {
    const bool mask = t.dtype() == DType::Bool || t.dtype() == DType::UInt8;
    if (t.dim() == 0 && (mask || is_integral(t.dtype(), false))) {
      // 0-d integer tensors index like ints; 0-d masks like Python bools.
      if (!mask) return select_int(item(t).to_int());
      result_ = unsqueeze_step(result_, dim_, record_);
      return record(bool_to_index(item(t).to_bool()));
    }
    if (!mask) {
      TZ_CHECK(t.dtype() == DType::Int64 || t.dtype() == DType::Int32, Index,
               "tensors used as indices must be long, int, byte or bool tensors");
      real_dim_++;
      return record(t);
    }
    TensorList at(dim_);
    at.push_back(t);
    TensorList expanded = expand_index_masks(result_, at);
    for (int64_t j = 0; j < t.dim(); ++j) record(expanded[dim_]);
    real_dim_ += t.dim();
  }

  void select_int(int64_t i) {
    const int64_t n = result_.sizes()[dim_];
    TZ_CHECK(i >= -n && i < n, Index, "index ", i, " is out of bounds for dimension ", real_dim_, " with size ", n);
    result_ = select_step(result_, dim_, i, record_);
    real_dim_++;
  }

  // An advanced index for result_'s dim `dim_`.
  void record(Tensor index) {
    indices_.resize(dim_);
    indices_.push_back(std::move(index));
    dim_++;
  }

  const Tensor& self_;
  Tensor result_;
  bool record_;  // through the op table, for autograd
  TensorList indices_;
  int64_t dim_ = 0;       // the next dim of result_ to index
  int64_t real_dim_ = 0;  // the dim of self that is, for error messages
};

// Leading size-1 dims of an assigned value are ignored (t[0] = ones(1, 3) for a row of 3).
Tensor strip_leading_ones(Tensor v) {
  while (v.dim() > 0 && v.sizes()[0] == 1) v = squeeze(v, 0);
  return v;
}

bool to_assigned_scalar(PyObject* o, Scalar& out) {
  if (is_bool(o)) return out = Scalar(PyObject_IsTrue(o) == 1), true;
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    TZ_CHECK(!overflow, Runtime, "Overflow when unpacking long");
    return out = Scalar(int64_t(v)), true;
  }
  if (PyFloat_Check(o)) return out = Scalar(PyFloat_AS_DOUBLE(o)), true;
  if (PyComplex_Check(o)) {
    Py_complex c = PyComplex_AsCComplex(o);
    return out = Scalar(complex128(c.real, c.imag)), true;
  }
  if (is_tensor(o) || PySequence_Check(o)) return false;
  if (PyIndex_Check(o)) return out = Scalar(to_int64(o)), true;  // numpy integers
  if (PyNumber_Check(o) && Py_TYPE(o)->tp_as_number->nb_float) {  // numpy floats
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) throw_python_error();
    return out = Scalar(v), true;
  }
  return false;
}

// A plain (unrecorded) view of `t`, noted as one for autograd.
Tensor noted_view(Tensor view, const Tensor& t) {
  autograd::as_view(view, t);
  return view;
}

PyObject* tensor_getitem(PyObject* self, PyObject* index) {
  TZ_PY_BEGIN
  const Tensor& t = unwrap(self);
  const bool record = recording(t);
  if (PyLong_CheckExact(index)) {  // t[i], the common case, skips the general parser
    TZ_CHECK(t.dim() > 0, Index, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
    int64_t i = to_int64(index), n = t.sizes()[0];
    TZ_CHECK(i >= -n && i < n, Index, "index ", i, " is out of bounds for dimension 0 with size ", n);
    return wrap(record ? select_step(t, 0, i, true) : noted_view(select(t, 0, i), t));
  }
  IndexItems items(index);
  Parsed p = Slicer(t, items, record).parsed();
  if (p.indices.empty()) {
    if (record) return wrap(p.result.is_same(t) ? F::tensor_call(TZ_OP("alias"), {t}) : p.result);
    return wrap(noted_view(p.result.is_same(t) ? alias(t) : p.result, t));
  }
  Tensor out;
  {
    WithoutGil nogil;
    out = record ? F::tensor_call(TZ_OP("index.Tensor"), {p.result, p.indices}) : tz::index(p.result, p.indices);
  }
  return wrap(out);
  TZ_PY_END(nullptr)
}

// t[...] = values, through the op table so that autograd records it: copy_ into the
// indexed view (a CopySlices on t's base) or index_put_.
void set_recorded(const Tensor& t, const Parsed& p, Tensor values) {
  Shape kept = values.sizes();
  while (!kept.empty() && kept[0] == 1) kept.erase(kept.begin());
  WithoutGil nogil;
  if (kept != values.sizes()) values = F::reshape(values, kept);
  if (values.storage() == t.storage()) values = F::tensor_call(TZ_OP("clone"), {values});
  if (p.indices.empty()) {
    F::tensor_call(TZ_OP("copy_"), {p.result, values});
  } else {
    if (values.dtype() != t.dtype()) values = F::tensor_call(TZ_OP("to.dtype"), {values, t.dtype()});
    F::tensor_call(TZ_OP("index_put_"), {p.result, p.indices, values, false});
  }
}

int tensor_setitem(PyObject* self, PyObject* index, PyObject* value) {
  TZ_PY_BEGIN
  if (!value) {
    PyErr_SetString(PyExc_TypeError, "Tensor does not support deleting items");
    return -1;
  }
  const Tensor& t = unwrap(self);
  check_inplace_allowed(t, "__setitem__");
  Scalar number;
  bool is_number = !is_tensor(value) && to_assigned_scalar(value, number);
  TZ_CHECK(is_number || is_tensor(value), Type, "can't assign a ", Py_TYPE(value)->tp_name,
           " to a Tensor (assign a tensor or a Python number)");
  IndexItems items(index);
  const Tensor assigned = is_number ? Tensor() : unwrap(value);
  const bool record = GradMode::is_enabled() &&
                      (autograd::requires_grad(t) || (assigned.defined() && autograd::requires_grad(assigned)) ||
                       (autograd::view_info(t) && autograd::requires_grad(autograd::view_info(t)->base)));
  Parsed p = Slicer(t, items, record).parsed();
  if (record) return set_recorded(t, p, is_number ? scalar_to_tensor(number, t.dtype()) : assigned), 0;
  // Values take the destination's dtype, like copy_; a value sharing memory with the
  // destination is copied first, so overlapping assignments behave like numpy's.
  Tensor values = is_number ? scalar_to_tensor(number, t.dtype())
                            : unaliased(strip_leading_ones(assigned), t);
  WithoutGil nogil;
  if (p.indices.empty()) copy_(p.result, values);
  else index_put_(p.result, p.indices, to_dtype(values, t.dtype()), false);
  return 0;
  TZ_PY_END(-1)
}

PyMappingMethods tensor_mapping = {nullptr, tensor_getitem, tensor_setitem};

}  // namespace

void init_indexing(pybind11::module_&) {
  // Must run before PyType_Ready(_TensorBase), so that the slots are inherited by core.Tensor.
  PyTensorBaseType.tp_as_mapping = &tensor_mapping;
}

}  // namespace tz::py
