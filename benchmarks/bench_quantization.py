"""Int8 inference: our quantized kernels and the quantized MobileNetV3-Large against PyTorch's
(fbgemm/x86 engine), and against our own float32 model, at each thread count.

    python benchmarks/bench_quantization.py [--threads 1,2] [--repeats R] [--filter SUBSTRING]

Rows: quantized linear (per-channel weights, batch 1 and 64), quantized conv2d in NHWC (the
MobileNetV3 stem, a 1x1, a 3x3 depthwise and a 5x5 depthwise), the SE multiply, and the
converted MobileNetV3-Large (a QAT state dict with observers run, loaded into both libraries)
at batch 1 and 8, 224x224. Columns: ours int8, PyTorch int8, ours / PyTorch; the model rows
add our float32 model and ours int8 / ours fp32 (the issue's targets: <= 0.8x PyTorch int8,
<= 0.5x our fp32). torch and torchvision are optional: without them only our numbers print.
"""
import io
import sys
import warnings

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

RNG = np.random.default_rng(0)


def _quantized_pair(core, torch, ints, scale, zp):
    ours = core._make_per_tensor_quantized_tensor(core.tensor(ints), scale, zp)
    theirs = None if torch is None else torch._make_per_tensor_quantized_tensor(torch.from_numpy(ints), scale, zp)
    return ours, theirs


def _per_channel_weight(core, torch, shape):
    w = RNG.integers(-127, 128, shape).astype(np.int8)
    scales = RNG.uniform(0.002, 0.01, shape[0])
    zps = np.zeros(shape[0], np.int64)
    ours = core._make_per_channel_quantized_tensor(core.tensor(w), core.tensor(scales), core.tensor(zps), 0)
    theirs = None if torch is None else torch._make_per_channel_quantized_tensor(
        torch.from_numpy(w), torch.from_numpy(scales), torch.from_numpy(zps), 0)
    return ours, theirs


def _linear_case(core, torch, m, k, n):
    x_ours, x_theirs = _quantized_pair(core, torch, RNG.integers(0, 128, (m, k)).astype(np.uint8), 0.05, 64)
    w_ours, w_theirs = _per_channel_weight(core, torch, (n, k))
    bias = RNG.normal(0, 1, n).astype(np.float32)
    ours = core.nn.quantized.Linear(k, n)
    ours.set_weight_bias(w_ours, core.tensor(bias))
    ours.scale, ours.zero_point = 0.2, 64
    fns = {"ours": lambda: ours(x_ours)}
    if torch is not None:
        theirs = torch.ao.nn.quantized.Linear(k, n)
        theirs.set_weight_bias(w_theirs, torch.from_numpy(bias))
        theirs.scale, theirs.zero_point = 0.2, 64
        fns["pytorch"] = lambda: theirs(x_theirs)
    return fns


