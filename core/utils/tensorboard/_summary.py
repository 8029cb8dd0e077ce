"""Summary protos, one builder per kind of value SummaryWriter logs."""
import numpy as np

from core.utils.tensorboard._image import encode_png, to_hwc, to_uint8
from core.utils.tensorboard._proto import proto


def make_summary(tag, **fields):
    summary = proto("summary")
    return summary.Summary(value=[summary.Summary.Value(tag=tag, **fields)])


def plugin_metadata(plugin_name, content):
    summary = proto("summary")
    return summary.SummaryMetadata(plugin_data=summary.SummaryMetadata.PluginData(
        plugin_name=plugin_name, content=content.SerializeToString()))


def _tensor_proto(dtype, values, shape):
    shape_pb = proto("tensor_shape").TensorShapeProto
    dims = [shape_pb.Dim(size=s) for s in shape]
    field = {"DT_FLOAT": "float_val", "DT_DOUBLE": "double_val", "DT_STRING": "string_val"}[dtype]
    return proto("tensor").TensorProto(dtype=dtype, tensor_shape=shape_pb(dim=dims), **{field: values})


def scalar(tag, value, new_style=False, double_precision=False):
    if not new_style:
        return make_summary(tag, simple_value=value)
    # The scalars plugin's tensor form: a 0-d float (or double) tensor.
    tensor = _tensor_proto("DT_DOUBLE" if double_precision else "DT_FLOAT", [value], [])
    metadata = plugin_metadata("scalars", proto("scalar_data").ScalarPluginData(version=0))
    return make_summary(tag, tensor=tensor, metadata=metadata)


def tensorflow_bins():
    """TensorFlow's default histogram edges: +-1e-12 growing by 10% up to 1e20, and 0."""
    positive = []
    edge = 1e-12
    while edge < 1e20:
        positive.append(edge)
        edge *= 1.1
    return [-e for e in reversed(positive)] + [0.0] + positive


def histogram_proto(values, bins, max_bins=None):
    """A HistogramProto of `values` (array) over `bins` (edges, a count or a numpy method name).

    TensorBoard stores right edges only: buckets outside the data's support are dropped, but one
    empty bucket is kept before it so that its left edge is known."""
    values = values.reshape(-1).astype(np.float64)
    if values.size == 0:
        raise ValueError("add_histogram: the values are empty")
    if not np.isfinite(values).all():
        raise ValueError("add_histogram: the values contain NaN or infinity")
    counts, edges = np.histogram(values, bins=bins)
    if max_bins is not None and len(counts) > max_bins:
        group = -(-len(counts) // max_bins)
        padded = np.pad(counts, (0, -len(counts) % group))
        counts = padded.reshape(-1, group).sum(axis=1)
        edges = np.append(edges[:-1:group], edges[-1])
    occupied = np.flatnonzero(counts)
    first, last = occupied[0], occupied[-1]
    counts = np.concatenate([[0], counts[first:last + 1]])
    edges = edges[first:last + 2]
    return proto("summary").HistogramProto(
        min=values.min(), max=values.max(), num=values.size, sum=values.sum(),
        sum_squares=values.dot(values), bucket_limit=edges.tolist(), bucket=counts.tolist())


def histogram(tag, values, bins, max_bins=None):
    return make_summary(tag, histo=histogram_proto(values, bins, max_bins))


def image(tag, array, dataformats):
    hwc = to_uint8(to_hwc(array, dataformats))
    height, width, channels = hwc.shape
    encoded = proto("summary").Summary.Image(height=height, width=width, colorspace=channels,
                                             encoded_image_string=encode_png(hwc))
    return make_summary(tag, image=encoded)


def text(tag, string):
    metadata = plugin_metadata("text", proto("text_data").TextPluginData(version=0))
    tensor = _tensor_proto("DT_STRING", [string.encode("utf-8")], [1])
    return make_summary(tag + "/text_summary", tensor=tensor, metadata=metadata)


def pr_curve_data(labels, predictions, num_thresholds, weights=None):
    """Rows TP, FP, TN, FN, precision, recall at thresholds i / (num_thresholds - 1): the
    pr_curves plugin's layout. Predictions in [0, 1]; labels true/false (or 1/0)."""
    labels = labels.reshape(-1).astype(np.float64)
    predictions = predictions.reshape(-1).astype(np.float64)
    if labels.shape != predictions.shape:
        raise ValueError(f"add_pr_curve: labels ({labels.size}) and predictions ({predictions.size}) "
                         "differ in size")
    if predictions.size and (predictions.min() < 0 or predictions.max() > 1):
        raise ValueError("add_pr_curve: predictions must lie in [0, 1]")
    weights = np.ones_like(labels) if weights is None else np.broadcast_to(weights, labels.shape)
    bucket = np.floor(predictions * (num_thresholds - 1)).astype(np.int64)
    tp_per_bucket = np.bincount(bucket, weights=labels * weights, minlength=num_thresholds)
    fp_per_bucket = np.bincount(bucket, weights=(1 - labels) * weights, minlength=num_thresholds)
    # A prediction counts as positive at every threshold up to its bucket.
    tp = np.cumsum(tp_per_bucket[::-1])[::-1]
    fp = np.cumsum(fp_per_bucket[::-1])[::-1]
    tn = fp[0] - fp
    fn = tp[0] - tp
    tiny = 1e-7  # keeps 0/0 at 0
    precision = tp / np.maximum(tiny, tp + fp)
    recall = tp / np.maximum(tiny, tp + fn)
    return np.stack([tp, fp, tn, fn, precision, recall])


def pr_curve(tag, labels, predictions, num_thresholds=127, weights=None):
    num_thresholds = min(int(num_thresholds), 127)  # the plugin's limit
    if num_thresholds < 2:
        raise ValueError("add_pr_curve: num_thresholds must be at least 2")
    data = pr_curve_data(labels, predictions, num_thresholds, weights)
    content = proto("pr_curve_data").PrCurvePluginData(version=0, num_thresholds=num_thresholds)
    tensor = _tensor_proto("DT_FLOAT", data.reshape(-1).tolist(), data.shape)
    return make_summary(tag, tensor=tensor, metadata=plugin_metadata("pr_curves", content))
