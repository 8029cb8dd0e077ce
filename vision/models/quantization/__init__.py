"""Quantizable models (torchvision.models.quantization): quantize=True gives int8 models."""
from vision.models.quantization.mobilenetv2 import *  # noqa: F401,F403
from vision.models.quantization.mobilenetv3 import *  # noqa: F401,F403
from vision.models.quantization.resnet import *  # noqa: F401,F403
