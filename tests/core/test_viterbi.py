"""core._viterbi_quadratic (the pitch tracker's search) against the O(states^2) search in numpy."""
import numpy as np
import pytest

import core


def _reference(local, initial, transition):
    cost, backs = initial.copy(), []
    states = np.arange(local.shape[1])
    for row in local:
        candidates = cost[None, :] + transition * (states[:, None] - states[None, :]) ** 2
        back = candidates.argmin(1)
        cost = candidates[states, back] + row
        cost -= cost.min()
        backs.append(back)
    return np.array(backs, dtype=np.int64).reshape(len(local), local.shape[1]), cost


@pytest.mark.parametrize("frames,states,transition", [(40, 50, 0.02), (30, 417, 2.5e-6), (5, 1, 0.3), (20, 9, 0.0),
                                                      (0, 6, 1.0), (25, 64, 50.0)])
def test_against_exhaustive_search(frames, states, transition, rng):
    local = rng.random((frames, states)) * 2
    initial = rng.random(states) * 0.5
    back, final = core._viterbi_quadratic(core.tensor(local), core.tensor(initial), transition)
    expected_back, expected_final = _reference(local, initial, transition)
    assert back.dtype == core.int64 and back.shape == (frames, states)
    np.testing.assert_array_equal(back.numpy(), expected_back)
    np.testing.assert_allclose(final.numpy(), expected_final, atol=1e-12)


def test_bad_input():
    ok = core.zeros(3, dtype=core.float64)
    with pytest.raises(RuntimeError, match="local_cost"):
        core._viterbi_quadratic(ok, ok, 1.0)
    with pytest.raises(RuntimeError, match="initial_cost"):
        core._viterbi_quadratic(core.zeros(2, 3, dtype=core.float64), core.zeros(4, dtype=core.float64), 1.0)
    with pytest.raises(RuntimeError, match="float64"):
        core._viterbi_quadratic(core.zeros(2, 3), ok, 1.0)
    with pytest.raises(RuntimeError, match="transition_cost"):
        core._viterbi_quadratic(core.zeros(2, 3, dtype=core.float64), ok, -1.0)
