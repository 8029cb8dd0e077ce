"""numpy's own OpenBLAS, held to one thread while core runs.

numpy wheels bundle an OpenBLAS with a thread pool of its own. Next to core's pool (DESIGN.md:
one thread pool per process) its spinning threads take the cores core's kernels were given,
so on import core sets that library to one thread through its C API (``openblas_set_num_threads``
under the name numpy's build gives it). numpy built on another BLAS is left as it is.
"""
import ctypes
import glob
import os

import numpy

# The setter and getter, by the symbol prefixes/suffixes of numpy's builds (scipy-openblas64 with
# 64-bit integers, scipy-openblas32, a plain OpenBLAS).
_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads", "openblas_set_num_threads64_",
            "openblas_set_num_threads")
_GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads", "openblas_get_num_threads64_",
            "openblas_get_num_threads")


def _bundled_libraries():
    """The OpenBLAS libraries shipped inside the numpy wheel (Linux: numpy.libs, macOS: .dylibs)."""
    site = os.path.dirname(os.path.dirname(os.path.abspath(numpy.__file__)))
    patterns = [os.path.join(site, "numpy.libs", "*openblas*"), os.path.join(site, "numpy", ".dylibs", "*openblas*")]
    return sorted(path for pattern in patterns for path in glob.glob(pattern))


def _function(library, names):
    for name in names:
        fn = getattr(library, name, None)
        if fn is not None:
            return fn
    return None


def _numpy_openblas():
    """(set_num_threads, get_num_threads) of numpy's OpenBLAS, or None."""
    for path in _bundled_libraries():
        try:
            library = ctypes.CDLL(path)  # already loaded by numpy: this is the same copy
        except OSError:
            continue
        setter, getter = _function(library, _SETTERS), _function(library, _GETTERS)
        if setter is not None and getter is not None:
            setter.restype, getter.restype = None, ctypes.c_int
            setter.argtypes = [ctypes.c_int]
            return setter, getter
    return None


_API = _numpy_openblas()


def numpy_blas_threads():
    """The thread count of numpy's OpenBLAS, or None when numpy does not use a bundled OpenBLAS."""
    return None if _API is None else int(_API[1]())


def limit_numpy_blas_threads(n=1):
    """Sets numpy's OpenBLAS to `n` threads (a no-op for numpy built on another BLAS)."""
    if _API is not None:
        _API[0](int(n))
