"""Post-training static quantization of a small CNN trained on the Shapes dataset: fuse, observe
(PyTorch's fbgemm qconfig: histogram activations, per-channel weights), convert; the int8 model's
accuracy stays within 2 points of the float model's on held-out images."""
import numpy as np

import core
import core.nn as nn
import core.quantization as tq
from vision import datasets, transforms

SIZE = 24


def _images(split, n):
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize([0.5] * 3, [0.25] * 3)])
    ds = datasets.Shapes(split=split, size=n, image_size=SIZE, transform=tf)
    samples = [ds[i] for i in range(n)]
    return core.stack([x for x, _ in samples]), core.tensor([y for _, y in samples])


def _model():
    def block(i, o):  # conv-bn-relu (fused below) and a 2x2 max pool
        return [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d(2)]
    return nn.Sequential(tq.QuantStub(), *block(3, 16), *block(16, 32), *block(32, 32), nn.MaxPool2d(SIZE // 8),
                         nn.Flatten(), nn.Linear(32, 3), tq.DeQuantStub())


def _accuracy(model, x, y):
    with core.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def test_post_training_quantization_keeps_shapes_accuracy():
    core.manual_seed(0)
    x_train, y_train = _images("train", 1000)
    x_test, y_test = _images("test", 400)
    model = _model()
    optimizer = core.optim.Adam(model.parameters(), lr=0.003)
    for epoch in range(10):
        order = np.random.default_rng(epoch).permutation(len(y_train))
        for start in range(0, len(order), 40):
            idx = core.tensor(order[start:start + 40])
            loss = nn.functional.cross_entropy(model(x_train[idx]), y_train[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    model.eval()
    float_accuracy = _accuracy(model, x_test, y_test)
    assert float_accuracy > 0.6  # well above chance (1/3): the comparison means something

    tq.fuse_modules(model, [["1", "2", "3"], ["5", "6", "7"], ["9", "10", "11"]], inplace=True)
    model.qconfig = tq.get_default_qconfig("fbgemm")
    tq.prepare(model, inplace=True)
    with core.no_grad():
        for start in range(0, 320, 40):  # calibration batches from the training set
            model(x_train[start:start + 40])
    tq.convert(model, inplace=True)
    assert model[1]._get_name() == "QuantizedConvReLU2d" and model[-2]._get_name() == "QuantizedLinear"
    int8_accuracy = _accuracy(model, x_test, y_test)
    assert abs(int8_accuracy - float_accuracy) <= 0.02, (float_accuracy, int8_accuracy)
