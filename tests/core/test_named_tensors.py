"""Named tensors (shared/SPEC.md 1.5, issue 15): names on factories, Tensor.names, rename,
refine_names, align_to/align_as, named flatten/unflatten, dims given by name, name inference
(keep, reduce, unify, permute, contract and the custom rules), autograd, pickling and save/load.
Values are checked against numpy; the expected names and messages are PyTorch's."""
import copy
import pickle

import numpy as np
import pytest

import core
from core.autograd import gradcheck

NC = ("N", "C")


def named(*shape, names, dtype=core.float64, seed=0):
    data = np.random.default_rng(seed).standard_normal(shape)
    return core.tensor(data, dtype=dtype, names=names), data


# ---- names on tensors

@pytest.mark.parametrize("factory", [
    lambda n: core.zeros(2, 3, names=n), lambda n: core.ones(2, 3, names=n),
    lambda n: core.empty(2, 3, names=n), lambda n: core.full((2, 3), 7.0, names=n),
    lambda n: core.rand(2, 3, names=n), lambda n: core.randn(2, 3, names=n),
    lambda n: core.tensor(np.zeros((2, 3)), names=n),
    lambda n: core.zeros_like(core.zeros(2, 3), names=n), lambda n: core.ones_like(core.zeros(2, 3), names=n),
    lambda n: core.empty_like(core.zeros(2, 3), names=n), lambda n: core.full_like(core.zeros(2, 3), 1, names=n),
    lambda n: core.rand_like(core.zeros(2, 3), names=n), lambda n: core.randn_like(core.zeros(2, 3), names=n),
])
def test_factories_take_names(factory):
    assert factory(NC).names == NC
    assert factory(["N", None]).names == ("N", None)
    assert factory(None).names == (None, None)


def test_arange_names_and_unnamed_default():
    assert core.arange(4, names=("L",)).names == ("L",)
    assert core.zeros(2, 3).names == (None, None)
    assert core.zeros(()).names == ()


def test_names_setter_and_validation():
    t = core.zeros(2, 3)
    t.names = ["N", None]
    assert t.names == ("N", None)
    t.names = None
    assert t.names == (None, None)
    with pytest.raises(RuntimeError, match=r"Cannot construct a tensor with duplicate names. Got names: \['N', 'N'\]"):
        t.names = ("N", "N")
    with pytest.raises(RuntimeError, match="Invalid name: a valid identifier .* got: '1N'"):
        core.zeros(2, names=("1N",))
    with pytest.raises(RuntimeError, match=r"Number of names \(1\) and number of dimensions in tensor \(2\) do not match"):
        t.names = ["N"]
    assert t.names == (None, None)  # a rejected assignment leaves the names alone


def test_repr_shows_names():
    assert "names=('N', 'C')" in repr(core.zeros(1, 2, names=NC))


def test_rename_positional_keyword_and_none():
    t = core.zeros(2, 3, names=NC)
    assert t.rename("A", None).names == ("A", None)
    assert t.rename(N="batch").names == ("batch", "C")
    assert t.rename("...", "X").names == ("N", "X")
    assert t.rename(None).names == (None, None)
    assert t.names == NC  # rename is a view with new names; self keeps its own
    view = t.rename("A", "B")
    view[0, 0] = 5.0
    assert t[0, 0].item() == 5.0
    with pytest.raises(RuntimeError, match="rename: Tried to rename dim 'X' to dim batch in Tensor\\['N', 'C'\\] but dim 'X' does not exist"):
        t.rename(X="batch")
    with pytest.raises(RuntimeError, match="either positional names or keyword arguments"):
        t.rename("A", "B", N="C")
    with pytest.raises(RuntimeError, match="duplicate names"):
        t.rename(N="C")
    assert t.rename_("P", "Q") is t and t.names == ("P", "Q")
    t.rename_(None)
    assert t.names == (None, None)


def test_refine_names():
    t = core.zeros(2, 3, 4, names=("N", None, None))
    assert t.refine_names("N", "C", "H").names == ("N", "C", "H")
    assert t.refine_names("...", "H").names == ("N", None, "H")
    assert t.refine_names("N", "...").names == ("N", None, None)
    with pytest.raises(RuntimeError, match="refine_names: cannot coerce Tensor\\['N', None, None\\] to "
                                           "Tensor\\['A', 'B', 'C'\\] because 'N' is different from 'A' at index 0"):
        t.refine_names("A", "B", "C")
    with pytest.raises(RuntimeError, match="More than one '...'"):
        t.refine_names("...", "A", "...")


