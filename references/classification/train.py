"""Image classification training: torchvision 0.9's references/classification/train.py on tensorzoo,
with its CLI and defaults plus the later reference options (label smoothing, mixup/cutmix, lr
warm-up, EMA) and, offline, the built-in Shapes dataset.

    # the MobileNetV3 recipe (ImageNet, 8 ranks of 128 images: a global batch of 1024)
    mpiexec -n 8 python references/classification/train.py --data-path /data/imagenet \\
        --model mobilenet_v3_large --epochs 600 --opt rmsprop --batch-size 128 --lr 0.064 --wd 0.00001 \\
        --lr-step-size 2 --lr-gamma 0.973 --auto-augment imagenet --random-erase 0.2 --average-checkpoints 3
    # anywhere, without data: MobileNetV3-Small on Shapes (circle / square / triangle), Acc@1 98 %
    python references/classification/train.py --dataset shapes --model mobilenet_v3_small \\
        --shapes-image-size 32 --shapes-radius 0.2 0.4 --shapes-no-rotation --shapes-train-size 8000 \\
        --epochs 6 --opt adamw --lr 0.001 --wd 0 --crop-scale 1 1 --lr-scheduler cosineannealinglr \\
        -b 32 -j 1 --seed 0 --output-dir runs/shapes
    # evaluation of the official weights
    python references/classification/train.py --data-path /data/imagenet --model mobilenet_v3_large \\
        --test-only --pretrained

Each epoch writes model_<epoch>.pth and checkpoint.pth ({model, optimizer, lr_scheduler, epoch,
args, ...}) and a row of log.csv (and TensorBoard scalars) to --output-dir; --resume continues
bit for bit (the generator states of every rank are in the checkpoint). Data parallel under any
MPI launcher (mpiexec, srun, torchrun's variables): one DistributedSampler shard per rank, DDP,
--sync-bn for SyncBatchNorm, logs and checkpoints from rank 0; the lr is not scaled with the ranks.
"""
import argparse
import datetime
import hashlib
import os
import time

import utils  # first: it puts an in-place build of the repository on the path

import presets  # noqa: I100
import transforms
import core
import core.nn as nn
import core.distributed as dist
from core.optim.swa_utils import AveragedModel, get_ema_avg_fn
from core.utils.data import DataLoader, DistributedSampler, RandomSampler, SequentialSampler
from core.utils.data.dataloader import default_collate
import vision
from vision.transforms.functional import InterpolationMode


# ---------------------------------------------------------------- data

class CachedImageFolder(vision.datasets.ImageFolder):
    """ImageFolder whose file list is kept in a cache file (--cache-dataset), so a large tree is
    walked once; the cache is used only while the class folders are the same."""

    def __init__(self, root, cache_path, **kwargs):
        self.cache_path = cache_path
        super().__init__(root, **kwargs)

    def make_dataset(self, directory, class_to_idx, extensions=None, is_valid_file=None):
        if os.path.exists(self.cache_path):
            cached = core.load(self.cache_path)
            if cached["class_to_idx"] == class_to_idx:
                print(f"Loading the file list of {directory} from {self.cache_path}")
                return [(path, int(target)) for path, target in cached["samples"]]
        samples = super().make_dataset(directory, class_to_idx, extensions, is_valid_file)
        utils.mkdir(os.path.dirname(self.cache_path))
        utils.save_on_master({"class_to_idx": class_to_idx, "samples": [list(s) for s in samples]}, self.cache_path)
        return samples


def _cache_path(directory):
    home = os.environ.get("TENSORZOO_HOME", os.path.join(os.path.expanduser("~"), ".cache", "tensorzoo"))
    digest = hashlib.sha1(os.path.abspath(directory).encode()).hexdigest()[:10]
    return os.path.join(home, "references", "imagefolder", digest + ".pth")


def _image_sizes(args):
    """(train crop, eval resize, eval crop): torchvision's 224 / 256 / 224 (299 / 342 / 299 for
    inception_v3), the generated size for Shapes; any of them set on the command line wins."""
    if args.dataset == "shapes":
        defaults = (args.shapes_image_size,) * 3
    elif args.model == "inception_v3":
        defaults = (299, 342, 299)
    else:
        defaults = (224, 256, 224)
    given = (args.train_crop_size, args.val_resize_size, args.val_crop_size)
    return tuple(g if g is not None else d for g, d in zip(given, defaults))


