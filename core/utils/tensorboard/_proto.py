"""The protobuf classes of TensorBoard's event files, from the `tensorboard` package (the
`tensorboard` extra: pip install "tensorzoo[tensorboard]")."""
import importlib

_MODULES = {
    "event": "tensorboard.compat.proto.event_pb2",
    "summary": "tensorboard.compat.proto.summary_pb2",
    "tensor": "tensorboard.compat.proto.tensor_pb2",
    "tensor_shape": "tensorboard.compat.proto.tensor_shape_pb2",
    "graph": "tensorboard.compat.proto.graph_pb2",
    "node_def": "tensorboard.compat.proto.node_def_pb2",
    "attr_value": "tensorboard.compat.proto.attr_value_pb2",
    "versions": "tensorboard.compat.proto.versions_pb2",
    "hparams_api": "tensorboard.plugins.hparams.api_pb2",
    "hparams_data": "tensorboard.plugins.hparams.plugin_data_pb2",
    "pr_curve_data": "tensorboard.plugins.pr_curve.plugin_data_pb2",
    "text_data": "tensorboard.plugins.text.plugin_data_pb2",
    "scalar_data": "tensorboard.plugins.scalar.plugin_data_pb2",
}


def proto(name):
    """The generated module `name` of _MODULES; a clear ImportError when tensorboard is missing."""
    try:
        return importlib.import_module(_MODULES[name])
    except ImportError as e:
        raise ImportError("core.utils.tensorboard needs the tensorboard package for its protobuf "
                          'messages: pip install "tensorzoo[tensorboard]"') from e