def test_align_to_and_align_as():
    t, data = named(2, 3, 4, names=("N", "C", "H"))
    out = t.align_to("H", "N", "X", "C")
    assert out.names == ("H", "N", "X", "C") and out.shape == (4, 2, 1, 3)
    np.testing.assert_array_equal(out.numpy(), data.transpose(2, 0, 1)[:, :, None, :])
    assert t.align_to("H", "...").names == ("H", "N", "C")
    assert t.align_to("...", "N").names == ("C", "H", "N")
    assert core.zeros(2, 3, 4, names=("N", "C", None)).align_to("...", "N").names == ("C", None, "N")
    other = core.zeros(3, 2, 1, names=("C", "N", "H"))
    assert core.zeros(2, 3, names=NC).align_as(other).shape == (3, 2, 1)
    with pytest.raises(RuntimeError, match="align_to: All input dims must be named. Found unnamed dim at index 0 "
                                           "of Tensor\\[None, 'C'\\]"):
        core.zeros(2, 3, names=(None, "C")).align_to("C", "N")
    with pytest.raises(RuntimeError, match="align_to: Cannot find dim 'C' from Tensor\\['N'\\] in desired "
                                           "alignment \\['N'\\]"):
        core.zeros(2, 3, names=NC).align_to("N")


def test_flatten_and_unflatten_named():
    t, data = named(2, 3, 4, names=("N", "C", "H"))
    flat = t.flatten(["C", "H"], "features")
    assert flat.names == ("N", "features") and flat.shape == (2, 12)
    np.testing.assert_array_equal(flat.numpy(), data.reshape(2, 12))
    back = flat.unflatten("features", (("C", 3), ("H", 4)))
    assert back.names == ("N", "C", "H")
    np.testing.assert_array_equal(back.numpy(), data)
    with pytest.raises(RuntimeError, match="dims \\['N', 'H'\\] must be consecutive in Tensor\\['N', 'C', 'H'\\]"):
        t.flatten(["N", "H"], "F")
    with pytest.raises(RuntimeError, match="Provided sizes \\[2, 2\\] don't multiply up to the size of dim 1"):
        flat.unflatten("features", (("A", 2), ("B", 2)))
    assert t.flatten(0, 1).names == (None, "H")  # positional: the merged dim is unnamed


def test_size_and_stride_by_name():
    t = core.zeros(2, 3, 4, names=("N", "C", "H"))
    assert (t.size("C"), t.stride("N"), t.stride("H")) == (3, 12, 1)
    with pytest.raises(RuntimeError, match="Name 'X' not found in Tensor\\['N', 'C', 'H'\\]."):
        t.size("X")
    with pytest.raises(RuntimeError, match="Name 'C' not found in Tensor\\[None, None\\]."):
        core.zeros(2, 3).sum("C")


# ---- dims by name and name inference, values against numpy

def reduce_cases():
    return [
        ("sum", lambda t: t.sum("C"), lambda a: a.sum(1), ("N", "H")),
        ("sum_list", lambda t: t.sum(["N", "H"]), lambda a: a.sum((0, 2)), ("C",)),
        ("mean_keepdim", lambda t: t.mean("H", keepdim=True), lambda a: a.mean(2, keepdims=True), ("N", "C", "H")),
        ("mean_all", lambda t: t.mean(), lambda a: a.mean(), ()),
        ("max_values", lambda t: t.max("C").values, lambda a: a.max(1), ("N", "H")),
        ("min_indices", lambda t: t.min("H").indices, lambda a: a.argmin(2), ("N", "C")),
        ("argmax", lambda t: t.argmax("N"), lambda a: a.argmax(0), ("C", "H")),
        ("select", lambda t: t.select("C", 1), lambda a: a[:, 1], ("N", "H")),
        ("softmax", lambda t: t.softmax("C"), lambda a: np.exp(a) / np.exp(a).sum(1, keepdims=True), ("N", "C", "H")),
        ("log_softmax", lambda t: t.log_softmax("H"),
         lambda a: a - np.log(np.exp(a).sum(2, keepdims=True)), ("N", "C", "H")),
        ("cumsum", lambda t: t.cumsum("H"), lambda a: a.cumsum(2), ("N", "C", "H")),
        ("transpose", lambda t: t.transpose("N", "H"), lambda a: a.transpose(2, 1, 0), ("H", "C", "N")),
        ("permute", lambda t: t.permute("H", "N", "C"), lambda a: a.transpose(2, 0, 1), ("H", "N", "C")),
        ("index_select", lambda t: t.index_select("C", core.tensor([2, 0])), lambda a: a[:, [2, 0]], ("N", "C", "H")),
        ("narrow", lambda t: t.narrow("H", 1, 2), lambda a: a[:, :, 1:3], ("N", "C", "H")),
        ("sort", lambda t: t.sort("H").values, lambda a: np.sort(a, 2), ("N", "C", "H")),
        ("topk", lambda t: t.topk(2, "C").values, lambda a: -np.sort(-a, 1)[:, :2], ("N", "C", "H")),
        ("exp", lambda t: t.exp(), np.exp, ("N", "C", "H")),
        ("unsqueeze", lambda t: t.unsqueeze(1), lambda a: a[:, None], ("N", None, "C", "H")),
    ]


@pytest.mark.parametrize("case", reduce_cases(), ids=lambda c: c[0])
def test_dim_by_name_values_and_names(case):
    _, fn, ref, names = case
    t, data = named(2, 3, 4, names=("N", "C", "H"))
    out = fn(t)
    assert out.names == names
    np.testing.assert_allclose(out.numpy(), ref(data), rtol=1e-12, atol=1e-12)


