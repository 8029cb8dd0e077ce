"""The per-ISA kernel objects keep to their own namespace.

kernels/isa/*.cpp is compiled three times (baseline, AVX2, AVX-512), kernels/isa_vnni/*.cpp once (AVX-512 VNNI). A symbol that such an
object defines with external linkage outside `tz::<isa>::` (an inline function, a template
instantiation, a vtable) is a COMDAT symbol: the linker keeps one copy for every caller, and
if it keeps the AVX-512 one, a CPU without AVX-512 runs AVX-512 instructions. This test reads
the objects of the newest build tree with `nm` and fails on any such symbol.
"""
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
ISAS = ("baseline", "avx2", "avx512", "avx512vnni")  # the last: the int8 GEMM's VNNI build
# Identical in every object and holds no code: the pointer to the C++ personality routine.
ALLOWED = {"DW.ref.__gxx_personality_v0"}
GLOBAL_TYPES = set("TWVDBRVu")  # nm's letters for defined symbols with external linkage


def _newest_build_tree():
    trees = [p.parent for p in ROOT.glob("build/*/core/CMakeFiles/tz_kernels_baseline.dir")]
    trees = [t for t in trees if all(any((t / f"tz_kernels_{isa}.dir").rglob("*.o")) for isa in ISAS)]
    if not trees:
        return None
    return max(trees, key=lambda t: max(o.stat().st_mtime for o in t.rglob("*.o")))


def _external_symbols(obj):
    out = subprocess.run(["nm", "-C", "--defined-only", str(obj)], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in GLOBAL_TYPES:
            yield parts[2]


@pytest.fixture(scope="module")
def symbols_by_isa():
    if shutil.which("nm") is None:
        pytest.skip("nm (binutils) is not installed")
    tree = _newest_build_tree()
    if tree is None:
        pytest.skip("no build tree with the kernel objects under build/ (installed from a wheel?)")
    return {isa: {obj.name: set(_external_symbols(obj)) for obj in sorted((tree / f"tz_kernels_{isa}.dir").rglob("*.o"))}
            for isa in ISAS}


@pytest.mark.parametrize("isa", ISAS)
def test_isa_objects_define_only_their_own_namespace(symbols_by_isa, isa):
    escaped = sorted(f"{obj}: {sym}" for obj, syms in symbols_by_isa[isa].items()
                     for sym in syms if f"tz::{isa}::" not in sym and sym not in ALLOWED)
    assert not escaped, f"{len(escaped)} symbols of the {isa} build escape tz::{isa}::\n" + "\n".join(escaped[:40])


def test_no_symbol_is_defined_by_two_isa_builds(symbols_by_isa):
    owners = {}
    for isa, objects in symbols_by_isa.items():
        for syms in objects.values():
            for sym in syms - ALLOWED:
                owners.setdefault(sym, set()).add(isa)
    shared = sorted(sym for sym, isas in owners.items() if len(isas) > 1)
    assert not shared, "defined by several ISA builds:\n" + "\n".join(shared[:40])


def test_the_check_sees_symbols(symbols_by_isa):
    # If nm's output stopped parsing, this fails instead of the checks above passing on nothing.
    for isa, objects in symbols_by_isa.items():
        if isa == "avx512vnni":  # one file whose functions all have internal linkage
            continue
        assert any(f"tz::{isa}::" in sym for syms in objects.values() for sym in syms), isa
