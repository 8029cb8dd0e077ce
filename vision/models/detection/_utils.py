"""Pieces shared by the R-CNN heads: box coding, proposal matching and sampling, losses."""
import math

import core
import core.onnx
from vision.ops._utils import is_tensor
from vision.ops.misc import FrozenBatchNorm2d

__all__ = ["BalancedPositiveNegativeSampler", "BoxCoder", "Matcher", "smooth_l1_loss", "overwrite_eps",
           "encode_boxes", "size_min", "size_max"]


def size_min(a, b):
    """min of two sizes; while exporting to ONNX an expression of the graph (the builtin would
    compare the example's values and keep its choice for every input size)."""
    if core.onnx.is_in_onnx_export():
        return a - (a - b) * (a > b)
    return min(a, b)


def size_max(a, b):
    """max of two sizes, in the exported graph as size_min is."""
    if core.onnx.is_in_onnx_export():
        return a + (b - a) * (b > a)
    return max(a, b)


class BalancedPositiveNegativeSampler:
    """Samples up to batch_size_per_image elements per image, a positive_fraction of them
    positive (label >= 1), the rest negative (label == 0), by random permutations."""

    def __init__(self, batch_size_per_image, positive_fraction):
        self.batch_size_per_image = batch_size_per_image
        self.positive_fraction = positive_fraction

    def __call__(self, matched_idxs):
        """matched_idxs: per image, labels (-1 ignore, 0 negative, >= 1 positive).
        Returns (pos masks, neg masks): per image, uint8 masks of the sampled elements."""
        pos_idx, neg_idx = [], []
        for matched_idxs_per_image in matched_idxs:
            positive = core.where(matched_idxs_per_image >= 1)[0]
            negative = core.where(matched_idxs_per_image == 0)[0]
            num_pos = min(positive.numel(), int(self.batch_size_per_image * self.positive_fraction))
            num_neg = min(negative.numel(), self.batch_size_per_image - num_pos)
            perm1 = core.randperm(positive.numel())[:num_pos]
            perm2 = core.randperm(negative.numel())[:num_neg]
            pos_mask = core.zeros_like(matched_idxs_per_image, dtype=core.uint8)
            neg_mask = core.zeros_like(matched_idxs_per_image, dtype=core.uint8)
            pos_mask[positive[perm1]] = 1
            neg_mask[negative[perm2]] = 1
            pos_idx.append(pos_mask)
            neg_idx.append(neg_mask)
        return pos_idx, neg_idx


def encode_boxes(reference_boxes, proposals, weights):
    """Regression targets (dx, dy, dw, dh) that turn `proposals` into `reference_boxes`
    (both [N, 4] xyxy), scaled by `weights` (wx, wy, ww, wh)."""
    wx, wy, ww, wh = weights[0], weights[1], weights[2], weights[3]
    ex_widths = proposals[:, 2:3] - proposals[:, 0:1]
    ex_heights = proposals[:, 3:4] - proposals[:, 1:2]
    ex_ctr_x = proposals[:, 0:1] + 0.5 * ex_widths
    ex_ctr_y = proposals[:, 1:2] + 0.5 * ex_heights
    gt_widths = reference_boxes[:, 2:3] - reference_boxes[:, 0:1]
    gt_heights = reference_boxes[:, 3:4] - reference_boxes[:, 1:2]
    gt_ctr_x = reference_boxes[:, 0:1] + 0.5 * gt_widths
    gt_ctr_y = reference_boxes[:, 1:2] + 0.5 * gt_heights
    targets_dx = wx * (gt_ctr_x - ex_ctr_x) / ex_widths
    targets_dy = wy * (gt_ctr_y - ex_ctr_y) / ex_heights
    targets_dw = ww * core.log(gt_widths / ex_widths)
    targets_dh = wh * core.log(gt_heights / ex_heights)
    return core.cat((targets_dx, targets_dy, targets_dw, targets_dh), dim=1)


