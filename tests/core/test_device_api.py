"""Issue 28: the device model, core.cuda / core.accelerator / core.backends flags, device= and the
other TensorOptions keywords on every factory, and Tensor's device methods."""
import pickle

import numpy as np
import pytest

import core


# ---------------------------------------------------------------- core.device
@pytest.mark.parametrize("spec, args, text, index", [
    ("cpu", (), "device(type='cpu')", None),
    ("cpu:0", (), "device(type='cpu', index=0)", 0),
    ("cuda", (1,), "device(type='cuda', index=1)", 1),
    ("cuda:1", (), "device(type='cuda', index=1)", 1),
    ("mps", (), "device(type='mps')", None),
])
def test_device_values(spec, args, text, index):
    d = core.device(spec, *args)
    assert repr(d) == text and d.index == index and d.type == spec.split(":")[0]
    assert core.device(d) == d and hash(core.device(d)) == hash(d)
    assert pickle.loads(pickle.dumps(d)) == d
    assert str(d) == (spec if index is None or ":" in spec else f"{spec}:{index}")


def test_device_equality_and_errors():
    assert core.device("cpu") != "cpu"  # as torch.device: only devices compare equal
    assert core.device("cpu") != core.device("cpu", 0)
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda, .* device type at start of device string: foo"):
        core.device("foo")
    with pytest.raises(RuntimeError, match="Invalid device string: 'cuda:x'"):
        core.device("cuda:x")
    with pytest.raises(RuntimeError, match="must not be negative"):
        core.device("cuda", -1)
    with pytest.raises(TypeError):
        core.device(1.5)


def test_cuda_and_accelerator_queries():
    assert core.cuda.is_available() is False and core.cuda.device_count() == 0
    core.cuda.manual_seed_all(0)  # a no-op, as in PyTorch without GPUs
    core.cuda.manual_seed(0)
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        core.cuda.current_device()
    assert core.accelerator.is_available() is False and core.accelerator.current_accelerator() is None
    assert core.backends.mps.is_available() is False and core.backends.cudnn.is_available() is False


def test_cudnn_flags_are_settable():
    cudnn = core.backends.cudnn
    assert (cudnn.enabled, cudnn.benchmark, cudnn.deterministic) == (True, False, False)
    cudnn.benchmark = True
    try:
        assert core.backends.cudnn.benchmark is True
        with cudnn.flags(enabled=False, deterministic=True):
            assert cudnn.enabled is False and cudnn.deterministic is True
        assert cudnn.enabled is True and cudnn.benchmark is True
    finally:
        cudnn.benchmark = False


# ---------------------------------------------------------------- device= on the factories
FACTORIES = [
    lambda **kw: core.zeros(2, 3, **kw), lambda **kw: core.ones((2,), **kw), lambda **kw: core.empty(2, **kw),
    lambda **kw: core.full((2,), 1.5, **kw), lambda **kw: core.rand(2, **kw), lambda **kw: core.randn(2, **kw),
    lambda **kw: core.arange(5, **kw), lambda **kw: core.arange(1, 5, 2, **kw),
    lambda **kw: core.linspace(0, 1, 5, **kw), lambda **kw: core.logspace(0, 1, 3, **kw),
    lambda **kw: core.eye(3, **kw), lambda **kw: core.randint(0, 5, (3,), **kw),
    lambda **kw: core.randint(5, (3,), **kw), lambda **kw: core.randperm(4, **kw),
    lambda **kw: core.zeros_like(core.ones(2), **kw), lambda **kw: core.ones_like(core.ones(2), **kw),
    lambda **kw: core.empty_like(core.ones(2), **kw), lambda **kw: core.full_like(core.ones(2), 3, **kw),
    lambda **kw: core.rand_like(core.ones(2), **kw), lambda **kw: core.randn_like(core.ones(2), **kw),
    lambda **kw: core.randint_like(core.ones(2), 5, **kw), lambda **kw: core.tensor([1.0], **kw),
    lambda **kw: core.as_tensor([1.0], **kw), lambda **kw: core.hann_window(4, **kw),
    lambda **kw: core.fft.fftfreq(4, **kw),
]


