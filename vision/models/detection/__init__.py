"""Object detection models (torchvision 0.9's torchvision.models.detection): Faster R-CNN
with ResNet-50-FPN and MobileNetV3-Large-FPN backbones."""
from vision.models.detection.faster_rcnn import *  # noqa: F401,F403
