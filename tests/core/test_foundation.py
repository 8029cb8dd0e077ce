"""The foundation under every op: storage, dtypes, half conversions, threads, SIMD paths."""
import os

import numpy as np
import pytest

import core
from support import CAPABILITIES, run_python, run_with_capability


def test_storage_is_64_byte_aligned():
    for n in [1, 3, 17, 1000]:
        assert core.empty(n)._storage_ptr() % 64 == 0


def test_dtype_properties():
    assert core.float32.is_floating_point and not core.int64.is_floating_point
    assert core.complex64.is_complex and core.float16.itemsize == 2
    assert core.bfloat16.itemsize == 2 and core.int64.itemsize == 8
    assert not core.uint8.is_signed and core.int8.is_signed
    assert repr(core.float32) == "core.float32"
    assert core.float is core.float32 and core.long is core.int64 and core.half is core.float16


def _half_probe_values(rng):
    special = np.array([0.0, -0.0, 1.0, -1.0, 65504.0, 65520.0, 1e6, -1e6, 6.1e-5, 5.96e-8, 3e-8,
                        2.98e-8, 1e-10, np.inf, -np.inf, np.nan, 0.5 + 2 ** -11, 1 + 2 ** -11,
                        1 + 3 * 2 ** -11], dtype=np.float32)
    return np.concatenate([special, rng.standard_normal(2000).astype(np.float32) * 100,
                           rng.standard_normal(2000).astype(np.float32) * 1e-5])


def test_float16_conversion_matches_numpy_bit_for_bit(rng):
    values = _half_probe_values(rng)
    ours = core.tensor(values).to(core.float16).numpy()
    with np.errstate(over="ignore"):
        expected = values.astype(np.float16)
    same = (ours.view(np.uint16) == expected.view(np.uint16)) | (np.isnan(ours) & np.isnan(expected))
    assert same.all(), values[~same]
    back = core.from_numpy(expected).to(core.float32).numpy()
    np.testing.assert_array_equal(back, expected.astype(np.float32))


def _bfloat16_reference(values):
    bits = values.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    out = rounded.astype(np.uint16)
    return np.where(np.isnan(values), (bits >> 16).astype(np.uint16) | 0x40, out).astype(np.uint16)


def test_bfloat16_conversion_rounds_to_nearest_even(rng):
    values = _half_probe_values(rng)
    ours = core.tensor(values).to(core.bfloat16).to(core.float32).numpy()
    expected = (_bfloat16_reference(values).astype(np.uint32) << 16).view(np.float32)
    same = (ours.view(np.uint32) == expected.view(np.uint32)) | (np.isnan(ours) & np.isnan(expected))
    assert same.all(), values[~same]


@pytest.mark.parametrize("src", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"])
@pytest.mark.parametrize("dst", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"])
def test_dtype_conversion_matrix(src, dst, rng):
    values = np.asarray(rng.integers(0, 100, 50), dtype=src) if src != "bool" else rng.random(50) < 0.5
    ours = core.from_numpy(values).to(getattr(core, dst)).numpy()
    np.testing.assert_array_equal(ours, values.astype(dst))


def test_thread_count_roundtrip():
    n = core.get_num_threads()
    try:
        core.set_num_threads(1)
        assert core.get_num_threads() == 1
    finally:
        core.set_num_threads(n)
    with pytest.raises(ValueError, match="set_num_threads"):
        core.set_num_threads(0)


def test_parallel_and_serial_results_agree(rng):
    a = rng.standard_normal((1000, 700)).astype(np.float32)
    b = rng.standard_normal((700,)).astype(np.float32)
    n = core.get_num_threads()
    try:
        core.set_num_threads(1)
        serial = (core.tensor(a) * core.tensor(b)).numpy()
        core.set_num_threads(2)
        parallel = (core.tensor(a) * core.tensor(b)).numpy()
    finally:
        core.set_num_threads(n)
    np.testing.assert_array_equal(serial, parallel)
    np.testing.assert_array_equal(serial, a * b)


def test_forked_child_can_use_the_thread_pool():
    # The pool must come back to life in a child started by fork, not hang.
    code = (
        "import os, core\n"
        "x = core.ones(1_000_000); y = x + x\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    z = (x + x) * 3\n"
        "    os._exit(0 if z.numpy()[0] == 6 else 1)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "raise SystemExit(os.waitstatus_to_exitcode(status))\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_every_simd_build_gives_identical_results(capability):
    code = (
        "import numpy as np, core\n"
        "rng = np.random.default_rng(1)\n"
        "a = rng.standard_normal((333, 77)).astype(np.float32)\n"
        "b = rng.standard_normal((77,)).astype(np.float32)\n"
        "out = [(core.tensor(a) + core.tensor(b)).numpy(), (core.tensor(a) * 3).numpy(),\n"
        "       core.tensor(a).to(core.float16).to(core.float64).numpy(),\n"
        "       (core.tensor(a.astype(np.int32)) - 2).numpy()]\n"
        "print(core._C._cpu_capability())\n"
        "np.savez(__import__('sys').argv[1], *out)\n"
    )
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        outputs = {}
        for cap in [None, capability]:
            path = os.path.join(tmp, f"{cap or 'default'}.npz")
            run_with_capability(code, cap, path)
            outputs[cap or "default"] = np.load(path)
        for key in outputs["default"].files:
            np.testing.assert_array_equal(outputs["default"][key], outputs[capability][key])


def test_allocator_returns_memory():
    before = core._C._bytes_in_use()
    t = core.empty(1_000_000)
    assert core._C._bytes_in_use() >= before + 4_000_000
    del t
    assert core._C._bytes_in_use() == before


def test_numpy_openblas_runs_single_threaded_beside_core():
    from core._numpy_blas import numpy_blas_threads

    if numpy_blas_threads() is None:
        pytest.skip("this numpy does not bundle an OpenBLAS")
    code = ("import core\n"
            "from core._numpy_blas import limit_numpy_blas_threads, numpy_blas_threads\n"
            "at_import = numpy_blas_threads()\n"
            "limit_numpy_blas_threads(2)\n"  # the setter reaches the library numpy uses
            "print(at_import, numpy_blas_threads())\n")
    result = run_python(code, env=dict(os.environ, OPENBLAS_NUM_THREADS="2"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "2"]


def test_importing_core_without_its_extension_says_what_to_do(tmp_path):
    import shutil
    import subprocess
    import sys

    source = os.path.dirname(os.path.abspath(core.__file__))
    shutil.copytree(source, tmp_path / "core",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "csrc", "bindings"))
    result = subprocess.run([sys.executable, "-c", "import core"], cwd=tmp_path, capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=str(tmp_path)), timeout=120)
    assert result.returncode != 0
    assert "the C++ extension core._C is not built" in result.stderr
    assert "pip install ." in result.stderr and "tools/dev_build.sh" in result.stderr
    assert "circular import" not in result.stderr
