"""What every reference script shares (torchvision's references/*/utils.py keep a copy each; here
there is one): the metric logger with its tqdm bar, data-parallel set-up under any launcher,
saving on rank 0, and the CSV / TensorBoard epoch logs.

Importing it also makes an in-place build of the repository (tools/dev_build.sh) win over an
installed tensorzoo, so `python references/<task>/train.py` runs from a checkout."""
import csv
import datetime
import glob
import io
import os
import sys
import time
from collections import defaultdict, deque

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if glob.glob(os.path.join(_ROOT, "core", "_C*.so")) and _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import core  # noqa: E402
import core.distributed as dist  # noqa: E402
from tqdm import tqdm  # noqa: E402

__all__ = ["SmoothedValue", "MetricLogger", "is_dist_avail_and_initialized", "get_world_size", "get_rank",
           "is_main_process", "save_on_master", "setup_for_distributed", "init_distributed_mode",
           "reduce_across_processes", "mkdir", "EpochLog", "start_run", "add_run_arguments", "add_shapes_arguments",
           "shapes_dataset"]


# ---------------------------------------------------------------- metrics

class SmoothedValue:
    """A series of values: the median / average of a recent window and the global average."""

    def __init__(self, window_size=20, fmt=None):
        self.deque = deque(maxlen=window_size)
        self.total = 0.0
        self.count = 0
        self.fmt = fmt or "{median:.4f} ({global_avg:.4f})"

    def update(self, value, n=1):
        self.deque.append(value)
        self.count += n
        self.total += value * n

    def synchronize_between_processes(self):
        """Sums count and total over the ranks (the window stays local)."""
        if not is_dist_avail_and_initialized():
            return
        totals = core.tensor([self.count, self.total], dtype=core.float64)
        dist.barrier()
        dist.all_reduce(totals)
        self.count, self.total = int(totals[0].item()), totals[1].item()

    @property
    def median(self):
        values = sorted(self.deque)
        return values[(len(values) - 1) // 2] if values else 0.0

    @property
    def avg(self):
        return sum(self.deque) / len(self.deque) if self.deque else 0.0

    @property
    def global_avg(self):
        return self.total / self.count if self.count else 0.0

    @property
    def max(self):
        return max(self.deque) if self.deque else 0.0

    @property
    def value(self):
        return self.deque[-1] if self.deque else 0.0

    def __str__(self):
        return self.fmt.format(median=self.median, avg=self.avg, global_avg=self.global_avg, max=self.max,
                               value=self.value)


class MetricLogger:
    """Named SmoothedValues, printed every `print_freq` iterations of log_every (torchvision's
    line format) under a tqdm bar on rank 0 when stderr is a terminal."""

    def __init__(self, delimiter="  "):
        self.meters = defaultdict(SmoothedValue)
        self.delimiter = delimiter

    def update(self, **kwargs):
        for name, value in kwargs.items():
            if isinstance(value, core.Tensor):
                value = value.item()
            if not isinstance(value, (float, int)):
                raise TypeError(f"MetricLogger.update: {name} must be a number or a one-element tensor, "
                                f"got {type(value).__name__}")
            self.meters[name].update(value)

    def __getattr__(self, name):
        meters = self.__dict__.get("meters", {})
        if name in meters:
            return meters[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __str__(self):
        return self.delimiter.join(f"{name}: {meter}" for name, meter in self.meters.items())

    def synchronize_between_processes(self):
        for meter in self.meters.values():
            meter.synchronize_between_processes()

    def add_meter(self, name, meter):
        self.meters[name] = meter

    def log_every(self, iterable, print_freq, header=""):
        total = len(iterable)
        width = len(str(total))
        iter_time, data_time = SmoothedValue(fmt="{avg:.4f}"), SmoothedValue(fmt="{avg:.4f}")
        bar = tqdm(total=total, desc=header.strip(), leave=False, dynamic_ncols=True,
                   disable=None if is_main_process() else True)
        start = end = time.time()
        try:
            for i, item in enumerate(iterable):
                data_time.update(time.time() - end)
                yield item
                iter_time.update(time.time() - end)
                bar.update(1)
                if i % print_freq == 0 or i == total - 1:
                    eta = datetime.timedelta(seconds=int(iter_time.global_avg * (total - i - 1)))
                    bar.set_postfix_str(str(self), refresh=False)
                    _print(f"{header} [{i:{width}d}/{total}]  eta: {eta}  {self}  time: {iter_time}  "
                           f"data: {data_time}", bar)
                end = time.time()
        finally:
            bar.close()
        total_time = datetime.timedelta(seconds=int(time.time() - start))
        print(f"{header} Total time: {total_time} ({(time.time() - start) / max(total, 1):.4f} s / it)")


def _print(line, bar):
    """A line above the tqdm bar (or a plain print where no bar is shown)."""
    if bar.disable:
        print(line, flush=True)
    else:
        bar.write(line)


# ---------------------------------------------------------------- data parallel

def is_dist_avail_and_initialized():
    return dist.is_available() and dist.is_initialized()


def get_world_size():
    return dist.get_world_size() if is_dist_avail_and_initialized() else 1


def get_rank():
    return dist.get_rank() if is_dist_avail_and_initialized() else 0


def is_main_process():
    return get_rank() == 0


def save_on_master(obj, path):
    """core.save (atomic: a temp file renamed into place) on rank 0 only."""
    if is_main_process():
        core.save(obj, path)


def setup_for_distributed(is_master):
    """Silences print() on every rank but the first (print(..., force=True) still prints)."""
    import builtins
    builtin_print = getattr(builtins.print, "_builtin_print", builtins.print)

    def ranked_print(*args, force=False, **kwargs):
        if is_master or force:
            builtin_print(*args, **kwargs)
    ranked_print._builtin_print = builtin_print
    builtins.print = ranked_print


def init_distributed_mode(args):
    """Sets args.distributed, args.rank, args.world_size and args.gpu from whichever launcher
    started the process (mpiexec, srun, torchrun): data parallel over MPI when it is more than one."""
    launch = dist.launcher_info()
    if launch is None or launch.world_size < 2:
        print("Not using distributed mode")
        args.distributed, args.rank, args.world_size, args.gpu = False, 0, 1, None
        return
    args.distributed, args.rank, args.world_size, args.gpu = True, launch.rank, launch.world_size, launch.local_rank
    args.dist_backend = "mpi"
    print(f"| distributed init (rank {args.rank} of {args.world_size}, {launch.launcher}): {args.dist_url}", flush=True)
    dist.init_process_group(backend=args.dist_backend, init_method=args.dist_url, world_size=args.world_size,
                            rank=args.rank)
    dist.barrier()
    setup_for_distributed(args.rank == 0)


def reduce_across_processes(value):
    """The sum over the ranks of a number (the number itself without data parallelism)."""
    if not is_dist_avail_and_initialized():
        return core.tensor(value, dtype=core.float64)
    t = core.tensor(value, dtype=core.float64)
    dist.barrier()
    dist.all_reduce(t)
    return t


def mkdir(path):
    os.makedirs(path, exist_ok=True)


def start_run(args):
    """Every script's prologue: the device check, the output directory, data parallelism when a
    launcher started several ranks, the arguments printed, and --seed (core's and Python's
    generators, offset by the rank so the ranks draw different augmentations)."""
    if args.device != "cpu":
        raise RuntimeError(f"--device {args.device}: tensorzoo runs on the CPU only (use --device cpu)")
    if args.output_dir:
        mkdir(args.output_dir)
    init_distributed_mode(args)
    print(args)
    if args.seed is not None:
        import random
        core.manual_seed(args.seed + args.rank)
        random.seed(args.seed + args.rank)  # the segmentation transforms draw from Python's generator


def add_run_arguments(parser, print_freq=10):
    """The options every script shares: logging, output, resuming, seeding, evaluation only, and
    the launcher's distributed set-up (what start_run and EpochLog read)."""
    parser.add_argument("--print-freq", default=print_freq, type=int, help="print frequency")
    parser.add_argument("--output-dir", default=".", help="path where to save")
    parser.add_argument("--resume", default="", help="resume from checkpoint")
    parser.add_argument("--seed", default=None, type=int,
                        help="seed of core's and Python's generators (default: unseeded)")
    parser.add_argument("--no-tensorboard", action="store_true", help="no TensorBoard event files")
    parser.add_argument("--test-only", dest="test_only", action="store_true", help="only test the model")
    parser.add_argument("--world-size", default=1, type=int, help="number of processes (set by the launcher)")
    parser.add_argument("--dist-url", default="env://", help="url used to set up distributed training")


# ---------------------------------------------------------------- the built-in Shapes dataset

def add_shapes_arguments(parser, train_size, val_size, image_size, max_shapes=True):
    parser.add_argument("--shapes-train-size", default=train_size, type=int, help="Shapes: training images")
    parser.add_argument("--shapes-val-size", default=val_size, type=int, help="Shapes: validation images")
    parser.add_argument("--shapes-image-size", default=image_size, type=int, help="Shapes: image side in pixels")
    if max_shapes:
        parser.add_argument("--shapes-max-shapes", default=3, type=int, help="Shapes: at most this many per image")
    parser.add_argument("--shapes-seed", default=0, type=int, help="Shapes: which dataset")
    parser.add_argument("--shapes-radius", default=None, type=float, nargs=2, metavar=("MIN", "MAX"),
                        help="Shapes: circumradius range as fractions of the image side (default: 0.08 0.35 for "
                             "one shape, 0.08 0.22 for several)")
    parser.add_argument("--shapes-no-rotation", action="store_true",
                        help="Shapes: squares axis-aligned and triangles upright")


def shapes_dataset(args, image_set, task, **transforms):
    """The Shapes split of --shapes-* for image_set "train" or "val"."""
    from vision.datasets import Shapes
    split, size = ("train", args.shapes_train_size) if image_set == "train" else ("val", args.shapes_val_size)
    kwargs = {} if task == "classification" else {"max_shapes": args.shapes_max_shapes}
    return Shapes(split, size=size, image_size=args.shapes_image_size, task=task, seed=args.shapes_seed,
                  radius=args.shapes_radius, rotate=not args.shapes_no_rotation, **kwargs, **transforms)


# ---------------------------------------------------------------- epoch logs

class EpochLog:
    """One row per epoch in <output_dir>/log.csv (rewritten atomically; on resume the rows of
    later epochs are dropped) and, when core.utils.tensorboard is there, scalars in TensorBoard
    event files under <output_dir>/tensorboard. Rank 0 only."""

    def __init__(self, output_dir, start_epoch=0, tensorboard=True):
        self.enabled = bool(output_dir) and is_main_process()
        self.path = os.path.join(output_dir, "log.csv") if output_dir else None
        self.rows = []
        self.writer = None
        if not self.enabled:
            return
        if os.path.exists(self.path):
            with open(self.path, newline="") as f:
                self.rows = [row for row in csv.DictReader(f) if int(row["epoch"]) < start_epoch]
        if tensorboard:
            self.writer = _summary_writer(os.path.join(output_dir, "tensorboard"), purge_step=start_epoch)

    def log_epoch(self, epoch, **metrics):
        if not self.enabled:
            return
        self.rows.append({"epoch": epoch, **metrics})
        columns = list(dict.fromkeys(key for row in self.rows for key in row))
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        temp = f"{self.path}.tmp{os.getpid()}"
        with open(temp, "w", newline="") as f:
            f.write(text.getvalue())
        os.replace(temp, self.path)
        if self.writer is not None:
            for name, value in metrics.items():
                if isinstance(value, (int, float)):
                    self.writer.add_scalar(f"epoch/{name}", value, epoch)
            self.writer.flush()

    def close(self):
        if self.writer is not None:
            self.writer.close()


def _summary_writer(log_dir, purge_step):
    """core.utils.tensorboard's SummaryWriter, or None (with a message) where it or the tensorboard
    package it writes its protobufs with is missing."""
    try:
        from core.utils.tensorboard import SummaryWriter
        return SummaryWriter(log_dir=log_dir, purge_step=purge_step or None)
    except ImportError as e:
        print(f"TensorBoard log skipped ({e}); pip install tensorboard for event files", flush=True)
        return None
