"""SummaryWriter: logs scalars, histograms, images, text, graphs, hyperparameters and PR
curves to TensorBoard event files (the API of torch.utils.tensorboard.SummaryWriter)."""
import os
import socket
import time
from datetime import datetime

import numpy as np

from core.utils.tensorboard import _graph, _hparams, _summary
from core.utils.tensorboard._convert import to_float, to_numpy
from core.utils.tensorboard._event_file import EventFileWriter
from core.utils.tensorboard._proto import proto


def default_log_dir(comment=""):
    """runs/<MonDD_HH-MM-SS>_<hostname><comment>, as PyTorch names runs."""
    stamp = datetime.now().strftime("%b%d_%H-%M-%S")
    return os.path.join("runs", f"{stamp}_{socket.gethostname()}{comment}")


class SummaryWriter:
    """Writes events for TensorBoard under `log_dir` (default runs/<time>_<host><comment>).

    `purge_step`: a run restarted from a checkpoint at that step makes TensorBoard discard the
    events of the earlier run at or after it. Events wait in memory until `max_queue` are
    pending or `flush_secs` pass."""

    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10, flush_secs=120,
                 filename_suffix=""):
        proto("event")  # fail now, with the install hint, when tensorboard is missing
        self.log_dir = str(log_dir) if log_dir is not None else default_log_dir(comment)
        self.purge_step = purge_step
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self.file_writer = None
        self.all_writers = {}  # log dir -> EventFileWriter (add_scalars writes one per series)
        self._get_file_writer()

    # ---- files
    def _open(self, log_dir):
        writer = EventFileWriter(log_dir, self.max_queue, self.flush_secs, self.filename_suffix)
        self._write(writer, step=0, file_version="brain.Event:2")
        writer.flush()  # the version record alone already makes a readable file
        return writer

    def _get_file_writer(self):
        if self.file_writer is None:
            self.file_writer = self._open(self.log_dir)
            self.all_writers = {self.log_dir: self.file_writer}
            if self.purge_step is not None:
                # A session START at purge_step: readers drop earlier events from that step on.
                event = proto("event")
                self._write(self.file_writer, step=self.purge_step,
                            session_log=event.SessionLog(status=event.SessionLog.START))
                self.purge_step = None
        return self.file_writer

    def get_logdir(self):
        return self.log_dir

    @staticmethod
    def _write(file_writer, walltime=None, **fields):
        event = proto("event").Event(wall_time=time.time() if walltime is None else walltime, **fields)
        file_writer.add_event(event.SerializeToString())

    def _add_summary(self, summary, global_step, walltime, file_writer=None):
        step = 0 if global_step is None else int(to_float(global_step, "global_step"))
        self._write(file_writer or self._get_file_writer(), walltime, step=step, summary=summary)

    # ---- values
    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False):
        value = to_float(scalar_value, f"add_scalar({tag!r})")
        self._add_summary(_summary.scalar(tag, value, new_style, double_precision), global_step, walltime)

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None):
        """Several series in one chart: each goes to its own run, <log_dir>/<main_tag>_<tag>."""
        walltime = time.time() if walltime is None else walltime
        self._get_file_writer()  # reopens after close(), as the other add_* do
        for tag, value in tag_scalar_dict.items():
            run_dir = os.path.join(self.log_dir, f"{main_tag.replace('/', '_')}_{tag}")
            if run_dir not in self.all_writers:
                self.all_writers[run_dir] = self._open(run_dir)
            summary = _summary.scalar(main_tag, to_float(value, f"add_scalars({main_tag!r}, {tag!r})"))
            self._add_summary(summary, global_step, walltime, self.all_writers[run_dir])

    def add_histogram(self, tag, values, global_step=None, bins="tensorflow", walltime=None, max_bins=None):
        if isinstance(bins, str) and bins == "tensorflow":
            bins = _summary.tensorflow_bins()
        summary = _summary.histogram(tag, to_numpy(values), bins, max_bins)
        self._add_summary(summary, global_step, walltime)

    def add_image(self, tag, img_tensor, global_step=None, walltime=None, dataformats="CHW"):
        """One image: floats in [0, 1] or uint8 in [0, 255]; layout 'CHW', 'HWC' or 'HW'."""
        self._add_summary(_summary.image(tag, to_numpy(img_tensor), dataformats), global_step, walltime)

    def add_images(self, tag, img_tensor, global_step=None, walltime=None, dataformats="NCHW"):
        """A batch of images, shown as one grid 8 wide."""
        if "N" not in dataformats.upper():
            raise ValueError(f"add_images: dataformats {dataformats!r} has no batch dim N")
        self._add_summary(_summary.image(tag, to_numpy(img_tensor), dataformats), global_step, walltime)

    def add_figure(self, tag, figure, global_step=None, close=True, walltime=None):
        """A matplotlib figure (or a list of them, shown as a grid), rendered to an image."""
        figures = figure if isinstance(figure, (list, tuple)) else [figure]
        images = [_render_figure(f, close) for f in figures]
        if isinstance(figure, (list, tuple)):
            self.add_images(tag, np.stack(images), global_step, walltime, dataformats="NHWC")
        else:
            self.add_image(tag, images[0], global_step, walltime, dataformats="HWC")

    def add_text(self, tag, text_string, global_step=None, walltime=None):
        self._add_summary(_summary.text(tag, str(text_string)), global_step, walltime)

    def add_pr_curve(self, tag, labels, predictions, global_step=None, num_thresholds=127, weights=None,
                     walltime=None):
        weights = None if weights is None else to_numpy(weights)
        summary = _summary.pr_curve(tag, to_numpy(labels), to_numpy(predictions), num_thresholds, weights)
        self._add_summary(summary, global_step, walltime)

    def add_graph(self, model, input_to_model=None, verbose=False, use_strict_trace=True):
        """The model's graph: its ops scoped by module when `input_to_model` is given (one
        forward runs), else its module tree."""
        graph = (_graph.structure_graph(model) if input_to_model is None
                 else _graph.traced_graph(model, input_to_model))
        if verbose:
            print(graph)
        self._write(self._get_file_writer(), step=0, graph_def=graph.SerializeToString())

    def add_hparams(self, hparam_dict, metric_dict, hparam_domain_discrete=None, run_name=None,
                    global_step=None):
        """Hyperparameters and their final metrics, as one session of the hparams plugin in
        the sub-run `run_name` (default: the current time)."""
        summaries = _hparams.hparams(hparam_dict, metric_dict, hparam_domain_discrete)
        run_dir = os.path.join(self.log_dir, run_name or str(time.time()))
        with SummaryWriter(run_dir, max_queue=self.max_queue, flush_secs=self.flush_secs) as run:
            for summary in summaries:
                run._add_summary(summary, global_step, None)
            for tag, value in metric_dict.items():
                run.add_scalar(tag, value, global_step)

    # ---- lifetime
    def flush(self):
        for writer in self.all_writers.values():
            writer.flush()

    def close(self):
        for writer in self.all_writers.values():
            writer.close()
        self.file_writer = None
        self.all_writers = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _render_figure(figure, close):
    """An HWC uint8 RGBA array of a matplotlib figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    image = np.asarray(canvas.buffer_rgba()).copy()
    if close:
        import matplotlib.pyplot as plt
        plt.close(figure)
    return image
