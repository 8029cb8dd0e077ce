"""The segmentation references' helpers: the confusion matrix behind global pixel accuracy and
mean IoU, and the collation of images and masks of different sizes (padded, masks with 255);
the logger and data-parallel helpers are the shared ones."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from shared_utils import *  # noqa: F401,F403,E402
from shared_utils import is_dist_avail_and_initialized  # noqa: E402

import core  # noqa: E402
import core.distributed as dist  # noqa: E402


class ConfusionMatrix:
    """mat[target class, predicted class] pixel counts; targets outside [0, num_classes) (255:
    ignore) are skipped."""

    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.mat = None

    def update(self, a, b):
        n = self.num_classes
        if self.mat is None:
            self.mat = core.zeros((n, n), dtype=core.int64)
        with core.no_grad():
            k = (a >= 0) & (a < n)
            inds = n * a[k].to(core.int64) + b[k]
            counts = core.zeros(n * n, dtype=core.int64).index_add_(0, inds, core.ones_like(inds))  # bincount
            self.mat += counts.reshape(n, n)

    def reset(self):
        self.mat.zero_()

    def compute(self):
        """(global pixel accuracy, per-class accuracy, per-class IoU)."""
        h = self.mat.float()
        diag = core.diag(h)
        acc_global = diag.sum() / h.sum()
        acc = diag / h.sum(1)
        iu = diag / (h.sum(1) + h.sum(0) - diag)
        return acc_global, acc, iu

    def reduce_from_all_processes(self):
        if not is_dist_avail_and_initialized():
            return
        dist.barrier()
        dist.all_reduce(self.mat)

    def __str__(self):
        acc_global, acc, iu = self.compute()
        return ("global correct: {:.1f}\naverage row correct: {}\nIoU: {}\nmean IoU: {:.1f}").format(
            acc_global.item() * 100, [f"{i:.1f}" for i in (acc * 100).tolist()],
            [f"{i:.1f}" for i in (iu * 100).tolist()], iu.mean().item() * 100)


def cat_list(images, fill_value=0):
    """The tensors stacked into one batch padded to the largest size with fill_value."""
    max_size = tuple(max(s) for s in zip(*[img.shape for img in images]))
    batched = core.full((len(images),) + max_size, fill_value, dtype=images[0].dtype)
    for img, pad_img in zip(images, batched):
        pad_img[..., :img.shape[-2], :img.shape[-1]].copy_(img)
    return batched


def collate_fn(batch):
    images, targets = list(zip(*batch))
    return cat_list(images, fill_value=0), cat_list(targets, fill_value=255)
