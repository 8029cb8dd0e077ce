// core._C._JitProgram / _JitSlot: the Python face of jit/program.h. core.jit builds a program
// call by call, naming each op like Python calls it (name, args, kwargs); _JitSlot marks
// the arguments that are program values (with an example value, so the overload and the
// constants are chosen by the same argument parsing as a Python call).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/module.h"
#include "bindings/py_args.h"
#include "bindings/py_errors.h"
#include "bindings/py_ops.h"
#include "bindings/py_tensor.h"
#include "jit/program.h"

namespace tz::py {

namespace pyb = pybind11;

namespace {

struct JitSlot {
  int index;
  pyb::object example;
};

const JitSlot* as_slot(pyb::handle h) {
  return pyb::isinstance<JitSlot>(h) ? &h.cast<const JitSlot&>() : nullptr;
}

bool is_sequence(pyb::handle h) { return PyList_Check(h.ptr()) || PyTuple_Check(h.ptr()); }

// The argument with every slot replaced by its example value.
pyb::object example_of(pyb::handle h) {
  if (const JitSlot* s = as_slot(h)) return s->example;
  if (!is_sequence(h)) return pyb::reinterpret_borrow<pyb::object>(h);
  pyb::list items;
  for (pyb::handle item : h) items.append(example_of(item));
  return PyTuple_Check(h.ptr()) ? pyb::object(pyb::tuple(items)) : pyb::object(items);
}

jit::Operand operand_of(pyb::handle original, const Value& parsed) {
  jit::Operand o;
  if (const JitSlot* s = as_slot(original)) {
    o.kind = jit::Operand::Slot, o.slot = s->index;
    return o;
  }
  bool holds_slot = false;
  if (is_sequence(original))
    for (pyb::handle item : original) holds_slot |= as_slot(item) != nullptr;
  if (!holds_slot) {
    o.constant = parsed;
    return o;
  }
  o.kind = jit::Operand::List;
  for (pyb::handle item : original) {
    jit::Operand element;
    if (const JitSlot* s = as_slot(item)) element.kind = jit::Operand::Slot, element.slot = s->index;
    else if (is_tensor(item.ptr())) element.constant = Value(unwrap(item.ptr()));
    o.items.push_back(std::move(element));
  }
  return o;
}

// The overload of `name` that Python would call with these arguments, and its operands.
jit::Instr call_instr(const std::string& name, const pyb::tuple& args, const pyb::dict& kwargs) {
  std::vector<pyb::object> originals, examples;
  for (pyb::handle a : args) originals.push_back(pyb::reinterpret_borrow<pyb::object>(a));
  pyb::list names;
  for (auto item : kwargs) {
    names.append(item.first);
    originals.push_back(pyb::reinterpret_borrow<pyb::object>(item.second));
  }
  for (const pyb::object& o : originals) examples.push_back(example_of(o));
  std::vector<PyObject*> raw;
  for (const pyb::object& o : examples) raw.push_back(o.ptr());
  pyb::tuple kwnames(names);
  const size_t nargs = args.size();
  const auto& overloads = OpRegistry::get().overloads(name);
  TZ_CHECK(!overloads.empty(), Runtime, "jit program: no op named '", name, "' in the op table");
  std::string why, first_why;
  for (const Op* op : overloads) {
    Stack parsed;
    if (!parse_args(op->schema, raw.data(), nargs, kwargs.empty() ? nullptr : kwnames.ptr(), parsed, why)) {
      if (first_why.empty()) first_why = why;
      continue;
    }
    jit::Instr instr;
    instr.op = op;
    std::vector<pyb::handle> at(op->schema.args.size());
    for (size_t i = 0; i < nargs && i < at.size(); ++i) at[i] = originals[i];
    for (size_t k = 0; k < names.size(); ++k)
      at[op->arg_index(names[k].cast<std::string>())] = originals[nargs + k];
    for (size_t j = 0; j < at.size(); ++j)
      instr.args.push_back(at[j] ? operand_of(at[j], parsed[j]) : operand_of(pyb::none(), parsed[j]));
    return instr;
  }
  fail(ErrorKind::Type, "jit program: ", name, "(): ", first_why);
}

pyb::list run(const jit::Program& p, const pyb::args& inputs, std::vector<double>* seconds) {
  std::vector<Value> values;
  for (pyb::handle h : inputs) {
    TZ_CHECK(is_tensor(h.ptr()), Type, "jit program: inputs must be tensors, got ",
             Py_TYPE(h.ptr())->tp_name);
    values.push_back(Value(unwrap(h.ptr())));
  }
  std::vector<Value> outputs;
  {
    pyb::gil_scoped_release no_gil;  // kernels never touch Python objects
    outputs = p.run(std::move(values), seconds);
  }
  pyb::list result;
  for (const Value& v : outputs) result.append(pyb::reinterpret_steal<pyb::object>(value_to_python(v)));
  return result;
}

}  // namespace

void init_jit(pyb::module_& m) {
  pyb::class_<JitSlot>(m, "_JitSlot")
      .def(pyb::init<int, pyb::object>())
      .def_readonly("index", &JitSlot::index)
      .def_readonly("example", &JitSlot::example);
  pyb::class_<jit::Program>(m, "_JitProgram")
      .def(pyb::init<int>())
      .def("add_call",
           [](jit::Program& p, const std::string& name, const pyb::tuple& args, const pyb::dict& kwargs, int out,
              int take, std::vector<int> frees) {
             jit::Instr instr = call_instr(name, args, kwargs);
             instr.out = out, instr.take = take, instr.frees = std::move(frees);
             p.add(std::move(instr));
           })
      .def("add_take",
           [](jit::Program& p, int src, int index, int out, std::vector<int> frees) {
             jit::Instr instr;
             jit::Operand o;
             o.kind = jit::Operand::Slot, o.slot = src;
             instr.args.push_back(std::move(o));
             instr.take = index, instr.out = out, instr.frees = std::move(frees);
             p.add(std::move(instr));
           })
      .def("set_io", &jit::Program::set_io)
      .def("__len__", &jit::Program::size)
      .def("name", &jit::Program::name)
      .def("run", [](const jit::Program& p, const pyb::args& inputs) { return run(p, inputs, nullptr); })
      .def("run_profiled", [](const jit::Program& p, const pyb::args& inputs) {
        std::vector<double> seconds;
        pyb::list outputs = run(p, inputs, &seconds);
        return pyb::make_tuple(outputs, seconds);
      });
}

}  // namespace tz::py
