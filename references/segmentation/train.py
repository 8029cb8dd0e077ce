"""Semantic segmentation training: torchvision 0.9's references/segmentation/train.py on tensorzoo
(COCO with the 20 VOC classes, or offline the built-in Shapes masks), with its CLI and defaults:
SGD over the backbone and classifier (the auxiliary classifier at 10x the lr with --aux-loss),
the poly schedule (1 - iteration / total) ** 0.9 stepped every iteration, cross entropy ignoring
255 (+ 0.5 x the auxiliary loss), and global pixel accuracy and mean IoU from a confusion matrix.

    # the LR-ASPP MobileNetV3-Large recipe (8 ranks x 4 images)
    mpiexec -n 8 python references/segmentation/train.py --data-path /data/coco --dataset coco -b 4 \\
        --model lraspp_mobilenet_v3_large --wd 0.000001
    # offline: LR-ASPP on Shapes (background + circle / square / triangle)
    python references/segmentation/train.py --dataset shapes --model lraspp_mobilenet_v3_large \\
        --shapes-image-size 64 --shapes-radius 0.2 0.4 --shapes-no-rotation --epochs 12 -b 8 --lr 0.05 \\
        --wd 0.000001 --output-dir runs/shapes-segmentation  # mIoU 81.1

On Shapes the model has 4 classes, no ImageNet backbone weights (offline), and the presets use
the generated size as base and crop size.
"""
import argparse
import datetime
import os
import time

import utils  # first: it puts an in-place build of the repository on the path

import core  # noqa: I100
import core.nn.functional as F
import vision
from vision.datasets import Shapes
from core.utils.data import DataLoader, DistributedSampler, RandomSampler, SequentialSampler

import presets
from coco_utils import get_coco


def get_dataset(args, image_set, transform):
    """(dataset, number of classes including the background)."""
    if args.dataset == "coco":
        return get_coco(args.data_path, image_set=image_set, transforms=transform), 21
    if args.dataset == "shapes":
        return utils.shapes_dataset(args, image_set, "segmentation", transforms=transform), len(Shapes.classes) + 1
    raise RuntimeError(f"Invalid dataset {args.dataset!r}: coco or shapes")


def get_transform(args, train):
    base_size, crop_size = (args.shapes_image_size,) * 2 if args.dataset == "shapes" else (520, 480)
    return presets.SegmentationPresetTrain(base_size, crop_size) if train else presets.SegmentationPresetEval(base_size)


def criterion(inputs, target):
    losses = {name: F.cross_entropy(x, target, ignore_index=255) for name, x in inputs.items()}
    if len(losses) == 1:
        return losses["out"]
    return losses["out"] + 0.5 * losses["aux"]


def evaluate(model, data_loader, num_classes, print_freq=100):
    model.eval()
    confmat = utils.ConfusionMatrix(num_classes)
    metric_logger = utils.MetricLogger(delimiter="  ")
    with core.no_grad():
        for image, target in metric_logger.log_every(data_loader, print_freq, "Test:"):
            output = model(image)["out"]
            confmat.update(target.flatten(), output.argmax(1).flatten())
    confmat.reduce_from_all_processes()
    return confmat


