"""numpy references of the loss family's op-table entries."""
import numpy as np

from .registry import reference


@reference("_nll_loss_forward", atol=1e-5, rtol=1e-5)
def nll_loss_forward(x, target, weight=None, reduction=1, ignore_index=-100):
    c = x.shape[0] if x.ndim == 1 else x.shape[1]
    xs = np.moveaxis(x, 0 if x.ndim == 1 else 1, -1).reshape(-1, c).astype(np.float64)
    t = target.reshape(-1)
    keep = t != ignore_index
    safe = np.where(keep, t, 0)
    w = np.ones(c) if weight is None else weight.astype(np.float64)
    wt = np.where(keep, w[safe], 0.0)
    per = -wt * xs[np.arange(len(t)), safe] if len(t) else np.zeros(0)
    total = wt.sum()
    if reduction == 0:
        out = per.reshape(target.shape)
    elif reduction == 1:
        out = np.float64(per.sum() / total) if total else np.float64(np.nan)
    else:
        out = np.float64(per.sum())
    return np.asarray(out, dtype=x.dtype), np.asarray(total, dtype=x.dtype)
