"""The tensor and autograd tutorials' idioms: pick a device, make tensors every way, bridge to
numpy, and watch autograd record and differentiate."""
import numpy as np

import core
from core.autograd import Variable


def main():
    device = core.accelerator.current_accelerator().type if core.accelerator.is_available() else "cpu"
    device = core.device("cuda" if core.cuda.is_available() else device)
    data = [[1, 2], [3, 4]]
    x_data = core.tensor(data, device=device)
    x_np = core.from_numpy(np.array(data))
    x_ones = core.ones_like(x_data, device=device)
    x_rand = core.rand_like(x_data, dtype=core.float)
    legacy = core.FloatTensor([[1, 2], [3, 4]])
    assert core.equal(x_data, x_np) and x_ones.device == device and x_rand.dtype == core.float32
    assert legacy.type() == "core.FloatTensor" and isinstance(legacy, core.FloatTensor)
    tensor = core.ones(4, 4, device=device)
    tensor[:, 1] = 0
    t1 = core.cat([tensor, tensor, tensor], dim=1)
    y = core.empty(4, 4)
    core.matmul(tensor, tensor.T, out=y)
    assert t1.shape == (4, 12) and y[0, 0].item() == 3.0
    agg = tensor.sum().item()
    t = tensor.new_zeros(2).to(device)
    n = t.numpy()
    t.add_(1)
    assert n.tolist() == [1.0, 1.0] and agg == 12.0

    x = core.ones(5)
    y = core.zeros(3)
    w = core.randn(5, 3, requires_grad=True)
    b = Variable(core.randn(3), requires_grad=True)
    z = core.matmul(x, w) + b
    loss = core.nn.functional.binary_cross_entropy_with_logits(z, y)
    assert z.grad_fn.name() == "AddBackward0" and loss.grad_fn.name() == "BinaryCrossEntropyWithLogitsBackward0"
    loss.backward()
    assert w.grad.shape == (5, 3) and b.grad.shape == (3,)
    with core.no_grad():
        assert not (core.matmul(x, w) + b).requires_grad
    return float(loss)