class BoxCoder:
    """Encodes boxes as offsets (dx, dy, dw, dh) relative to reference boxes, and decodes
    them back; decoding clamps dw, dh to bbox_xform_clip before the exp."""

    def __init__(self, weights, bbox_xform_clip=math.log(1000.0 / 16)):
        self.weights = weights
        self.bbox_xform_clip = bbox_xform_clip

    def encode(self, reference_boxes, proposals):
        boxes_per_image = [len(b) for b in reference_boxes]
        targets = self.encode_single(core.cat(reference_boxes, dim=0), core.cat(proposals, dim=0))
        return targets.split(boxes_per_image, 0)

    def encode_single(self, reference_boxes, proposals):
        weights = core.tensor(self.weights, dtype=reference_boxes.dtype)
        return encode_boxes(reference_boxes, proposals, weights)

    def decode(self, rel_codes, boxes):
        """rel_codes [sum(L_i), 4 * k] for the boxes of each image -> boxes [sum(L_i), k, 4]."""
        assert isinstance(boxes, (list, tuple))
        assert is_tensor(rel_codes)
        box_sum = sum(b.size(0) for b in boxes)
        concat_boxes = core.cat(boxes, dim=0)
        if box_sum > 0:
            rel_codes = rel_codes.reshape(box_sum, -1)
        pred_boxes = self.decode_single(rel_codes, concat_boxes)
        if box_sum > 0:
            pred_boxes = pred_boxes.reshape(box_sum, -1, 4)
        return pred_boxes

    def decode_single(self, rel_codes, boxes):
        boxes = boxes.to(rel_codes.dtype)
        widths = boxes[:, 2] - boxes[:, 0]
        heights = boxes[:, 3] - boxes[:, 1]
        ctr_x = boxes[:, 0] + 0.5 * widths
        ctr_y = boxes[:, 1] + 0.5 * heights
        wx, wy, ww, wh = self.weights
        dx = rel_codes[:, 0::4] / wx
        dy = rel_codes[:, 1::4] / wy
        dw = core.clamp(rel_codes[:, 2::4] / ww, max=self.bbox_xform_clip)  # no exp overflow
        dh = core.clamp(rel_codes[:, 3::4] / wh, max=self.bbox_xform_clip)
        pred_ctr_x = dx * widths[:, None] + ctr_x[:, None]
        pred_ctr_y = dy * heights[:, None] + ctr_y[:, None]
        pred_w = core.exp(dw) * widths[:, None]
        pred_h = core.exp(dh) * heights[:, None]
        pred_boxes = core.stack((pred_ctr_x - 0.5 * pred_w, pred_ctr_y - 0.5 * pred_h,
                                 pred_ctr_x + 0.5 * pred_w, pred_ctr_y + 0.5 * pred_h), dim=2)
        return pred_boxes.flatten(1)


class Matcher:
    """Assigns each prediction (column of an [M gt, N pred] quality matrix) its best ground
    truth: the gt index when the quality is >= high_threshold, BELOW_LOW_THRESHOLD (-1) when
    < low_threshold, BETWEEN_THRESHOLDS (-2) otherwise. allow_low_quality_matches also gives
    each gt its best predictions (ties included), whatever their quality."""

    BELOW_LOW_THRESHOLD = -1
    BETWEEN_THRESHOLDS = -2

    def __init__(self, high_threshold, low_threshold, allow_low_quality_matches=False):
        assert low_threshold <= high_threshold
        self.high_threshold = high_threshold
        self.low_threshold = low_threshold
        self.allow_low_quality_matches = allow_low_quality_matches

    def __call__(self, match_quality_matrix):
        if match_quality_matrix.numel() == 0:
            if match_quality_matrix.shape[0] == 0:
                raise ValueError("No ground-truth boxes available for one of the images during training")
            raise ValueError("No proposal boxes available for one of the images during training")
        matched_vals, matches = match_quality_matrix.max(dim=0)
        all_matches = matches.clone() if self.allow_low_quality_matches else None
        below_low_threshold = matched_vals < self.low_threshold
        between_thresholds = (matched_vals >= self.low_threshold) & (matched_vals < self.high_threshold)
        matches[below_low_threshold] = self.BELOW_LOW_THRESHOLD
        matches[between_thresholds] = self.BETWEEN_THRESHOLDS
        if self.allow_low_quality_matches:
            self.set_low_quality_matches_(matches, all_matches, match_quality_matrix)
        return matches

    def set_low_quality_matches_(self, matches, all_matches, match_quality_matrix):
        highest_quality_foreach_gt, _ = match_quality_matrix.max(dim=1)
        pairs = core.where(match_quality_matrix == highest_quality_foreach_gt[:, None])
        pred_inds_to_update = pairs[1]
        matches[pred_inds_to_update] = all_matches[pred_inds_to_update]


def smooth_l1_loss(input, target, beta=1.0 / 9, size_average=True):
    """Huber-like loss: 0.5 x^2 / beta where |x| < beta, |x| - 0.5 beta elsewhere; mean or sum."""
    n = core.abs(input - target)
    loss = core.where(n < beta, 0.5 * n ** 2 / beta, n - 0.5 * beta)
    return loss.mean() if size_average else loss.sum()


def overwrite_eps(model, eps):
    """Sets the eps of every FrozenBatchNorm2d in `model` (legacy checkpoints used 0)."""
    for module in model.modules():
        if isinstance(module, FrozenBatchNorm2d):
            module.eps = eps
