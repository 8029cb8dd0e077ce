"""The segmentation builders of torchvision 0.9: dilated backbones (ResNet layer3/layer4 and the
last MobileNetV3 stage trade their stride for dilation), heads, and the COCO (VOC labels) weights."""
from vision.models import mobilenetv3, resnet
from vision.models._api import Weights, handle_weights, weights_enum
from vision.models._utils import IntermediateLayerGetter, load_pretrained
from vision.models.mobilenetv3 import MobileNet_V3_Large_Weights
from vision.models.resnet import ResNet50_Weights, ResNet101_Weights
from vision.models.segmentation.deeplabv3 import DeepLabHead, DeepLabV3
from vision.models.segmentation.fcn import FCN, FCNHead
from vision.models.segmentation.lraspp import LRASPP

__all__ = ["fcn_resnet50", "fcn_resnet101", "deeplabv3_resnet50", "deeplabv3_resnet101",
           "deeplabv3_mobilenet_v3_large", "lraspp_mobilenet_v3_large", "FCN_ResNet50_Weights", "FCN_ResNet101_Weights",
           "DeepLabV3_ResNet50_Weights", "DeepLabV3_ResNet101_Weights", "DeepLabV3_MobileNet_V3_Large_Weights",
           "LRASPP_MobileNet_V3_Large_Weights"]

_BASE = "https://download.pytorch.org/models/"
model_urls = {
    "fcn_resnet50_coco": _BASE + "fcn_resnet50_coco-1167a1af.pth",
    "fcn_resnet101_coco": _BASE + "fcn_resnet101_coco-7ecb50ca.pth",
    "deeplabv3_resnet50_coco": _BASE + "deeplabv3_resnet50_coco-cd0a2569.pth",
    "deeplabv3_resnet101_coco": _BASE + "deeplabv3_resnet101_coco-586e9e4e.pth",
    "deeplabv3_mobilenet_v3_large_coco": _BASE + "deeplabv3_mobilenet_v3_large-fc3c493d.pth",
    "lraspp_mobilenet_v3_large_coco": _BASE + "lraspp_mobilenet_v3_large-d234d4ea.pth",
}

VOC_CATEGORIES = ["__background__", "aeroplane", "bicycle", "bird", "boat", "bottle", "bus", "car", "cat", "chair",
                  "cow", "diningtable", "dog", "horse", "motorbike", "person", "pottedplant", "sheep", "sofa", "train",
                  "tvmonitor"]


def _semantic_segmentation(**kwargs):
    from vision.transforms._presets import SemanticSegmentation  # imported on use: transforms load later

    return SemanticSegmentation(resize_size=520, **kwargs)


def _voc_weights(name, arch, num_params, miou, pixel_acc):
    meta = {"categories": VOC_CATEGORIES, "num_params": num_params, "min_size": (1, 1),
            "recipe": "https://github.com/pytorch/vision/tree/main/references/segmentation",
            "_metrics": {"COCO-val2017-VOC-labels": {"miou": miou, "pixel_acc": pixel_acc}}}
    weights = Weights(model_urls[arch + "_coco"], _semantic_segmentation, meta)
    return weights_enum(name, {"COCO_WITH_VOC_LABELS_V1": weights}, "COCO_WITH_VOC_LABELS_V1")


# torchvision's facts of each checkpoint (parameters counted with the aux classifier the file holds).
FCN_ResNet50_Weights = _voc_weights("FCN_ResNet50_Weights", "fcn_resnet50", 35322218, 60.5, 91.4)
FCN_ResNet101_Weights = _voc_weights("FCN_ResNet101_Weights", "fcn_resnet101", 54314346, 63.7, 91.9)
DeepLabV3_ResNet50_Weights = _voc_weights("DeepLabV3_ResNet50_Weights", "deeplabv3_resnet50", 42004074, 66.4, 92.4)
DeepLabV3_ResNet101_Weights = _voc_weights("DeepLabV3_ResNet101_Weights", "deeplabv3_resnet101", 60996202, 67.4, 92.4)
DeepLabV3_MobileNet_V3_Large_Weights = _voc_weights("DeepLabV3_MobileNet_V3_Large_Weights",
                                                    "deeplabv3_mobilenet_v3_large", 11029328, 60.3, 91.2)
