"""The quickstart tutorial: a dataset, DataLoaders, an MLP, a train/test loop, and saving and
loading the weights (with an allowlisted config object)."""
import os
import tempfile

import core
from core import nn
from core.utils.data import DataLoader, TensorDataset


class TrainConfig:
    def __init__(self, lr, epochs):
        self.lr, self.epochs = lr, epochs


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(8 * 8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                                               nn.Linear(64, 4))

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))


def _dataset(n, generator):
    labels = core.randint(0, 4, (n,), generator=generator)
    images = core.randn(n, 1, 8, 8, generator=generator) * 0.3
    for k in range(4):  # each class lights up one quadrant
        rows, cols = slice(4 * (k // 2), 4 * (k // 2) + 4), slice(4 * (k % 2), 4 * (k % 2) + 4)
        images[labels == k, :, rows, cols] += 1.0
    return TensorDataset(images, labels)


def train(dataloader, model, loss_fn, optimizer, device):
    model.train()
    for X, y in dataloader:
        X, y = X.to(device), y.to(device)
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    return loss.item()


def test(dataloader, model, loss_fn, device):
    model.eval()
    correct = 0
    with core.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            correct += (model(X).argmax(1) == y).type(core.float).sum().item()
    return correct / len(dataloader.dataset)


def main():
    core.manual_seed(0)
    device = "cuda" if core.cuda.is_available() else "mps" if core.backends.mps.is_available() else "cpu"
    generator = core.Generator().manual_seed(1)
    train_loader = DataLoader(_dataset(512, generator), batch_size=64, shuffle=True)
    test_loader = DataLoader(_dataset(128, generator), batch_size=64)
    model = NeuralNetwork().to(device)
    config = TrainConfig(lr=1e-1, epochs=3)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = core.optim.SGD(model.parameters(), lr=config.lr)
    for _ in range(config.epochs):
        loss = train(train_loader, model, loss_fn, optimizer, device)
    accuracy = test(test_loader, model, loss_fn, device)
    assert accuracy > 0.9, accuracy
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.pth")
        core.save({"model": model.state_dict(), "config": config}, path)
        core.serialization.add_safe_globals([TrainConfig])
        try:
            checkpoint = core.load(path, weights_only=True)
        finally:
            core.serialization.clear_safe_globals()
        restored = NeuralNetwork().to(device)
        restored.load_state_dict(checkpoint["model"])
        assert checkpoint["config"].epochs == 3
        assert test(test_loader, restored, loss_fn, device) == accuracy
    return loss
