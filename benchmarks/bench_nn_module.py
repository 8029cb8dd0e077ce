"""nn.Module overhead: calling small modules (Python dispatch dominates), a hooked call, an
MLP training step through nn.Linear, and state_dict/load_state_dict of a deep tree; ours vs
PyTorch.

    python benchmarks/bench_nn_module.py [--threads N] [--repeats R]
"""
import argparse
import os
from collections import OrderedDict

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import harness  # noqa: E402


def linear_call(lib):
    m, x = lib.nn.Linear(16, 16), lib.ones(1, 16)

    def run():
        with lib.no_grad():
            return m(x)
    return run


def sequential_call(lib):
    layers = []
    for _ in range(10):
        layers += [lib.nn.Linear(16, 16), lib.nn.Identity()]
    m, x = lib.nn.Sequential(*layers), lib.ones(1, 16)

    def run():
        with lib.no_grad():
            return m(x)
    return run


def hooked_call(lib):
    m, x = lib.nn.Linear(16, 16), lib.ones(1, 16)
    m.register_forward_pre_hook(lambda mod, inp: None)
    m.register_forward_hook(lambda mod, inp, out: None)

    def run():
        with lib.no_grad():
            return m(x)
    return run


def mlp_step(lib):
    model = lib.nn.Sequential(lib.nn.Linear(784, 256), lib.nn.Flatten(), lib.nn.Linear(256, 10))
    x, target = lib.randn(64, 784), lib.randn(64, 10)

    def run():
        out = model(x)
        ((out - target) * (out - target)).mean().backward()
        model.zero_grad(set_to_none=True)
    return run


def state_dict_roundtrip(lib):
    tree = lib.nn.Sequential(OrderedDict(
        (f"block{i}", lib.nn.Sequential(lib.nn.Linear(8, 8), lib.nn.Linear(8, 8, bias=False)))
        for i in range(50)))
    return lambda: tree.load_state_dict(tree.state_dict())


CASES = [("Linear(16,16) call, batch 1", linear_call), ("Sequential of 20, batch 1", sequential_call),
         ("Linear call with 2 hooks", hooked_call), ("MLP step 64x784-256-10", mlp_step),
         ("state_dict+load, 100 Linear", state_dict_roundtrip)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    import core

    harness.set_threads(args.threads)
    torch = harness.torch
    print(f"threads: {args.threads}; torch: {torch.__version__ if torch else 'not installed'}")
    print(f"{'case':32s} {'ours':>10s} {'pytorch':>10s} {'ours/pytorch':>13s}")
    for name, make in CASES:
        fns = {"ours": make(core)}
        if torch is not None:
            fns["pytorch"] = make(torch)
        times = harness.time_interleaved(fns, repeats=args.repeats)
        theirs = times.get("pytorch")
        print(f"{name:32s} {harness.format_seconds(times['ours']):>10s} "
              f"{harness.format_seconds(theirs) if theirs else 'n/a':>10s} "
              f"{harness.format_ratio(times['ours'], theirs):>13s}")


if __name__ == "__main__":
    main()
