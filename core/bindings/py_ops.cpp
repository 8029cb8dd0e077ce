#include "bindings/py_ops.h"

#include <map>
#include <string>
#include <vector>

#include "bindings/py_args.h"
#include "bindings/py_dtype.h"
#include "bindings/py_errors.h"
#include "bindings/py_nogil.h"
#include "autograd/autograd_meta.h"
#include "autograd/op_node.h"
#include "bindings/py_tensor.h"
#include "ops/name_inference.h"
#include "ops/registry.h"
#include "tensor/names.h"

namespace tz::py {

namespace {

struct PyOp {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  std::vector<const Op*>* overloads;
  PyObject* name;
  bool creates;  // a factory or a *_like form: takes device=, requires_grad=, ...
};

PyTypeObject PyOpType = {PyVarObject_HEAD_INIT(nullptr, 0)};

// Named tuples for ops that return several named values (max.dim -> values, indices).
std::map<const Op*, PyObject*> g_return_types;

PyObject* scalar_to_py(const Scalar& s) {
  if (s.is_bool()) return PyBool_FromLong(s.to_bool());
  if (s.is_integral()) return PyLong_FromLongLong(s.to_int());
  if (s.is_complex()) {
    complex128 c = s.to_complex128();
    return PyComplex_FromDoubles(c.real(), c.imag());
  }
  return PyFloat_FromDouble(s.to_double());
}

PyObject* value_to_py(const Value& v, const Op* op);

PyObject* tuple_to_py(const Value::Tuple& items, const Op* op) {
  PyObject* tup = PyTuple_New(static_cast<Py_ssize_t>(items.size()));
  for (size_t i = 0; i < items.size(); ++i) {
    PyObject* item = value_to_py(items[i], nullptr);
    if (!item) return Py_DECREF(tup), nullptr;
    PyTuple_SET_ITEM(tup, i, item);
  }
  auto it = op ? g_return_types.find(op) : g_return_types.end();
  if (it == g_return_types.end()) return tup;
  PyObject* named = PyObject_Call(it->second, tup, nullptr);
  Py_DECREF(tup);
  return named;
}

PyObject* value_to_py(const Value& v, const Op* op) {
  if (v.is_none()) Py_RETURN_NONE;
  if (v.is_tensor()) return wrap(v.tensor());
  if (v.holds<Scalar>()) return scalar_to_py(v.scalar());
  if (v.holds<int64_t>()) return PyLong_FromLongLong(v.to_int());
  if (v.holds<double>()) return PyFloat_FromDouble(v.to_double());
  if (v.holds<bool>()) return PyBool_FromLong(v.to_bool());
  if (v.holds<std::string>()) return PyUnicode_FromString(v.str().c_str());
  if (v.holds<DType>()) return new_ref(dtype_object(v.dtype()));
  if (v.holds<IntList>()) {
    const IntList& l = v.int_list();
    PyObject* tup = PyTuple_New(static_cast<Py_ssize_t>(l.size()));
    for (size_t i = 0; i < l.size(); ++i) PyTuple_SET_ITEM(tup, i, PyLong_FromLongLong(l[i]));
    return tup;
  }
  if (v.holds<TensorList>()) {
    const TensorList& l = v.tensor_list();
    PyObject* tup = PyTuple_New(static_cast<Py_ssize_t>(l.size()));
    for (size_t i = 0; i < l.size(); ++i) PyTuple_SET_ITEM(tup, i, wrap(l[i]));
    return tup;
  }
  if (v.is_tuple()) return tuple_to_py(v.tuple(), op);
  PyErr_SetString(PyExc_RuntimeError, "op returned a value Python cannot represent");
  return nullptr;
}

PyObject* op_vectorcall_schema(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames);

// Ops on small tensors and numbers keep the GIL: they finish in a microsecond or two, about
// what releasing and retaking it costs. Larger tensors, and sizes or lists (which can make
// large outputs), let other Python threads run meanwhile.
constexpr int64_t kHoldGilMaxElements = 4096;
bool may_run_long(const Stack& args) {
  for (const Value& v : args) {
    if (v.is_tensor()) {
      if (v.tensor().defined() && v.tensor().numel() > kHoldGilMaxElements) return true;
    } else if (!(v.is_none() || v.holds<Scalar>() || v.holds<bool>() || v.holds<double>() || v.holds<DType>())) {
      return true;
    }
  }
  return false;
}

// Keywords PyTorch's ops take beside their schemas. Tensor-creating ops (factories and the *_like
// forms) take TensorOptions: requires_grad is applied to the result; device, pin_memory and
// layout are checked by core/_device.py (tensors live on the CPU) and dropped. Ops whose PyTorch
// schema has an out= variant take `out`: the result is written into it by core/_out.py.
enum Extra { kRequiresGrad, kDevice, kPinMemory, kLayout, kNames, kOut, kNumExtra };
const char* const kExtraNames[kNumExtra] = {"requires_grad", "device", "pin_memory", "layout", "names", "out"};

PyObject* g_check_options = nullptr;  // core._device._check_options(op, device, pin_memory, layout)
PyObject* g_out_ops = nullptr;        // frozenset of the op names that take out=
PyObject* g_write_out = nullptr;      // core._out.write_out(op, result, out) -> out

// factories' names=: a sequence of str or None, one per dim.
DimNames names_from_py(PyObject* seq) {
  PyObject* fast = PySequence_Fast(seq, "names must be a tuple or list of str or None");
  if (!fast) throw_python_error();
  DimNames names;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(fast, i);
    if (item == Py_None) names.emplace_back();
    else if (PyUnicode_Check(item)) names.emplace_back(PyUnicode_AsUTF8(item));
    else {
      Py_DECREF(fast);
      throw Error(ErrorKind::Type, std::string("names must be a tuple or list of str or None, got ") +
                                       Py_TYPE(item)->tp_name);
    }
  }
  Py_DECREF(fast);
  return names;
}

bool takes_extra(const PyOp* op, int extra) {
  if (extra == kOut) return g_out_ops && PySet_Contains(g_out_ops, op->name) == 1;
  return op->creates;
}

PyObject* call_with_extra_keywords(PyObject* self, PyObject* const* args, size_t nargs, PyObject* kwnames,
                                   PyObject* const (&extra)[kNumExtra]) {
  auto* op = reinterpret_cast<PyOp*>(self);
  if (extra[kDevice] || extra[kPinMemory] || extra[kLayout]) {
    if (!g_check_options) {
      PyErr_SetString(PyExc_RuntimeError, "core._device is not initialised");
      return nullptr;
    }
    PyObject* none = Py_None;
    PyObject* ok = PyObject_CallFunctionObjArgs(g_check_options, op->name, extra[kDevice] ? extra[kDevice] : none,
                                                extra[kPinMemory] ? extra[kPinMemory] : none,
                                                extra[kLayout] ? extra[kLayout] : none, nullptr);
    if (!ok) return nullptr;
    Py_DECREF(ok);
  }
  int requires_grad = extra[kRequiresGrad] ? PyObject_IsTrue(extra[kRequiresGrad]) : 0;
  if (requires_grad < 0) return nullptr;
  // The schema's own arguments: positionals, then the keywords that are not extras.
  std::vector<PyObject*> rest(args, args + nargs);
  Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
  PyObject* names = PyList_New(0);
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    bool is_extra = false;
    for (int e = 0; e < kNumExtra && !is_extra; ++e)
      is_extra = extra[e] == args[nargs + k] && PyUnicode_CompareWithASCIIString(key, kExtraNames[e]) == 0;
    if (is_extra) continue;
    PyList_Append(names, key);
    rest.push_back(args[nargs + k]);
  }
  PyObject* name_tuple = PyList_AsTuple(names);
  Py_DECREF(names);
  PyObject* out = op_vectorcall_schema(self, rest.data(), nargs, PyTuple_GET_SIZE(name_tuple) ? name_tuple : nullptr);
  Py_DECREF(name_tuple);
  if (out && extra[kNames] && extra[kNames] != Py_None && is_tensor(out)) {
    TZ_PY_BEGIN
    DimNames names = names_from_py(extra[kNames]);
    set_names(unwrap(out), &names);
    TZ_PY_END((Py_DECREF(out), nullptr))
  }
  if (out && requires_grad && is_tensor(out)) {
    TZ_PY_BEGIN
    autograd::set_requires_grad(unwrap(out), true);
    TZ_PY_END((Py_DECREF(out), nullptr))
  }
  if (out && extra[kOut]) {
    PyObject* written = PyObject_CallFunctionObjArgs(g_write_out, op->name, out, extra[kOut], nullptr);
    Py_DECREF(out);
    return written;
  }
  return out;
}

