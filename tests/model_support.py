"""Shared by the vision.models tests: skip while core.nn still lacks layers the models use
(the nn families land one by one), naming exactly what is missing."""
import pytest

NN_MODULES = ("Module", "Sequential", "Conv2d", "BatchNorm2d", "GroupNorm", "ReLU", "ReLU6", "Hardswish",
              "Identity", "Linear", "Dropout", "AdaptiveAvgPool2d", "MaxPool2d")
NN_FUNCTIONS = ("hardsigmoid", "adaptive_avg_pool2d", "cross_entropy")
NN_INIT = ("kaiming_normal_", "normal_", "zeros_", "ones_", "constant_")


def missing_nn_pieces():
    import core.nn as nn
    import core.nn.functional as F
    import core.nn.init as init

    return ([f"nn.{n}" for n in NN_MODULES if not hasattr(nn, n)]
            + [f"F.{n}" for n in NN_FUNCTIONS if not hasattr(F, n)]
            + [f"nn.init.{n}" for n in NN_INIT if not hasattr(init, n)])


def skip_module_unless_models_run():
    """Module-level skip (call at import time of a test module) while pieces are missing."""
    missing = missing_nn_pieces()
    if missing:
        pytest.skip("vision.models waits for core.nn pieces not in this build yet: " + ", ".join(missing),
                    allow_module_level=True)
