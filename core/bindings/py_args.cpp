#include "bindings/py_args.h"

#include <cstring>
#include <memory>

#include "bindings/py_dtype.h"
#include "bindings/py_errors.h"
#include "bindings/py_generator.h"
#include "bindings/py_memory_format.h"
#include "bindings/py_tensor.h"
#include "ops/conversion.h"
#include "tensor/names.h"

namespace tz::py {

namespace {

// numpy scalars (np.float32(2), np.int64(3), np.bool_(True)) count as Python numbers.
bool is_numpy_scalar(PyObject* o) {
  const char* name = Py_TYPE(o)->tp_name;
  return std::strncmp(name, "numpy.", 6) == 0 && std::strcmp(name, "numpy.ndarray") != 0;
}

bool is_number(PyObject* o) {
  return PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o) || is_numpy_scalar(o);
}

// A Python (or numpy) scalar -> Scalar. Bools stay bools.
bool to_scalar(PyObject* o, Scalar& out) {
  if (PyBool_Check(o)) return out = Scalar(o == Py_True), true;
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) throw Error(ErrorKind::Runtime, "Overflow when unpacking long");
    return out = Scalar(int64_t(v)), true;
  }
  if (PyFloat_Check(o)) return out = Scalar(PyFloat_AS_DOUBLE(o)), true;
  if (PyComplex_Check(o)) {
    Py_complex c = PyComplex_AsCComplex(o);
    return out = Scalar(complex128(c.real, c.imag)), true;
  }
  if (is_tensor(o) && unwrap(o).numel() == 1) return out = item(unwrap(o)), true;
  if (is_numpy_scalar(o)) {
    const char* name = Py_TYPE(o)->tp_name;
    if (std::strstr(name, "bool")) return out = Scalar(bool(PyObject_IsTrue(o))), true;
    if (std::strstr(name, "complex")) {
      Py_complex c = PyComplex_AsCComplex(o);
      if (c.real == -1.0 && PyErr_Occurred()) throw_python_error();
      return out = Scalar(complex128(c.real, c.imag)), true;
    }
  }
  // numpy scalars and other number-likes.
  if (PyIndex_Check(o)) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) throw_python_error();
    return out = Scalar(int64_t(v)), true;
  }
  if (PyNumber_Check(o) && Py_TYPE(o)->tp_as_number->nb_float) {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) throw_python_error();
    return out = Scalar(v), true;
  }
  return false;
}

bool to_int(PyObject* o, int64_t& out) {
  if (PyLong_Check(o) || (PyIndex_Check(o) && !PyFloat_Check(o))) {
    if (is_tensor(o)) {
      const Tensor& t = unwrap(o);
      if (t.numel() != 1 || is_floating(t.dtype()) || is_complex(t.dtype())) return false;
    }
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) {
      if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        throw Error(ErrorKind::Runtime, "Overflow when unpacking long");
      }
      throw_python_error();
    }
    out = v;
    return true;
  }
  return false;
}

bool to_int_list(PyObject* o, const ArgSpec& spec, IntList& out) {
  int64_t single;
  if (to_int(o, single)) {
    // `int[2]` params accept one int for every position; plain `int[]` takes a 1-list.
    out.assign(spec.list_size > 0 ? spec.list_size : 1, single);
    return true;
  }
  if (!PyTuple_Check(o) && !PyList_Check(o)) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  out.resize(n);
  PyObject** items = PySequence_Fast_ITEMS(o);
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!to_int(items[i], out[i])) return false;
  return true;
}

bool to_tensor_list(PyObject* o, bool allow_none, TensorList& out) {
  if (!PyTuple_Check(o) && !PyList_Check(o)) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  out.resize(n);
  PyObject** items = PySequence_Fast_ITEMS(o);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (is_tensor(items[i])) out[i] = unwrap(items[i]);
    else if (allow_none && items[i] == Py_None) out[i] = Tensor();
    else return false;
  }
  return true;
}

// Dim arguments (dim, dim0, start_dim, axis0, movedim's source/destination, ...) accept a dim
// name of the op's tensor.
bool is_dim_param(const std::string& name) {
  return name.find("dim") != std::string::npos || name.find("axis") != std::string::npos || name == "source" ||
         name == "destination";
}

bool names_a_dim(const ArgSpec& spec, PyObject* o, const Tensor* dims_of) {
  return dims_of && PyUnicode_Check(o) && is_dim_param(spec.name);
}

int64_t dim_by_name(PyObject* o, const Tensor& t) { return dim_of_name(t, PyUnicode_AsUTF8(o)); }