def test_multi_output_ops_by_name():
    t, data = named(2, 4, names=NC)
    for piece, ref in zip(t.unbind("C"), np.moveaxis(data, 1, 0)):
        assert piece.names == ("N",)
        np.testing.assert_array_equal(piece.numpy(), ref)
    for piece, ref in zip(t.split(3, "C"), np.split(data, [3], 1)):
        assert piece.names == NC
        np.testing.assert_array_equal(piece.numpy(), ref)
    for piece, ref in zip(t.chunk(2, "C"), np.split(data, 2, 1)):
        assert piece.names == NC
        np.testing.assert_array_equal(piece.numpy(), ref)


def test_cat_and_squeeze():
    a, da = named(2, 3, names=NC)
    b, db = named(2, 3, names=(None, "C"), seed=1)
    out = core.cat([a, b], "C")
    assert out.names == NC
    np.testing.assert_array_equal(out.numpy(), np.concatenate([da, db], 1))
    with pytest.raises(RuntimeError, match="Error when attempting to broadcast dims"):
        core.cat([a, a.rename("C", "N")], 0)
    s = core.zeros(2, 1, 3, names=("N", "X", "C"))
    assert s.squeeze().names == NC
    assert s.squeeze("X").names == NC


def test_unify_rules():
    a = core.ones(2, 3, names=NC)
    assert (a + core.ones(3, names=("C",))).names == NC
    assert (a * core.ones(3)).names == NC
    assert (core.ones(2, 3, names=(None, "C")) + core.ones(2, 3, names=("N", None))).names == NC
    assert core.where(a > 0, a, core.zeros(3, names=("C",))).names == NC
    with pytest.raises(RuntimeError, match=r"Error when attempting to broadcast dims \['N', 'C'\] and dims \['C', 'N'\]: "
                                           r"dim 'C' and dim 'N' are at the same position from the right but do not match."):
        a + core.ones(3, 2, names=("C", "N"))
    with pytest.raises(RuntimeError, match=r"Misaligned dims when attempting to broadcast dims \[None, 'N'\] and dims "
                                           r"\['N', None\]: dim 'N' appears in a different position from the right"):
        core.ones(2, 3, names=("N", None)) + core.ones(2, 3, names=(None, "N"))


def test_inplace_and_unsupported():
    unnamed = core.ones(2, 3)
    unnamed.add_(core.ones(3, names=("C",)))
    assert unnamed.names == (None, "C")
    partly = core.ones(2, 3, names=("N", None))
    with pytest.raises(RuntimeError, match=r"Name mismatch: specified out tensor with names \['N', None\] are not the "
                                           r"same as the computed output names \['N', 'C'\]"):
        partly.add_(core.ones(3, names=("C",)))
    assert partly.sum().item() == 6.0  # the failed in-place op wrote nothing
    with pytest.raises(RuntimeError, match="aten::view is not yet supported with named tensors. Please drop names"):
        core.zeros(2, 3, names=NC).view(6)


def test_contraction_checks_matching_names():
    a = core.ones(2, 3, names=("N", "C"))
    assert (a @ core.ones(3, 4, names=("C", "K"))).names == ("N", "K")
    assert (a @ core.ones(3, 4, names=(None, "K"))).names == ("N", "K")
    assert core.mv(a, core.ones(3, names=("C",))).names == ("N",)
    assert core.bmm(core.ones(5, 2, 3, names=("B", "N", "C")), core.ones(5, 3, 4)).names == ("B", "N", None)
    with pytest.raises(RuntimeError, match="matmul: contracted dims do not match: dim 'C' of Tensor\\['N', 'C'\\] "
                                           "and dim 'X' of Tensor\\['X', 'K'\\]"):
        a @ core.ones(3, 4, names=("X", "K"))


def test_every_table_entry_has_a_name_rule():
    rules = {"keep", "unify", "reduce", "permute", "contract", "factory", "custom", "unsupported", "none"}
    for table in (core._C._functions, core._C._methods, core._C._internal):
        for name, op in table.items():
            assert set(op.name_rules) <= rules, name


# ---- autograd, copies and files

def test_gradients_carry_names_and_gradcheck():
    x = core.randn(2, 3, dtype=core.float64, names=NC, requires_grad=True)
    w = core.randn(3, dtype=core.float64, names=("C",), requires_grad=True)
    ((x * w).softmax("C").sum("N") ** 2).sum().backward()
    assert x.grad.names == NC and w.grad.names == ("C",)
    assert gradcheck(lambda a, b: (a * b).log_softmax("C").sum("N"), (x, w))
    assert gradcheck(lambda a: a.align_to("C", "X", "N").flatten(["X", "N"], "F").max("F").values, (x,))
    assert gradcheck(lambda a: a.rename(None).refine_names("A", "B").sum("A"), (x,))


