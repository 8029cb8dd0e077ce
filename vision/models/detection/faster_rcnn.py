"""Faster R-CNN (Ren et al. 2015) with the FPN backbones of torchvision 0.9."""
from core import nn
from core.nn import functional as F
from vision.models._api import Weights, handle_weights, weights_enum
from vision.models._utils import load_pretrained
from vision.models.detection._meta import COCO_CATEGORIES
from vision.models.detection._utils import overwrite_eps
from vision.models.mobilenetv3 import MobileNet_V3_Large_Weights
from vision.models.resnet import ResNet50_Weights
from vision.models.detection.anchor_utils import AnchorGenerator
from vision.models.detection.backbone_utils import _validate_trainable_layers, mobilenet_backbone, resnet_fpn_backbone
from vision.models.detection.generalized_rcnn import GeneralizedRCNN
from vision.models.detection.roi_heads import RoIHeads
from vision.models.detection.rpn import RegionProposalNetwork, RPNHead
from vision.models.detection.transform import GeneralizedRCNNTransform
from vision.ops.poolers import MultiScaleRoIAlign
from vision.ops import misc as misc_nn_ops

__all__ = ["FasterRCNN", "FasterRCNN_ResNet50_FPN_Weights", "FasterRCNN_MobileNet_V3_Large_FPN_Weights",
           "FasterRCNN_MobileNet_V3_Large_320_FPN_Weights", "fasterrcnn_resnet50_fpn",
           "fasterrcnn_mobilenet_v3_large_320_fpn", "fasterrcnn_mobilenet_v3_large_fpn"]

_BASE = "https://download.pytorch.org/models/"
model_urls = {
    "fasterrcnn_resnet50_fpn_coco": _BASE + "fasterrcnn_resnet50_fpn_coco-258fb6c6.pth",
    "fasterrcnn_mobilenet_v3_large_320_fpn_coco": _BASE + "fasterrcnn_mobilenet_v3_large_320_fpn-907ea3f9.pth",
    "fasterrcnn_mobilenet_v3_large_fpn_coco": _BASE + "fasterrcnn_mobilenet_v3_large_fpn-fb6a3cc7.pth",
}


def _object_detection(**kwargs):
    from vision.transforms._presets import ObjectDetection  # imported on use: transforms load later

    return ObjectDetection(**kwargs)


def _coco_weights(name, arch, num_params, box_map, recipe):
    meta = {"categories": COCO_CATEGORIES, "num_params": num_params, "min_size": (1, 1), "recipe": recipe,
            "_metrics": {"COCO-val2017": {"box_map": box_map}}}
    return weights_enum(name, {"COCO_V1": Weights(model_urls[arch], _object_detection, meta)}, "COCO_V1")


FasterRCNN_ResNet50_FPN_Weights = _coco_weights(
    "FasterRCNN_ResNet50_FPN_Weights", "fasterrcnn_resnet50_fpn_coco", 41755286, 37.0,
    "https://github.com/pytorch/vision/tree/main/references/detection#faster-r-cnn-resnet-50-fpn")
FasterRCNN_MobileNet_V3_Large_FPN_Weights = _coco_weights(
    "FasterRCNN_MobileNet_V3_Large_FPN_Weights", "fasterrcnn_mobilenet_v3_large_fpn_coco", 19386354, 32.8,
    "https://github.com/pytorch/vision/tree/main/references/detection#faster-r-cnn-mobilenetv3-large-fpn")
FasterRCNN_MobileNet_V3_Large_320_FPN_Weights = _coco_weights(
    "FasterRCNN_MobileNet_V3_Large_320_FPN_Weights", "fasterrcnn_mobilenet_v3_large_320_fpn_coco", 19386354, 22.8,
    "https://github.com/pytorch/vision/tree/main/references/detection#faster-r-cnn-mobilenetv3-large-320-fpn")


def _backbone_keyword(weights_cls):
    # torchvision 0.13's weights_backbone= is 0.9's pretrained_backbone=
    return {"weights_backbone": ("pretrained_backbone", weights_cls)}


