"""Quantized classification: torchvision 0.9's references/classification/train_quantization.py on
tensorzoo. Post-training quantization (--post-training-quantize: fuse, observe a few calibration
batches, convert to int8, evaluate) or quantization-aware training (fuse, prepare_qat, train with
fake quantization, observers frozen after --num-observer-update-epochs and BatchNorm statistics
after --num-batch-norm-update-epochs, an int8 copy converted and evaluated every epoch).

    # the QAT MobileNetV3-Large recipe (from the float ImageNet weights)
    mpiexec -n 8 python references/classification/train_quantization.py --data-path /data/imagenet \\
        --model mobilenet_v3_large --wd 0.00001 --lr 0.001
    # offline: a float MobileNetV3-Large trained on Shapes by train.py (Acc@1 99.7 at 32 px, about 4 min),
    # then PTQ of it (int8 Acc@1 99.8, seconds) or 2 epochs of QAT (int8 Acc@1 99.7, under a minute)
    python references/classification/train.py --dataset shapes --model mobilenet_v3_large \\
        --shapes-image-size 32 --shapes-radius 0.2 0.4 --shapes-no-rotation --shapes-train-size 8000 \\
        --epochs 6 --opt adamw --lr 0.001 --wd 0 --crop-scale 1 1 --lr-scheduler cosineannealinglr \\
        -b 32 -j 1 --seed 0 --output-dir runs/shapes-large
    python references/classification/train_quantization.py --dataset shapes --model mobilenet_v3_large \\
        --shapes-image-size 32 --shapes-radius 0.2 0.4 --shapes-no-rotation --shapes-train-size 8000 \\
        --crop-scale 1 1 -b 32 -j 1 --seed 0 --float-checkpoint runs/shapes-large/checkpoint.pth \\
        --post-training-quantize --output-dir runs/ptq

The model starts from the official float weights (torchvision does so always), or from
--float-checkpoint (a train.py checkpoint), or from scratch on Shapes. --test-only evaluates the
int8 model of the official QAT weights, or of a QAT checkpoint given with --resume.
"""
import argparse
import copy
import datetime
import os
import time

import utils  # first: it puts an in-place build of the repository on the path

import train as float_train  # noqa: I100 - the float script's data, epoch and evaluation
import core
import core.nn as nn
import core.quantization as quantization
from core.nn.intrinsic import qat as intrinsic_qat
from core.utils.data import DataLoader, Subset
import vision
import vision.models.quantization  # noqa: F401 - not imported by vision.models


def build_model(args, num_classes):
    """The quantizable float model, from the official weights, a train.py checkpoint or scratch."""
    builders = vision.models.quantization.__dict__
    if args.model not in builders or not callable(builders[args.model]) or args.model.startswith("quantized_"):
        raise RuntimeError(f"Invalid model {args.model!r}: vision.models.quantization has no such quantizable model")
    official = args.dataset == "imagefolder" and not args.float_checkpoint
    model = builders[args.model](pretrained=official, quantize=False,
                                 **({} if official else {"num_classes": num_classes}))
    if args.float_checkpoint:
        model.load_state_dict(core.load(args.float_checkpoint, map_location="cpu")["model"])
    elif not official:
        print("No --float-checkpoint: quantizing a model trained from scratch")
    return model


def prepare_for_qat(model, backend):
    model.fuse_model()
    model.qconfig = quantization.get_default_qat_qconfig(backend)
    quantization.prepare_qat(model, inplace=True)
    return model


def int8_copy(model):
    """An int8 model converted from a copy of the QAT model (which keeps training)."""
    quantized = copy.deepcopy(model)
    quantized.eval()
    quantization.convert(quantized, inplace=True)
    return quantized


def post_training_quantize(args, model, dataset, criterion, data_loader_test):
    calibration = Subset(dataset, indices=list(range(min(len(dataset), args.batch_size * args.num_calibration_batches))))
    data_loader_calibration = DataLoader(calibration, batch_size=args.batch_size, shuffle=False,
                                         num_workers=args.workers)
    model.eval()
    model.fuse_model()
    model.qconfig = quantization.get_default_qconfig(args.backend)
    quantization.prepare(model, inplace=True)
    print("Calibrating")
    float_train.evaluate(model, criterion, data_loader_calibration, print_freq=1)
    quantization.convert(model, inplace=True)
    if args.output_dir:
        print("Saving quantized model")
        utils.save_on_master(model.state_dict(), os.path.join(args.output_dir, "quantized_post_train_model.pth"))
    print("Evaluating post-training quantized model")
    return float_train.evaluate(model, criterion, data_loader_test, args.print_freq, log_suffix="int8")


