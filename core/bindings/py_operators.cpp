// Tensor's Python operators (+, -, *, /, //, %, **, &, |, ^, <<, >>, comparisons and their
// in-place and reflected forms) as C slots of _TensorBase: `a + b` reaches the op table without
// a Python frame in between. `x OP y` calls the op with (x, y) whichever operand is the tensor,
// so `2 - t` is sub(2, t). An operand that is neither a tensor nor a number gives
// NotImplemented, so `t == None` is False and `t + "a"` raises Python's usual TypeError.
#include "bindings/py_operators.h"

#include <stdexcept>
#include <string>

#include "bindings/py_errors.h"
#include "bindings/py_tensor.h"

namespace tz::py {

namespace {

enum Operator {
  kAdd, kSub, kMul, kDiv, kFloorDiv, kMod, kPow, kAnd, kOr, kXor, kLshift, kRshift,
  kEq, kNe, kLt, kLe, kGt, kGe, kNumOperators
};
// The op behind each operator, and the in-place method behind its `OP=` form.
constexpr const char* kOpNames[kNumOperators] = {
    "add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "eq", "ne", "lt", "le", "gt", "ge"};

PyObject* g_function[kNumOperators];  // _C._functions[name]
PyObject* g_inplace[kNumOperators];   // _C._methods[name + "_"] (arithmetic operators only)
PyObject* g_number_type;              // numbers.Number

// A TypeError from the op means "not for these operands" unless both are tensors or numbers.
PyObject* call(PyObject* op, PyObject* a, PyObject* b) {
  PyObject* args[2] = {a, b};
  PyObject* out = PyObject_Vectorcall(op, args, 2, nullptr);
  if (out || !PyErr_ExceptionMatches(PyExc_TypeError)) return out;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  for (PyObject* operand : {a, b}) {
    if (is_tensor(operand)) continue;
    int number = PyObject_IsInstance(operand, g_number_type);
    if (number == 0) {
      Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(traceback);
      Py_RETURN_NOTIMPLEMENTED;
    }
    if (number < 0) {
      Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(traceback);
      return nullptr;
    }
  }
  PyErr_Restore(type, value, traceback);
  return nullptr;
}

template <Operator op> PyObject* binary(PyObject* a, PyObject* b) { return call(g_function[op], a, b); }
// CPython also files a C type's nb_inplace_add under its Python subclasses' sq_inplace_concat,
// so NotImplemented from here would come back as the value of `t += [1]`: a foreign operand
// goes on to `t OP other` (other.__radd__ or Python's TypeError) right away instead.
constexpr binaryfunc kOutOfPlace[kNumOperators] = {
    PyNumber_Add, PyNumber_Subtract, PyNumber_Multiply, PyNumber_TrueDivide, PyNumber_FloorDivide,
    PyNumber_Remainder, nullptr, PyNumber_And, PyNumber_Or, PyNumber_Xor, PyNumber_Lshift, PyNumber_Rshift};

template <Operator op> PyObject* inplace(PyObject* a, PyObject* b) {
  PyObject* out = call(g_inplace[op], a, b);
  if (out != Py_NotImplemented) return out;
  Py_DECREF(out);
  return kOutOfPlace[op](a, b);
}

PyObject* power(PyObject* a, PyObject* b, PyObject* modulo) {
  if (modulo != Py_None) Py_RETURN_NOTIMPLEMENTED;  // three-argument pow()
  return call(g_function[kPow], a, b);
}
PyObject* inplace_power(PyObject* a, PyObject* b, PyObject* modulo) {
  if (modulo != Py_None) Py_RETURN_NOTIMPLEMENTED;
  PyObject* out = call(g_inplace[kPow], a, b);
  if (out != Py_NotImplemented) return out;
  Py_DECREF(out);
  return PyNumber_Power(a, b, Py_None);
}

PyObject* richcompare(PyObject* self, PyObject* other, int op) {
  switch (op) {
    case Py_EQ: return call(g_function[kEq], self, other);
    case Py_NE: return call(g_function[kNe], self, other);
    case Py_LT: return call(g_function[kLt], self, other);
    case Py_LE: return call(g_function[kLe], self, other);
    case Py_GT: return call(g_function[kGt], self, other);
    case Py_GE: return call(g_function[kGe], self, other);
  }
  Py_RETURN_NOTIMPLEMENTED;
}

PyNumberMethods g_number_methods = [] {
  PyNumberMethods m{};
  m.nb_add = binary<kAdd>, m.nb_inplace_add = inplace<kAdd>;
  m.nb_subtract = binary<kSub>, m.nb_inplace_subtract = inplace<kSub>;
  m.nb_multiply = binary<kMul>, m.nb_inplace_multiply = inplace<kMul>;
  m.nb_true_divide = binary<kDiv>, m.nb_inplace_true_divide = inplace<kDiv>;
  m.nb_floor_divide = binary<kFloorDiv>, m.nb_inplace_floor_divide = inplace<kFloorDiv>;
  m.nb_remainder = binary<kMod>, m.nb_inplace_remainder = inplace<kMod>;
  m.nb_power = power, m.nb_inplace_power = inplace_power;
  m.nb_and = binary<kAnd>, m.nb_inplace_and = inplace<kAnd>;
  m.nb_or = binary<kOr>, m.nb_inplace_or = inplace<kOr>;
  m.nb_xor = binary<kXor>, m.nb_inplace_xor = inplace<kXor>;
  m.nb_lshift = binary<kLshift>, m.nb_inplace_lshift = inplace<kLshift>;
  m.nb_rshift = binary<kRshift>, m.nb_inplace_rshift = inplace<kRshift>;
  return m;
}();

PyObject* item_of(PyObject* module, const char* dict_name, const std::string& key) {
  PyObject* dict = PyObject_GetAttrString(module, dict_name);
  if (!dict) throw_python_error();
  PyObject* item = PyDict_GetItemString(dict, key.c_str());
  Py_DECREF(dict);
  if (!item) throw std::runtime_error("core._C: no op '" + key + "' for a Tensor operator");
  Py_INCREF(item);  // kept for the life of the process
  return item;
}

}  // namespace

void init_operator_slots() {
  PyTensorBaseType.tp_as_number = &g_number_methods;
  PyTensorBaseType.tp_richcompare = richcompare;
}

void init_operators(PyObject* module) {
  for (int i = 0; i < kNumOperators; ++i) {
    g_function[i] = item_of(module, "_functions", kOpNames[i]);
    if (i < kEq) g_inplace[i] = item_of(module, "_methods", std::string(kOpNames[i]) + "_");
  }
  PyObject* numbers = PyImport_ImportModule("numbers");
  if (!numbers) throw_python_error();
  g_number_type = PyObject_GetAttrString(numbers, "Number");
  Py_DECREF(numbers);
  if (!g_number_type) throw_python_error();
}

}  // namespace tz::py
