"""The Region Proposal Network (Faster R-CNN): objectness and box deltas per anchor,
proposals filtered per level (top-n, clip, small boxes, score threshold, NMS)."""
import core
from core import nn
from core.nn import functional as F
from vision.models.detection import _utils as det_utils
from vision.ops import boxes as box_ops

__all__ = ["RPNHead", "RegionProposalNetwork", "concat_box_prediction_layers", "permute_and_flatten"]


class RPNHead(nn.Module):
    """A 3x3 conv + ReLU, then 1x1 convs for the objectness logit and the 4 box deltas of each
    of num_anchors anchors per location, shared by every feature map."""

    def __init__(self, in_channels, num_anchors):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, in_channels, kernel_size=3, stride=1, padding=1)
        self.cls_logits = nn.Conv2d(in_channels, num_anchors, kernel_size=1, stride=1)
        self.bbox_pred = nn.Conv2d(in_channels, num_anchors * 4, kernel_size=1, stride=1)
        for layer in self.children():
            nn.init.normal_(layer.weight, std=0.01)
            nn.init.constant_(layer.bias, 0)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        # torchvision >= 0.13 names the 3x3 conv "conv.0.0" (a Conv2dNormActivation in a Sequential)
        for kind in ("weight", "bias"):
            newer = f"{prefix}conv.0.0.{kind}"
            if newer in state_dict:
                state_dict[f"{prefix}conv.{kind}"] = state_dict.pop(newer)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def forward(self, x):
        logits, bbox_reg = [], []
        for feature in x:
            t = F.relu(self.conv(feature))
            logits.append(self.cls_logits(t))
            bbox_reg.append(self.bbox_pred(t))
        return logits, bbox_reg


def permute_and_flatten(layer, N, A, C, H, W):
    """[N, A * C, H, W] -> [N, H * W * A, C] (the anchors' order)."""
    layer = layer.view(N, -1, C, H, W).permute(0, 3, 4, 1, 2)
    return layer.reshape(N, -1, C)


def concat_box_prediction_layers(box_cls, box_regression):
    """Per-level head outputs -> (box_cls [sum N*H*W*A, C], box_regression [sum N*H*W*A, 4])."""
    box_cls_flattened, box_regression_flattened = [], []
    for box_cls_per_level, box_regression_per_level in zip(box_cls, box_regression):
        N, AxC, H, W = box_cls_per_level.shape
        A = box_regression_per_level.shape[1] // 4
        C = AxC // A
        box_cls_flattened.append(permute_and_flatten(box_cls_per_level, N, A, C, H, W))
        box_regression_flattened.append(permute_and_flatten(box_regression_per_level, N, A, 4, H, W))
    box_cls = core.cat(box_cls_flattened, dim=1).flatten(0, -2)
    box_regression = core.cat(box_regression_flattened, dim=1).reshape(-1, 4)
    return box_cls, box_regression


