"""One detection training epoch (a linear lr warm-up over the first epoch's iterations) and the
COCO evaluation."""
import math
import sys
import time

import core

import utils
from coco_eval import CocoEvaluator
from coco_utils import get_coco_api_from_dataset


def warmup_lr_scheduler(optimizer, warmup_iters, warmup_factor):
    """The lr times warmup_factor * (1 - a) + a, a = iteration / warmup_iters, up to warmup_iters."""
    def factor(iteration):
        if iteration >= warmup_iters:
            return 1.0
        alpha = float(iteration) / warmup_iters
        return warmup_factor * (1 - alpha) + alpha
    return core.optim.lr_scheduler.LambdaLR(optimizer, factor)


def train_one_epoch(model, optimizer, data_loader, epoch, print_freq):
    model.train()
    metric_logger = utils.MetricLogger(delimiter="  ")
    metric_logger.add_meter("lr", utils.SmoothedValue(window_size=1, fmt="{value:.6f}"))
    header = f"Epoch: [{epoch}]"
    lr_scheduler = None
    if epoch == 0:
        warmup_iters = min(1000, len(data_loader) - 1)
        if warmup_iters > 0:
            lr_scheduler = warmup_lr_scheduler(optimizer, warmup_iters, 1.0 / 1000)
    for images, targets in metric_logger.log_every(data_loader, print_freq, header):
        loss_dict = model(list(images), [dict(t) for t in targets])
        losses = sum(loss_dict.values())
        loss_dict_reduced = utils.reduce_dict(loss_dict)
        loss_value = sum(loss_dict_reduced.values()).item()
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            print(loss_dict_reduced)
            sys.exit(1)
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        if lr_scheduler is not None:
            lr_scheduler.step()
        metric_logger.update(loss=loss_value, **{k: v.item() for k, v in loss_dict_reduced.items()})
        metric_logger.update(lr=optimizer.param_groups[0]["lr"])
    metric_logger.synchronize_between_processes()
    return metric_logger


def evaluate(model, data_loader, print_freq=100):
    """COCO box evaluation of the model on the loader's dataset; returns the CocoEvaluator."""
    model.eval()
    metric_logger = utils.MetricLogger(delimiter="  ")
    coco = get_coco_api_from_dataset(data_loader.dataset)
    coco_evaluator = CocoEvaluator(coco, ["bbox"])
    with core.no_grad():
        for images, targets in metric_logger.log_every(data_loader, print_freq, "Test:"):
            start = time.time()
            outputs = model(list(images))
            model_time = time.time() - start
            start = time.time()
            coco_evaluator.update({int(t["image_id"].item()): o for t, o in zip(targets, outputs)})
            metric_logger.update(model_time=model_time, evaluator_time=time.time() - start)
    metric_logger.synchronize_between_processes()
    print("Averaged stats:", metric_logger)
    coco_evaluator.synchronize_between_processes()
    coco_evaluator.accumulate()
    coco_evaluator.summarize()
    return coco_evaluator