def test_pickle_deepcopy_and_save_load(tmp_path):
    t = core.randn(2, 3, names=("N", None))
    for copied in (pickle.loads(pickle.dumps(t)), copy.deepcopy(t), t.clone()):
        assert copied.names == ("N", None)
        assert core.equal(copied.rename(None), t.rename(None))
    path = tmp_path / "named.pt"
    core.save({"t": t, "row": t[0], "plain": core.ones(2)}, path)
    loaded = core.load(path)
    assert loaded["t"].names == ("N", None) and loaded["row"].names == (None,)
    assert loaded["plain"].names == (None,)
    np.testing.assert_array_equal(loaded["t"].rename(None).numpy(), t.rename(None).numpy())


# ---- the seed examples

def test_seed_examples():
    imgs = core.randn(32, 3, 56, 56, names=("N", "C", "H", "W"))
    assert imgs.sum("C").names == ("N", "H", "W")
    assert imgs.select("C", index=0).names == ("N", "H", "W")


def normalize(tensor, mean, stdv):
    """The seed's 'accidental alignment' fix: channel statistics aligned by name."""
    mean = mean.refine_names("C").align_as(tensor)
    stdv = stdv.refine_names("C").align_as(tensor)
    return (tensor - mean) / stdv


@pytest.mark.parametrize("names", [("N", "C", "H", "W"), ("N", "H", "W", "C"), ("N", "C", "T", "H", "W"),
                                   ("H", "W", "C")])
def test_normalize_aligns_channels_in_any_layout(names):
    sizes = {"N": 2, "C": 3, "H": 4, "W": 5, "T": 2}
    t, data = named(*[sizes[n] for n in names], names=names)
    mean, stdv = core.tensor([0.1, 0.2, 0.3], dtype=core.float64), core.tensor([1.0, 2.0, 4.0], dtype=core.float64)
    out = normalize(t, mean, stdv)
    assert out.names == names
    c = names.index("C")
    shape = [1] * len(names)
    shape[c] = 3
    np.testing.assert_allclose(out.numpy(), (data - mean.numpy().reshape(shape)) / stdv.numpy().reshape(shape))


def test_normalize_rejects_a_misnamed_input():
    with pytest.raises(RuntimeError, match="align_to: Cannot find dim 'C' from Tensor\\['N', 'D', 'H', 'W'\\]"):
        normalize(core.zeros(2, 3, 4, 5, names=("N", "D", "H", "W")), core.zeros(3), core.ones(3))


# ---- docs/named_tensors.md

def doc_blocks():
    import pathlib
    import re

    page = pathlib.Path(__file__).resolve().parents[2] / "docs" / "named_tensors.md"
    if not page.exists():  # the installed package without the repository's docs
        pytest.skip("docs/named_tensors.md is not beside the tests")
    return re.findall(r"```python\n(.*?)```", page.read_text(), re.S)


def attention_reference(query, key, value, w_q, w_k, w_v, w_o, heads):
    def split(x, w):
        y = x @ w
        return y.reshape(y.shape[0], y.shape[1], heads, -1).transpose(0, 2, 1, 3)
    q, k, v = split(query, w_q), split(key, w_k), split(value, w_v)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    context = (weights @ v).transpose(0, 2, 1, 3)
    return context.reshape(context.shape[0], context.shape[1], -1) @ w_o


def test_docs_examples_run_and_attention_matches_numpy():
    blocks = doc_blocks()
    namespace = {}
    for block in blocks:
        exec(compile(block, "docs/named_tensors.md", "exec"), namespace)
    mha = namespace["multi_head_attention"]
    query, _ = named(2, 5, 8, names=("N", "T", "E"), seed=1)
    memory, _ = named(2, 7, 8, names=("N", "S", "E"), seed=2)
    weights = [named(8, 8, names=(None, None), seed=3 + i)[0] for i in range(4)]
    out = mha(query, memory, memory, *weights, heads=2)
    expected = attention_reference(query.rename(None).numpy(), memory.rename(None).numpy(),
                                   memory.rename(None).numpy(), *[w.numpy() for w in weights], heads=2)
    assert out.names == ("N", "T", "E")
    np.testing.assert_allclose(out.rename(None).numpy(), expected, rtol=1e-10, atol=1e-12)
    with pytest.raises(RuntimeError, match="contracted dims do not match"):  # keys with the wrong model dim name
        mha(query, memory.rename(E="X"), memory, *weights, heads=2)


# ---- layers on N, C, H, W inputs

def test_layers_keep_nchw_names_and_reject_misplaced_channels():
    import core.nn as nn

    core.manual_seed(0)
    x = core.randn(2, 3, 8, 8, dtype=core.float64, names=("N", "C", "H", "W"), requires_grad=True)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                          nn.GroupNorm(2, 4), nn.AdaptiveAvgPool2d(2)).double()
    out = model(x)
    assert out.names == ("N", "C", "H", "W") and out.shape == (2, 4, 2, 2)
    unnamed = model(x.rename(None))
    np.testing.assert_allclose(out.rename(None).detach().numpy(), unnamed.detach().numpy())
    out.sum().backward()
    assert x.grad.names == ("N", "C", "H", "W")
    assert nn.Linear(8, 5).double()(x).names == ("N", "C", "H", None)
    nhwc = x.detach().align_to("N", "H", "W", "C")
    for layer in (nn.Conv2d(8, 4, 3), nn.MaxPool2d(2), nn.BatchNorm2d(8)):
        with pytest.raises(RuntimeError, match="expected the channel dim 'C' at dim 1 of the input .* has it at dim 3"):
            layer.double()(nhwc)
    assert gradcheck(lambda t: core.nn.functional.conv1d(t, core.ones(2, 3, 2, dtype=core.float64)),
                     (core.randn(1, 3, 4, dtype=core.float64, names=("N", "C", "L"), requires_grad=True),))


