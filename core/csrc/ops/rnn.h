// One recurrent layer in one direction with its whole time loop in C++ (RNN tanh/relu, LSTM with
// an optional projection, GRU), forward and backward, for padded or packed sequences. The input
// projections of all steps come precomputed (one GEMM outside); each step runs one GEMM of the
// state with the recurrent weight into all gates, then the cell's fused pointwise part.
#pragma once
#include <optional>
#include <tuple>

#include "kernels/rnn.h"  // RnnMode
#include "ops/value.h"
#include "tensor/tensor.h"

namespace tz {

// gates_in: (N, G) input projections of every step's rows, steps one after another (N = the sum
// of batch_sizes; padded input: T steps of B rows), with b_ih (and, for a whole sequence, b_hh)
// folded in. b_hh, when given, is added to each step's recurrent part: GRU needs that (its reset
// gate multiplies it), a cell's single step saves the add. hx (B, P); cx (B, H) for LSTM. Returns the output
// sequence (N, P), the final states hy (B, P) and cy (B, H; empty unless LSTM), and the
// workspace the backward reads (N, W).
std::tuple<Tensor, Tensor, Tensor, Tensor> rnn_layer(const Tensor& gates_in, const Tensor& hx,
                                                     const std::optional<Tensor>& cx, const Tensor& w_hh,
                                                     const std::optional<Tensor>& b_hh,
                                                     const std::optional<Tensor>& w_hr, const IntList& batch_sizes,
                                                     int64_t mode, bool reverse);

// Gradients of gates_in, hx, cx, w_hh, b_hh and w_hr (empty where the mode has no such input).
// dW_hh is one GEMM over all steps after the reverse loop.
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor, Tensor> rnn_layer_backward(
    const Tensor& grad_output, const Tensor& grad_hy, const Tensor& grad_cy, const Tensor& hx,
    const std::optional<Tensor>& cx, const Tensor& w_hh, const std::optional<Tensor>& b_hh,
    const std::optional<Tensor>& w_hr, const Tensor& output, const Tensor& workspace, const IntList& batch_sizes,
    int64_t mode, bool reverse);

}  // namespace tz
