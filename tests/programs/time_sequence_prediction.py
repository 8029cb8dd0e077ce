"""examples/time_sequence_prediction: two stacked LSTMCells learn sine waves and predict ahead."""
import math

import core
import core.nn as nn


class Sequence(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = core.zeros(input.size(0), self.hidden, dtype=core.double)
        c_t = core.zeros(input.size(0), self.hidden, dtype=core.double)
        h_t2, c_t2 = h_t.new_zeros(h_t.shape), c_t.new_zeros(c_t.shape)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for _ in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return core.cat(outputs, dim=1)


def main():
    core.manual_seed(0)
    T, L, N = 20, 60, 16
    x = core.arange(L).double().unsqueeze(0) + core.randint(-4 * T, 4 * T, (N, 1)).double()
    data = core.sin(x / 1.0 / T)
    input, target = data[:, :-1], data[:, 1:]
    seq = Sequence().double()
    criterion = nn.MSELoss()
    optimizer = core.optim.Adam(seq.parameters(), lr=0.02)
    first = None
    for _ in range(40):
        optimizer.zero_grad()
        loss = criterion(seq(input), target)
        loss.backward()
        optimizer.step()
        first = first or loss.item()
    with core.no_grad():
        pred = seq(input[:2], future=10)
    assert pred.shape == (2, L - 1 + 10) and math.isfinite(pred.sum().item())
    assert loss.item() < first / 5, (first, loss.item())
    return loss.item()
