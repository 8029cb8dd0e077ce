import os

import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def pytest_report_header(config):
    import core

    return f"tensorzoo core: cpu capability {core._C._cpu_capability()}, threads {core.get_num_threads()}"