class FasterRCNN(GeneralizedRCNN):
    """Faster R-CNN on `backbone` (a module with `.out_channels` returning a Tensor or an
    OrderedDict of feature maps). Give `num_classes` (background included) or a
    `box_predictor`, not both. The other arguments and their defaults are torchvision 0.9's:
    the transform (min_size, max_size, image_mean, image_std), the RPN (rpn_*) and the box
    branch (box_*, bbox_reg_weights)."""

    def __init__(self, backbone, num_classes=None,
                 # transform parameters
                 min_size=800, max_size=1333, image_mean=None, image_std=None,
                 # RPN parameters
                 rpn_anchor_generator=None, rpn_head=None,
                 rpn_pre_nms_top_n_train=2000, rpn_pre_nms_top_n_test=1000,
                 rpn_post_nms_top_n_train=2000, rpn_post_nms_top_n_test=1000,
                 rpn_nms_thresh=0.7, rpn_fg_iou_thresh=0.7, rpn_bg_iou_thresh=0.3,
                 rpn_batch_size_per_image=256, rpn_positive_fraction=0.5, rpn_score_thresh=0.0,
                 # Box parameters
                 box_roi_pool=None, box_head=None, box_predictor=None,
                 box_score_thresh=0.05, box_nms_thresh=0.5, box_detections_per_img=100,
                 box_fg_iou_thresh=0.5, box_bg_iou_thresh=0.5,
                 box_batch_size_per_image=512, box_positive_fraction=0.25,
                 bbox_reg_weights=None):
        if not hasattr(backbone, "out_channels"):
            raise ValueError("backbone should contain an attribute out_channels specifying the number of output "
                             "channels (assumed to be the same for all the levels)")
        assert isinstance(rpn_anchor_generator, (AnchorGenerator, type(None)))
        assert isinstance(box_roi_pool, (MultiScaleRoIAlign, type(None)))
        if num_classes is not None:
            if box_predictor is not None:
                raise ValueError("num_classes should be None when box_predictor is specified")
        elif box_predictor is None:
            raise ValueError("num_classes should not be None when box_predictor is not specified")

        out_channels = backbone.out_channels
        if rpn_anchor_generator is None:
            anchor_sizes = ((32,), (64,), (128,), (256,), (512,))
            aspect_ratios = ((0.5, 1.0, 2.0),) * len(anchor_sizes)
            rpn_anchor_generator = AnchorGenerator(anchor_sizes, aspect_ratios)
        if rpn_head is None:
            rpn_head = RPNHead(out_channels, rpn_anchor_generator.num_anchors_per_location()[0])
        rpn = RegionProposalNetwork(
            rpn_anchor_generator, rpn_head, rpn_fg_iou_thresh, rpn_bg_iou_thresh, rpn_batch_size_per_image,
            rpn_positive_fraction, dict(training=rpn_pre_nms_top_n_train, testing=rpn_pre_nms_top_n_test),
            dict(training=rpn_post_nms_top_n_train, testing=rpn_post_nms_top_n_test), rpn_nms_thresh,
            score_thresh=rpn_score_thresh)

        if box_roi_pool is None:
            box_roi_pool = MultiScaleRoIAlign(featmap_names=["0", "1", "2", "3"], output_size=7, sampling_ratio=2)
        if box_head is None:
            resolution = box_roi_pool.output_size[0]
            box_head = TwoMLPHead(out_channels * resolution ** 2, 1024)
        if box_predictor is None:
            box_predictor = FastRCNNPredictor(1024, num_classes)
        roi_heads = RoIHeads(box_roi_pool, box_head, box_predictor, box_fg_iou_thresh, box_bg_iou_thresh,
                             box_batch_size_per_image, box_positive_fraction, bbox_reg_weights, box_score_thresh,
                             box_nms_thresh, box_detections_per_img)

        if image_mean is None:
            image_mean = [0.485, 0.456, 0.406]
        if image_std is None:
            image_std = [0.229, 0.224, 0.225]
        transform = GeneralizedRCNNTransform(min_size, max_size, image_mean, image_std)
        super().__init__(backbone, rpn, roi_heads, transform)


class TwoMLPHead(nn.Module):
    """Flatten -> fc6 + ReLU -> fc7 + ReLU."""

    def __init__(self, in_channels, representation_size):
        super().__init__()
        self.fc6 = nn.Linear(in_channels, representation_size)
        self.fc7 = nn.Linear(representation_size, representation_size)

    def forward(self, x):
        x = x.flatten(start_dim=1)
        return F.relu(self.fc7(F.relu(self.fc6(x))))


class FastRCNNPredictor(nn.Module):
    """Class logits (cls_score) and per-class box deltas (bbox_pred, 4 per class)."""

    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.cls_score = nn.Linear(in_channels, num_classes)
        self.bbox_pred = nn.Linear(in_channels, num_classes * 4)

    def forward(self, x):
        if x.dim() == 4:
            assert list(x.shape[2:]) == [1, 1]
        x = x.flatten(start_dim=1)
        return self.cls_score(x), self.bbox_pred(x)