LRASPP_MobileNet_V3_Large_Weights = _voc_weights("LRASPP_MobileNet_V3_Large_Weights", "lraspp_mobilenet_v3_large",
                                                 3221538, 57.9, 91.2)


def _backbone(weights_cls):
    # torchvision 0.13's weights_backbone= is 0.9's pretrained_backbone=
    return {"weights_backbone": ("pretrained_backbone", weights_cls)}


_MODELS = {"deeplabv3": (DeepLabHead, DeepLabV3), "fcn": (FCNHead, FCN)}


def _mobilenet_v3_features(backbone_name, pretrained_backbone):
    """The dilated MobileNetV3 `features` (normal BN, eps 1e-3) and the indices of its stage ends:
    the stem, every block that strides (C1 .. C4, still marked under dilation) and the last layer."""
    features = mobilenetv3.__dict__[backbone_name](pretrained=pretrained_backbone, _dilated=True).features
    stage_indices = [0] + [i for i, b in enumerate(features) if getattr(b, "_is_cn", False)] + [len(features) - 1]
    return features, stage_indices


def _segm_model(name, backbone_name, num_classes, aux, pretrained_backbone=True):
    if "resnet" in backbone_name:
        backbone = resnet.__dict__[backbone_name](pretrained=pretrained_backbone,
                                                  replace_stride_with_dilation=[False, True, True])
        out_layer, out_inplanes = "layer4", 2048
        aux_layer, aux_inplanes = "layer3", 1024
    elif "mobilenet_v3" in backbone_name:
        backbone, stage_indices = _mobilenet_v3_features(backbone_name, pretrained_backbone)
        out_pos = stage_indices[-1]  # C5, output stride 16
        aux_pos = stage_indices[-4]  # C2, output stride 8
        out_layer, out_inplanes = str(out_pos), backbone[out_pos].out_channels
        aux_layer, aux_inplanes = str(aux_pos), backbone[aux_pos].out_channels
    else:
        raise NotImplementedError("backbone {} is not supported as of now".format(backbone_name))

    return_layers = {out_layer: "out"}
    if aux:
        return_layers[aux_layer] = "aux"
    backbone = IntermediateLayerGetter(backbone, return_layers=return_layers)
    aux_classifier = FCNHead(aux_inplanes, num_classes) if aux else None
    head, model = _MODELS[name]
    return model(backbone, head(out_inplanes, num_classes), aux_classifier)


def _load_weights(model, arch_type, backbone, progress):
    arch = arch_type + "_" + backbone + "_coco"
    if arch not in model_urls:
        raise NotImplementedError("pretrained {} is not supported as of now".format(arch))
    load_pretrained(model, arch, model_urls, progress)


def _load_model(arch_type, backbone, pretrained, progress, num_classes, aux_loss, **kwargs):
    if pretrained:  # the checkpoints hold the auxiliary head, and make ImageNet weights moot
        aux_loss = True
        kwargs["pretrained_backbone"] = False
    model = _segm_model(arch_type, backbone, num_classes, aux_loss, **kwargs)
    if pretrained:
        _load_weights(model, arch_type, backbone, progress)
    return model


def _segm_lraspp_mobilenetv3(backbone_name, num_classes, pretrained_backbone=True):
    backbone, stage_indices = _mobilenet_v3_features(backbone_name, pretrained_backbone)
    low_pos = stage_indices[-4]  # C2, output stride 8
    high_pos = stage_indices[-1]  # C5, output stride 16
    low_channels = backbone[low_pos].out_channels
    high_channels = backbone[high_pos].out_channels
    backbone = IntermediateLayerGetter(backbone, return_layers={str(low_pos): "low", str(high_pos): "high"})
    return LRASPP(backbone, low_channels, high_channels, num_classes)