bool to_dim_list(PyObject* o, const ArgSpec& spec, const Tensor* dims_of, IntList& out) {
  if (names_a_dim(spec, o, dims_of)) return out.assign(1, dim_by_name(o, *dims_of)), true;
  if (!dims_of || (!PyTuple_Check(o) && !PyList_Check(o)) || !is_dim_param(spec.name)) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  PyObject** items = PySequence_Fast_ITEMS(o);
  out.resize(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (PyUnicode_Check(items[i])) out[i] = dim_by_name(items[i], *dims_of);
    else if (!to_int(items[i], out[i])) return false;
  }
  return true;
}

// The tensor whose names dim arguments refer to: self, or the first of a Tensor[] (cat).
const Tensor* dims_source(PyObject* first) {
  if (first == nullptr) return nullptr;
  if (is_tensor(first)) return &unwrap(first);
  if ((PyList_Check(first) || PyTuple_Check(first)) && PySequence_Fast_GET_SIZE(first) > 0 &&
      is_tensor(PySequence_Fast_ITEMS(first)[0]))
    return &unwrap(PySequence_Fast_ITEMS(first)[0]);
  return nullptr;
}

const char* type_label(ArgType t) {
  switch (t) {
    case ArgType::Tensor: return "Tensor";
    case ArgType::Scalar: return "Number";
    case ArgType::Int: return "int";
    case ArgType::Float: return "float";
    case ArgType::Bool: return "bool";
    case ArgType::Str: return "str";
    case ArgType::DType: return "dtype";
    case ArgType::MemoryFormat: return "memory_format";
    case ArgType::Generator: return "Generator";
    case ArgType::IntList: return "tuple of ints";
    case ArgType::TensorList: return "tuple of Tensors";
    case ArgType::OptTensorList: return "tuple of Tensors";
  }
  return "?";
}

}  // namespace

bool convert_arg(const ArgSpec& spec, PyObject* obj, Value& out, const Tensor* dims_of) {
  if (obj == Py_None && (spec.optional || (spec.has_default && spec.default_value.is_none()))) {
    out = Value();
    return true;
  }
  switch (spec.type) {
    case ArgType::Tensor: {
      if (is_tensor(obj)) return out = Value(unwrap(obj)), true;
      Scalar s;
      if (is_number(obj) && to_scalar(obj, s)) return out = Value(scalar_to_tensor(s)), true;
      return false;
    }
    case ArgType::Scalar: {
      Scalar s;
      if (!to_scalar(obj, s)) return false;
      return out = Value(s), true;
    }
    case ArgType::Int: {
      int64_t v;
      if (names_a_dim(spec, obj, dims_of)) return out = Value(dim_by_name(obj, *dims_of)), true;
      if (!to_int(obj, v)) return false;
      return out = Value(v), true;
    }
    case ArgType::Float: {
      if (PyFloat_Check(obj)) return out = Value(PyFloat_AS_DOUBLE(obj)), true;
      int64_t v;
      if (to_int(obj, v)) return out = Value(double(v)), true;
      if (PyNumber_Check(obj) && !is_tensor(obj) && Py_TYPE(obj)->tp_as_number->nb_float) {
        double d = PyFloat_AsDouble(obj);
        if (d == -1.0 && PyErr_Occurred()) throw_python_error();
        return out = Value(d), true;
      }
      return false;
    }
    case ArgType::Bool:
      if (PyBool_Check(obj)) return out = Value(obj == Py_True), true;
      if (Py_TYPE(obj)->tp_name == std::string("numpy.bool") ||
          Py_TYPE(obj)->tp_name == std::string("numpy.bool_"))
        return out = Value(bool(PyObject_IsTrue(obj))), true;
      return false;
    case ArgType::Str:
      if (!PyUnicode_Check(obj)) return false;
      return out = Value(std::string(PyUnicode_AsUTF8(obj))), true;
    case ArgType::DType: {
      auto d = dtype_from_object(obj);
      if (!d) return false;
      return out = Value(*d), true;
    }
    case ArgType::MemoryFormat: {
      auto f = memory_format_from_object(obj);
      if (!f) return false;
      return out = Value(*f), true;
    }
    case ArgType::Generator: {
      GeneratorPtr g = generator_from_object(obj);
      if (!g) return false;
      return out = Value(g), true;
    }
    case ArgType::IntList: {
      IntList l;
      if (!to_int_list(obj, spec, l) && !to_dim_list(obj, spec, dims_of, l)) return false;
      return out = Value(std::move(l)), true;
    }
    case ArgType::TensorList:
    case ArgType::OptTensorList: {
      TensorList l;
      if (!to_tensor_list(obj, spec.type == ArgType::OptTensorList, l)) return false;
      return out = Value(std::move(l)), true;
    }
  }
  return false;
}