@handle_weights(FasterRCNN_ResNet50_FPN_Weights, extra=_backbone_keyword(ResNet50_Weights))
def fasterrcnn_resnet50_fpn(pretrained=False, progress=True, num_classes=91, pretrained_backbone=True,
                            trainable_backbone_layers=None, **kwargs):
    """Faster R-CNN with a ResNet-50-FPN backbone (COCO box AP 37.0 with pretrained=True)."""
    trainable_backbone_layers = _validate_trainable_layers(pretrained or pretrained_backbone,
                                                           trainable_backbone_layers, 5, 3)
    if pretrained:  # the COCO weights include the backbone's
        pretrained_backbone = False
    backbone = resnet_fpn_backbone("resnet50", pretrained_backbone, trainable_layers=trainable_backbone_layers)
    model = FasterRCNN(backbone, num_classes, **kwargs)
    if pretrained:
        load_pretrained(model, "fasterrcnn_resnet50_fpn_coco", model_urls, progress)
        overwrite_eps(model, 0.0)  # the legacy checkpoint was trained with eps 0
    return model


def _fasterrcnn_mobilenet_v3_large_fpn(weights_name, pretrained=False, progress=True, num_classes=91,
                                       pretrained_backbone=True, trainable_backbone_layers=None, norm_layer=None,
                                       **kwargs):
    trainable_backbone_layers = _validate_trainable_layers(pretrained or pretrained_backbone,
                                                           trainable_backbone_layers, 6, 3)
    if pretrained:
        pretrained_backbone = False
    # 0.9 always freezes the statistics; a from-scratch backbone needs a trainable norm_layer=nn.BatchNorm2d
    backbone = mobilenet_backbone("mobilenet_v3_large", pretrained_backbone, True,
                                  norm_layer=norm_layer or misc_nn_ops.FrozenBatchNorm2d,
                                  trainable_layers=trainable_backbone_layers)
    anchor_sizes = ((32, 64, 128, 256, 512),) * 3  # every level carries every size: 15 anchors per location
    aspect_ratios = ((0.5, 1.0, 2.0),) * len(anchor_sizes)
    model = FasterRCNN(backbone, num_classes, rpn_anchor_generator=AnchorGenerator(anchor_sizes, aspect_ratios),
                       **kwargs)
    if pretrained:
        load_pretrained(model, weights_name, model_urls, progress)
    return model


@handle_weights(FasterRCNN_MobileNet_V3_Large_320_FPN_Weights, extra=_backbone_keyword(MobileNet_V3_Large_Weights))
def fasterrcnn_mobilenet_v3_large_320_fpn(pretrained=False, progress=True, num_classes=91, pretrained_backbone=True,
                                          trainable_backbone_layers=None, **kwargs):
    """Faster R-CNN with a MobileNetV3-Large FPN backbone tuned for low resolution (320 px,
    150 proposals; COCO box AP 22.8 with pretrained=True)."""
    defaults = {"min_size": 320, "max_size": 640, "rpn_pre_nms_top_n_test": 150, "rpn_post_nms_top_n_test": 150,
                "rpn_score_thresh": 0.05}
    return _fasterrcnn_mobilenet_v3_large_fpn("fasterrcnn_mobilenet_v3_large_320_fpn_coco", pretrained=pretrained,
                                              progress=progress, num_classes=num_classes,
                                              pretrained_backbone=pretrained_backbone,
                                              trainable_backbone_layers=trainable_backbone_layers,
                                              **{**defaults, **kwargs})


@handle_weights(FasterRCNN_MobileNet_V3_Large_FPN_Weights, extra=_backbone_keyword(MobileNet_V3_Large_Weights))
def fasterrcnn_mobilenet_v3_large_fpn(pretrained=False, progress=True, num_classes=91, pretrained_backbone=True,
                                      trainable_backbone_layers=None, **kwargs):
    """Faster R-CNN with a MobileNetV3-Large FPN backbone (COCO box AP 32.8 with pretrained=True)."""
    defaults = {"rpn_score_thresh": 0.05}
    return _fasterrcnn_mobilenet_v3_large_fpn("fasterrcnn_mobilenet_v3_large_fpn_coco", pretrained=pretrained,
                                              progress=progress, num_classes=num_classes,
                                              pretrained_backbone=pretrained_backbone,
                                              trainable_backbone_layers=trainable_backbone_layers,
                                              **{**defaults, **kwargs})
