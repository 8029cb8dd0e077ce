"""Loads the C++ extension, after the OpenBLAS library it links against (and holds numpy's
own OpenBLAS to one thread: one thread pool per process)."""
import ctypes
import glob
import os

import scipy_openblas32

from core._numpy_blas import limit_numpy_blas_threads


def _load_openblas():
    # The extension needs libscipy_openblas.so; loading it first (globally) means no
    # LD_LIBRARY_PATH or RPATH to a build-time path is needed.
    path = os.path.join(scipy_openblas32.get_lib_dir(), "libscipy_openblas.so")
    ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)


def _missing_extension():
    """The error for a `core` package without its compiled extension (a source checkout)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return ImportError(
        f"core: the C++ extension core._C is not built in {here}. This looks like a source checkout "
        "without a build: either install tensorzoo (`pip install .`) and run Python from outside the "
        "checkout, or build the extension in place with `tools/dev_build.sh`.")


_load_openblas()
limit_numpy_blas_threads(1)

try:
    from core import _C  # noqa: E402
except ImportError:
    if glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "_C*")):
        raise  # built, but it does not load: its own error says why
    raise _missing_extension() from None

__all__ = ["_C"]
