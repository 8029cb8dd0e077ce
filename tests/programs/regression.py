"""examples/regression: fit a random polynomial with one Linear layer and smooth_l1_loss."""
import core
import core.nn.functional as F

POLY_DEGREE = 4


def make_features(x):
    x = x.unsqueeze(1)
    return core.cat([x ** i for i in range(1, POLY_DEGREE + 1)], 1)


def main():
    core.manual_seed(0)
    w_target = core.randn(POLY_DEGREE, 1) * 5
    b_target = core.randn(1) * 5

    def get_batch(batch_size=32):
        x = make_features(core.randn(batch_size))
        return x, x.mm(w_target) + b_target.item()

    fc = core.nn.Linear(w_target.size(0), 1)
    for batch_idx in range(1, 2000):
        batch_x, batch_y = get_batch()
        fc.zero_grad()
        output = F.smooth_l1_loss(fc(batch_x), batch_y)
        loss = output.item()
        output.backward()
        for param in fc.parameters():
            param.data.add_(-0.1 * param.grad)
        if loss < 1e-3:
            break
    assert loss < 1e-2, loss
    return loss