def train_one_epoch(model, optimizer, data_loader, lr_scheduler, epoch, print_freq):
    model.train()
    metric_logger = utils.MetricLogger(delimiter="  ")
    metric_logger.add_meter("lr", utils.SmoothedValue(window_size=1, fmt="{value}"))
    header = f"Epoch: [{epoch}]"
    for image, target in metric_logger.log_every(data_loader, print_freq, header):
        loss = criterion(model(image), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        lr_scheduler.step()
        metric_logger.update(loss=loss.item(), lr=optimizer.param_groups[0]["lr"])
    metric_logger.synchronize_between_processes()
    return metric_logger


def build_model(args, num_classes):
    try:
        builders = vision.models.segmentation.__dict__
    except AttributeError:
        raise RuntimeError("this tensorzoo has no vision.models.segmentation") from None
    if args.model not in builders or not callable(builders[args.model]):
        raise RuntimeError(f"Invalid model {args.model!r}: vision.models.segmentation has no such builder")
    kwargs = {"pretrained_backbone": False} if args.dataset == "shapes" else {}  # offline: no ImageNet backbone
    return builders[args.model](num_classes=num_classes, aux_loss=args.aux_loss, pretrained=args.pretrained,
                                **kwargs)


def _metrics(confmat):
    acc_global, _, iu = confmat.compute()
    return {"pixel_acc": acc_global.item() * 100, "mIoU": iu.mean().item() * 100}


def main(args):
    utils.start_run(args)

    dataset, num_classes = get_dataset(args, "train", get_transform(args, train=True))
    dataset_test, _ = get_dataset(args, "val", get_transform(args, train=False))
    if args.distributed:
        train_sampler = DistributedSampler(dataset)
        test_sampler = DistributedSampler(dataset_test, shuffle=False)
    else:
        train_sampler, test_sampler = RandomSampler(dataset), SequentialSampler(dataset_test)
    data_loader = DataLoader(dataset, batch_size=args.batch_size, sampler=train_sampler, num_workers=args.workers,
                             collate_fn=utils.collate_fn, drop_last=True)
    data_loader_test = DataLoader(dataset_test, batch_size=1, sampler=test_sampler, num_workers=args.workers,
                                  collate_fn=utils.collate_fn)

    model = build_model(args, num_classes)
    if args.distributed and args.sync_bn:
        model = core.nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model_without_ddp = model
    if args.distributed:
        model = core.nn.parallel.DistributedDataParallel(model)
        model_without_ddp = model.module

    params_to_optimize = [
        {"params": [p for p in model_without_ddp.backbone.parameters() if p.requires_grad]},
        {"params": [p for p in model_without_ddp.classifier.parameters() if p.requires_grad]},
    ]
    if args.aux_loss:
        params = [p for p in model_without_ddp.aux_classifier.parameters() if p.requires_grad]
        params_to_optimize.append({"params": params, "lr": args.lr * 10})
    optimizer = core.optim.SGD(params_to_optimize, lr=args.lr, momentum=args.momentum, weight_decay=args.weight_decay)
    total_iters = len(data_loader) * args.epochs
    lr_scheduler = core.optim.lr_scheduler.LambdaLR(optimizer, lambda x: (1 - x / total_iters) ** 0.9)

    if args.resume:
        checkpoint = core.load(args.resume, map_location="cpu")
        model_without_ddp.load_state_dict(checkpoint["model"], strict=not args.test_only)
        if not args.test_only:
            optimizer.load_state_dict(checkpoint["optimizer"])
            lr_scheduler.load_state_dict(checkpoint["lr_scheduler"])
            args.start_epoch = checkpoint["epoch"] + 1

    if args.test_only:
        confmat = evaluate(model, data_loader_test, num_classes, args.print_freq)
        print(confmat)
        return _metrics(confmat)

    log = utils.EpochLog(args.output_dir, args.start_epoch, tensorboard=not args.no_tensorboard)
    start_time = time.time()
    metrics = {}
    for epoch in range(args.start_epoch, args.epochs):
        if args.distributed:
            train_sampler.set_epoch(epoch)
        lr = optimizer.param_groups[0]["lr"]
        train_logger = train_one_epoch(model, optimizer, data_loader, lr_scheduler, epoch, args.print_freq)
        confmat = evaluate(model, data_loader_test, num_classes, args.print_freq)
        print(confmat)
        metrics = _metrics(confmat)
        log.log_epoch(epoch, lr=lr, train_loss=train_logger.loss.global_avg, **metrics)
        checkpoint = {"model": model_without_ddp.state_dict(), "optimizer": optimizer.state_dict(),
                      "lr_scheduler": lr_scheduler.state_dict(), "epoch": epoch, "args": vars(args)}
        if args.output_dir:
            utils.save_on_master(checkpoint, os.path.join(args.output_dir, f"model_{epoch}.pth"))
            utils.save_on_master(checkpoint, os.path.join(args.output_dir, "checkpoint.pth"))
    log.close()
    print(f"Training time {datetime.timedelta(seconds=int(time.time() - start_time))}")
    return metrics


def get_args_parser(add_help=True):
    parser = argparse.ArgumentParser(description="tensorzoo Segmentation Training", add_help=add_help)
    parser.add_argument("--data-path", default="/datasets01/COCO/022719/", help="dataset path")
    parser.add_argument("--dataset", default="coco", choices=["coco", "shapes"], help="coco or shapes (offline)")
    utils.add_shapes_arguments(parser, train_size=1000, val_size=200, image_size=128)
    parser.add_argument("--model", default="fcn_resnet101", help="model")
    parser.add_argument("--aux-loss", action="store_true", help="auxiliar loss")
    parser.add_argument("--device", default="cpu", help="device (only cpu)")
    parser.add_argument("-b", "--batch-size", default=8, type=int)
    parser.add_argument("--epochs", default=30, type=int, metavar="N", help="number of total epochs to run")
    parser.add_argument("-j", "--workers", default=min(16, os.cpu_count() or 1), type=int, metavar="N",
                        help="data loading workers (default: 16, at most the number of CPUs)")
    parser.add_argument("--lr", default=0.01, type=float, help="initial learning rate")
    parser.add_argument("--momentum", default=0.9, type=float, metavar="M", help="momentum")
    parser.add_argument("--wd", "--weight-decay", default=1e-4, type=float, metavar="W", dest="weight_decay",
                        help="weight decay (default: 1e-4)")
    parser.add_argument("--start-epoch", default=0, type=int, metavar="N", help="start epoch")
    parser.add_argument("--sync-bn", dest="sync_bn", action="store_true", help="use SyncBatchNorm")
    parser.add_argument("--pretrained", dest="pretrained", help="Use pre-trained models from the modelzoo",
                        action="store_true")
    utils.add_run_arguments(parser)
    return parser


if __name__ == "__main__":
    main(get_args_parser().parse_args())
