"""The C++ core's folders form layers: a file includes headers of its own folder or of lower
layers only, so that ops never reach up into autograd, and derivatives and op tables sit on top.
"""
import pathlib
import re

CSRC = pathlib.Path(__file__).resolve().parents[2] / "core" / "csrc"
RANK = {
    "tensor": 0, "iter": 1, "kernels": 2, "random": 3, "quantized": 3, "ops": 4,
    "autograd": 5, "derivatives": 6, "op_table": 7, "jit": 8,
}
# Known upward includes, to be cut: the samplers and the quantizers convert dtypes with ops/.
KNOWN = {("random", "ops"), ("quantized", "ops")}


def _includes(path):
    return re.findall(r'^#include "([a-z_]+)/', path.read_text(), re.M)


def test_every_folder_has_a_layer():
    folders = {p.name for p in CSRC.iterdir() if p.is_dir()}
    assert folders == set(RANK), f"new folders need a layer in RANK: {sorted(folders ^ set(RANK))}"


def test_includes_point_down():
    upward = []
    for path in sorted(CSRC.rglob("*")):
        if path.suffix not in (".h", ".cpp"):
            continue
        folder = path.relative_to(CSRC).parts[0]
        for target in _includes(path):
            if target in RANK and RANK[target] > RANK[folder] and (folder, target) not in KNOWN:
                upward.append(f"{path.relative_to(CSRC)} includes {target}/")
    assert not upward, "\n".join(upward)
