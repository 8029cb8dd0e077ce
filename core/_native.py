"""Loads the C++ extension, after the OpenBLAS library it links against."""
import ctypes
import os

import scipy_openblas32


def _load_openblas():
    # The extension needs libscipy_openblas.so; loading it first (globally) means no
    # LD_LIBRARY_PATH or RPATH to a build-time path is needed.
    path = os.path.join(scipy_openblas32.get_lib_dir(), "libscipy_openblas.so")
    ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)


_load_openblas()

from core import _C  # noqa: E402

__all__ = ["_C"]
