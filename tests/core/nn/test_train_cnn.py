"""End to end: a small CNN learns a synthetic task with plain SGD written here (no optim)."""
import numpy as np

import core
import core.nn as nn
import core.nn.functional as F


def bars(rng, n):
    """8x8 images holding one horizontal (label 0) or vertical (label 1) bar, plus noise."""
    labels = rng.integers(0, 2, n)
    images = rng.normal(0, 0.3, (n, 1, 8, 8)).astype(np.float32)
    where = rng.integers(0, 8, n)
    for i, (label, k) in enumerate(zip(labels, where)):
        if label == 0:
            images[i, 0, k, :] += 1.0
        else:
            images[i, 0, :, k] += 1.0
    return core.from_numpy(images), core.from_numpy(labels.astype(np.int64))


def small_cnn():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(16, 2))


def test_small_cnn_learns_bars_with_plain_sgd():
    core.manual_seed(0)
    rng = np.random.default_rng(0)
    model = small_cnn()
    lr = 0.1
    for _ in range(150):
        x, y = bars(rng, 32)
        loss = F.cross_entropy(model(x), y)
        model.zero_grad(set_to_none=True)
        loss.backward()
        with core.no_grad():
            for p in model.parameters():
                p.sub_(lr * p.grad)
    model.eval()
    x, y = bars(np.random.default_rng(1), 500)
    with core.no_grad():
        accuracy = (model(x).argmax(1) == y).float().mean().item()
    assert accuracy >= 0.95, f"accuracy {accuracy:.3f} after 150 SGD steps"