// The extras among the keywords this op takes; false when there are none (the common case).
bool find_extra_keywords(const PyOp* op, PyObject* const* kwargs, PyObject* kwnames, PyObject* (&extra)[kNumExtra]) {
  if (!kwnames || op->overloads->empty()) return false;
  bool any = false;
  for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    for (int e = 0; e < kNumExtra; ++e) {
      if (PyUnicode_CompareWithASCIIString(key, kExtraNames[e]) == 0 && takes_extra(op, e)) {
        extra[e] = kwargs[k];
        any = true;
      }
    }
  }
  return any;
}

// PyTorch's __torch_function__ protocol: an argument that is not a tensor but whose type
// defines __torch_function__ (core.fx.Proxy) takes the call over. Looked for only once no
// overload accepted the arguments, so calls on tensors never pay for it.
PyObject* torch_function_handler(PyObject* o) {
  if (is_tensor(o) || o == Py_None || PyLong_Check(o) || PyFloat_Check(o) || PyUnicode_Check(o)) return nullptr;
  PyObject* handler = PyObject_GetAttrString(reinterpret_cast<PyObject*>(Py_TYPE(o)), "__torch_function__");
  if (!handler) PyErr_Clear();
  return handler;
}

bool call_torch_function(PyObject* self, PyObject* const* args, size_t nargs, PyObject* kwnames, PyObject*& result) {
  size_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  PyObject* handler = nullptr;
  PyObject* owner = nullptr;
  for (size_t i = 0; i < total && !handler; ++i) {
    handler = torch_function_handler(owner = args[i]);
    if (!handler && (PyList_Check(args[i]) || PyTuple_Check(args[i]))) {
      for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(args[i]) && !handler; ++k)
        handler = torch_function_handler(owner = PySequence_Fast_ITEMS(args[i])[k]);
    }
  }
  if (!handler) return false;
  PyObject* positional = PyTuple_New(static_cast<Py_ssize_t>(nargs));
  for (size_t i = 0; i < nargs; ++i) PyTuple_SET_ITEM(positional, i, new_ref(args[i]));
  PyObject* keywords = PyDict_New();
  for (size_t k = nargs; k < total; ++k) PyDict_SetItem(keywords, PyTuple_GET_ITEM(kwnames, k - nargs), args[k]);
  PyObject* types = PyTuple_Pack(1, reinterpret_cast<PyObject*>(Py_TYPE(owner)));
  result = PyObject_CallFunctionObjArgs(handler, self, types, positional, keywords, nullptr);
  Py_DECREF(types);
  Py_DECREF(keywords);
  Py_DECREF(positional);
  Py_DECREF(handler);
  return true;
}

