"""Sample kinds of the loss family's op-table entries."""
import numpy as np

from .registry import Case, sample
from .samples import random_array


@sample("nll_loss")
def nll_loss(rng):
    # The first three cases (the ones gradchecked) carry no weight: like PyTorch, nll_loss has
    # no derivative for its class weights.
    cases = []
    for shape, reduction, ignore in [((4, 5), 1, -100), ((2, 3, 4), 0, 1), ((3, 4, 2, 2), 2, 2), ((5,), 1, -100),
                                     ((0, 3), 1, -100), ((0, 3), 0, -100), ((3, 4), 1, 0), ((4, 3), 2, -100)]:
        for dtype in ("float32", "float64"):
            x = random_array(rng, shape, dtype)
            c = shape[0] if len(shape) == 1 else shape[1]
            tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
            t = np.asarray(rng.integers(0, c, tshape), dtype=np.int64)
            cases.append(Case((x, t, None, reduction, ignore), label=f"{dtype}{shape} r={reduction} ig={ignore}"))
    for reduction in (0, 1, 2):
        w = rng.uniform(0.5, 2, 5).astype(np.float32)
        x = random_array(rng, (4, 5), "float32")
        t = np.array([0, 4, 2, 4], dtype=np.int64)
        cases.append(Case((x, t, w, reduction, 2), label=f"weight r={reduction}"))
    return cases