def main(args):
    utils.start_run(args)
    if args.post_training_quantize and args.distributed:
        raise RuntimeError("Post training quantization example should not be performed on distributed mode")
    if args.backend not in core.backends.quantized.supported_engines:
        raise RuntimeError(f"Quantized backend not supported: {args.backend}")
    core.backends.quantized.engine = args.backend

    dataset, dataset_test, train_sampler, test_sampler, num_classes = float_train.load_data(args)
    data_loader = DataLoader(dataset, batch_size=args.batch_size, sampler=train_sampler, num_workers=args.workers)
    data_loader_test = DataLoader(dataset_test, batch_size=args.eval_batch_size, sampler=test_sampler,
                                  num_workers=args.workers)
    criterion = nn.CrossEntropyLoss()

    if args.test_only and not args.resume and args.dataset == "imagefolder":
        # the official int8 model: the published QAT state dict, converted at load time
        model = vision.models.quantization.__dict__[args.model](pretrained=True, quantize=True)
        return float_train.evaluate(model, criterion, data_loader_test, args.print_freq, log_suffix="int8")

    model = build_model(args, num_classes)
    if args.post_training_quantize:
        return post_training_quantize(args, model, dataset, criterion, data_loader_test)

    prepare_for_qat(model, args.backend)
    if args.distributed and args.sync_bn:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model_without_ddp = model
    if args.distributed:
        model = nn.parallel.DistributedDataParallel(model)
        model_without_ddp = model.module
    optimizer = core.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum, weight_decay=args.weight_decay)
    lr_scheduler = core.optim.lr_scheduler.StepLR(optimizer, step_size=args.lr_step_size, gamma=args.lr_gamma)

    if args.resume:
        checkpoint = core.load(args.resume, map_location="cpu")
        model_without_ddp.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        lr_scheduler.load_state_dict(checkpoint["lr_scheduler"])
        args.start_epoch = checkpoint["epoch"] + 1
    if args.test_only:
        return float_train.evaluate(int8_copy(model_without_ddp), criterion, data_loader_test, args.print_freq,
                                    log_suffix="int8")

    model.apply(quantization.enable_observer)
    model.apply(quantization.enable_fake_quant)
    log = utils.EpochLog(args.output_dir, args.start_epoch, tensorboard=not args.no_tensorboard)
    start_time = time.time()
    metrics = {}
    for epoch in range(args.start_epoch, args.epochs):
        if args.distributed:
            train_sampler.set_epoch(epoch)
        print("Starting training for epoch", epoch)
        lr = optimizer.param_groups[0]["lr"]
        train_metrics = float_train.train_one_epoch(model, criterion, optimizer, data_loader, epoch, args)
        lr_scheduler.step()
        with core.no_grad():
            if epoch >= args.num_observer_update_epochs:
                print("Disabling observer for subseq epochs, epoch = ", epoch)
                model.apply(quantization.disable_observer)
            if epoch >= args.num_batch_norm_update_epochs:
                print("Freezing BN for subseq epochs, epoch = ", epoch)
                model.apply(intrinsic_qat.freeze_bn_stats)
            print("Evaluate QAT model")
            metrics = {"qat": float_train.evaluate(model, criterion, data_loader_test, args.print_freq, "QAT")}
            quantized_eval_model = int8_copy(model_without_ddp)
            print("Evaluate Quantized model")
            metrics["int8"] = float_train.evaluate(quantized_eval_model, criterion, data_loader_test, args.print_freq,
                                                   "int8")
        model.train()
        log.log_epoch(epoch, lr=lr, **{f"train_{k}": v for k, v in train_metrics.items()},
                      **{f"{kind}_{k}": v for kind, values in metrics.items() for k, v in values.items()})
        if args.output_dir:
            checkpoint = {"model": model_without_ddp.state_dict(), "eval_model": quantized_eval_model.state_dict(),
                          "optimizer": optimizer.state_dict(), "lr_scheduler": lr_scheduler.state_dict(),
                          "epoch": epoch, "args": vars(args)}
            utils.save_on_master(checkpoint, os.path.join(args.output_dir, f"model_{epoch}.pth"))
            utils.save_on_master(checkpoint, os.path.join(args.output_dir, "checkpoint.pth"))
        print("Saving models after epoch ", epoch)
    log.close()
    print(f"Training time {datetime.timedelta(seconds=int(time.time() - start_time))}")
    return metrics


def get_args_parser(add_help=True):
    parser = argparse.ArgumentParser(description="tensorzoo Quantized Classification Training",
                                     add_help=add_help)
    float_train.add_data_arguments(parser)
    parser.add_argument("--model", default="mobilenet_v3_large", help="model (the quantizable MobileNetV3-Large)")
    parser.add_argument("--backend", default="qnnpack", help="fbgemm or qnnpack")
    parser.add_argument("--device", default="cpu", help="device (only cpu)")
    parser.add_argument("-b", "--batch-size", default=32, type=int, help="images per rank")
    parser.add_argument("--eval-batch-size", default=128, type=int, help="evaluation images per rank")
    parser.add_argument("--epochs", default=90, type=int, metavar="N", help="number of total epochs to run")
    parser.add_argument("--num-observer-update-epochs", default=4, type=int, metavar="N",
                        help="number of total epochs to update observers")
    parser.add_argument("--num-batch-norm-update-epochs", default=3, type=int, metavar="N",
                        help="number of total epochs to update batch norm stats")
    parser.add_argument("--num-calibration-batches", default=32, type=int, metavar="N",
                        help="number of batches of training set for observer calibration")
    parser.add_argument("-j", "--workers", default=min(16, os.cpu_count() or 1), type=int, metavar="N",
                        help="data loading workers (default: 16, at most the number of CPUs)")
    parser.add_argument("--lr", default=0.0001, type=float, help="initial learning rate")
    parser.add_argument("--momentum", default=0.9, type=float, metavar="M", help="momentum")
    parser.add_argument("--wd", "--weight-decay", default=1e-4, type=float, metavar="W", dest="weight_decay",
                        help="weight decay (default: 1e-4)")
    parser.add_argument("--lr-step-size", default=30, type=int, help="decrease lr every step-size epochs")
    parser.add_argument("--lr-gamma", default=0.1, type=float, help="decrease lr by a factor of lr-gamma")
    parser.add_argument("--start-epoch", default=0, type=int, metavar="N", help="start epoch")
    parser.add_argument("--float-checkpoint", default="", help="a train.py checkpoint to start from")
    parser.add_argument("--sync-bn", dest="sync_bn", action="store_true", help="use SyncBatchNorm")
    parser.add_argument("--post-training-quantize", dest="post_training_quantize", action="store_true",
                        help="post training quantize the model")
    utils.add_run_arguments(parser)
    return parser


if __name__ == "__main__":
    main(get_args_parser().parse_args())
