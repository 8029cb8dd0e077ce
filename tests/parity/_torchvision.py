"""Importing torchvision next to a CPU-only torch, shared by the vision parity tests: the
benchmarks' harness.import_torchvision (the torchvision wheel's C++ ops do not load beside a
CPU torch; its Python code does). Import as ``from parity._torchvision import import_torchvision``."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks"))

from harness import import_torchvision  # noqa: E402

__all__ = ["import_torchvision"]
