// Viterbi forward pass over a chain of states with quadratic transition costs (the pitch
// tracker of audio.functional.compute_kaldi_pitch): see viterbi.cpp.
#pragma once
#include <utility>

#include "tensor/tensor.h"

namespace tz {

// local_cost (frames, states) and initial_cost (states), float64; transition_cost >= 0.
// For each frame t: cost_t[i] = min_j (cost_{t-1}[j] + transition_cost * (i - j)^2) +
// local_cost[t][i], then shifted so its minimum is 0. Returns the arg-min j of every frame and
// state (int64, frames x states) and the last frame's cost (initial_cost with no frames).
std::pair<Tensor, Tensor> viterbi_quadratic(const Tensor& local_cost, const Tensor& initial_cost,
                                            double transition_cost);

}  // namespace tz