PyObject* op_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  size_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* extra[kNumExtra] = {};
  if (find_extra_keywords(reinterpret_cast<PyOp*>(self), args + nargs, kwnames, extra))
    return call_with_extra_keywords(self, args, nargs, kwnames, extra);
  return op_vectorcall_schema(self, args, nargsf, kwnames);
}

// Calls the first overload whose schema matches the arguments.
PyObject* op_vectorcall_schema(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* op = reinterpret_cast<PyOp*>(self);
  size_t nargs = PyVectorcall_NARGS(nargsf);
  TZ_PY_BEGIN
  Stack stack;
  std::string why, first_why;
  for (const Op* candidate : *op->overloads) {
    if (!parse_args(candidate->schema, args, nargs, kwnames, stack, why)) {
      if (first_why.empty()) first_why = why;
      continue;
    }
    Value result;
    const bool named = any_named(stack);  // unnamed calls pay this one scan
    if (named) [[unlikely]] check_names_before(*candidate, stack);
    if (!may_run_long(stack)) {
      result = call_op(*candidate, stack);
    } else {
      WithoutGil nogil;  // kernels never touch Python objects: let other Python threads run
      result = call_op(*candidate, stack);
    }
    if (named) [[unlikely]]
      for (const Tensor& out : propagate_names(*candidate, stack, result)) autograd::note_names(out);
    return value_to_py(result, candidate);
  }
  if (PyObject* overridden = nullptr; call_torch_function(self, args, nargs, kwnames, overridden)) return overridden;
  std::string name = PyUnicode_AsUTF8(op->name);
  std::string msg;
  if (op->overloads->size() == 1) {
    msg = name + "(): " + first_why;
  } else {
    msg = name + "() received an invalid combination of arguments - got " +
          describe_args(args, nargs, kwnames) + ", but expected one of:";
    for (const Op* candidate : *op->overloads) msg += "\n * " + describe_schema(candidate->schema);
  }
  PyErr_SetString(PyExc_TypeError, msg.c_str());
  return nullptr;
  TZ_PY_END(nullptr)
}

