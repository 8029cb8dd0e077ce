"""Atomic file writes: the hub's helpers (hub is the lowest layer; vision imports it)."""
import os  # noqa: F401 - tests patch os.fsync through this module

from hub._atomic import atomic_open, atomic_write_bytes

__all__ = ["atomic_open", "atomic_write_bytes"]
