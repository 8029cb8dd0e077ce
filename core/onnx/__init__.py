"""core.onnx: export a model to an ONNX file (torch.onnx.export's signature), written with the
`onnx` package (the optional extra `tensorzoo[onnx]`). Files: _export (tracing and the
model proto), _symbolics (one converter per function), _context (an export's state)."""
from core.onnx._context import ExportError
from core.onnx._export import DEFAULT_OPSET, OperatorExportTypes, TrainingMode, export, is_in_onnx_export

__all__ = ["export", "is_in_onnx_export", "TrainingMode", "OperatorExportTypes", "ExportError", "DEFAULT_OPSET"]
