// Python face of autograd: Tensor.requires_grad/grad/grad_fn/..., grad modes, the engine
// entry point, graph nodes (grad_fn objects), hooks, and nodes for Python Functions.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "autograd/accumulate_grad.h"
#include "autograd/autograd_meta.h"
#include "autograd/engine.h"
#include "autograd/grad_mode.h"
#include "autograd/op_node.h"
#include "bindings/module.h"
#include "bindings/py_errors.h"
#include "bindings/py_nogil.h"
#include "bindings/py_tensor.h"
#include "ops/ops.h"

namespace tz {
namespace autograd {
extern std::string (*g_anomaly_traceback)();
}

namespace py {

namespace pyb = pybind11;
using namespace autograd;

namespace {

// ---- tensor <-> Python helpers for pybind11 code (our tensor type is a plain C type)

Tensor to_tensor(pyb::handle h, const char* what) {
  if (!is_tensor(h.ptr())) fail(ErrorKind::Type, what, ": expected a Tensor, got ", Py_TYPE(h.ptr())->tp_name);
  return unwrap(h.ptr());
}
pyb::object to_py(const Tensor& t) { return pyb::reinterpret_steal<pyb::object>(wrap(t)); }

TensorList to_tensor_list(pyb::handle seq, const char* what, bool allow_none) {
  TensorList out;
  for (pyb::handle item : seq) {
    if (allow_none && item.is_none()) out.push_back(Tensor());
    else out.push_back(to_tensor(item, what));
  }
  return out;
}

pyb::tuple to_py_tuple(const TensorList& list) {
  pyb::tuple out(list.size());
  for (size_t i = 0; i < list.size(); ++i) out[i] = to_py(list[i]);
  return out;
}

// ---- Tensor properties (installed on _TensorBase)

PyObject* get_requires_grad(PyObject* self, void*) { return PyBool_FromLong(requires_grad(unwrap(self))); }
int set_requires_grad_prop(PyObject* self, PyObject* value, void*) {
  TZ_PY_BEGIN
  if (!value || !PyBool_Check(value)) {
    PyErr_SetString(PyExc_TypeError, "requires_grad must be a bool");
    return -1;
  }
  set_requires_grad(unwrap(self), value == Py_True);
  return 0;
  TZ_PY_END(-1)
}
PyObject* get_grad(PyObject* self, void*) {
  AutogradMeta* m = meta(unwrap(self));
  return wrap(m ? m->grad : Tensor());
}
int set_grad(PyObject* self, PyObject* value, void*) {
  TZ_PY_BEGIN
  const Tensor& t = unwrap(self);
  if (!value || value == Py_None) {
    if (AutogradMeta* m = meta(t)) m->grad = Tensor();
    return 0;
  }
  if (!is_tensor(value)) {
    PyErr_SetString(PyExc_TypeError, "assigned grad expected to be a Tensor or None");
    return -1;
  }
  const Tensor& g = unwrap(value);
  TZ_CHECK(g.dtype() == t.dtype(), Runtime, "assigned grad has data of a different type");
  TZ_CHECK(g.sizes() == t.sizes(), Runtime, "assigned grad has data of a different size");
  ensure_meta(t).grad = g;
  return 0;
  TZ_PY_END(-1)
}
PyObject* get_grad_fn(PyObject* self, void*) {
  TZ_PY_BEGIN
  const NodePtr& fn = grad_fn(unwrap(self));
  if (!fn) Py_RETURN_NONE;
  return pyb::cast(fn).release().ptr();
  TZ_PY_END(nullptr)
}
PyObject* get_is_leaf(PyObject* self, void*) { return PyBool_FromLong(is_leaf(unwrap(self))); }
PyObject* get_retains_grad(PyObject* self, void*) {
  AutogradMeta* m = meta(unwrap(self));
  return PyBool_FromLong(m && m->retains_grad);
}
PyObject* get_output_nr(PyObject* self, void*) {
  AutogradMeta* m = meta(unwrap(self));
  return PyLong_FromLong(m ? m->output_nr : 0);
}

PyGetSetDef autograd_getset[] = {
    {"requires_grad", get_requires_grad, set_requires_grad_prop, "whether gradients are computed for this tensor", nullptr},
    {"grad", get_grad, set_grad, "the accumulated gradient", nullptr},
    {"grad_fn", get_grad_fn, nullptr, "the backward node that produced this tensor", nullptr},
    {"is_leaf", get_is_leaf, nullptr, "whether this tensor was not produced by a recorded op", nullptr},
    {"retains_grad", get_retains_grad, nullptr, "whether a non-leaf keeps its .grad", nullptr},
    {"output_nr", get_output_nr, nullptr, "which output of grad_fn this tensor is", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

void install_tensor_properties() {
  PyObject* dict = PyTensorBaseType.tp_dict;
  for (PyGetSetDef* def = autograd_getset; def->name; ++def) {
    PyObject* descr = PyDescr_NewGetSet(&PyTensorBaseType, def);
    PyDict_SetItemString(dict, def->name, descr);
    Py_DECREF(descr);
  }
  PyType_Modified(&PyTensorBaseType);
}

// Calls a Python hook fn(grad) -> grad or None, under the GIL.
Tensor call_tensor_hook(const pyb::object& fn, const Tensor& grad) {
  pyb::gil_scoped_acquire gil;
  pyb::object result = fn(to_py(grad));
  if (result.is_none()) return grad;
  Tensor out = to_tensor(result, "hook");
  TZ_CHECK(out.dtype() == grad.dtype(), Runtime, "hook 'hook' has changed the type of value (was CPU",
           scalar_type_name(grad.dtype()), "Type got CPU", scalar_type_name(out.dtype()), "Type)");
  TZ_CHECK(out.sizes() == grad.sizes(), Runtime, "hook 'hook' has changed the size of value");
  return out;
}

// The per-output gradient hook of a non-leaf lives on its grad_fn; a leaf's on its meta.
uint64_t register_tensor_hook(const Tensor& t, pyb::object fn) {
  TZ_CHECK(requires_grad(t), Runtime, "cannot register a hook on a tensor that doesn't require gradient");
  uint64_t id = next_hook_id();
  AutogradMeta& m = ensure_meta(t);
  if (!m.grad_fn) {
    m.hooks.push_back({id, [fn](const TensorList& grads, const TensorList&) {
                         TensorList out = grads;
                         if (!out.empty() && out[0].defined()) out[0] = call_tensor_hook(fn, out[0]);
                         return out;
                       }});
    return id;
  }
  uint32_t nr = m.output_nr;
  m.grad_fn->pre_hooks.push_back({id, [fn, nr](const TensorList& grads, const TensorList&) {
                                    TensorList out = grads;
                                    if (nr < out.size() && out[nr].defined()) out[nr] = call_tensor_hook(fn, out[nr]);
                                    return out;
                                  }});
  return id;
}

void remove_hook(HookList& hooks, uint64_t id) {
  for (auto it = hooks.begin(); it != hooks.end(); ++it)
    if (it->id == id) {
      hooks.erase(it);
      return;
    }
}

void retain_grad(const Tensor& t) {
  TZ_CHECK(requires_grad(t), Runtime, "can't retain_grad on Tensor that has requires_grad=False");
  AutogradMeta& m = ensure_meta(t);
  if (!m.grad_fn || m.retains_grad) return;
  m.retains_grad = true;
  std::weak_ptr<AutogradMeta> weak = t.impl()->autograd;
  uint32_t nr = m.output_nr;
  m.grad_fn->pre_hooks.push_back({next_hook_id(), [weak, nr](const TensorList& grads, const TensorList&) {
                                    auto meta = weak.lock();
                                    if (meta && nr < grads.size() && grads[nr].defined()) {
                                      std::lock_guard<std::mutex> lock(meta->mutex);
                                      meta->grad = meta->grad.defined() ? add(meta->grad, grads[nr]) : clone(grads[nr]);
                                    }
                                    return grads;
                                  }});
}

// ---- Nodes for Python autograd.Function: backward calls back into Python.

class PyFunctionNode final : public Node {
 public:
  PyFunctionNode(pyb::object ctx, std::string name) : ctx_(std::move(ctx)), name_(std::move(name)) {}
  ~PyFunctionNode() override {
    pyb::gil_scoped_acquire gil;
    ctx_ = pyb::object();
  }
  std::string name() const override { return name_; }
  TensorList apply(TensorList&& grads) override {
    pyb::gil_scoped_acquire gil;
    pyb::tuple args(grads.size());
    for (size_t i = 0; i < grads.size(); ++i) args[i] = to_py(grads[i]);
    pyb::object result = ctx_.attr("_call_backward")(*args);
    return to_tensor_list(result, "backward", /*allow_none=*/true);
  }
  void release_variables() override {
    pyb::gil_scoped_acquire gil;
    ctx_.attr("_release")();
  }
  const pyb::object& ctx() const { return ctx_; }

 private:
  pyb::object ctx_;
  std::string name_;
};

std::string python_traceback() {
  pyb::gil_scoped_acquire gil;
  try {
    pyb::object tb = pyb::module_::import("traceback");
    return pyb::str("").attr("join")(tb.attr("format_stack")()).cast<std::string>();
  } catch (...) {
    return "";
  }
}

}  // namespace

void init_autograd(pyb::module_& m) {
  install_tensor_properties();
  autograd::g_anomaly_traceback = &python_traceback;

  m.def("_set_grad_enabled", [](bool b) { GradMode::set_enabled(b); });
  m.def("is_grad_enabled", [] { return GradMode::is_enabled(); });
  m.def("_set_inference_mode", [](bool b) { InferenceMode::set_enabled(b); });
  m.def("is_inference_mode_enabled", [] { return InferenceMode::is_enabled(); });
  m.def("_set_anomaly_enabled", [](bool b) { AnomalyMode::set_enabled(b); });
  m.def("is_anomaly_enabled", [] { return AnomalyMode::is_enabled(); });

  m.def("_run_backward", [](pyb::sequence tensors, pyb::sequence grads, bool keep_graph, bool create_graph,
                            pyb::sequence inputs, bool allow_unused, bool accumulate_grad) {
    TensorList roots = to_tensor_list(tensors, "backward", false);
    TensorList grad_roots = to_tensor_list(grads, "backward", true);
    TensorList ins = to_tensor_list(inputs, "backward", false);
    BackwardOptions options{keep_graph, create_graph, accumulate_grad, allow_unused};
    TensorList result;
    {
      pyb::gil_scoped_release release;
      result = run_backward(roots, grad_roots, ins, options);
    }
    pyb::list out;
    for (const Tensor& t : result) out.append(to_py(t));
    return out;
  });

  m.def("_requires_grad_", [](pyb::handle t, bool b) { set_requires_grad(to_tensor(t, "requires_grad_"), b); });
  m.def("_detach", [](pyb::handle t) { return to_py(detach(to_tensor(t, "detach"))); });
  // Tensor.data = new: self takes new's storage and geometry, keeping its autograd identity.
  m.def("_set_data", [](pyb::handle t, pyb::handle n) {
    Tensor self = to_tensor(t, "set_data"), other = to_tensor(n, "set_data");
    TensorImpl* dst = self.impl();
    const TensorImpl* src = other.impl();
    auto no_kernel_running = lock_for_tensor_swap();
    dst->storage = src->storage;
    dst->sizes = src->sizes;
    dst->strides = src->strides;
    dst->offset = src->offset;
    dst->dtype = src->dtype;
    dst->quantizer = src->quantizer;
    dst->refresh_contiguous();
  });
  m.def("_detach_", [](pyb::handle t) {
    Tensor x = to_tensor(t, "detach_");
    if (AutogradMeta* meta = autograd::meta(x)) {
      meta->grad_fn = nullptr;
      meta->requires_grad = false;
      meta->output_nr = 0;
      meta->view.reset();  // no longer a view autograd tracks
    }
  });
  m.def("_retain_grad", [](pyb::handle t) { retain_grad(to_tensor(t, "retain_grad")); });
  m.def("_register_hook", [](pyb::handle t, pyb::object fn) { return register_tensor_hook(to_tensor(t, "register_hook"), fn); });
  m.def("_remove_tensor_hook", [](pyb::handle t, uint64_t id) {
    Tensor x = to_tensor(t, "remove");
    if (AutogradMeta* meta = autograd::meta(x)) {
      remove_hook(meta->hooks, id);
      if (meta->grad_fn) remove_hook(meta->grad_fn->pre_hooks, id);
    }
  });

  // grad_fn objects.
  pyb::class_<Node, NodePtr>(m, "_Node")
      .def("name", &Node::name)
      .def_property_readonly("next_functions", [](const Node& n) {
        pyb::tuple out(n.next_edges.size());
        for (size_t i = 0; i < n.next_edges.size(); ++i) {
          const Edge& e = n.next_edges[i];
          out[i] = pyb::make_tuple(e.fn ? pyb::cast(e.fn) : pyb::none(), e.input_nr);
        }
        return out;
      })
      .def_property_readonly("variable", [](const Node& n) -> pyb::object {
        if (auto* acc = dynamic_cast<const AccumulateGrad*>(&n)) return to_py(acc->variable());
        throw pyb::attribute_error("only AccumulateGrad nodes have a variable");
      })
      .def("register_hook", [](Node& n, pyb::object fn) {
        uint64_t id = next_hook_id();
        n.post_hooks.push_back({id, [fn](const TensorList& grad_inputs, const TensorList& grad_outputs) {
                                  pyb::gil_scoped_acquire gil;
                                  pyb::object r = fn(to_py_tuple(grad_inputs), to_py_tuple(grad_outputs));
                                  return r.is_none() ? grad_inputs : to_tensor_list(r, "hook", true);
                                }});
        return id;
      })
      .def("register_prehook", [](Node& n, pyb::object fn) {
        uint64_t id = next_hook_id();
        n.pre_hooks.push_back({id, [fn](const TensorList& grad_outputs, const TensorList&) {
                                 pyb::gil_scoped_acquire gil;
                                 pyb::object r = fn(to_py_tuple(grad_outputs));
                                 return r.is_none() ? grad_outputs : to_tensor_list(r, "hook", true);
                               }});
        return id;
      })
      .def("_remove_hook", [](Node& n, uint64_t id) {
        remove_hook(n.pre_hooks, id);
        remove_hook(n.post_hooks, id);
      })
      .def("__repr__", [](const Node& n) { return "<" + n.name() + " object>"; })
      .def_property_readonly("_anomaly_trace", [](const Node& n) { return n.anomaly_trace; });

  // Python autograd.Function support: a node whose backward is ctx._call_backward(*grads).
  pyb::class_<PyFunctionNode, Node, std::shared_ptr<PyFunctionNode>>(m, "_FunctionNode")
      .def_property_readonly("ctx", &PyFunctionNode::ctx);
  m.def("_record_function", [](pyb::object ctx, std::string name, pyb::sequence inputs, pyb::sequence outputs) {
    auto node = std::make_shared<PyFunctionNode>(ctx, name);
    for (pyb::handle h : inputs) {
      if (is_tensor(h.ptr())) node->next_edges.push_back(gradient_edge(unwrap(h.ptr())));
      else node->next_edges.push_back(Edge{});
    }
    uint32_t nr = 0;
    node->outputs.resize(pyb::len(outputs));  // every output position gets a gradient slot
    for (pyb::handle h : outputs) {
      if (!h.is_none()) {
        Tensor out = to_tensor(h, "Function.apply");
        if (is_floating(out.dtype()) || is_complex(out.dtype())) set_history(out, node, nr);
      }
      nr++;
    }
    if (AnomalyMode::is_enabled()) node->anomaly_trace = python_traceback();
    return NodePtr(node);
  });
}

}  // namespace py
}  // namespace tz
