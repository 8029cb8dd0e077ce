"""VGG (Simonyan and Zisserman 2014) with and without batch norm: vgg11 .. vgg19_bn, module
names, init and weights as torchvision's vgg.py."""
import core
from core import nn
from vision.models._api import handle_weights, imagenet1k_v1_enum
from vision.models._utils import load_pretrained

__all__ = ["VGG", "VGG11_Weights", "VGG11_BN_Weights", "VGG13_Weights", "VGG13_BN_Weights", "VGG16_Weights",
           "VGG16_BN_Weights", "VGG19_Weights", "VGG19_BN_Weights", "vgg11", "vgg11_bn", "vgg13", "vgg13_bn",
           "vgg16", "vgg16_bn", "vgg19", "vgg19_bn"]

_BASE = "https://download.pytorch.org/models/"
model_urls = {
    "vgg11": _BASE + "vgg11-8a719046.pth",
    "vgg13": _BASE + "vgg13-19584684.pth",
    "vgg16": _BASE + "vgg16-397923af.pth",
    "vgg19": _BASE + "vgg19-dcbb9e9d.pth",
    "vgg11_bn": _BASE + "vgg11_bn-6002323d.pth",
    "vgg13_bn": _BASE + "vgg13_bn-abd245e5.pth",
    "vgg16_bn": _BASE + "vgg16_bn-6c64b313.pth",
    "vgg19_bn": _BASE + "vgg19_bn-c79401a0.pth",
}

# torchvision's IMAGENET1K_V1 facts: (weights enum, num_params, acc@1, acc@5).
_WEIGHTS_META = {
    "vgg11": ("VGG11_Weights", 132863336, 69.020, 88.628),
    "vgg11_bn": ("VGG11_BN_Weights", 132868840, 70.370, 89.810),
    "vgg13": ("VGG13_Weights", 133047848, 69.928, 89.246),
    "vgg13_bn": ("VGG13_BN_Weights", 133053736, 71.586, 90.374),
    "vgg16": ("VGG16_Weights", 138357544, 71.592, 90.382),
    "vgg16_bn": ("VGG16_BN_Weights", 138365992, 73.360, 91.516),
    "vgg19": ("VGG19_Weights", 143667240, 72.376, 90.876),
    "vgg19_bn": ("VGG19_BN_Weights", 143678248, 74.218, 91.842),
}


def _weights_enum(arch):
    name, num_params, acc1, acc5 = _WEIGHTS_META[arch]
    recipe = "https://github.com/pytorch/vision/tree/main/references/classification#alexnet-and-vgg"
    return imagenet1k_v1_enum(name, model_urls[arch], num_params, acc1, acc5, recipe, min_size=(32, 32))


(VGG11_Weights, VGG11_BN_Weights, VGG13_Weights, VGG13_BN_Weights, VGG16_Weights, VGG16_BN_Weights, VGG19_Weights,
 VGG19_BN_Weights) = map(_weights_enum, _WEIGHTS_META)


class VGG(nn.Module):
    """`features` (convolutions and max pools), a 7x7 adaptive average pool, and a three-layer
    classifier with dropout."""

    def __init__(self, features, num_classes=1000, init_weights=True, dropout=0.5):
        super().__init__()
        self.features = features
        self.avgpool = nn.AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Sequential(
            nn.Linear(512 * 7 * 7, 4096), nn.ReLU(True), nn.Dropout(p=dropout),
            nn.Linear(4096, 4096), nn.ReLU(True), nn.Dropout(p=dropout),
            nn.Linear(4096, num_classes),
        )
        if init_weights:
            self._init_weights()

    def _init_weights(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                if m.bias is not None:
                    nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, 0, 0.01)
                nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.avgpool(self.features(x))
        return self.classifier(core.flatten(x, 1))


# Channels of each 3x3 convolution; "M" is a 2x2 max pool. A: VGG-11, B: 13, D: 16, E: 19.
cfgs = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"],
}


def make_layers(cfg, batch_norm=False):
    layers = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
            continue
        layers.append(nn.Conv2d(in_channels, v, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(nn.BatchNorm2d(v))
        layers.append(nn.ReLU(inplace=True))
        in_channels = v
    return nn.Sequential(*layers)


def _vgg(arch, cfg, batch_norm, pretrained, progress, **kwargs):
    if pretrained:
        kwargs["init_weights"] = False  # the checkpoint overwrites every parameter
    model = VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs)
    if pretrained:
        load_pretrained(model, arch, model_urls, progress)
    return model


def _builder(arch, cfg, batch_norm, weights_cls):
    def build(pretrained=False, progress=True, **kwargs):
        return _vgg(arch, cfg, batch_norm, pretrained, progress, **kwargs)

    build.__name__ = build.__qualname__ = arch
    build.__doc__ = (f"VGG {arch[3:5]}-layer model (configuration \"{cfg}\"{' with batch norm' if batch_norm else ''}) "
                     "from \"Very Deep Convolutional Networks For Large-Scale Image Recognition\". `pretrained` "
                     "(or `weights`) loads the ImageNet weights through the hub; other keyword arguments reach VGG.")
    build.__module__ = __name__
    return handle_weights(weights_cls)(build)


vgg11 = _builder("vgg11", "A", False, VGG11_Weights)
vgg11_bn = _builder("vgg11_bn", "A", True, VGG11_BN_Weights)
vgg13 = _builder("vgg13", "B", False, VGG13_Weights)
vgg13_bn = _builder("vgg13_bn", "B", True, VGG13_BN_Weights)
vgg16 = _builder("vgg16", "D", False, VGG16_Weights)
vgg16_bn = _builder("vgg16_bn", "D", True, VGG16_BN_Weights)
vgg19 = _builder("vgg19", "E", False, VGG19_Weights)
vgg19_bn = _builder("vgg19_bn", "E", True, VGG19_BN_Weights)
