import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))  # sox_cli helpers


@pytest.fixture(autouse=True)
def _audio_imported():
    import audio  # noqa: F401 - loads audio._C's kernels before any test looks them up
