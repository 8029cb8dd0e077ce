// Python arguments -> boxed Values, following an op's Schema (positional, keyword,
// defaults, varargs int lists, Python numbers as wrapped 0-dim tensors).
#pragma once
#include <Python.h>

#include <string>

#include "ops/schema.h"

namespace tz::py {

// Returns false (with `why` filled) when the arguments don't fit this schema; other
// problems (a Python error while converting) throw.
bool parse_args(const Schema& schema, PyObject* const* args, size_t nargs, PyObject* kwnames,
                Stack& out, std::string& why);

// Python object -> Value for one parameter type; false if the type does not fit.
// `dims_of`: the tensor whose dim names a str given for a dim argument (`sum('C')`) names.
bool convert_arg(const ArgSpec& spec, PyObject* obj, Value& out, const Tensor* dims_of = nullptr);

// Python-facing rendering of a schema, for error messages: "add(Tensor input, Tensor other, *, Number alpha)".
std::string describe_schema(const Schema& schema);
// Type names of actual arguments, for error messages: "(Tensor, str)".
std::string describe_args(PyObject* const* args, size_t nargs, PyObject* kwnames);

}  // namespace tz::py
