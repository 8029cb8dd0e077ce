"""examples/mnist_rnn: an LSTM reads an image row by row and classifies it (synthetic stripes)."""
import core
import core.nn as nn
import core.nn.functional as F
from core.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(input_size=12, hidden_size=32, batch_first=True)
        self.batchnorm = nn.BatchNorm1d(32)
        self.dropout1 = nn.Dropout2d(0.25)
        self.fc1 = nn.Linear(32, 3)

    def forward(self, input):
        input = input.reshape(-1, 12, 12)
        output, hidden = self.rnn(input)
        output = self.batchnorm(output[:, -1, :])
        return F.log_softmax(self.fc1(output), dim=1)


def main():
    core.manual_seed(0)
    labels = core.randint(0, 3, (192,))
    images = core.rand(192, 1, 12, 12) * 0.5
    for k in range(3):
        images[labels == k, 0, :, 4 * k:4 * k + 4] += 1.0  # a vertical stripe per class
    loader = DataLoader(TensorDataset(images, labels), batch_size=32, shuffle=True)
    model = Net()
    optimizer = core.optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = core.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    for epoch in range(3):
        model.train()
        for data, target in loader:
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            optimizer.step()
        scheduler.step()
    model.eval()
    with core.no_grad():
        correct = model(images).argmax(dim=1).eq(labels).sum().item()
    assert correct / len(labels) > 0.9, correct
    return loss.item()
