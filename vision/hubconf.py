"""vision's models by name for hub.load("resnet18", ...) (torchvision's hubconf.py): hub reads
this file through its hubconf mechanism, so every public callable here is a model builder."""
dependencies = ["core"]

from vision.models.mobilenetv2 import mobilenet_v2  # noqa: E402,F401
from vision.models.mobilenetv3 import mobilenet_v3_large, mobilenet_v3_small  # noqa: E402,F401
from vision.models.resnet import (resnet18, resnet34, resnet50, resnet101, resnet152,  # noqa: E402,F401
                                  resnext50_32x4d, resnext101_32x8d, wide_resnet50_2, wide_resnet101_2)
from vision.models.vgg import vgg11, vgg11_bn, vgg13, vgg13_bn, vgg16, vgg16_bn, vgg19, vgg19_bn  # noqa: E402,F401
from vision.models.quantization.mobilenetv2 import quantized_mobilenet_v2  # noqa: E402,F401
from vision.models.quantization.mobilenetv3 import quantized_mobilenet_v3_large  # noqa: E402,F401
from vision.models.quantization.resnet import (quantized_resnet18, quantized_resnet50,  # noqa: E402,F401
                                               quantized_resnext101_32x8d)
from vision.models.detection.faster_rcnn import (  # noqa: E402,F401
    fasterrcnn_mobilenet_v3_large_320_fpn, fasterrcnn_mobilenet_v3_large_fpn, fasterrcnn_resnet50_fpn)
from vision.models.segmentation import (  # noqa: E402,F401
    deeplabv3_mobilenet_v3_large, deeplabv3_resnet50, deeplabv3_resnet101, fcn_resnet50, fcn_resnet101,
    lraspp_mobilenet_v3_large)
