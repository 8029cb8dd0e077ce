"""The box branch of Faster R-CNN: RoI sampling and targets in training, RoI pooling, the box
head and predictor, the Fast R-CNN loss, and the per-class post-processing in evaluation."""
import core
from core import nn
from core.nn import functional as F
from vision.models.detection import _utils as det_utils
from vision.ops import boxes as box_ops

__all__ = ["RoIHeads", "fastrcnn_loss"]


def fastrcnn_loss(class_logits, box_regression, labels, regression_targets):
    """(cross-entropy over the sampled RoIs, smooth-L1 of the gt class's deltas over the
    positives divided by the number of sampled RoIs)."""
    labels = core.cat(labels, dim=0)
    regression_targets = core.cat(regression_targets, dim=0)
    classification_loss = F.cross_entropy(class_logits, labels)
    sampled_pos_inds_subset = core.where(labels > 0)[0]
    labels_pos = labels[sampled_pos_inds_subset]
    N = class_logits.shape[0]
    box_regression = box_regression.reshape(N, box_regression.size(-1) // 4, 4)
    box_loss = det_utils.smooth_l1_loss(box_regression[sampled_pos_inds_subset, labels_pos],
                                        regression_targets[sampled_pos_inds_subset], beta=1 / 9, size_average=False)
    return classification_loss, box_loss / labels.numel()


class RoIHeads(nn.Module):
    """Args:
        box_roi_pool (MultiScaleRoIAlign), box_head (TwoMLPHead), box_predictor (FastRCNNPredictor)
        fg_iou_thresh, bg_iou_thresh (float): proposal/gt IoU of foreground (>=) and background (<).
        batch_size_per_image, positive_fraction: the RoI sampling in training.
        bbox_reg_weights (Tuple[float] or None): the BoxCoder weights (default (10, 10, 5, 5)).
        score_thresh (float): detections keep score > score_thresh (strictly).
        nms_thresh (float), detections_per_img (int).
    """

    def __init__(self, box_roi_pool, box_head, box_predictor, fg_iou_thresh, bg_iou_thresh, batch_size_per_image,
                 positive_fraction, bbox_reg_weights, score_thresh, nms_thresh, detections_per_img):
        super().__init__()
        self.box_similarity = box_ops.box_iou
        self.proposal_matcher = det_utils.Matcher(fg_iou_thresh, bg_iou_thresh, allow_low_quality_matches=False)
        self.fg_bg_sampler = det_utils.BalancedPositiveNegativeSampler(batch_size_per_image, positive_fraction)
        if bbox_reg_weights is None:
            bbox_reg_weights = (10.0, 10.0, 5.0, 5.0)
        self.box_coder = det_utils.BoxCoder(bbox_reg_weights)
        self.box_roi_pool = box_roi_pool
        self.box_head = box_head
        self.box_predictor = box_predictor
        self.score_thresh = score_thresh
        self.nms_thresh = nms_thresh
        self.detections_per_img = detections_per_img

    def assign_targets_to_proposals(self, proposals, gt_boxes, gt_labels):
        matched_idxs, labels = [], []
        for proposals_in_image, gt_boxes_in_image, gt_labels_in_image in zip(proposals, gt_boxes, gt_labels):
            if gt_boxes_in_image.numel() == 0:  # background image
                clamped = core.zeros((proposals_in_image.shape[0],), dtype=core.int64)
                labels_in_image = core.zeros((proposals_in_image.shape[0],), dtype=core.int64)
            else:
                match_quality_matrix = box_ops.box_iou(gt_boxes_in_image, proposals_in_image)
                matched_idxs_in_image = self.proposal_matcher(match_quality_matrix)
                clamped = matched_idxs_in_image.clamp(min=0)
                labels_in_image = gt_labels_in_image[clamped].to(dtype=core.int64)
                labels_in_image[matched_idxs_in_image == self.proposal_matcher.BELOW_LOW_THRESHOLD] = 0
                labels_in_image[matched_idxs_in_image == self.proposal_matcher.BETWEEN_THRESHOLDS] = -1
            matched_idxs.append(clamped)
            labels.append(labels_in_image)
        return matched_idxs, labels

    def subsample(self, labels):
        sampled_pos_inds, sampled_neg_inds = self.fg_bg_sampler(labels)
        return [core.where(pos | neg)[0] for pos, neg in zip(sampled_pos_inds, sampled_neg_inds)]

    def add_gt_proposals(self, proposals, gt_boxes):
        return [core.cat((proposal, gt_box)) for proposal, gt_box in zip(proposals, gt_boxes)]

    def check_targets(self, targets):
        assert targets is not None
        assert all("boxes" in t for t in targets)
        assert all("labels" in t for t in targets)

    def select_training_samples(self, proposals, targets):
        self.check_targets(targets)
        dtype = proposals[0].dtype
        gt_boxes = [t["boxes"].to(dtype) for t in targets]
        gt_labels = [t["labels"] for t in targets]
        proposals = self.add_gt_proposals(proposals, gt_boxes)
        matched_idxs, labels = self.assign_targets_to_proposals(proposals, gt_boxes, gt_labels)
        sampled_inds = self.subsample(labels)
        matched_gt_boxes = []
        for img_id, img_sampled_inds in enumerate(sampled_inds):
            proposals[img_id] = proposals[img_id][img_sampled_inds]
            labels[img_id] = labels[img_id][img_sampled_inds]
            matched_idxs[img_id] = matched_idxs[img_id][img_sampled_inds]
            gt_boxes_in_image = gt_boxes[img_id]
            if gt_boxes_in_image.numel() == 0:
                gt_boxes_in_image = core.zeros((1, 4), dtype=dtype)
            matched_gt_boxes.append(gt_boxes_in_image[matched_idxs[img_id]])
        regression_targets = self.box_coder.encode(matched_gt_boxes, proposals)
        return proposals, matched_idxs, labels, regression_targets

    def postprocess_detections(self, class_logits, box_regression, proposals, image_shapes):
        num_classes = class_logits.shape[-1]
        boxes_per_image = [boxes_in_image.shape[0] for boxes_in_image in proposals]
        pred_boxes = self.box_coder.decode(box_regression, proposals)
        pred_scores = F.softmax(class_logits, -1)
        all_boxes, all_scores, all_labels = [], [], []
        for boxes, scores, image_shape in zip(pred_boxes.split(boxes_per_image, 0),
                                              pred_scores.split(boxes_per_image, 0), image_shapes):
            boxes = box_ops.clip_boxes_to_image(boxes, image_shape)
            labels = core.arange(num_classes).view(1, -1).expand_as(scores)
            # one detection per (RoI, class), background dropped
            boxes, scores, labels = boxes[:, 1:].reshape(-1, 4), scores[:, 1:].reshape(-1), labels[:, 1:].reshape(-1)
            inds = core.where(scores > self.score_thresh)[0]
            boxes, scores, labels = boxes[inds], scores[inds], labels[inds]
            keep = box_ops.remove_small_boxes(boxes, min_size=1e-2)
            boxes, scores, labels = boxes[keep], scores[keep], labels[keep]
            keep = box_ops.batched_nms(boxes, scores, labels, self.nms_thresh)[: self.detections_per_img]
            all_boxes.append(boxes[keep])
            all_scores.append(scores[keep])
            all_labels.append(labels[keep])
        return all_boxes, all_scores, all_labels

    def forward(self, features, proposals, image_shapes, targets=None):
        """-> (detections [{boxes, labels, scores}] in evaluation, losses {loss_classifier,
        loss_box_reg} in training)."""
        if targets is not None:
            for t in targets:
                assert t["boxes"].dtype in (core.float32, core.float64, core.float16), \
                    "target boxes must of float type"
                assert t["labels"].dtype == core.int64, "target labels must of int64 type"
        if self.training:
            proposals, _, labels, regression_targets = self.select_training_samples(proposals, targets)
        box_features = self.box_roi_pool(features, proposals, image_shapes)
        box_features = self.box_head(box_features)
        class_logits, box_regression = self.box_predictor(box_features)

        result, losses = [], {}
        if self.training:
            loss_classifier, loss_box_reg = fastrcnn_loss(class_logits, box_regression, labels, regression_targets)
            losses = {"loss_classifier": loss_classifier, "loss_box_reg": loss_box_reg}
        else:
            boxes, scores, labels = self.postprocess_detections(class_logits, box_regression, proposals, image_shapes)
            result = [{"boxes": b, "labels": lab, "scores": s} for b, s, lab in zip(boxes, scores, labels)]
        return result, losses