_DOC = """{title}

    Args:
        pretrained (bool): the weights trained on the COCO train2017 images of the 20 Pascal VOC
            categories (plus background), through the hub; implies aux_loss=True
        progress (bool): draw a download bar on stderr
        num_classes (int): number of output classes, background included
        aux_loss (bool): add the auxiliary FCNHead (on {aux}); forward then returns "aux" too
        pretrained_backbone (bool, keyword): start from the ImageNet backbone (default True)
    """


@handle_weights(FCN_ResNet50_Weights, extra=_backbone(ResNet50_Weights))
def fcn_resnet50(pretrained=False, progress=True, num_classes=21, aux_loss=None, **kwargs):
    return _load_model("fcn", "resnet50", pretrained, progress, num_classes, aux_loss, **kwargs)


@handle_weights(FCN_ResNet101_Weights, extra=_backbone(ResNet101_Weights))
def fcn_resnet101(pretrained=False, progress=True, num_classes=21, aux_loss=None, **kwargs):
    return _load_model("fcn", "resnet101", pretrained, progress, num_classes, aux_loss, **kwargs)


@handle_weights(DeepLabV3_ResNet50_Weights, extra=_backbone(ResNet50_Weights))
def deeplabv3_resnet50(pretrained=False, progress=True, num_classes=21, aux_loss=None, **kwargs):
    return _load_model("deeplabv3", "resnet50", pretrained, progress, num_classes, aux_loss, **kwargs)


@handle_weights(DeepLabV3_ResNet101_Weights, extra=_backbone(ResNet101_Weights))
def deeplabv3_resnet101(pretrained=False, progress=True, num_classes=21, aux_loss=None, **kwargs):
    return _load_model("deeplabv3", "resnet101", pretrained, progress, num_classes, aux_loss, **kwargs)


@handle_weights(DeepLabV3_MobileNet_V3_Large_Weights, extra=_backbone(MobileNet_V3_Large_Weights))
def deeplabv3_mobilenet_v3_large(pretrained=False, progress=True, num_classes=21, aux_loss=None, **kwargs):
    return _load_model("deeplabv3", "mobilenet_v3_large", pretrained, progress, num_classes, aux_loss, **kwargs)


@handle_weights(LRASPP_MobileNet_V3_Large_Weights, extra=_backbone(MobileNet_V3_Large_Weights))
def lraspp_mobilenet_v3_large(pretrained=False, progress=True, num_classes=21, **kwargs):
    """Lite R-ASPP on a dilated MobileNetV3-Large (features at output strides 8 and 16).

    Args:
        pretrained (bool): the weights trained on the COCO train2017 images of the 20 Pascal VOC
            categories (plus background), through the hub
        progress (bool): draw a download bar on stderr
        num_classes (int): number of output classes, background included
        pretrained_backbone (bool, keyword): start from the ImageNet backbone (default True)
    """
    if kwargs.pop("aux_loss", False):
        raise NotImplementedError("This model does not use auxiliary loss")
    backbone_name = "mobilenet_v3_large"
    if pretrained:
        kwargs["pretrained_backbone"] = False
    model = _segm_lraspp_mobilenetv3(backbone_name, num_classes, **kwargs)
    if pretrained:
        _load_weights(model, "lraspp", backbone_name, progress)
    return model


for _builder, _title, _aux in [
        (fcn_resnet50, "FCN on a dilated ResNet-50 (output stride 8).", "layer3"),
        (fcn_resnet101, "FCN on a dilated ResNet-101 (output stride 8).", "layer3"),
        (deeplabv3_resnet50, "DeepLabV3 on a dilated ResNet-50 (output stride 8).", "layer3"),
        (deeplabv3_resnet101, "DeepLabV3 on a dilated ResNet-101 (output stride 8).", "layer3"),
        (deeplabv3_mobilenet_v3_large, "DeepLabV3 on a dilated MobileNetV3-Large (output stride 16).",
         "features[4], output stride 8")]:
    _builder.__doc__ = _DOC.format(title=_title, aux=_aux)
del _builder, _title, _aux
