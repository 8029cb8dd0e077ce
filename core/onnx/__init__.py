"""core.onnx (torch.onnx). The module imports so that programs naming it load; ONNX export itself
is not built yet (it comes with the export issue), so export() raises a clear error."""

__all__ = ["export", "is_in_onnx_export"]


def export(model, args, f, *positional, **keywords):
    raise NotImplementedError("core.onnx.export(): ONNX export is not implemented yet in tensorzoo "
                              "(the torch.onnx.export graph exporter is missing); save the weights with "
                              "core.save(model.state_dict(), path) instead")


def is_in_onnx_export():
    return False
