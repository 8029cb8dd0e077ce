"""core.device: PyTorch's device values. Every device type PyTorch names is a valid value, but
tensors live on the CPU only: using any other device raises the error PyTorch raises when it was
built without that backend."""
import builtins

# torch.device's accepted types, in the order its error message lists them.
_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
          "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


class device:  # noqa: N801 - torch.device's name
    """A device: `device("cpu")`, `device("cuda", 0)`, `device("cuda:1")`, `device(other)`."""

    __slots__ = ("_type", "_index")

    def __init__(self, type, index=None):  # noqa: A002 - torch.device's parameter name
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): a device object takes no index")
            self._type, self._index = type._type, type._index
            return
        if isinstance(type, builtins.int) and not isinstance(type, builtins.bool) and index is None:
            type, index = "cuda", type  # device(0) is the first accelerator, as in PyTorch
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({builtins.type(type).__name__}), but expected one of: (str type, "
                            f"int index = -1), (device other)")
        kind, _, number = type.partition(":")
        if kind not in _TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of "
                               f"device string: {type}")
        if number:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            if not number.isdigit() or (len(number) > 1 and number[0] == "0"):
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = builtins.int(number)
        if index is not None:
            if not isinstance(index, builtins.int) or isinstance(index, builtins.bool):
                raise TypeError(f"device(): index must be an int, not {builtins.type(index).__name__}")
            if index < 0:
                raise RuntimeError(f"Device index must not be negative, got {index}")
        self._type, self._index = kind, index

    @property
    def type(self):
        return self._type

    @property
    def index(self):
        return self._index

    def __str__(self):
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __repr__(self):
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return (self._type, self._index) == (other._type, other._index)

    def __hash__(self):
        return hash((self._type, self._index))

    def __reduce__(self):
        return (device, (self._type, self._index))

    # `with core.device("cpu"):` sets nothing (the CPU is the only place tensors live).
    def __enter__(self):
        checked(self, "device")
        return self

    def __exit__(self, *exc):
        return False


CPU = device("cpu")


class DeviceUnavailableError(AssertionError, RuntimeError):
    """Using a CUDA device: PyTorch's CPU build raises AssertionError; tensorzoo's other device
    errors are RuntimeErrors. Either `except` catches this one."""


def checked(value, op):
    """The CPU device for `value` (a device, a string, an index), or the error PyTorch raises for
    a device this build cannot use. None means the default device (the CPU)."""
    if value is None:
        return CPU
    dev = value if isinstance(value, device) else device(value)
    if dev.type == "cpu":
        return dev
    if dev.type == "cuda":
        raise DeviceUnavailableError(f"Torch not compiled with CUDA enabled ({op}(): device '{dev}' is "
                                     "not available: tensorzoo runs on the CPU only)")
    raise RuntimeError(f"{op}(): device '{dev}' is not available: tensorzoo runs on the CPU only")


def check_pin_memory(pin_memory):
    if pin_memory:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no pinned "
                           "memory allocator is available on this system.")


def check_options(op, device, pin_memory, layout):
    """The TensorOptions keywords of a factory (called by the op bindings before the op runs)."""
    from core._layout import check_layout

    checked(device, op)
    check_pin_memory(pin_memory)
    check_layout(layout, op)
