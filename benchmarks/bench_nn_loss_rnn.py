"""Losses and recurrent layers: cross_entropy fwd+bwd (256x1000, label smoothing and without),
nll_loss on log-probabilities, CTC fwd+bwd, LSTM/GRU (2 layers, hidden 256, seq 50, batch 32)
fwd+bwd and a MultiheadAttention step; ours vs PyTorch.

    python benchmarks/bench_nn_loss_rnn.py [--threads N] [--repeats R]
"""
import argparse
import os
import warnings

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import numpy as np  # noqa: E402

import harness  # noqa: E402

R = np.random.default_rng(0)
LOGITS = R.standard_normal((256, 1000)).astype(np.float32)
TARGET = R.integers(0, 1000, 256)


def cross_entropy(smoothing):
    def make(lib):
        x = lib.tensor(LOGITS, requires_grad=True)
        t = lib.tensor(TARGET)

        def run():
            lib.nn.functional.cross_entropy(x, t, label_smoothing=smoothing).backward()
            x.grad = None
        return run
    return make


def nll_loss(lib):
    x = lib.log_softmax(lib.tensor(LOGITS), 1).detach().requires_grad_()
    t = lib.tensor(TARGET)

    def run():
        lib.nn.functional.nll_loss(x, t).backward()
        x.grad = None
    return run


def ctc(lib):
    x = lib.tensor(R.standard_normal((50, 16, 20)).astype(np.float32), requires_grad=True)
    targets = lib.tensor(R.integers(1, 20, (16, 20)))
    il, tl = [50] * 16, [20] * 16

    def run():
        lib.nn.functional.ctc_loss(x.log_softmax(2), targets, il, tl).backward()
        x.grad = None
    return run


def recurrent(cls, onednn=True):
    """onednn=False: PyTorch's composite path (its CPU LSTM otherwise runs oneDNN's fused LSTM)."""
    def make(lib):
        m = getattr(lib.nn, cls)(256, 256, num_layers=2)
        x = lib.tensor(R.standard_normal((50, 32, 256)).astype(np.float32), requires_grad=True)

        def run():
            out, _ = m(x)
            out.sum().backward()
            m.zero_grad(set_to_none=True)
            x.grad = None
        if onednn or not hasattr(lib, "backends"):
            return run

        def composite():
            with lib.backends.mkldnn.flags(enabled=False):
                run()
        return composite
    return make


def attention(lib):
    m = lib.nn.MultiheadAttention(256, 8)
    x = lib.tensor(R.standard_normal((64, 16, 256)).astype(np.float32), requires_grad=True)

    def run():
        out, _ = m(x, x, x)
        out.sum().backward()
        m.zero_grad(set_to_none=True)
        x.grad = None
    return run


CASES = [("cross_entropy 256x1000 fwd+bwd", cross_entropy(0.0)),
         ("cross_entropy ls=0.1 fwd+bwd", cross_entropy(0.1)),
         ("nll_loss 256x1000 fwd+bwd", nll_loss),
         ("ctc_loss T50 N16 C20 S20", ctc),
         ("LSTM 2x256 seq50 b32 fwd+bwd", recurrent("LSTM")),
         ("LSTM ... torch without oneDNN", recurrent("LSTM", onednn=False)),
         ("GRU 2x256 seq50 b32 fwd+bwd", recurrent("GRU")),
         ("MHA 256/8 L64 b16 fwd+bwd", attention)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("-k", default="", help="only cases whose name contains this")
    args = parser.parse_args(argv)
    import core

    warnings.filterwarnings("ignore", message="TF32 acceleration")
    harness.set_threads(args.threads)
    torch = harness.torch
    print(f"threads: {args.threads}; torch: {torch.__version__ if torch else 'not installed'}")
    print(f"{'case':34s} {'ours':>10s} {'pytorch':>10s} {'ours/pytorch':>13s}")
    for name, make in CASES:
        if args.k not in name:
            continue
        fns = {"ours": make(core)}
        if torch is not None:
            fns["pytorch"] = make(torch)
        times = harness.time_interleaved(fns, repeats=args.repeats)
        theirs = times.get("pytorch")
        print(f"{name:34s} {harness.format_seconds(times['ours']):>10s} "
              f"{harness.format_seconds(theirs) if theirs else 'n/a':>10s} "
              f"{harness.format_ratio(times['ours'], theirs):>13s}")


if __name__ == "__main__":
    main()
