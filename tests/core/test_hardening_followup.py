"""Issue 27, second part: reductions that do not walk stride-0 dims, inference tensors refused
by autograd's saved variables, and a DataLoader batch that pickle cannot carry."""
import pytest

import core
from core.utils.data import DataLoader


def test_a_batch_that_cannot_be_pickled_raises_a_clear_error():
    loader = DataLoader(list(range(4)), num_workers=1, collate_fn=lambda batch: (lambda: batch))
    with pytest.raises(RuntimeError, match="cannot be sent to the main process.*must be picklable"):
        list(loader)