def load_data(args):
    """(train dataset, test dataset, train sampler, test sampler, number of classes)."""
    train_crop, val_resize, val_crop = _image_sizes(args)
    interpolation = InterpolationMode(args.interpolation)
    train_transform = presets.ClassificationPresetTrain(
        train_crop, auto_augment_policy=getattr(args, "auto_augment", None),
        random_erase_prob=getattr(args, "random_erase", 0.0),
        interpolation=interpolation, crop_scale=tuple(args.crop_scale))
    test_transform = presets.ClassificationPresetEval(val_crop, resize_size=val_resize, interpolation=interpolation)
    print("Loading data")
    start = time.time()
    if args.dataset == "shapes":
        dataset = utils.shapes_dataset(args, "train", "classification", transform=train_transform)
        dataset_test = utils.shapes_dataset(args, "val", "classification", transform=test_transform)
    else:
        traindir, valdir = os.path.join(args.data_path, "train"), os.path.join(args.data_path, "val")
        if args.cache_dataset:
            dataset = CachedImageFolder(traindir, _cache_path(traindir), transform=train_transform)
            dataset_test = CachedImageFolder(valdir, _cache_path(valdir), transform=test_transform)
        else:
            dataset = vision.datasets.ImageFolder(traindir, transform=train_transform)
            dataset_test = vision.datasets.ImageFolder(valdir, transform=test_transform)
    print(f"Took {time.time() - start:.2f} s: {len(dataset)} training and {len(dataset_test)} test images")
    if args.distributed:
        train_sampler = DistributedSampler(dataset)
        test_sampler = DistributedSampler(dataset_test, shuffle=False)
    else:
        train_sampler, test_sampler = RandomSampler(dataset), SequentialSampler(dataset_test)
    return dataset, dataset_test, train_sampler, test_sampler, len(dataset.classes)


def make_collate_fn(args, num_classes):
    """default_collate, followed by a random choice of mixup / cutmix when asked for."""
    mixes = []
    if args.mixup_alpha > 0.0:
        mixes.append(transforms.RandomMixup(num_classes, p=1.0, alpha=args.mixup_alpha))
    if args.cutmix_alpha > 0.0:
        mixes.append(transforms.RandomCutmix(num_classes, p=1.0, alpha=args.cutmix_alpha))
    if not mixes:
        return default_collate

    def collate_fn(batch):
        images, targets = default_collate(batch)
        mix = mixes[int(core.randint(len(mixes), (1,)).item())]
        return mix(images, targets)
    return collate_fn


# ---------------------------------------------------------------- model, optimizer, schedule

class ExponentialMovingAverage(AveragedModel):
    """An EMA of the parameters and buffers: decay * averaged + (1 - decay) * current."""

    def __init__(self, model, decay, device="cpu"):
        super().__init__(model, device, get_ema_avg_fn(decay), use_buffers=True)


def build_model(args, num_classes):
    if args.model not in vision.models.__dict__ or not callable(vision.models.__dict__[args.model]):
        raise RuntimeError(f"Invalid model {args.model!r}: vision.models has no such builder")
    print("Creating model")
    # the official weights keep their 1000 ImageNet classes (torchvision 0.9 always does)
    kwargs = {} if args.pretrained else {"num_classes": num_classes}
    return vision.models.__dict__[args.model](pretrained=args.pretrained, **kwargs)


def build_optimizer(args, parameters):
    """0.9's SGD and RMSprop (TF-like eps and alpha), and the later references' sgd_nesterov and AdamW."""
    opt_name = args.opt.lower()
    if opt_name in ("sgd", "sgd_nesterov"):
        return core.optim.SGD(parameters, lr=args.lr, momentum=args.momentum, weight_decay=args.weight_decay,
                              nesterov=opt_name == "sgd_nesterov")
    if opt_name == "rmsprop":
        return core.optim.RMSprop(parameters, lr=args.lr, momentum=args.momentum, weight_decay=args.weight_decay,
                                  eps=0.0316, alpha=0.9)
    if opt_name == "adamw":
        return core.optim.AdamW(parameters, lr=args.lr, weight_decay=args.weight_decay)
    raise RuntimeError(f"Invalid optimizer {args.opt}. Only SGD, RMSprop and AdamW are supported.")