bool parse_args(const Schema& schema, PyObject* const* args, size_t nargs, PyObject* kwnames,
                Stack& out, std::string& why) {
  const size_t nparams = schema.args.size();
  out.assign(nparams, Value());
  PyObject* first = nargs > 0 ? args[0] : nullptr;
  for (Py_ssize_t k = 0; !first && kwnames && k < PyTuple_GET_SIZE(kwnames); ++k) {
    const char* key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
    if (!std::strcmp(key, "input") || !std::strcmp(key, "self") || !std::strcmp(key, "tensors")) first = args[nargs + k];
  }
  const Tensor* dims_of = dims_source(first);
  // Which parameters got a value; on the stack for every schema of a sane size.
  bool filled_inline[32] = {};
  std::unique_ptr<bool[]> filled_heap(nparams > 32 ? new bool[nparams]() : nullptr);
  bool* filled = nparams > 32 ? filled_heap.get() : filled_inline;
  size_t npositional = 0;
  while (npositional < nparams && !schema.args[npositional].kwarg_only) npositional++;

  // `view(2, 3)`: an int list that is the only positional parameter (after self) absorbs
  // positional ints, as in PyTorch; `sum(0, True)` must not turn into dim=[0, 1].
  size_t first_list = nargs > 0 && is_tensor(args[0]) && !schema.args.empty() &&
                              schema.args[0].type == ArgType::Tensor ? 1 : 0;
  // Like PyTorch, only when no other positional parameter follows: `x.sum(0, True)` is
  // (dim, keepdim), not dims (0, 1).
  bool varargs = nargs > first_list + 1 && npositional == first_list + 1 &&
                 schema.args[first_list].type == ArgType::IntList && !PyBool_Check(args[first_list]);
  if (varargs) {
    int64_t probe;
    varargs = to_int(args[first_list], probe) || names_a_dim(schema.args[first_list], args[first_list], dims_of);
  }
  if (varargs) {
    IntList l(nargs - first_list);
    for (size_t i = first_list; i < nargs; ++i)
      if (names_a_dim(schema.args[first_list], args[i], dims_of)) {
        l[i - first_list] = dim_by_name(args[i], *dims_of);
      } else if (!to_int(args[i], l[i - first_list])) {
        why = "argument '" + schema.args[first_list].name + "' must be a tuple of ints";
        return false;
      }
    for (size_t i = 0; i < first_list; ++i) {
      if (!convert_arg(schema.args[i], args[i], out[i])) return why = "bad self", false;
      filled[i] = true;
    }
    out[first_list] = Value(std::move(l));
    filled[first_list] = true;
  } else {
    if (nargs > npositional) {
      why = "takes " + std::to_string(npositional) + " positional arguments but " +
            std::to_string(nargs) + " were given";
      return false;
    }
    for (size_t i = 0; i < nargs; ++i) {
      if (!convert_arg(schema.args[i], args[i], out[i], dims_of)) {
        why = "argument '" + schema.args[i].name + "' (position " + std::to_string(i + 1) +
              ") must be " + type_label(schema.args[i].type) + ", not " + Py_TYPE(args[i])->tp_name;
        return false;
      }
      filled[i] = true;
    }
  }
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    const char* key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
    PyObject* value = args[nargs + k];
    size_t i = 0;
    // PyTorch spells the first tensor `input` in Python and `self` in schemas.
    while (i < nparams && schema.args[i].name != key &&
           !(schema.args[i].name == "self" && std::string(key) == "input"))
      ++i;
    if (i == nparams) return why = std::string("got an unexpected keyword argument '") + key + "'", false;
    if (filled[i]) return why = std::string("got multiple values for argument '") + key + "'", false;
    if (!convert_arg(schema.args[i], value, out[i], dims_of)) {
      why = "argument '" + schema.args[i].name + "' must be " + type_label(schema.args[i].type) +
            ", not " + Py_TYPE(value)->tp_name;
      return false;
    }
    filled[i] = true;
  }
  for (size_t i = 0; i < nparams; ++i) {
    if (filled[i]) continue;
    if (!schema.args[i].has_default && !schema.args[i].optional) {
      why = "missing required argument '" + schema.args[i].name + "'";
      return false;
    }
    out[i] = schema.args[i].default_value;
  }
  return true;
}

std::string describe_schema(const Schema& schema) {
  std::string s = schema.name + "(";
  bool kw = false;
  for (size_t i = 0; i < schema.args.size(); ++i) {
    const ArgSpec& a = schema.args[i];
    if (i) s += ", ";
    if (a.kwarg_only && !kw) s += "*, ", kw = true;
    s += std::string(type_label(a.type)) + (a.optional ? "?" : "") + " " +
         (a.name == "self" ? "input" : a.name);
  }
  return s + ")";
}

std::string describe_args(PyObject* const* args, size_t nargs, PyObject* kwnames) {
  std::string s = "(";
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (size_t i = 0; i < nargs + nkw; ++i) {
    if (i) s += ", ";
    if (i >= nargs) s += std::string(PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i - nargs))) + "=";
    s += is_tensor(args[i]) ? "Tensor" : Py_TYPE(args[i])->tp_name;
  }
  return s + ")";
}

}  // namespace tz::py
