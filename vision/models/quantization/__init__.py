"""Quantizable models (torchvision.models.quantization): quantize=True gives int8 models."""
from vision.models.quantization.mobilenetv3 import *  # noqa: F401,F403
