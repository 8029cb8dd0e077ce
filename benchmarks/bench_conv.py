"""Convolutions of MobileNetV3-Large's shapes: ours vs PyTorch, forward and forward+backward,
batch 1 and 32, NCHW and channels-last (PyTorch's weights channels-last too, as after
model.to(memory_format=torch.channels_last)).

    PYTHONPATH=. python benchmarks/bench_conv.py [--threads 2] [--repeats 7] [filter ...]

Prints the median time per call and ours / PyTorch (below 1: we are faster).
"""
import argparse
import sys

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import numpy as np  # noqa: E402

import harness  # noqa: E402

# (name, in channels, out channels, kernel, stride, groups, spatial size, bias[, dilation])
LAYERS = [
    ("stem 3x3 s2 3->16 @224", 3, 16, 3, 2, 1, 224, False),
    ("dw 3x3 s1 72 @56", 72, 72, 3, 1, 72, 56, False),
    ("dw 3x3 s2 240 @28", 240, 240, 3, 2, 240, 28, False),
    ("dw 5x5 s1 120 @28", 120, 120, 5, 1, 120, 28, False),
    ("dw 5x5 s2 672 @14", 672, 672, 5, 2, 672, 14, False),
    ("dw 5x5 s1 960 @7", 960, 960, 5, 1, 960, 7, False),
    ("1x1 16->64 @112", 16, 64, 1, 1, 1, 112, False),
    ("1x1 40->120 @28", 40, 120, 1, 1, 1, 28, False),
    ("1x1 160->960 @7", 160, 960, 1, 1, 1, 7, False),
    ("1x1 960->160 @7", 960, 160, 1, 1, 1, 7, False),
    ("SE 1x1 960->240 @1", 960, 240, 1, 1, 1, 1, True),
    ("SE 1x1 240->960 @1", 240, 960, 1, 1, 1, 1, True),
]


def make_case(lib, layer, batch, channels_last, backward):
    _, cin, cout, k, stride, groups, size, has_bias = layer[:8]
    dilation = layer[8] if len(layer) > 8 else 1
    pad = dilation * (k // 2)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, cin, size, size)).astype(np.float32)
    w = (rng.standard_normal((cout, cin // groups, k, k)) * 0.1).astype(np.float32)
    b = rng.standard_normal(cout).astype(np.float32) if has_bias else None
    out_size = (size + 2 * pad - dilation * (k - 1) - 1) // stride + 1
    gy = rng.standard_normal((batch, cout, out_size, out_size)).astype(np.float32)
    def to(a):
        t = lib.tensor(a)
        return t.contiguous(memory_format=lib.channels_last) if channels_last and a.ndim == 4 else t
    xt, wt, gyt = to(x), to(w), to(gy)
    bt = to(b) if b is not None else None
    conv = lib.nn.functional.conv2d
    if not backward:
        return lambda: conv(xt, wt, bt, stride, pad, dilation, groups)
    needs_input_grad = cin != 3  # the stem's input is the image
    xt.requires_grad_(needs_input_grad)
    wt.requires_grad_()
    if bt is not None:
        bt.requires_grad_()
    leaves = [t for t in (xt, wt, bt) if t is not None and t.requires_grad]

    def step():
        y = conv(xt, wt, bt, stride, pad, dilation, groups)
        y.backward(gyt)
        for t in leaves:
            t.grad = None
        return y
    return step


def main(argv=None, layers=None):
    """Times `layers` (default LAYERS: MobileNetV3-Large's) as the command line asks."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--batches", default="1,32")
    parser.add_argument("filters", nargs="*", help="only layers whose name contains one of these")
    args = parser.parse_args(argv)
    import core
    import core.nn.functional  # noqa: F401

    harness.set_threads(args.threads)
    torch = harness.torch
    print(harness.header(args.threads))
    rows = [("layer", "batch", "layout", "pass", "ours", "pytorch", "ours/pytorch")]
    worst = 0.0
    for layer in layers or LAYERS:
        if args.filters and not any(f in layer[0] for f in args.filters):
            continue
        for batch in (int(b) for b in args.batches.split(",")):
            for channels_last in (False, True):
                for backward in (False, True):
                    fns = {"ours": make_case(core, layer, batch, channels_last, backward)}
                    if torch is not None:
                        fns["pytorch"] = make_case(torch, layer, batch, channels_last, backward)
                    t = harness.time_interleaved(fns, repeats=args.repeats)
                    theirs = t.get("pytorch")
                    if theirs:
                        worst = max(worst, t["ours"] / theirs)
                    rows.append((layer[0], str(batch), "NHWC" if channels_last else "NCHW",
                                 "fwd+bwd" if backward else "fwd", harness.format_seconds(t["ours"]),
                                 harness.format_seconds(theirs) if theirs else "n/a",
                                 harness.format_ratio(t["ours"], theirs)))
                    print("  ".join(rows[-1]), flush=True, file=sys.stderr)
    print()
    harness.print_rows(rows)
    if worst:
        print(f"\nworst ours/pytorch: {worst:.2f}x")


if __name__ == "__main__":
    main()