def build_lr_scheduler(args, optimizer):
    """StepLR (the 0.9 schedule) or the later cosine / exponential ones, after an optional
    warm-up of --lr-warmup-epochs (linear or constant factor from --lr-warmup-decay); per epoch."""
    name = args.lr_scheduler.lower()
    schedulers = core.optim.lr_scheduler
    main_epochs = args.epochs - args.lr_warmup_epochs
    if name == "steplr":
        main = schedulers.StepLR(optimizer, step_size=args.lr_step_size, gamma=args.lr_gamma)
    elif name == "cosineannealinglr":
        main = schedulers.CosineAnnealingLR(optimizer, T_max=max(main_epochs, 1))
    elif name == "exponentiallr":
        main = schedulers.ExponentialLR(optimizer, gamma=args.lr_gamma)
    else:
        raise RuntimeError(f"Invalid lr scheduler {args.lr_scheduler!r}. Only StepLR, CosineAnnealingLR and "
                           f"ExponentialLR are supported.")
    if args.lr_warmup_epochs <= 0:
        return main
    method = args.lr_warmup_method.lower()
    if method == "linear":
        warmup = schedulers.LinearLR(optimizer, start_factor=args.lr_warmup_decay, total_iters=args.lr_warmup_epochs)
    elif method == "constant":
        warmup = schedulers.ConstantLR(optimizer, factor=args.lr_warmup_decay, total_iters=args.lr_warmup_epochs)
    else:
        raise RuntimeError(f"Invalid warmup lr method {args.lr_warmup_method!r}. Only linear and constant are "
                           f"supported.")
    return schedulers.SequentialLR(optimizer, schedulers=[warmup, main], milestones=[args.lr_warmup_epochs])


# ---------------------------------------------------------------- one epoch

def train_one_epoch(model, criterion, optimizer, data_loader, epoch, args, model_ema=None):
    model.train()
    metric_logger = utils.MetricLogger(delimiter="  ")
    metric_logger.add_meter("lr", utils.SmoothedValue(window_size=1, fmt="{value}"))
    metric_logger.add_meter("img/s", utils.SmoothedValue(window_size=10, fmt="{value:.1f}"))
    header = f"Epoch: [{epoch}]"
    for i, (image, target) in enumerate(metric_logger.log_every(data_loader, args.print_freq, header)):
        start_time = time.time()
        output = model(image)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        if getattr(args, "clip_grad_norm", None) is not None:
            nn.utils.clip_grad_norm_(model.parameters(), args.clip_grad_norm)
        optimizer.step()
        if model_ema is not None and i % args.model_ema_steps == 0:
            model_ema.update_parameters(model)
            if epoch < args.lr_warmup_epochs:
                model_ema.n_averaged.fill_(0)  # the EMA starts over after the warm-up (it copies the model)
        labels = target.argmax(1) if target.dim() == 2 else target  # mixed one-hot targets: the main class
        acc1, acc5 = utils.accuracy(output, labels, topk=(1, 5))
        batch_size = image.shape[0]
        metric_logger.update(loss=loss.item(), lr=optimizer.param_groups[0]["lr"])
        metric_logger.meters["acc1"].update(acc1.item(), n=batch_size)
        metric_logger.meters["acc5"].update(acc5.item(), n=batch_size)
        metric_logger.meters["img/s"].update(batch_size / max(time.time() - start_time, 1e-9))
    metric_logger.synchronize_between_processes()
    return {"loss": metric_logger.loss.global_avg, "acc1": metric_logger.acc1.global_avg,
            "acc5": metric_logger.acc5.global_avg}