# ---- indexing, stacking and data loading

def test_basic_indexing_keeps_names_and_advanced_indexing_refuses():
    t, data = named(4, 3, 5, names=("N", "C", "L"))
    for index, names, ref in [(0, ("C", "L"), data[0]), ((slice(None), 1), ("N", "L"), data[:, 1]),
                              ((Ellipsis, None, 0), ("N", "C", None), data[..., None, 0]),
                              (slice(1, 3), ("N", "C", "L"), data[1:3]), (None, (None, "N", "C", "L"), data[None])]:
        out = t[index]
        assert out.names == names
        np.testing.assert_array_equal(out.numpy(), ref)
    with pytest.raises(RuntimeError, match="aten::index is not yet supported with named tensors"):
        t[[0, 1]]
    leaf = core.randn(4, 3, names=("N", "C"), requires_grad=True)
    leaf[1].sum().backward()
    assert leaf.grad.names == ("N", "C")


def test_stack_and_data_loader_workers_keep_names():
    from core.utils.data import DataLoader

    a = core.zeros(2, 3, names=("N", "C"))
    assert core.stack([a, a], 1).names == ("N", None, "C")
    x, data = named(8, 3, 4, names=("N", "C", "L"))

    class Samples:
        def __len__(self):
            return 8

        def __getitem__(self, i):
            return x[i]

    for workers in (0, 2):
        batches = list(DataLoader(Samples(), batch_size=4, num_workers=workers))
        assert [b.names for b in batches] == [(None, "C", "L")] * 2
        np.testing.assert_array_equal(np.concatenate([b.rename(None).numpy() for b in batches]), data)


def test_out_takes_or_checks_the_result_names():
    a, b = core.ones(2, 3, names=("N", "C")), core.ones(3, names=("C",))
    for out in (core.empty(2, 3), core.empty(0)):
        assert core.add(a, b, out=out) is out and out.names == ("N", "C") and out.shape == (2, 3)
    wrong = core.zeros(2, 3, names=("A", "B"))
    with pytest.raises(RuntimeError, match=r"Name mismatch: specified out tensor with names \['A', 'B'\] are not the "
                                           r"same as the computed output names \['N', 'C'\]"):
        core.add(a, b, out=wrong)
    assert wrong.sum().item() == 0.0


def test_losses_reduce_or_keep_names():
    import core.nn.functional as F

    x, xd = named(4, 3, names=("N", "C"))
    t, td = named(4, 3, names=("N", "C"), seed=1)
    assert F.mse_loss(x, t).names == ()
    none = F.mse_loss(x, t, reduction="none")
    assert none.names == ("N", "C")
    np.testing.assert_allclose(none.rename(None).numpy(), (xd - td) ** 2)
    y = core.tensor([0, 1, 2, 0], names=("N",))
    per_sample = F.cross_entropy(x, y, reduction="none")
    assert per_sample.names == ("N",)
    log_p = xd - np.log(np.exp(xd).sum(1, keepdims=True))
    np.testing.assert_allclose(per_sample.rename(None).numpy(), -log_p[np.arange(4), [0, 1, 2, 0]])
    leaf = x.detach().requires_grad_()
    assert gradcheck(lambda a: F.cross_entropy(a, y), (leaf,))
    with pytest.raises(RuntimeError, match="Error when attempting to broadcast dims"):
        F.mse_loss(x, t.rename("C", "N"), reduction="none")


def test_every_gradient_of_a_named_tensor_is_named():
    x = core.randn(2, 3, dtype=core.float64, names=("N", "C"), requires_grad=True)
    (g,) = core.autograd.grad((x * 2).sum(), x)
    assert g.names == ("N", "C")
    seen = []
    z = x.rename("A", "B")  # a view used twice: its gradients are summed
    z.register_hook(lambda grad: seen.append(grad.names))
    z.retain_grad()
    row = x[0]
    row.retain_grad()
    ((z * z).sum() + (row * row).sum()).backward()
    assert seen == [("A", "B")] and z.grad.names == ("A", "B") and row.grad.names == ("C",)
    assert x.grad.names == ("N", "C")
    (g,) = core.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert g.names == ("N", "C")
    assert core.autograd.gradgradcheck(lambda a: (a * a).softmax("C").sum("N"), (x,))


# ---- rules of the reshaping, embedding, stacking and contraction helpers (values against numpy)

def plain(t):
    return t.rename(None).numpy()


