"""Batch-level augmentations of the later torchvision references (0.11+), applied by the
DataLoader's collate_fn: Mixup and CutMix. Both turn class indices into one-hot float targets and
mix each sample with its neighbour in the batch (batch.roll(1, 0)) by a Beta(alpha, alpha) weight.
The Beta draw (a ratio of two gamma draws, Marsaglia and Tsang's method) uses core's generator,
so runs are reproducible with core.manual_seed, though not bit-equal to torch's _sample_dirichlet."""
import math

import core
import core.nn.functional as F


def _gamma(shape):
    """A Gamma(shape, 1) draw (Marsaglia and Tsang 2000; boosted for shape < 1)."""
    if shape < 1.0:
        return _gamma(shape + 1.0) * core.rand(1).item() ** (1.0 / shape)
    d = shape - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = core.randn(1).item()
        v = (1.0 + c * x) ** 3
        if v <= 0:
            continue
        u = core.rand(1).item()
        if u > 0 and math.log(u) < 0.5 * x * x + d - d * v + d * math.log(v):
            return d * v


def sample_beta(alpha):
    """A Beta(alpha, alpha) draw: the first coordinate of Dirichlet([alpha, alpha])."""
    first, second = _gamma(alpha), _gamma(alpha)
    return first / (first + second)


class _BatchMix:
    def __init__(self, num_classes, p=0.5, alpha=1.0, inplace=False):
        if num_classes < 1:
            raise ValueError(f"{type(self).__name__}: please provide a valid positive value for the num_classes, "
                             f"got {num_classes}")
        if alpha <= 0:
            raise ValueError(f"{type(self).__name__}: alpha must be positive, got {alpha}")
        self.num_classes, self.p, self.alpha, self.inplace = num_classes, p, alpha, inplace

    def _prepare(self, batch, target):
        if batch.dim() != 4:
            raise ValueError(f"{type(self).__name__}: batch should have 4 dimensions (B, C, H, W), got {batch.dim()}")
        if target.dim() != 1:
            raise ValueError(f"{type(self).__name__}: target should have 1 dimension (class indices), got "
                             f"{target.dim()}")
        if not batch.is_floating_point():
            raise TypeError(f"{type(self).__name__}: batch should be a float tensor, got {batch.dtype}")
        if target.dtype != core.int64:
            raise TypeError(f"{type(self).__name__}: target should be an int64 tensor, got {target.dtype}")
        if not self.inplace:
            batch = batch.clone()
        return batch, F.one_hot(target, num_classes=self.num_classes).to(dtype=batch.dtype)

    def __repr__(self):
        return f"{type(self).__name__}(num_classes={self.num_classes}, p={self.p}, alpha={self.alpha}, " \
               f"inplace={self.inplace})"


class RandomMixup(_BatchMix):
    """With probability p: batch = lam * batch + (1 - lam) * rolled batch, the same for the one-hot
    targets ("mixup: Beyond Empirical Risk Minimization")."""

    def __call__(self, batch, target):
        batch, target = self._prepare(batch, target)
        if core.rand(1).item() >= self.p:
            return batch, target
        lam = sample_beta(self.alpha)
        rolled_batch, rolled_target = batch.roll(1, 0), target.roll(1, 0)
        batch.mul_(lam).add_(rolled_batch.mul_(1.0 - lam))
        target.mul_(lam).add_(rolled_target.mul_(1.0 - lam))
        return batch, target


class RandomCutmix(_BatchMix):
    """With probability p: a box of the rolled batch pasted into the batch, targets mixed by the
    area kept ("CutMix: Regularization Strategy to Train Strong Classifiers")."""

    def __call__(self, batch, target):
        batch, target = self._prepare(batch, target)
        if core.rand(1).item() >= self.p:
            return batch, target
        lam = sample_beta(self.alpha)
        height, width = batch.shape[-2:]
        center_x = int(core.randint(width, (1,)).item())
        center_y = int(core.randint(height, (1,)).item())
        ratio = 0.5 * math.sqrt(1.0 - lam)
        half_w, half_h = int(ratio * width), int(ratio * height)
        x1, y1 = max(center_x - half_w, 0), max(center_y - half_h, 0)
        x2, y2 = min(center_x + half_w, width), min(center_y + half_h, height)
        rolled_batch, rolled_target = batch.roll(1, 0), target.roll(1, 0)
        batch[:, :, y1:y2, x1:x2] = rolled_batch[:, :, y1:y2, x1:x2]
        lam = 1.0 - (x2 - x1) * (y2 - y1) / (width * height)
        target.mul_(lam).add_(rolled_target.mul_(1.0 - lam))
        return batch, target