// Bind like a Python function: `tensor.add` is `add` with self filled in.
PyObject* op_descr_get(PyObject* self, PyObject* obj, PyObject*) {
  if (obj == nullptr || obj == Py_None) return new_ref(self);
  return PyMethod_New(self, obj);
}

PyObject* op_repr(PyObject* self) {
  return PyUnicode_FromFormat("<core op %U>", reinterpret_cast<PyOp*>(self)->name);
}

PyObject* op_get_name(PyObject* self, void*) { return new_ref(reinterpret_cast<PyOp*>(self)->name); }

PyObject* op_get_doc(PyObject* self, void*) {
  std::string doc;
  for (const Op* o : *reinterpret_cast<PyOp*>(self)->overloads) doc += describe_schema(o->schema) + "\n";
  return PyUnicode_FromString(doc.c_str());
}

PyObject* op_get_signatures(PyObject* self, void*) {
  auto* overloads = reinterpret_cast<PyOp*>(self)->overloads;
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(overloads->size()));
  for (size_t i = 0; i < overloads->size(); ++i)
    PyList_SET_ITEM(list, i, PyUnicode_FromString((*overloads)[i]->def.signature));
  return list;
}

PyObject* op_get_samples(PyObject* self, void*) {
  auto* overloads = reinterpret_cast<PyOp*>(self)->overloads;
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(overloads->size()));
  for (size_t i = 0; i < overloads->size(); ++i)
    PyList_SET_ITEM(list, i, PyUnicode_FromString((*overloads)[i]->def.sample));
  return list;
}

PyObject* op_get_name_rules(PyObject* self, void*) {
  static const char* rules[] = {"keep", "unify", "reduce", "permute", "contract",
                                "factory", "custom", "unsupported", "none"};
  auto* overloads = reinterpret_cast<PyOp*>(self)->overloads;
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(overloads->size()));
  for (size_t i = 0; i < overloads->size(); ++i)
    PyList_SET_ITEM(list, i, PyUnicode_FromString(rules[static_cast<int>((*overloads)[i]->def.names)]));
  return list;
}

// "yes" (has a formula), "no" (marked not differentiable) or "missing", per overload.
PyObject* op_get_derivatives(PyObject* self, void*) {
  auto* overloads = reinterpret_cast<PyOp*>(self)->overloads;
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(overloads->size()));
  for (size_t i = 0; i < overloads->size(); ++i) {
    const OpDef& def = (*overloads)[i]->def;
    const char* kind = def.backward == nullptr ? "missing" : def.backward == &not_differentiable ? "no"
                       : def.gradgrad ? "yes" : "first-order";
    PyList_SET_ITEM(list, i, PyUnicode_FromString(kind));
  }
  return list;
}