def test_embedding_and_one_hot_append_an_unnamed_dim():
    F = core.nn.functional
    weight, wd = named(10, 4, names=("V", "E"))
    idx = np.array([[1, 2, 3], [4, 5, 9]])
    emb = F.embedding(core.tensor(idx, names=("N", "L")), weight)
    assert emb.names == ("N", "L", None)
    np.testing.assert_allclose(plain(emb), wd[idx])
    renormed = weight.detach().clone()
    F.embedding(core.tensor(idx), renormed, max_norm=0.5)
    assert renormed.names == ("V", "E")
    hot = F.one_hot(core.tensor(idx, names=("N", "L")), 10)
    assert hot.names == ("N", "L", None)
    np.testing.assert_array_equal(plain(hot), np.eye(10, dtype=np.int64)[idx])


def test_diagonals():
    x, xd = named(3, 4, 4, names=("B", "R", "S"))
    d = x.diagonal(offset=1, dim1="R", dim2="S")
    assert d.names == ("B", None)
    assert x.diagonal(outdim="D", dim1="R", dim2="S").names == ("B", "D")
    np.testing.assert_allclose(plain(d), np.diagonal(xd, 1, 1, 2))
    v, vd = named(2, 3, names=("B", "L"))
    e = core.diag_embed(v)
    assert e.names == ("B", "L", None)
    np.testing.assert_allclose(plain(e), np.stack([np.diag(r) for r in vd]))
    assert core.diag_embed(v, dim1=-1, dim2=-2).names == ("B", None, "L")
    m, md = named(3, 3, names=("R", "S"))
    assert core.diag(m).names == (None,) and core.diag(m[0]).names == (None, None)
    np.testing.assert_allclose(plain(core.diag(m, 1)), np.diag(md, 1))


def test_repeat_tile_rot90_repeat_interleave():
    x, xd = named(2, 3, names=NC)
    assert x.repeat(2, 2).names == NC and x.repeat(4, 2, 2).names == (None, "N", "C")
    np.testing.assert_allclose(plain(x.repeat(4, 2, 2)), np.tile(xd, (4, 2, 2)))
    assert core.tile(x, (2,)).names == NC and core.tile(x, (3, 1, 1)).names == (None, "N", "C")
    np.testing.assert_allclose(plain(core.tile(x, (2,))), np.tile(xd, (2,)))
    r = core.rot90(x)
    assert r.names == ("C", "N") and core.rot90(x, 2).names == NC
    np.testing.assert_allclose(plain(r), np.rot90(xd))
    ri = x.repeat_interleave(2, dim="C")
    assert ri.names == NC and x.repeat_interleave(2).names == (None,)
    np.testing.assert_allclose(plain(ri), np.repeat(xd, 2, axis=1))
    assert x.repeat_interleave(core.tensor([1, 2, 3]), dim=1).names == NC
    u, ud = named(2, 5, names=("N", "T"))
    w = u.unfold(1, 2, 1)
    assert w.names == ("N", "T", None)
    np.testing.assert_allclose(plain(w), np.lib.stride_tricks.sliding_window_view(ud, 2, axis=1))


def test_atleast_and_the_numpy_stacks():
    v, vd = named(3, names=("L",))
    m, md = named(2, 3, names=("R", "L"))
    assert core.atleast_1d(v).names == ("L",) and core.atleast_2d(v).names == (None, "L")
    assert core.atleast_3d(v).names == (None, "L", None) and core.atleast_3d(m).names == ("R", "L", None)
    assert [t.names for t in core.atleast_2d(v, m)] == [(None, "L"), ("R", "L")]
    assert core.atleast_2d(core.tensor(1.0)).names == (None, None)
    h = core.hstack([v, v])
    assert h.names == ("L",)
    np.testing.assert_allclose(plain(h), np.hstack([vd, vd]))
    vs = core.vstack([v, m])
    assert vs.names == ("R", "L")  # cat unifies: the unnamed row dim of v takes m's name
    np.testing.assert_allclose(plain(vs), np.vstack([vd, md]))
    ds = core.dstack([m, m])
    assert ds.names == ("R", "L", None)
    np.testing.assert_allclose(plain(ds), np.dstack([md, md]))
    cs = core.column_stack([v, m.rename(None).t()])
    assert cs.names == ("L", None)
    np.testing.assert_allclose(plain(cs), np.column_stack([vd, md.T]))
    with pytest.raises(RuntimeError, match="Error when attempting to broadcast dims"):
        core.vstack([m, m.rename("L", "R")])


def test_meshgrid_and_broadcast_tensors():
    x, xd = named(2, names=("X",))
    y, yd = named(3, names=("Y",), seed=1)
    gx, gy = core.meshgrid(x, y, indexing="ij")
    assert gx.names == gy.names == ("X", "Y")
    np.testing.assert_allclose(plain(gy), np.meshgrid(xd, yd, indexing="ij")[1])
    assert core.meshgrid(x, y, indexing="xy")[0].names == ("Y", "X")
    a, b = core.broadcast_tensors(core.ones(2, 1, names=("N", None)), core.ones(4, names=("C",)))
    assert a.names == ("N", None) and b.names == (None, "C") and a.shape == (2, 4)  # as expand (PyTorch)
    assert core.cartesian_prod(x, y).names == (None, None)


