"""Helpers of the graph tests (core.jit, core.onnx): models whose outputs tell errors apart."""
import core
from core import nn


def randomised(model):
    """model in eval mode with BatchNorm statistics and affines drawn at random: at torchvision's
    initialisation they are 0/1, so folding mistakes would not show in the outputs."""
    core.manual_seed(0)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)
    return model.eval()


def assert_close_relative(got, want, rtol=2e-4):
    """|got - want| within rtol of want's largest magnitude (tensors or numpy arrays)."""
    assert tuple(got.shape) == tuple(want.shape)
    assert float(abs(got - want).max()) <= rtol * max(float(abs(want).max()), 1e-30)
