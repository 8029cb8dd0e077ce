// `core.memory_format` objects: core.contiguous_format, core.preserve_format,
// core.channels_last, core.channels_last_3d (one immortal instance each).
#pragma once
#include <Python.h>

#include <optional>

#include "tensor/memory_format.h"

namespace tz::py {

std::optional<MemoryFormat> memory_format_from_object(PyObject* obj);
void init_memory_formats(PyObject* module);

}  // namespace tz::py
