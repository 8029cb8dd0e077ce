"""Named tensors against PyTorch's: result names and error messages of the ops PyTorch
supports with names (skipped where the installed PyTorch has dropped named tensors), and
core.save files of named tensors loading in PyTorch."""
import warnings

import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")
has_names = hasattr(torch.Tensor, "refine_names")
needs_names = pytest.mark.skipif(not has_names, reason="this PyTorch has no named tensors")

CASES = {
    "sum": lambda lib, t: t.sum("C"),
    "mean_list": lambda lib, t: t.mean(["N", "H"]),
    "max_dim": lambda lib, t: t.max("C").values,
    "softmax": lambda lib, t: t.softmax("H"),
    "log_softmax": lambda lib, t: t.log_softmax("C"),
    "cumsum": lambda lib, t: t.cumsum("H"),
    "select": lambda lib, t: t.select("C", 1),
    "transpose": lambda lib, t: t.transpose("N", "H"),
    "squeeze": lambda lib, t: t.narrow(1, 0, 1).squeeze("C"),
    "unbind": lambda lib, t: t.unbind("C")[0],
    "cat": lambda lib, t: lib.cat([t, t], "C"),
    "align_to": lambda lib, t: t.align_to("H", "X", "N", "C"),
    "align_to_glob": lambda lib, t: t.align_to("H", "..."),
    "refine_glob": lambda lib, t: t.rename(None).refine_names("...", "W"),
    "rename_kw": lambda lib, t: t.rename(N="batch"),
    "flatten": lambda lib, t: t.flatten(["C", "H"], "F"),
    "unflatten": lambda lib, t: t.flatten(["C", "H"], "F").unflatten("F", (("A", 3), ("B", 4))),
    "broadcast": lambda lib, t: t + lib.ones(4, names=("H",)),
    "broadcast_none": lambda lib, t: t * lib.ones(3, 1, names=("C", None)),
    "exp": lambda lib, t: t.exp(),
    "matmul": lambda lib, t: t @ lib.ones(4, 5, names=("H", "K"), dtype=lib.float64),
    "diagonal": lambda lib, t: t.diagonal(0, 1, 2),
    "diagonal_outdim": lambda lib, t: t.narrow(2, 0, 3).diagonal(outdim="D", dim1="C", dim2="H"),
    "masked_select": lambda lib, t: t.masked_select(lib.tensor([True, False, True, True], names=("H",))),
    "hstack": lambda lib, t: lib.hstack([t, t]),
    "broadcast_tensors": lambda lib, t: lib.broadcast_tensors(t, lib.ones(4, names=("H",), dtype=lib.float64))[1],
    "expand": lambda lib, t: t.expand(5, 2, 3, 4),
}

ERRORS = {
    "unknown": lambda lib, t: t.sum("X"),
    "mismatch": lambda lib, t: t + lib.ones(3, 4, names=("H", "C")),
    "misaligned_other": lambda lib, t: t.rename("N", "C", None) + lib.ones(3, 4, names=(None, "C")),
    "misaligned": lambda lib, t: t.rename(None).refine_names("N", None, "C") + lib.ones(3, 4, names=("C", None)),
    "refine": lambda lib, t: t.refine_names("A", "C", "H"),
    "align_unnamed": lambda lib, t: t.rename("N", None, "H").align_to("H", "N"),
    "align_missing": lambda lib, t: t.align_to("N", "C"),
    "flatten_gap": lambda lib, t: t.flatten(["N", "H"], "F"),
    "duplicate": lambda lib, t: t.rename("N", "N", "H"),
    "view": lambda lib, t: t.view(24),
}


def pair():
    data = np.random.default_rng(0).standard_normal((2, 3, 4))
    names = ("N", "C", "H")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's "named tensors are a prototype" warning
        theirs = torch.tensor(data, names=names)
    return core.tensor(data, names=names), theirs


@needs_names
@pytest.mark.parametrize("case", sorted(CASES))
def test_result_names_and_values(case):
    ours, theirs = pair()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = CASES[case](torch, theirs)
    got = CASES[case](core, ours)
    assert got.names == expected.names
    np.testing.assert_allclose(got.rename(None).numpy(), expected.rename(None).numpy(), rtol=1e-12)


@needs_names
@pytest.mark.parametrize("case", sorted(ERRORS))
def test_error_messages(case):
    ours, theirs = pair()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError) as expected:
            ERRORS[case](torch, theirs)
    with pytest.raises(RuntimeError) as got:
        ERRORS[case](core, ours)
    assert str(got.value) == str(expected.value)


def test_saved_named_tensors_load_in_pytorch(tmp_path):
    t = core.randn(2, 3, names=("N", None))
    path = tmp_path / "named.pt"
    core.save({"t": t, "plain": core.ones(2)}, path)
    loaded = torch.load(path)  # weights_only: the names travel as plain object state
    np.testing.assert_array_equal(loaded["t"].numpy(), t.rename(None).numpy())
    np.testing.assert_array_equal(loaded["plain"].numpy(), np.ones(2, np.float32))
