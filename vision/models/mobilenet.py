"""torchvision 0.9's models.mobilenet: both MobileNet generations under one name."""
from vision.models.mobilenetv2 import MobileNetV2, mobilenet_v2, __all__ as mv2_all
from vision.models.mobilenetv3 import MobileNetV3, mobilenet_v3_large, mobilenet_v3_small, __all__ as mv3_all

__all__ = mv2_all + mv3_all
