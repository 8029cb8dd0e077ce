"""Checkpoints interchangeable with PyTorch: core.save / core.load.

Files: _zip (the zip container), _io (paths and streams, atomic writes), _storage (storage
types and buffers), _pickler (the save side), _safe_unpickler (the weights_only=True
interpreter), _rebuild (what checkpoint globals stand for), _legacy (pre-1.6 files),
_errors. Safetensors live in core.utils.safetensors.
"""
from core.serialization._load import load
from core.serialization._save import DEFAULT_PROTOCOL, save
from core.serialization._safe_globals import add_safe_globals, clear_safe_globals, get_safe_globals, safe_globals

__all__ = ["save", "load", "DEFAULT_PROTOCOL", "add_safe_globals", "clear_safe_globals", "get_safe_globals",
           "safe_globals"]