def _conv_case(core, torch, n, c, hw, o, k, stride, groups):
    x = RNG.integers(0, 128, (n, c, hw, hw)).astype(np.uint8)
    x_ours, x_theirs = _quantized_pair(core, torch, x, 0.05, 64)
    x_ours = x_ours.contiguous(memory_format=core.channels_last)
    w_ours, w_theirs = _per_channel_weight(core, torch, (o, c // groups, k, k))
    bias = RNG.normal(0, 1, o).astype(np.float32)
    ours = core.nn.quantized.Conv2d(c, o, k, stride=stride, padding=k // 2, groups=groups)
    ours.set_weight_bias(w_ours, core.tensor(bias))
    ours.scale, ours.zero_point = 0.2, 64
    fns = {"ours": lambda: ours(x_ours)}
    if torch is not None:
        x_theirs = x_theirs.contiguous(memory_format=torch.channels_last)
        theirs = torch.ao.nn.quantized.Conv2d(c, o, k, stride=stride, padding=k // 2, groups=groups)
        theirs.set_weight_bias(w_theirs, torch.from_numpy(bias))
        theirs.scale, theirs.zero_point = 0.2, 64
        fns["pytorch"] = lambda: theirs(x_theirs)
    return fns


def _se_mul_case(core, torch, n, c, hw):
    """The SE block's multiply: (N, C, 1, 1) scales broadcast over an NHWC activation."""
    s_ours, s_theirs = _quantized_pair(core, torch, RNG.integers(0, 256, (n, c, 1, 1)).astype(np.uint8), 1 / 256, 0)
    x_ours, x_theirs = _quantized_pair(core, torch, RNG.integers(0, 256, (n, c, hw, hw)).astype(np.uint8), 0.05, 10)
    x_ours = x_ours.contiguous(memory_format=core.channels_last)
    ours = core.nn.quantized.QFunctional()
    ours.scale, ours.zero_point = 0.05, 10
    fns = {"ours": lambda: ours.mul(s_ours, x_ours)}
    if torch is not None:
        x_theirs = x_theirs.contiguous(memory_format=torch.channels_last)
        theirs = torch.ao.nn.quantized.QFunctional()
        theirs.scale, theirs.zero_point = 0.05, 10
        fns["pytorch"] = lambda: theirs.mul(s_theirs, x_theirs)
    return fns


def _mobilenet_v3_models(core, torch, tv):
    """(ours int8, ours fp32, torch int8 or None): one QAT state dict (qnnpack qconfig, observers
    run on random images) converted by each library; the fp32 model has the float weights."""
    import vision.models
    from vision.models.quantization import mobilenet_v3_large

    ours_fp32 = vision.models.mobilenet_v3_large().eval()
    ours = mobilenet_v3_large(quantize=False)
    ours.train()
    ours.fuse_model()
    ours.qconfig = core.quantization.get_default_qat_qconfig("qnnpack")
    core.quantization.prepare_qat(ours, inplace=True)
    theirs = None
    if tv is not None:
        from torchvision.models.quantization import mobilenet_v3_large as tv_mobilenet_v3_large
        import torch.ao.quantization as tq

        theirs = tv_mobilenet_v3_large(quantize=False)
        theirs.train()
        theirs.fuse_model(is_qat=True)
        theirs.qconfig = tq.get_default_qat_qconfig("qnnpack", 0)
        tq.prepare_qat(theirs, inplace=True)
        with torch.no_grad():
            theirs(torch.randn(2, 3, 224, 224))
        buf = io.BytesIO()
        torch.save(theirs.state_dict(), buf)
        buf.seek(0)
        state = {k: v for k, v in core.load(buf).items() if ".scale_activation." not in k}
        ours.load_state_dict(state)
        theirs.eval()
        tq.convert(theirs, inplace=True)
    else:
        with core.no_grad():
            ours(core.tensor(RNG.standard_normal((2, 3, 224, 224)).astype(np.float32)))
    ours.eval()
    core.quantization.convert(ours, inplace=True)
    return ours, ours_fp32, theirs


def _rows_of_ops(core, torch, harness, repeats):
    cases = {
        "linear 1x1024 -> 1024": lambda: _linear_case(core, torch, 1, 1024, 1024),
        "linear 64x1024 -> 1024": lambda: _linear_case(core, torch, 64, 1024, 1024),
        "conv stem 3->16 3x3 s2, 8x224": lambda: _conv_case(core, torch, 8, 3, 224, 16, 3, 2, 1),
        "conv 1x1 40->240, 8x28": lambda: _conv_case(core, torch, 8, 40, 28, 240, 1, 1, 1),
        "conv depthwise 3x3 240, 8x28": lambda: _conv_case(core, torch, 8, 240, 28, 240, 3, 1, 240),
        "conv depthwise 5x5 s2 672, 8x14": lambda: _conv_case(core, torch, 8, 672, 14, 672, 5, 2, 672),
        "SE mul 8x240x28x28 * 8x240x1x1": lambda: _se_mul_case(core, torch, 8, 240, 28),
    }
    rows = []
    for name, make in cases.items():
        fns = make()
        seconds = harness.time_interleaved(fns, repeats=repeats)
        ours_s, theirs_s = seconds["ours"], seconds.get("pytorch")
        rows.append((name, harness.format_seconds(ours_s), "", harness.format_seconds(theirs_s), "",
                     harness.format_ratio(ours_s, theirs_s)))
    return rows


def _rows_of_models(core, torch, harness, models, repeats):
    ours, ours_fp32, theirs = models
    rows = []
    for n in (1, 8):
        x = RNG.standard_normal((n, 3, 224, 224)).astype(np.float32)
        x_ours = core.tensor(x)
        fns = {"ours": lambda: ours(x_ours), "ours_fp32": lambda: _no_grad(core, ours_fp32, x_ours)}
        if theirs is not None:
            x_theirs = torch.from_numpy(x)
            fns["pytorch"] = lambda: _no_grad(torch, theirs, x_theirs)
        seconds = harness.time_interleaved(fns, repeats=repeats)
        ours_s, fp32_s, theirs_s = seconds["ours"], seconds["ours_fp32"], seconds.get("pytorch")
        rows.append((f"mobilenet_v3_large int8 {n}x224", harness.format_seconds(ours_s), harness.format_seconds(fp32_s),
                     harness.format_seconds(theirs_s), harness.format_ratio(ours_s, fp32_s),
                     harness.format_ratio(ours_s, theirs_s)))
    return rows


def _no_grad(lib, model, x):
    with lib.no_grad():
        return model(x)


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts (default 1,2)")
    parser.add_argument("--repeats", type=int, default=5, help="timed samples per library (median)")
    parser.add_argument("--filter", default="", help="'ops' or 'models' runs only that part")
    args = parser.parse_args(argv)

    import harness
    import core

    torch = harness.torch
    tv = harness.import_torchvision()
    if torch is not None:
        engine = "x86" if "x86" in torch.backends.quantized.supported_engines else "fbgemm"
        torch.backends.quantized.engine = engine
    core.backends.quantized.engine = "fbgemm"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's deprecation warnings of the eager quantization API
        models = _mobilenet_v3_models(core, torch, tv) if args.filter in ("", "models") else None
        for threads in harness.thread_counts(args.threads):
            harness.set_threads(threads)
            print(harness.header(threads))
            if torch is not None:
                print(f"PyTorch quantized engine: {torch.backends.quantized.engine}")
            rows = [("case", "ours int8", "ours fp32", "PyTorch int8", "int8/fp32", "ours/PyTorch")]
            if args.filter in ("", "ops"):
                rows += _rows_of_ops(core, torch, harness, args.repeats)
            if models is not None:
                rows += _rows_of_models(core, torch, harness, models, args.repeats)
            harness.print_rows(rows)
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
