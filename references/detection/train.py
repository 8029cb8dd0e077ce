"""Object detection training: torchvision 0.9's references/detection/train.py on tensorzoo (COCO,
or offline the built-in Shapes with its boxes), with its CLI and defaults: SGD, a linear warm-up
over the first epoch's iterations, MultiStepLR, batches grouped by aspect ratio, and COCO box
mAP through pycocotools (`pip install 'tensorzoo[detection]'`; without it training runs and the
evaluation is skipped with a message).

    # the Faster R-CNN MobileNetV3-Large FPN recipe (8 ranks x 2 images, lr 0.02)
    mpiexec -n 8 python references/detection/train.py --data-path /data/coco --dataset coco \\
        --model fasterrcnn_mobilenet_v3_large_fpn --epochs 26 --lr-steps 16 22 --aspect-ratio-group-factor 3
    # offline: Faster R-CNN MobileNetV3-Large FPN from scratch on Shapes (circle / square / triangle
    # boxes): box AP 25.0, AP50 50.1 after 8 epochs (6 min on 2 cores; --epochs 10 --lr-steps 8: 37.4)
    python references/detection/train.py --dataset shapes --model fasterrcnn_mobilenet_v3_large_fpn \\
        --shapes-radius 0.15 0.3 --shapes-no-rotation --shapes-train-size 600 --epochs 8 --lr-steps 6 \\
        -b 4 -j 1 --output-dir runs/shapes-detection

On Shapes the model has 4 classes (background + 3), no ImageNet backbone weights (offline), and
its transform keeps the generated images at their size (min_size = max_size = the image size).
A MobileNet backbone then gets trainable BatchNorm2d (0.9's FrozenBatchNorm2d would leave a
from-scratch backbone unnormalized: box AP stays 0.0).
"""
import argparse
import datetime
import os
import time

import utils  # first: it puts an in-place build of the repository on the path

import core  # noqa: I100
import vision
from vision.datasets import Shapes
from core.utils.data import DataLoader, DistributedSampler, RandomSampler, SequentialSampler
from core.utils.data.sampler import BatchSampler

import presets
from coco_eval import PYCOCOTOOLS_MISSING, have_pycocotools
from coco_utils import get_coco
from engine import evaluate, train_one_epoch
from group_by_aspect_ratio import GroupedBatchSampler, create_aspect_ratio_groups


def get_dataset(args, image_set, transform):
    """(dataset, number of classes including the background)."""
    if args.dataset == "coco":
        return get_coco(args.data_path, image_set=image_set, transforms=transform), 91
    if args.dataset == "shapes":
        return utils.shapes_dataset(args, image_set, "detection", transforms=transform), len(Shapes.classes) + 1
    raise RuntimeError(f"Invalid dataset {args.dataset!r}: coco or shapes")


def build_model(args, num_classes):
    builders = vision.models.detection.__dict__
    if args.model not in builders or not callable(builders[args.model]):
        raise RuntimeError(f"Invalid model {args.model!r}: vision.models.detection has no such builder")
    kwargs = {"trainable_backbone_layers": args.trainable_backbone_layers}
    if "rcnn" in args.model and args.rpn_score_thresh is not None:
        kwargs["rpn_score_thresh"] = args.rpn_score_thresh
    if args.dataset == "shapes":  # offline: no ImageNet backbone; the generated images keep their size
        kwargs.update(pretrained_backbone=False, min_size=args.shapes_image_size, max_size=args.shapes_image_size)
        if "mobilenet" in args.model:  # from scratch: trainable BatchNorm2d, as torchvision >= 0.13 without weights
            kwargs["norm_layer"] = core.nn.BatchNorm2d
    print("Creating model")
    return builders[args.model](num_classes=num_classes, pretrained=args.pretrained, **kwargs)