def evaluate(model, criterion, data_loader, print_freq=100, log_suffix=""):
    """Loss, Acc@1 and Acc@5 over the loader (summed over the ranks)."""
    model.eval()
    metric_logger = utils.MetricLogger(delimiter="  ")
    header = f"Test: {log_suffix}".rstrip()
    with core.no_grad():
        for image, target in metric_logger.log_every(data_loader, print_freq, header):
            output = model(image)
            loss = criterion(output, target)
            acc1, acc5 = utils.accuracy(output, target, topk=(1, 5))
            batch_size = image.shape[0]
            metric_logger.meters["loss"].update(loss.item(), n=batch_size)
            metric_logger.meters["acc1"].update(acc1.item(), n=batch_size)
            metric_logger.meters["acc5"].update(acc5.item(), n=batch_size)
    metric_logger.synchronize_between_processes()
    acc1, acc5 = metric_logger.acc1.global_avg, metric_logger.acc5.global_avg
    print(f"{header} Acc@1 {acc1:.3f} Acc@5 {acc5:.3f}")
    return {"loss": metric_logger.loss.global_avg, "acc1": acc1, "acc5": acc5}


# ---------------------------------------------------------------- checkpoints

def _gather_rng_states(args):
    """Every rank's generator state (rank order), so a resumed run draws what the full run drew."""
    state = core.get_rng_state()
    if not args.distributed:
        return [state]
    states = [None] * args.world_size
    dist.all_gather_object(states, state)
    return states


def _restore_rng_state(args, checkpoint):
    states = checkpoint.get("rng_state")
    if states and len(states) == args.world_size:
        core.set_rng_state(states[args.rank])
    else:
        print("The checkpoint's generator states are not this run's ranks': the random draws start afresh")


def average_improved_checkpoints(args, model, criterion, data_loader_test, improved_epochs):
    """The recipe's last step: the mean of the last --average-checkpoints checkpoints that improved
    Acc@1, evaluated, saved as model_averaged.pth and as weights-<sha256 prefix>.pth."""
    epochs = improved_epochs[-args.average_checkpoints:]
    print(f"Averaging the checkpoints of epochs {epochs}")
    averaged = utils.average_checkpoints([os.path.join(args.output_dir, f"model_{e}.pth") for e in epochs])
    model.load_state_dict(averaged["model"])
    metrics = evaluate(model, criterion, data_loader_test, args.print_freq, log_suffix="Averaged")
    path = os.path.join(args.output_dir, "model_averaged.pth")
    utils.save_on_master({"model": averaged["model"], "epochs": epochs, "args": vars(args)}, path)
    if utils.is_main_process():
        print(f"Averaged weights: {utils.store_model_weights(model, path)}")
    return metrics


# ---------------------------------------------------------------- main

