"""The recurrent and generative workloads of PyTorch's examples, ours vs PyTorch in one run:
word-language-model LSTM (2 layers, 650 hidden, seq 35, batch 20) forward+backward, the
time-sequence-prediction LSTMCell loop (2 cells of 51, 999 steps, batch 97: one forward+backward),
and a DCGAN generator step (nz 100, ngf 64, 64x64 output, batch 64: forward, BCE, backward).

    python benchmarks/bench_programs.py [--threads 1,2] [--repeats R] [--filter SUBSTRING]

Prints median times per call and the ratio ours / PyTorch (lower is better).
"""
import sys

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import numpy as np  # noqa: E402

import core  # noqa: E402
import harness  # noqa: E402

torch = harness.torch


def _copy_parameters(ours, theirs):
    with torch.no_grad():
        for (_, p), (_, q) in zip(sorted(ours.named_parameters()), sorted(theirs.named_parameters())):
            q.copy_(torch.from_numpy(p.detach().numpy().copy()))


def word_language_model(lib):
    lib.manual_seed(0)
    rnn = lib.nn.LSTM(650, 650, num_layers=2, dropout=0.5)
    x = lib.randn(35, 20, 650)

    def step():
        out, _ = rnn(x)
        out.sum().backward()
        return out.detach()
    return step, rnn


def lstm_cell_loop(lib):
    lib.manual_seed(0)
    cell1, cell2 = lib.nn.LSTMCell(1, 51).double(), lib.nn.LSTMCell(51, 51).double()
    linear = lib.nn.Linear(51, 1).double()
    data = lib.sin(lib.arange(999).double().unsqueeze(0) / 20.0 + lib.arange(97).double().unsqueeze(1))

    def step():
        h = c = h2 = c2 = lib.zeros(97, 51, dtype=lib.double)
        outputs = []
        for input_t in data.split(1, dim=1):
            h, c = cell1(input_t, (h, c))
            h2, c2 = cell2(h, (h2, c2))
            outputs.append(linear(h2))
        out = lib.cat(outputs, dim=1)
        lib.nn.functional.mse_loss(out, data).backward()
        return out.detach()
    return step, lib.nn.ModuleList([cell1, cell2, linear])


def dcgan_generator(lib):
    nn = lib.nn
    lib.manual_seed(0)
    nz, ngf = 100, 64
    net = nn.Sequential(
        nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 8), nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
        nn.ConvTranspose2d(ngf, 3, 4, 2, 1, bias=False), nn.Tanh())
    noise = lib.randn(64, nz, 1, 1)

    def step():
        fake = net(noise)
        loss = nn.functional.binary_cross_entropy((fake + 1) / 2, lib.full_like(fake, 0.5))
        loss.backward()
        return fake.detach()
    return step, net


def _bench(name, build):
    ours, our_module = build(core)
    makers = {"ours": lambda: ours}
    if torch is not None:
        theirs, their_module = build(torch)
        _copy_parameters(our_module, their_module)  # the same weights: the outputs are compared
        makers["pytorch"] = lambda: theirs
    return harness.Bench(name, makers, check=False)


def make_benches():
    return [_bench("LSTM 2x650 seq35 b20 fwd+bwd", word_language_model),
            _bench("LSTMCell loop 2x51, 999 steps b97 fwd+bwd", lstm_cell_loop),
            _bench("DCGAN generator 64x64 b64 fwd+bwd", dcgan_generator)]


if __name__ == "__main__":
    sys.exit(harness.bench_main(__doc__, make_benches))