def test_data_dependent_shapes_are_unnamed():
    x = core.tensor([[0.0, 1.0], [2.0, 0.0]], names=NC)
    assert x.nonzero().names == (None, None) and core.argwhere(x).names == (None, None)
    assert [t.names for t in core.where(x)] == [(None,), (None,)]
    np.testing.assert_array_equal(x.nonzero().numpy(), np.argwhere(plain(x)))
    values, inverse = core.unique(x, return_inverse=True)
    assert values.names == (None,) and inverse.names == (None, None)
    np.testing.assert_allclose(values.numpy(), np.unique(plain(x)))
    picked = x.masked_select(core.tensor([True, False], names=("C",)))
    assert picked.names == (None,)
    np.testing.assert_allclose(picked.numpy(), [0.0, 2.0])
    with pytest.raises(RuntimeError, match="Error when attempting to broadcast dims"):
        x.masked_select(core.tensor([True, False], names=("N",)).rename("X").align_to("X", "N"))
    taken = x.take(core.tensor([[3, 0]], names=("A", "B")))
    assert taken.names == ("A", "B")
    np.testing.assert_allclose(plain(taken), [[0.0, 0.0]])


def test_einsum_and_tensordot_check_contracted_names():
    a, ad = named(2, 3, names=("N", "C"))
    b, bd = named(3, 4, names=("C", "K"), seed=1)
    e = core.einsum("nc,ck->nk", a, b)
    assert e.names == ("N", "K")
    np.testing.assert_allclose(plain(e), ad @ bd)
    assert core.einsum("nc,ck", a, b.rename(None)).names == (None, "N")  # implicit output: labels sorted, "kn"
    assert core.einsum("...c,ck->...k", a, b).names == ("N", "K")
    with pytest.raises(RuntimeError, match="einsum: contracted dims do not match: dim 'C' of Tensor\\['N', 'C'\\] "
                                           "and dim 'X' of Tensor\\['X', 'K'\\]"):
        core.einsum("nc,ck->nk", a, b.rename("X", "K"))
    t = core.tensordot(a, b, dims=(["C"], ["C"]))
    assert t.names == ("N", "K")
    np.testing.assert_allclose(plain(t), np.tensordot(ad, bd, axes=([1], [0])))
    assert core.tensordot(a, b, dims=1).names == ("N", "K")
    with pytest.raises(RuntimeError, match="tensordot: contracted dims do not match"):
        core.tensordot(a, b.rename("X", "K"), dims=1)


def test_viterbi_keeps_frames_and_states():
    cost = core.tensor([[0.0, 2.0, 1.0], [3.0, 0.0, 1.0]], dtype=core.float64, names=("T", "S"))
    back, final = core._viterbi_quadratic(cost, core.zeros(3, dtype=core.float64, names=("S",)), 1.0)
    assert back.names == ("T", "S") and final.names == ("S",)
    plain_back, plain_final = core._viterbi_quadratic(cost.rename(None), core.zeros(3, dtype=core.float64), 1.0)
    np.testing.assert_array_equal(back.numpy(), plain_back.numpy())
    np.testing.assert_allclose(plain(final), plain_final.numpy())


def test_ctc_grids_and_random_draws():
    F = core.nn.functional
    log_probs = core.randn(6, 2, 5, dtype=core.float64).log_softmax(2).rename("T", "N", "C")
    targets = core.tensor([[1, 2], [3, 3]])
    loss = F.ctc_loss(log_probs, targets, [6, 5], [2, 2])
    assert loss.names == () and np.isfinite(loss.item())
    per_sample = F.ctc_loss(log_probs, targets, [6, 5], [2, 2], reduction="none")
    assert per_sample.names == ("N",)
    np.testing.assert_allclose(per_sample.numpy(), F.ctc_loss(log_probs.rename(None), targets, [6, 5], [2, 2],
                                                              reduction="none").numpy())
    theta = core.tensor(np.tile(np.array([[1.0, 0, 0], [0, 1.0, 0]]), (2, 1, 1)), names=("N", None, None))
    grid = F.affine_grid(theta, [2, 3, 4, 5], align_corners=False)
    assert grid.names == ("N", None, None, None)
    img, imgd = named(2, 3, 4, 5, names=("N", "C", "H", "W"))
    sampled = F.grid_sample(img, grid, align_corners=False)
    assert sampled.names == ("N", "C", None, None)
    np.testing.assert_allclose(plain(sampled), imgd, atol=1e-12)  # the identity grid
    probs = core.ones(3, 4, names=("N", "K"))
    assert core.multinomial(probs, 2).names == ("N", None)
    assert core.normal(core.zeros(2, 3, names=NC), 1.0).names == NC
    assert core.normal(core.zeros(3, names=("C",)), core.ones(2, 3, names=("N", None))).names == NC


def test_view_as_real_and_complex():
    z = core.tensor(np.array([1 + 2j, 3 - 1j]), names=("L",))
    r = core.view_as_real(z)
    assert r.names == ("L", None)
    np.testing.assert_allclose(plain(r), [[1, 2], [3, -1]])
    assert core.view_as_complex(r).names == ("L",)