PyGetSetDef op_getset[] = {
    {"__name__", op_get_name, nullptr, nullptr, nullptr},
    {"__doc__", op_get_doc, nullptr, nullptr, nullptr},
    {"signatures", op_get_signatures, nullptr, "the op table signatures of every overload", nullptr},
    {"samples", op_get_samples, nullptr, "the sample kind of every overload (for tests)", nullptr},
    {"name_rules", op_get_name_rules, nullptr, "the named-tensor rule of every overload", nullptr},
    {"derivatives", op_get_derivatives, nullptr,
     "per overload: 'yes', 'first-order' (no double backward), 'no' (not differentiable) or 'missing'", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyObject* make_op(const std::string& name, std::vector<const Op*>* overloads) {
  PyOp* op = PyObject_New(PyOp, &PyOpType);
  op->vectorcall = op_vectorcall;
  op->overloads = overloads;  // owned by the (immortal) registry-derived tables below
  op->name = PyUnicode_FromString(name.c_str());
  bool like = name.size() > 5 && name.compare(name.size() - 5, 5, "_like") == 0;
  op->creates = like || (!overloads->empty() && overloads->front()->def.names == NameRule::Factory);
  return reinterpret_cast<PyObject*>(op);
}

void make_return_type(const Op& op, PyObject* namedtuple) {
  if (!op.schema.returns_tuple || op.schema.returns.empty() || op.schema.returns[0].name.empty()) return;
  PyObject* fields = PyList_New(0);
  for (const ReturnSpec& r : op.schema.returns) {
    PyObject* f = PyUnicode_FromString(r.name.c_str());
    PyList_Append(fields, f);
    Py_DECREF(f);
  }
  PyObject* type = PyObject_CallFunction(namedtuple, "sO", op.schema.name.c_str(), fields);
  Py_DECREF(fields);
  if (!type) throw_python_error();
  PyObject_SetAttrString(type, "__module__", PyUnicode_FromString("core.return_types"));
  g_return_types[&op] = type;
}

// _C._op(name): a callable for the registry's overloads of `name`, including ops that
// extension modules (audio._C, ...) registered after core._C was built.
PyObject* op_by_name(PyObject*, PyObject* arg) {
  const char* name = PyUnicode_AsUTF8(arg);
  if (!name) return nullptr;
  static std::map<std::string, std::vector<const Op*>> made;  // callables keep pointers into it
  std::vector<const Op*>& overloads = made[name];
  if (overloads.empty()) overloads = OpRegistry::get().overloads(name);
  if (overloads.empty()) {
    made.erase(name);
    PyErr_Format(PyExc_AttributeError, "no op named '%s' in the op table", name);
    return nullptr;
  }
  return make_op(name, &overloads);
}

PyMethodDef op_by_name_def = {"_op", op_by_name, METH_O,
                              "_op(name): the op table's callable for `name` (ops extension modules added too)"};

// _C._set_keyword_hooks(check_options, out_ops, write_out): core/__init__.py installs them.
PyObject* set_keyword_hooks(PyObject*, PyObject* args) {
  PyObject *check, *names, *write;
  if (!PyArg_ParseTuple(args, "OO!O", &check, &PyFrozenSet_Type, &names, &write)) return nullptr;
  for (PyObject** slot : {&g_check_options, &g_out_ops, &g_write_out}) Py_XDECREF(*slot);
  g_check_options = new_ref(check);
  g_out_ops = new_ref(names);
  g_write_out = new_ref(write);
  Py_RETURN_NONE;
}

PyMethodDef set_keyword_hooks_def = {"_set_keyword_hooks", set_keyword_hooks, METH_VARARGS,
                                     "_set_keyword_hooks(check_options, out_ops, write_out)"};

}  // namespace

PyObject* value_to_python(const Value& v) { return value_to_py(v, nullptr); }

void init_ops(PyObject* module) {
  PyTypeObject& t = PyOpType;
  t.tp_name = "core._C._Op";
  t.tp_basicsize = sizeof(PyOp);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR;
  t.tp_vectorcall_offset = offsetof(PyOp, vectorcall);
  t.tp_call = PyVectorcall_Call;
  t.tp_descr_get = op_descr_get;
  t.tp_repr = op_repr;
  t.tp_getset = op_getset;
  if (PyType_Ready(&t) < 0) throw_python_error();

  PyObject* collections = PyImport_ImportModule("collections");
  if (!collections) throw_python_error();
  PyObject* namedtuple = PyObject_GetAttrString(collections, "namedtuple");
  Py_DECREF(collections);

  // Overload lists per variant, kept for the life of the process.
  // kInternal entries go to _C._internal: Python layers (core.nn.functional) call the ops
  // PyTorch keeps out of the torch namespace (torch._C._nn.gelu...) from there.
  static std::map<std::string, std::vector<const Op*>> functions, methods, internal;
  for (const Op& op : OpRegistry::get().ops()) {
    if (op.def.variants & kFunction) functions[op.schema.name].push_back(&op);
    if (op.def.variants & kMethod) methods[op.schema.name].push_back(&op);
    if (op.def.variants == kInternal) internal[op.schema.name].push_back(&op);
    make_return_type(op, namedtuple);
  }
  Py_DECREF(namedtuple);
  auto make_dict = [](std::map<std::string, std::vector<const Op*>>& ops) {
    PyObject* dict = PyDict_New();
    for (auto& [name, overloads] : ops) {
      PyObject* f = make_op(name, &overloads);
      PyDict_SetItemString(dict, name.c_str(), f);
      Py_DECREF(f);
    }
    return dict;
  };
  PyModule_AddObject(module, "_functions", make_dict(functions));
  PyModule_AddObject(module, "_methods", make_dict(methods));
  PyModule_AddObject(module, "_internal", make_dict(internal));
  PyModule_AddObject(module, "_op", PyCFunction_NewEx(&op_by_name_def, nullptr, nullptr));
  PyModule_AddObject(module, "_set_keyword_hooks", PyCFunction_NewEx(&set_keyword_hooks_def, nullptr, nullptr));
}

}  // namespace tz::py