def main(args):
    if args.apex:
        raise RuntimeError("--apex: NVIDIA apex mixed precision needs CUDA; tensorzoo runs on the CPU")
    utils.start_run(args)

    dataset, dataset_test, train_sampler, test_sampler, num_classes = load_data(args)
    data_loader = DataLoader(dataset, batch_size=args.batch_size, sampler=train_sampler, num_workers=args.workers,
                             collate_fn=make_collate_fn(args, num_classes))
    data_loader_test = DataLoader(dataset_test, batch_size=args.batch_size, sampler=test_sampler,
                                  num_workers=args.workers)

    model = build_model(args, num_classes)
    if args.distributed and args.sync_bn:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model_without_ddp = model
    if args.distributed:
        model = nn.parallel.DistributedDataParallel(model)
        model_without_ddp = model.module

    criterion = nn.CrossEntropyLoss(label_smoothing=args.label_smoothing)
    optimizer = build_optimizer(args, [p for p in model.parameters() if p.requires_grad])
    lr_scheduler = build_lr_scheduler(args, optimizer)

    model_ema = None
    if args.model_ema:
        # the decay is given per image of a 1024-image global batch at 600 epochs; scale it to
        # this run's global batch, update interval and epochs (as torchvision's recipe does)
        adjust = args.world_size * args.batch_size * args.model_ema_steps / args.epochs
        alpha = min(1.0, (1.0 - args.model_ema_decay) * adjust)
        model_ema = ExponentialMovingAverage(model_without_ddp, decay=1.0 - alpha)

    best = {"acc1": -1.0, "improved_epochs": []}
    if args.resume:
        checkpoint = core.load(args.resume, map_location="cpu")
        model_without_ddp.load_state_dict(checkpoint["model"])
        if not args.test_only:
            optimizer.load_state_dict(checkpoint["optimizer"])
            lr_scheduler.load_state_dict(checkpoint["lr_scheduler"])
            _restore_rng_state(args, checkpoint)
        args.start_epoch = checkpoint["epoch"] + 1
        if model_ema is not None:
            model_ema.load_state_dict(checkpoint["model_ema"])
        best = checkpoint.get("best", best)

    if args.test_only:
        metrics = evaluate(model, criterion, data_loader_test, args.print_freq)
        if model_ema is not None:
            metrics["ema"] = evaluate(model_ema, criterion, data_loader_test, args.print_freq, log_suffix="EMA")
        return metrics

    log = utils.EpochLog(args.output_dir, args.start_epoch, tensorboard=not args.no_tensorboard)
    print("Start training")
    start_time = time.time()
    metrics = {}
    for epoch in range(args.start_epoch, args.epochs):
        if args.distributed:
            train_sampler.set_epoch(epoch)
        lr = optimizer.param_groups[0]["lr"]
        train_metrics = train_one_epoch(model, criterion, optimizer, data_loader, epoch, args, model_ema)
        metrics = evaluate(model, criterion, data_loader_test, args.print_freq)
        row = {"lr": lr, **{f"train_{k}": v for k, v in train_metrics.items()},
               **{f"test_{k}": v for k, v in metrics.items()}}
        if model_ema is not None:
            metrics["ema"] = evaluate(model_ema, criterion, data_loader_test, args.print_freq, log_suffix="EMA")
            row.update({f"ema_{k}": v for k, v in metrics["ema"].items()})
        lr_scheduler.step()
        if metrics["acc1"] > best["acc1"]:
            best = {"acc1": metrics["acc1"], "improved_epochs": best["improved_epochs"] + [epoch]}
        log.log_epoch(epoch, **row)
        checkpoint = {"model": model_without_ddp.state_dict(), "optimizer": optimizer.state_dict(),
                      "lr_scheduler": lr_scheduler.state_dict(), "epoch": epoch, "args": vars(args), "best": best,
                      "rng_state": _gather_rng_states(args)}
        if model_ema is not None:
            checkpoint["model_ema"] = model_ema.state_dict()
        if args.output_dir:
            utils.save_on_master(checkpoint, os.path.join(args.output_dir, f"model_{epoch}.pth"))
            utils.save_on_master(checkpoint, os.path.join(args.output_dir, "checkpoint.pth"))
    log.close()
    print(f"Training time {datetime.timedelta(seconds=int(time.time() - start_time))}")
    if args.average_checkpoints and args.output_dir and best["improved_epochs"]:
        if args.distributed:
            dist.barrier()  # rank 0's checkpoints are on disk
        metrics["averaged"] = average_improved_checkpoints(args, model_without_ddp, criterion, data_loader_test,
                                                           best["improved_epochs"])
    return metrics


def add_data_arguments(parser):
    """The dataset and image-size options (train_quantization.py has them too)."""
    parser.add_argument("--data-path", default="/datasets01/imagenet_full_size/061417/",
                        help="dataset root holding train/ and val/ (ImageFolder)")
    parser.add_argument("--dataset", default="imagefolder", choices=["imagefolder", "shapes"],
                        help="imagefolder (--data-path) or the generated Shapes (offline)")
    utils.add_shapes_arguments(parser, train_size=4000, val_size=1000, image_size=64, max_shapes=False)
    parser.add_argument("--cache-dataset", dest="cache_dataset", action="store_true",
                        help="cache the ImageFolder file lists (under $TENSORZOO_HOME/references)")
    parser.add_argument("--crop-scale", default=(0.08, 1.0), type=float, nargs=2, metavar=("MIN", "MAX"),
                        help="RandomResizedCrop's range of areas (default: 0.08 1.0)")
    parser.add_argument("--interpolation", default="bilinear", help="resize interpolation (default: bilinear)")
    parser.add_argument("--train-crop-size", default=None, type=int, help="training crop (default: 224)")
    parser.add_argument("--val-resize-size", default=None, type=int, help="evaluation resize (default: 256)")
    parser.add_argument("--val-crop-size", default=None, type=int, help="evaluation crop (default: 224)")