def test_python_functions_take_dim_names():
    x, xd = named(2, 6, names=NC)
    pieces = core.split(x, 4, "C")
    assert [p.names for p in pieces] == [NC, NC]
    np.testing.assert_allclose(plain(pieces[1]), xd[:, 4:])
    flat = x.flatten(["N", "C"], "NC")  # the named form is a method; core.flatten stays the op (fx, jit, onnx map it)
    assert flat.names == ("NC",)
    np.testing.assert_allclose(plain(flat), xd.reshape(-1))
    assert core.flatten(x).names == (None,)
    glu = core.nn.functional.glu(x, "C")
    assert glu.names == NC
    np.testing.assert_allclose(plain(glu), xd[:, :3] / (1 + np.exp(-xd[:, 3:])))
    assert x.movedim("C", 0).names == ("C", "N") and core.moveaxis(x, "N", -1).names == ("C", "N")
    assert core.swapaxes(x, "N", "C").names == ("C", "N")
    spectrum = core.fft.rfft(x, dim="C")
    assert spectrum.names == NC
    np.testing.assert_allclose(plain(spectrum), np.fft.rfft(xd, axis=1))
    assert core.fft.fftn(x, dim=("N", "C")).names == NC
    np.testing.assert_allclose(plain(core.fft.fftshift(x, dim="C")), np.fft.fftshift(xd, axes=1))
    for op in ("view", "reshape"):  # as in PyTorch: use flatten/unflatten to reshape named tensors
        with pytest.raises(RuntimeError, match=f"aten::{op} is not yet supported with named tensors"):
            getattr(x, op)(12)


def test_embedding_bag_unfold_fold_and_named_parameters_in_optimizers():
    F = core.nn.functional
    weight, wd = named(10, 3, names=("V", "E"))
    idx = np.array([[1, 2], [3, 9]])
    bags = F.embedding_bag(core.tensor(idx, names=("N", "L")), weight, mode="sum")
    assert bags.names == ("N", None)
    np.testing.assert_allclose(plain(bags), wd[idx].sum(1))
    img, imgd = named(2, 3, 4, 4, names=("N", "C", "H", "W"))
    cols = F.unfold(img, 2)
    assert cols.names == ("N", None, None)
    np.testing.assert_allclose(cols.numpy(), F.unfold(img.rename(None), 2).numpy())
    back = F.fold(cols, (4, 4), 2)
    assert back.names == ("N", None, None, None)
    for make in (lambda p: core.optim.SGD(p, lr=0.1, momentum=0.9), lambda p: core.optim.Adam(p, lr=0.1),
                 lambda p: core.optim.RMSprop(p, lr=0.1), lambda p: core.optim.Adagrad(p, lr=0.1),
                 lambda p: core.optim.Adadelta(p), lambda p: core.optim.Adamax(p, lr=0.1)):
        steps = []
        for names in (NC, None):
            p = core.nn.Parameter(core.ones(2, 3, dtype=core.float64, names=names))
            opt = make([p])
            for _ in range(2):
                opt.zero_grad()
                ((p * p).sum() if names is None else (p * p).sum(("N", "C"))).backward()
                opt.step()
            steps.append(p)
        assert steps[0].names == NC and steps[0].grad.names == NC
        np.testing.assert_allclose(plain(steps[0].detach()), steps[1].detach().numpy())


def test_backward_helpers_called_on_named_gradients():
    """The internal backward helpers have rules too (autograd runs them unnamed; a direct call is named)."""
    internal, F = core._C._internal, core.nn.functional
    nchw = ("N", "C", "H", "W")
    x, xd = named(1, 2, 4, 4, names=nchw)
    out, idx = F.max_pool2d(x.rename(None), 2, return_indices=True)
    grad = core.ones_like(out).rename(*nchw)
    for g in (internal["_max_pool_backward"](grad, idx, [1, 2, 4, 4]),
              internal["_avg_pool2d_backward"](grad, [1, 2, 4, 4], [2, 2], [2, 2], [0, 0], False, True, None),
              internal["_adaptive_avg_pool2d_backward"](grad, [1, 2, 4, 4]),
              internal["_upsample_backward"](grad, [1, 2, 1, 1], "nearest", False, None, None)):
        assert g.names == nchw
    np.testing.assert_allclose(plain(internal["_avg_pool2d_backward"](grad, [1, 2, 4, 4], [2, 2], [2, 2], [0, 0],
                                                                     False, True, None)), np.full((1, 2, 4, 4), 0.25))
    pieces = [core.ones(1, 4, names=("N", "C")), core.ones(2, 4, names=("N", "C"))]
    joined = internal["_split_backward"](pieces, [3, 4], 0, [0, 1], True)
    assert joined.names == ("N", "C") and joined.shape == (3, 4)
    rows = [core.ones(4, names=("C",)), core.ones(4, names=("C",))]
    assert internal["_split_backward"](rows, [2, 4], 0, [0, 1], False).names == (None, "C")
