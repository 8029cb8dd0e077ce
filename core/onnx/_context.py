"""The state of one export: ONNX nodes and initializers being built, the ONNX name and the
example value of every graph value, and helpers the op converters share."""
import numpy as np

import core
from core.fx.node import Node
from core.serialization._storage import numpy_dtype

# numpy dtype -> ONNX TensorProto element type
ONNX_TYPES = {np.dtype("float32"): 1, np.dtype("uint8"): 2, np.dtype("int8"): 3, np.dtype("int16"): 5,
              np.dtype("int32"): 6, np.dtype("int64"): 7, np.dtype("bool"): 9, np.dtype("float16"): 10,
              np.dtype("float64"): 11}


class ExportError(RuntimeError):
    pass


def python_dtype(value):
    """The ONNX element type (as a numpy dtype) that stands for a Python number or size."""
    if isinstance(value, (bool, np.bool_)):
        return np.dtype(bool)
    if isinstance(value, float):
        return np.dtype(np.float64)  # Python's float: the exported arithmetic matches eager's
    if isinstance(value, int) or (isinstance(value, (tuple, list)) and not value):
        return np.dtype(np.int64)  # sizes
    return np.asarray(value).dtype


class ExportContext:
    def __init__(self, helper, numpy_helper, opset):
        self.helper = helper
        self.numpy_helper = numpy_helper
        self.opset = opset
        self.nodes = []
        self.initializers = []
        self.names = {}    # fx Node -> ONNX value name (a list of names for a list or tuple of tensors)
        self.values = {}   # fx Node -> value on the example inputs
        self.node = None   # the fx Node being converted
        self._used = set()

    # ---- names
    def fresh(self, hint):
        name, n = hint, 0
        while name in self._used:
            n += 1
            name = f"{hint}_{n}"
        self._used.add(name)
        return name

    def name_of(self, arg):
        """The ONNX value for a graph argument: nodes by name, tensors and numbers as constants."""
        if isinstance(arg, Node):
            name = self.names.get(arg)
            if name is None or isinstance(name, list):
                raise ExportError(f"onnx.export: value {arg.name} has no ONNX form (a Python value "
                                  "the model used as a tensor?)")
            return name
        return self.constant(np.asarray(arg, dtype=python_dtype(arg)))

    def names_of(self, arg):
        """The ONNX values of a list-valued graph argument (a node's list output, or a Python list)."""
        if isinstance(arg, Node):
            names = self.names.get(arg)
            if not isinstance(names, list):
                raise ExportError(f"onnx.export: value {arg.name} is not a list of tensors")
            return names
        return [self.name_of(a) for a in arg]

    def dtype_of(self, arg):
        """The numpy dtype of an argument's ONNX value (Python ints are int64, floats float64)."""
        value = self.value(arg)
        if isinstance(value, core.Tensor):
            return np.dtype(numpy_dtype(value.dtype))
        return python_dtype(value)

    def out_dtype(self):
        return self.dtype_of(self.node)

    def cast(self, arg, dtype):
        """An argument as an ONNX value of numpy dtype `dtype` (Cast only where it differs)."""
        dtype = np.dtype(dtype)
        if not isinstance(arg, Node):
            return self.constant(np.asarray(arg, dtype=dtype))
        name = self.name_of(arg)
        return name if self.dtype_of(arg) == dtype else self.emit("Cast", [name], to=ONNX_TYPES[dtype])

    def value(self, arg):
        return self.values[arg] if isinstance(arg, Node) else arg

    # ---- building
    def constant(self, array, hint="const"):
        array = np.require(array, requirements="C")  # (ascontiguousarray would make 0-d arrays 1-d)
        if array.dtype not in ONNX_TYPES:
            raise ExportError(f"onnx.export: constants of dtype {array.dtype} have no ONNX type")
        name = self.fresh(hint)
        self.initializers.append(self.numpy_helper.from_array(array, name))
        return name

    def int64s(self, values, hint="const"):
        return self.constant(np.asarray(values, dtype=np.int64), hint)

    def emit(self, op_type, inputs, n_outputs=1, out=None, **attrs):
        """Adds an ONNX node; returns its output name (or names when n_outputs > 1)."""
        outputs = [out] if out is not None and n_outputs == 1 else \
                  [self.fresh(f"{op_type.lower()}_out") for _ in range(n_outputs)]
        attrs = {k: v for k, v in attrs.items() if v is not None}
        self.nodes.append(self.helper.make_node(op_type, list(inputs), outputs,
                                                name=self.fresh(op_type), **attrs))
        return outputs[0] if n_outputs == 1 else outputs