@pytest.mark.parametrize("make", FACTORIES)
def test_factories_take_device(make):
    for device in ("cpu", "cpu:0", core.device("cpu"), None):
        assert make(device=device).device == core.device("cpu")
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        make(device="cuda")
    with pytest.raises(RuntimeError, match="'mps' is not available"):
        make(device="mps")


@pytest.mark.parametrize("make", [f for i, f in enumerate(FACTORIES) if i < 21])  # tensor(), as_tensor(), windows: no pin_memory+layout
def test_factories_take_tensor_options(make):
    assert make(pin_memory=False, layout=core.strided).device.type == "cpu"
    with pytest.raises(RuntimeError, match="pin_memory=True requires a CUDA"):
        make(pin_memory=True)
    with pytest.raises(RuntimeError, match="layout"):
        make(layout=core.sparse_coo)


def test_requires_grad_on_factories_and_like_forms():
    assert core.zeros(2, requires_grad=True).requires_grad
    assert core.zeros_like(core.ones(2), requires_grad=True).requires_grad
    assert not core.ones_like(core.ones(2), requires_grad=False).requires_grad
    with pytest.raises(TypeError, match="unexpected keyword argument 'device'"):
        core.add(core.ones(1), 1, device="cpu")  # not a factory


# ---------------------------------------------------------------- Tensor's device methods
def test_tensor_device_methods():
    t = core.ones(2)
    assert t.device == core.device("cpu") and t.is_cpu and not t.is_cuda and not t.is_xpu and not t.is_mps
    assert t.get_device() == -1 and not t.is_pinned()
    assert t.cpu() is t and t.to("cpu") is t and t.to(core.device("cpu")) is t
    assert t.to("cpu", core.float64).dtype == core.float64 and t.to(t.device) is t
    for move in (lambda: t.cuda(), lambda: t.to("cuda"), lambda: t.to("cuda:0", core.float64),
                 lambda: t.to(device=core.device("cuda", 0)), lambda: t.pin_memory()):
        with pytest.raises(RuntimeError, match="CUDA"):
            move()
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        t.cuda()
    with pytest.raises(RuntimeError, match="'mps' is not available"):
        t.to("mps")
    with core.device("cpu"):
        assert core.zeros(1).device.type == "cpu"


# ---------------------------------------------------------------- new_* methods
def test_new_methods_inherit_dtype():
    t = core.ones(2, dtype=core.float64)
    assert t.new_zeros(3, 2).dtype == core.float64 and t.new_zeros((3, 2)).shape == (3, 2)
    assert t.new_ones(2).tolist() == [1.0, 1.0] and t.new_empty(4).shape == (4,)
    assert t.new_full((2,), 3).tolist() == [3.0, 3.0] and t.new_full((2,), 3).dtype == core.float64
    n = t.new_tensor([1, 2])
    assert n.dtype == core.float64 and n.tolist() == [1.0, 2.0]
    assert core.ones(1, dtype=core.int64).new_tensor([1.5]).tolist() == [1]
    assert t.new_zeros(2, dtype=core.int32).dtype == core.int32
    assert t.new_zeros(2, requires_grad=True).requires_grad
    src = core.ones(2, requires_grad=True)
    copied = t.new_tensor(src)
    assert not copied.requires_grad and copied.dtype == core.float64
    with pytest.raises(AssertionError):
        t.new_zeros(2, device="cuda")


def test_tensor_constructors_reject_foreign_devices_with_torch_devices():
    class TorchLikeDevice:  # torch.device objects reach .to() too
        type = "cuda"

        def __str__(self):
            return "cuda:0"

    with pytest.raises(AssertionError):
        core.ones(1).to(TorchLikeDevice())
    assert np.array_equal(core.ones(1).numpy(), [1.0])
