"""Quantized modules (torch.nn.quantized): see modules.py and functional_modules.py."""
from core.nn.quantized.modules import (Quantize, DeQuantize, Linear, Conv2d, ReLU6, Hardswish,  # noqa: F401
                                       Hardsigmoid, LinearPackedParams)
from core.nn.quantized.functional_modules import FloatFunctional, QFunctional  # noqa: F401
from core.nn.quantized.normalization_embedding import (BatchNorm2d, Embedding, EmbeddingBag,  # noqa: F401
                                                      EmbeddingPackedParams)
from core.nn.quantized import dynamic  # noqa: F401

__all__ = ["Quantize", "DeQuantize", "Linear", "Conv2d", "ReLU6", "Hardswish", "Hardsigmoid", "FloatFunctional",
           "QFunctional", "BatchNorm2d", "Embedding", "EmbeddingBag"]