class RegionProposalNetwork(nn.Module):
    """Args:
        anchor_generator (AnchorGenerator), head (RPNHead)
        fg_iou_thresh, bg_iou_thresh (float): anchor/gt IoU for positives (>=) and negatives (<).
        batch_size_per_image, positive_fraction: the sampling of anchors for the loss.
        pre_nms_top_n, post_nms_top_n (Dict[str, int]): keys "training" and "testing".
        nms_thresh (float), score_thresh (float): proposals keep objectness >= score_thresh.
    """

    def __init__(self, anchor_generator, head, fg_iou_thresh, bg_iou_thresh, batch_size_per_image,
                 positive_fraction, pre_nms_top_n, post_nms_top_n, nms_thresh, score_thresh=0.0):
        super().__init__()
        self.anchor_generator = anchor_generator
        self.head = head
        self.box_coder = det_utils.BoxCoder(weights=(1.0, 1.0, 1.0, 1.0))
        self.box_similarity = box_ops.box_iou
        self.proposal_matcher = det_utils.Matcher(fg_iou_thresh, bg_iou_thresh, allow_low_quality_matches=True)
        self.fg_bg_sampler = det_utils.BalancedPositiveNegativeSampler(batch_size_per_image, positive_fraction)
        self._pre_nms_top_n = pre_nms_top_n
        self._post_nms_top_n = post_nms_top_n
        self.nms_thresh = nms_thresh
        self.score_thresh = score_thresh
        self.min_size = 1e-3

    def pre_nms_top_n(self):
        return self._pre_nms_top_n["training" if self.training else "testing"]

    def post_nms_top_n(self):
        return self._post_nms_top_n["training" if self.training else "testing"]

    def assign_targets_to_anchors(self, anchors, targets):
        """Per image: labels (1 fg, 0 bg, -1 ignored) and the matched gt box of each anchor."""
        labels, matched_gt_boxes = [], []
        for anchors_per_image, targets_per_image in zip(anchors, targets):
            gt_boxes = targets_per_image["boxes"]
            if gt_boxes.numel() == 0:
                matched_gt_boxes_per_image = core.zeros(anchors_per_image.shape, dtype=core.float32)
                labels_per_image = core.zeros((anchors_per_image.shape[0],), dtype=core.float32)
            else:
                match_quality_matrix = self.box_similarity(gt_boxes, anchors_per_image)
                matched_idxs = self.proposal_matcher(match_quality_matrix)
                matched_gt_boxes_per_image = gt_boxes[matched_idxs.clamp(min=0)]
                labels_per_image = (matched_idxs >= 0).to(dtype=core.float32)
                labels_per_image[matched_idxs == self.proposal_matcher.BELOW_LOW_THRESHOLD] = 0.0
                labels_per_image[matched_idxs == self.proposal_matcher.BETWEEN_THRESHOLDS] = -1.0
            labels.append(labels_per_image)
            matched_gt_boxes.append(matched_gt_boxes_per_image)
        return labels, matched_gt_boxes

    def _get_top_n_idx(self, objectness, num_anchors_per_level):
        r, offset = [], 0
        for ob in objectness.split(num_anchors_per_level, 1):
            num_anchors = ob.shape[1]
            _, top_n_idx = ob.topk(det_utils.size_min(self.pre_nms_top_n(), num_anchors), dim=1)
            r.append(top_n_idx + offset)
            offset += num_anchors
        return core.cat(r, dim=1)

    def filter_proposals(self, proposals, objectness, image_shapes, num_anchors_per_level):
        num_images = proposals.shape[0]
        objectness = objectness.detach().reshape(num_images, -1)
        levels = core.cat([core.full((n,), idx, dtype=core.int64) for idx, n in enumerate(num_anchors_per_level)], 0)
        levels = levels.reshape(1, -1).expand_as(objectness)
        # the pre_nms_top_n best anchors of each level, independently
        top_n_idx = self._get_top_n_idx(objectness, num_anchors_per_level)
        batch_idx = core.arange(num_images)[:, None]
        objectness = objectness[batch_idx, top_n_idx]
        levels = levels[batch_idx, top_n_idx]
        proposals = proposals[batch_idx, top_n_idx]
        objectness_prob = core.sigmoid(objectness)

        final_boxes, final_scores = [], []
        for boxes, scores, lvl, img_shape in zip(proposals, objectness_prob, levels, image_shapes):
            boxes = box_ops.clip_boxes_to_image(boxes, img_shape)
            keep = box_ops.remove_small_boxes(boxes, self.min_size)
            boxes, scores, lvl = boxes[keep], scores[keep], lvl[keep]
            keep = core.where(scores >= self.score_thresh)[0]  # >=: torchvision's rule for the RPN
            boxes, scores, lvl = boxes[keep], scores[keep], lvl[keep]
            keep = box_ops.batched_nms(boxes, scores, lvl, self.nms_thresh)  # independently per level
            keep = keep[: self.post_nms_top_n()]
            final_boxes.append(boxes[keep])
            final_scores.append(scores[keep])
        return final_boxes, final_scores

    def compute_loss(self, objectness, pred_bbox_deltas, labels, regression_targets):
        """(objectness BCE over the sampled anchors, smooth-L1 box loss over the sampled
        positives divided by the number of sampled anchors)."""
        sampled_pos_inds, sampled_neg_inds = self.fg_bg_sampler(labels)
        sampled_pos_inds = core.where(core.cat(sampled_pos_inds, dim=0))[0]
        sampled_neg_inds = core.where(core.cat(sampled_neg_inds, dim=0))[0]
        sampled_inds = core.cat([sampled_pos_inds, sampled_neg_inds], dim=0)
        objectness = objectness.flatten()
        labels = core.cat(labels, dim=0)
        regression_targets = core.cat(regression_targets, dim=0)
        box_loss = det_utils.smooth_l1_loss(pred_bbox_deltas[sampled_pos_inds], regression_targets[sampled_pos_inds],
                                            beta=1 / 9, size_average=False) / sampled_inds.numel()
        objectness_loss = F.binary_cross_entropy_with_logits(objectness[sampled_inds], labels[sampled_inds])
        return objectness_loss, box_loss

    def forward(self, images, features, targets=None):
        """images (ImageList), features (Dict[str, Tensor]), targets (training) ->
        (proposals per image [L, 4], losses {loss_objectness, loss_rpn_box_reg} in training)."""
        features = list(features.values())
        objectness, pred_bbox_deltas = self.head(features)
        anchors = self.anchor_generator(images, features)
        num_images = len(anchors)
        num_anchors_per_level = [o[0].shape[0] * o[0].shape[1] * o[0].shape[2] for o in objectness]
        objectness, pred_bbox_deltas = concat_box_prediction_layers(objectness, pred_bbox_deltas)
        # proposals don't backpropagate into the RPN's deltas (Faster R-CNN's approximate joint training)
        proposals = self.box_coder.decode(pred_bbox_deltas.detach(), anchors).view(num_images, -1, 4)
        boxes, _ = self.filter_proposals(proposals, objectness, images.image_sizes, num_anchors_per_level)

        losses = {}
        if self.training:
            assert targets is not None
            labels, matched_gt_boxes = self.assign_targets_to_anchors(anchors, targets)
            regression_targets = self.box_coder.encode(matched_gt_boxes, anchors)
            loss_objectness, loss_rpn_box_reg = self.compute_loss(objectness, pred_bbox_deltas, labels,
                                                                  regression_targets)
            losses = {"loss_objectness": loss_objectness, "loss_rpn_box_reg": loss_rpn_box_reg}
        return boxes, losses
