// core.distributed's per-call fast path: a blocking in-place MPI_Allreduce of a contiguous
// tensor in one call from Python, into the MPI library that mpi4py loaded. A large all-reduce
// leaves the caches cold, and mpi4py's argument parsing plus a buffer-protocol holder then cost
// microseconds each (1 MB on 2 ranks took 1.09-1.14x raw mpi4py's time through them).
#include <Python.h>
#include <dlfcn.h>
#include <pybind11/pybind11.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "bindings/module.h"
#include "bindings/py_nogil.h"
#include "bindings/py_tensor.h"

namespace tz::py {

namespace pyb = pybind11;

namespace {

// MPI handles (communicator, datatype, op) are ints in MPICH's ABI and pointers in Open MPI's and
// the MPI 5 standard ABI; mpi4py hands them over as Python ints.
template <typename Handle>
using AllreduceFn = int (*)(const void*, void*, int, Handle, Handle, Handle);
using ErrorStringFn = int (*)(int, char*, int*);

struct MpiLibrary {
  void* allreduce = nullptr;  // MPI_Allreduce, an AllreduceFn of handles handle_bytes wide
  ErrorStringFn error_string = nullptr;
  void* in_place = nullptr;  // MPI_IN_PLACE
  int handle_bytes = 0;      // 0 until bound
};

MpiLibrary g_mpi;

// Finds MPI_Allreduce and MPI_Error_string where mpi4py's extension module (already loaded, at
// `module_path`) finds them: dlsym on its handle searches it and the libraries it depends on.
bool bind(const std::string& module_path, intptr_t in_place, int handle_bytes) {
  if (handle_bytes != 4 && handle_bytes != static_cast<int>(sizeof(void*))) return false;
  void* module = dlopen(module_path.c_str(), RTLD_LAZY | RTLD_NOLOAD);  // the reference is kept
  if (module == nullptr) return false;
  void* allreduce = dlsym(module, "MPI_Allreduce");
  void* error_string = dlsym(module, "MPI_Error_string");
  if (allreduce == nullptr || error_string == nullptr) {
    dlclose(module);
    return false;
  }
  g_mpi = {allreduce, reinterpret_cast<ErrorStringFn>(error_string), reinterpret_cast<void*>(in_place),
           handle_bytes};
  return true;
}

template <typename Handle>
int call_allreduce(void* data, int count, uint64_t datatype, uint64_t op, uint64_t comm) {
  auto fn = reinterpret_cast<AllreduceFn<Handle>>(g_mpi.allreduce);
  // Handles travel as integers: an int handle is their low 32 bits, a pointer all 64.
  auto handle = [](uint64_t h) {
    if constexpr (std::is_pointer_v<Handle>)
      return reinterpret_cast<Handle>(static_cast<uintptr_t>(h));
    else
      return static_cast<Handle>(static_cast<uint32_t>(h));
  };
  return fn(g_mpi.in_place, data, count, handle(datatype), handle(op), handle(comm));
}

// _mpi_all_reduce(tensor, datatype, op, comm) -> True once MPI_Allreduce(MPI_IN_PLACE, ...) has run
// over the tensor's elements; False, having done nothing, before _mpi_bind, for anything but a
// contiguous tensor, or past INT_MAX elements (the caller then takes mpi4py's path). An MPI error
// raises RuntimeError. A raw fast-call function: pybind11's dispatch would be one more cold layer.
PyObject* all_reduce(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 4) {
    PyErr_SetString(PyExc_TypeError, "_mpi_all_reduce() takes 4 arguments (tensor, datatype, op, comm)");
    return nullptr;
  }
  if (g_mpi.handle_bytes == 0 || !is_tensor(args[0])) Py_RETURN_FALSE;
  const Tensor tensor = unwrap(args[0]);  // a reference: the storage outlives the call
  const int64_t count = tensor.numel();
  if (!tensor.is_contiguous() || count > INT_MAX) Py_RETURN_FALSE;
  uint64_t handles[3];
  for (int i = 0; i < 3; ++i) {  // modulo 2^64: mpi4py gives negative int handles as unsigned
    handles[i] = PyLong_AsUnsignedLongLongMask(args[i + 1]);
    if (handles[i] == ~uint64_t(0) && PyErr_Occurred()) return nullptr;
  }
  int rc;
  {
    WithoutGil nogil;
    rc = g_mpi.handle_bytes == 4
             ? call_allreduce<int32_t>(tensor.raw_data(), static_cast<int>(count), handles[0], handles[1], handles[2])
             : call_allreduce<void*>(tensor.raw_data(), static_cast<int>(count), handles[0], handles[1], handles[2]);
  }
  if (rc != 0) {
    char text[8192] = "";  // above any MPI_MAX_ERROR_STRING
    int length = 0;
    if (g_mpi.error_string(rc, text, &length) != 0) snprintf(text, sizeof(text), "error code %d", rc);
    PyErr_Format(PyExc_RuntimeError, "all_reduce: MPI failed: %s", text);
    return nullptr;
  }
  Py_RETURN_TRUE;
}

PyMethodDef all_reduce_def = {"_mpi_all_reduce", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(all_reduce)),
                              METH_FASTCALL,
                              "_mpi_all_reduce(tensor, datatype, op, comm): in-place MPI_Allreduce of a contiguous "
                              "tensor (False: not done)"};

}  // namespace

void init_mpi(pyb::module_& m) {
  // _mpi_bind(module_path, in_place, handle_bytes) -> whether _mpi_all_reduce can call MPI now.
  m.def("_mpi_bind", &bind, pyb::arg("module_path"), pyb::arg("in_place"), pyb::arg("handle_bytes"));
  PyObject* fn = PyCFunction_NewEx(&all_reduce_def, nullptr, m.ptr());
  if (fn == nullptr || PyModule_AddObject(m.ptr(), "_mpi_all_reduce", fn) < 0) throw pyb::error_already_set();
}

}  // namespace tz::py
