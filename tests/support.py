"""Helpers shared by the test suites."""
import os


def child_process_options(env=None):
    """subprocess keyword arguments (env, cwd) for a child interpreter that imports the same
    packages as this process: the parent of the imported `core` first on PYTHONPATH, then this
    process's sys.path, run from a neutral directory so a source checkout without a build
    (CI tests the installed package) doesn't shadow the installed one."""
    import sys
    import tempfile

    import core

    env = dict(os.environ if env is None else env)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(core.__file__)))
    inherited = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) + sys.path if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([package_parent] + inherited))
    return {"env": env, "cwd": tempfile.gettempdir()}


def run_python(code, *args, env=None, timeout=120):
    """Runs `code` in a fresh interpreter that imports the same packages as this process."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, **child_process_options(env))


# ---------------------------------------------------------------- the kernels of each ISA

CAPABILITIES = ("baseline", "avx2", "avx512")  # TENSORZOO_CPU_CAPABILITY values; a CPU's best is the cap


def run_with_capability(code, capability, *args, timeout=120):
    """stdout of `code` run (run_python) with core's kernels forced to `capability` (None: the
    CPU's best); the run must succeed."""
    env = dict(os.environ)
    env.pop("TENSORZOO_CPU_CAPABILITY", None)
    if capability is not None:
        env["TENSORZOO_CPU_CAPABILITY"] = capability
    result = run_python(code, *args, env=env, timeout=timeout)
    assert result.returncode == 0, result.stderr
    return result.stdout


def conv_isa_script(cases, seed, algorithm=None, weight_grad=True, extra=""):
    """A script for assert_isa_builds_agree: conv2d with bias over `cases` ((x shape, w shape,
    conv2d keyword arguments), ...) in float32 and float64, from NCHW and NHWC inputs; stores the
    output, the input gradient and (weight_grad) the weight gradient of sum(y * y) under
    "<case>-<dtype>-<layout>-y/-gx/-gw". `algorithm` forces _set_conv_algorithm; `extra` is more
    script run before the print (it may use rng, nhwc and out)."""
    force = f"core._C._set_conv_algorithm({algorithm!r})\n" if algorithm else ""
    grads = "(xt, wt)" if weight_grad else "(xt,)"
    return (
        "import json, numpy as np, core\n" + force + f"rng = np.random.default_rng({seed})\n"
        "def nhwc(a):\n"
        "    return core.tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)\n"
        'out = {"cap": core._C._cpu_capability()}\n'
        f"for i, (xs, ws, kw) in enumerate({cases!r}):\n"
        "    for dt in (np.float32, np.float64):\n"
        "        x = rng.uniform(-1, 1, xs).astype(dt); w = rng.uniform(-1, 1, ws).astype(dt)\n"
        "        b = rng.uniform(-1, 1, ws[0]).astype(dt)\n"
        '        for name, xt in (("nchw", core.tensor(x)), ("nhwc", nhwc(x))):\n'
        f"            xt.requires_grad_(); wt = core.tensor(w).requires_grad_({weight_grad})\n"
        "            y = core.conv2d(xt, wt, core.tensor(b), **kw)\n"
        f"            grads = core.autograd.grad((y * y).sum(), {grads})\n"
        '            key = f"{i}-{dt.__name__}-{name}"\n'
        '            out[key + "-y"] = y.contiguous().detach().numpy().tobytes().hex()\n'
        '            for part, g in zip(("-gx", "-gw"), grads):\n'
        "                out[key + part] = g.contiguous().numpy().tobytes().hex()\n"
        + extra + "print(json.dumps(out))\n")


def assert_isa_builds_agree(script):
    """`script` prints one JSON object: results as hex bytes plus "cap", the capability it ran
    with. Every capability's results must equal the baseline's bit for bit; returns those."""
    import json

    results = {cap: json.loads(run_with_capability(script, cap)) for cap in CAPABILITIES}
    ref = results["baseline"]
    assert ref["cap"] == "baseline"
    for cap, r in results.items():
        for key in ref:
            if key != "cap":
                assert r[key] == ref[key], f"{key} differs between baseline and {r['cap']} (asked {cap})"
    return ref
