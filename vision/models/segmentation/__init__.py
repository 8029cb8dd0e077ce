"""Semantic segmentation models (torchvision 0.9's torchvision.models.segmentation): FCN and
DeepLabV3 on dilated ResNet-50/101, DeepLabV3 and LR-ASPP on dilated MobileNetV3-Large."""
from vision.models.segmentation.segmentation import *  # noqa: F401,F403
from vision.models.segmentation.fcn import *  # noqa: F401,F403
from vision.models.segmentation.deeplabv3 import *  # noqa: F401,F403
from vision.models.segmentation.lraspp import *  # noqa: F401,F403