def get_args_parser(add_help=True):
    parser = argparse.ArgumentParser(description="tensorzoo Classification Training", add_help=add_help)
    add_data_arguments(parser)
    parser.add_argument("--model", default="resnet18", help="model")
    parser.add_argument("--device", default="cpu", help="device (only cpu)")
    # batching and schedule
    parser.add_argument("-b", "--batch-size", default=32, type=int, help="images per rank")
    parser.add_argument("--epochs", default=90, type=int, metavar="N", help="number of total epochs to run")
    parser.add_argument("-j", "--workers", default=min(16, os.cpu_count() or 1), type=int, metavar="N",
                        help="data loading workers (default: 16, at most the number of CPUs)")
    parser.add_argument("--opt", default="sgd", type=str, help="optimizer: sgd, sgd_nesterov, rmsprop or adamw")
    parser.add_argument("--lr", default=0.1, type=float, help="initial learning rate")
    parser.add_argument("--momentum", default=0.9, type=float, metavar="M", help="momentum")
    parser.add_argument("--wd", "--weight-decay", default=1e-4, type=float, metavar="W", dest="weight_decay",
                        help="weight decay (default: 1e-4)")
    parser.add_argument("--label-smoothing", default=0.0, type=float, help="label smoothing (default: 0.0)")
    parser.add_argument("--mixup-alpha", default=0.0, type=float, help="mixup alpha (default: 0.0, off)")
    parser.add_argument("--cutmix-alpha", default=0.0, type=float, help="cutmix alpha (default: 0.0, off)")
    parser.add_argument("--lr-scheduler", default="steplr", help="steplr, cosineannealinglr or exponentiallr")
    parser.add_argument("--lr-warmup-epochs", default=0, type=int, help="epochs of lr warm-up (default: 0)")
    parser.add_argument("--lr-warmup-method", default="constant", type=str, help="warm-up: linear or constant")
    parser.add_argument("--lr-warmup-decay", default=0.01, type=float, help="lr factor at the warm-up's start")
    parser.add_argument("--lr-step-size", default=30, type=int, help="decrease lr every step-size epochs")
    parser.add_argument("--lr-gamma", default=0.1, type=float, help="decrease lr by a factor of lr-gamma")
    parser.add_argument("--clip-grad-norm", default=None, type=float, help="max gradient norm (default: off)")
    # housekeeping
    parser.add_argument("--start-epoch", default=0, type=int, metavar="N", help="start epoch")
    parser.add_argument("--sync-bn", dest="sync_bn", action="store_true", help="use SyncBatchNorm")
    parser.add_argument("--pretrained", dest="pretrained", action="store_true",
                        help="use the official pretrained weights (through the hub)")
    parser.add_argument("--auto-augment", default=None, help="auto augment policy (default: None)")
    parser.add_argument("--random-erase", default=0.0, type=float, help="random erasing probability (default: 0.0)")
    # averaging
    parser.add_argument("--model-ema", action="store_true", help="keep an EMA of the model's parameters")
    parser.add_argument("--model-ema-steps", default=32, type=int, help="iterations between EMA updates")
    parser.add_argument("--model-ema-decay", default=0.99998, type=float, help="EMA decay per update")
    parser.add_argument("--average-checkpoints", default=0, type=int, metavar="K",
                        help="after training, average the last K checkpoints that improved Acc@1 (the "
                             "MobileNetV3 recipe: 3)")
    # mixed precision and distributed
    parser.add_argument("--apex", action="store_true", help="NVIDIA apex (not available: CPU only)")
    parser.add_argument("--apex-opt-level", default="O1", type=str, help="apex opt level (unused)")
    utils.add_run_arguments(parser)
    return parser


if __name__ == "__main__":
    main(get_args_parser().parse_args())