def main(args):
    utils.start_run(args)
    can_evaluate = have_pycocotools()
    if not can_evaluate:
        if args.test_only:
            raise ImportError(PYCOCOTOOLS_MISSING)
        print(f"{PYCOCOTOOLS_MISSING}. Training without evaluation.")

    print("Loading data")
    dataset, num_classes = get_dataset(args, "train", presets.DetectionPresetTrain())
    dataset_test, _ = get_dataset(args, "val", presets.DetectionPresetEval())
    print("Creating data loaders")
    if args.distributed:
        train_sampler = DistributedSampler(dataset)
        test_sampler = DistributedSampler(dataset_test, shuffle=False)
    else:
        train_sampler, test_sampler = RandomSampler(dataset), SequentialSampler(dataset_test)
    if args.aspect_ratio_group_factor >= 0:
        group_ids = create_aspect_ratio_groups(dataset, k=args.aspect_ratio_group_factor)
        train_batch_sampler = GroupedBatchSampler(train_sampler, group_ids, args.batch_size)
    else:
        train_batch_sampler = BatchSampler(train_sampler, args.batch_size, drop_last=True)
    data_loader = DataLoader(dataset, batch_sampler=train_batch_sampler, num_workers=args.workers,
                             collate_fn=utils.collate_fn)
    data_loader_test = DataLoader(dataset_test, batch_size=1, sampler=test_sampler, num_workers=args.workers,
                                  collate_fn=utils.collate_fn)

    model = build_model(args, num_classes)
    model_without_ddp = model
    if args.distributed:
        model = core.nn.parallel.DistributedDataParallel(model)
        model_without_ddp = model.module
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = core.optim.SGD(params, lr=args.lr, momentum=args.momentum, weight_decay=args.weight_decay)
    lr_scheduler = core.optim.lr_scheduler.MultiStepLR(optimizer, milestones=args.lr_steps, gamma=args.lr_gamma)

    if args.resume:
        checkpoint = core.load(args.resume, map_location="cpu")
        model_without_ddp.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        lr_scheduler.load_state_dict(checkpoint["lr_scheduler"])
        args.start_epoch = checkpoint["epoch"] + 1

    if args.test_only:
        return _box_metrics(evaluate(model, data_loader_test, args.print_freq))

    log = utils.EpochLog(args.output_dir, args.start_epoch, tensorboard=not args.no_tensorboard)
    print("Start training")
    start_time = time.time()
    metrics = {}
    for epoch in range(args.start_epoch, args.epochs):
        if args.distributed:
            train_sampler.set_epoch(epoch)
        lr = optimizer.param_groups[0]["lr"]
        train_logger = train_one_epoch(model, optimizer, data_loader, epoch, args.print_freq)
        lr_scheduler.step()
        if args.output_dir:
            checkpoint = {"model": model_without_ddp.state_dict(), "optimizer": optimizer.state_dict(),
                          "lr_scheduler": lr_scheduler.state_dict(), "args": vars(args), "epoch": epoch}
            utils.save_on_master(checkpoint, os.path.join(args.output_dir, f"model_{epoch}.pth"))
            utils.save_on_master(checkpoint, os.path.join(args.output_dir, "checkpoint.pth"))
        if can_evaluate:
            metrics = _box_metrics(evaluate(model, data_loader_test, args.print_freq))
        log.log_epoch(epoch, lr=lr, **{f"train_{k}": m.global_avg for k, m in train_logger.meters.items()
                                       if k != "lr"}, **metrics)
    log.close()
    print(f"Training time {datetime.timedelta(seconds=int(time.time() - start_time))}")
    return metrics


def _box_metrics(coco_evaluator):
    stats = coco_evaluator.coco_eval["bbox"].stats
    return {"bbox_mAP": float(stats[0]), "bbox_mAP_50": float(stats[1]), "bbox_mAP_75": float(stats[2])}


def get_args_parser(add_help=True):
    parser = argparse.ArgumentParser(description="tensorzoo Detection Training", add_help=add_help)
    parser.add_argument("--data-path", default="/datasets01/COCO/022719/", help="dataset")
    parser.add_argument("--dataset", default="coco", choices=["coco", "shapes"], help="coco or shapes (offline)")
    utils.add_shapes_arguments(parser, train_size=1000, val_size=200, image_size=128)
    parser.add_argument("--model", default="maskrcnn_resnet50_fpn", help="model")
    parser.add_argument("--device", default="cpu", help="device (only cpu)")
    parser.add_argument("-b", "--batch-size", default=2, type=int, help="images per rank")
    parser.add_argument("--epochs", default=26, type=int, metavar="N", help="number of total epochs to run")
    parser.add_argument("-j", "--workers", default=4, type=int, metavar="N", help="data loading workers (default: 4)")
    parser.add_argument("--lr", default=0.02, type=float,
                        help="initial learning rate, 0.02 is the default value for training on 8 gpus and 2 "
                             "images_per_gpu")
    parser.add_argument("--momentum", default=0.9, type=float, metavar="M", help="momentum")
    parser.add_argument("--wd", "--weight-decay", default=1e-4, type=float, metavar="W", dest="weight_decay",
                        help="weight decay (default: 1e-4)")
    parser.add_argument("--lr-step-size", default=8, type=int, help="decrease lr every step-size epochs (unused)")
    parser.add_argument("--lr-steps", default=[16, 22], nargs="+", type=int, help="decrease lr at these epochs")
    parser.add_argument("--lr-gamma", default=0.1, type=float, help="decrease lr by a factor of lr-gamma")
    parser.add_argument("--start_epoch", default=0, type=int, help="start epoch")
    parser.add_argument("--aspect-ratio-group-factor", default=3, type=int)
    parser.add_argument("--rpn-score-thresh", default=None, type=float, help="rpn score threshold for faster-rcnn")
    parser.add_argument("--trainable-backbone-layers", default=None, type=int,
                        help="number of trainable layers of backbone")
    parser.add_argument("--pretrained", dest="pretrained", help="Use pre-trained models from the modelzoo",
                        action="store_true")
    utils.add_run_arguments(parser, print_freq=20)
    return parser


if __name__ == "__main__":
    main(get_args_parser().parse_args())
