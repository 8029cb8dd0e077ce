"""Imported first by every benchmark script: an in-place build of this checkout
(tools/dev_build.sh) wins over an installed tensorzoo."""
import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if glob.glob(os.path.join(ROOT, "core", "_C*.so")) and ROOT not in sys.path:
    sys.path.insert(1, ROOT)
