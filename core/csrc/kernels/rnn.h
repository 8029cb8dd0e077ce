// The pointwise part of the recurrent cells (RNN tanh/relu, LSTM, GRU) over the rows of one time
// step, forward and backward: what ops/rnn.cpp runs between its per-step GEMMs.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

// The cell kinds, numbered as core.nn.modules.rnn passes them.
enum class RnnMode : int64_t { Tanh = 0, Relu = 1, Lstm = 2, Gru = 3 };

// Sizes of a layer and where each step's saved values sit in a workspace row (offsets in
// elements):
//   LSTM: activated gates i f g o (4H) | c_prev (H) | tanh(c) (H) | h_prev (P) | [h before projection (H)]
//   GRU:  r z n (3H) | the hidden part of n's pre-activation, W_hn h + b_hn (H) | h_prev (P)
//   RNN:  h_prev (P)
struct RnnLayout {
  RnnMode mode = RnnMode::Tanh;
  int64_t hidden = 0, state = 0, gates = 0;  // H, P (the output size: H, or the projection's), G
  int64_t width = 0, c_prev = 0, tanh_c = 0, h_prev = 0, unprojected = 0, gh_n = 0;
  bool projected = false;
};

// One step's row-major buffers, each at the step's first row; all of the layer's dtype.
struct RnnStepForward {
  const void* pre;  // (rows, G): gate pre-activations (GRU: the input part only)
  const void* gh;   // GRU: (rows, G) the hidden part W_h h + b_h
  void* out;        // (rows, P) h (LSTM with projection: written to the workspace instead)
  void* c;          // LSTM: (rows, H) the cell state, updated in place
  void* ws;         // (rows, W) workspace; h_prev already filled in
};

struct RnnStepBackward {
  const void* dh;    // (rows, dh_rs) the gradient at the cell's h output
  int64_t dh_rs;
  const void* out;   // (rows, P) the step's h (RNN)
  const void* ws;    // (rows, W)
  void* d_pre;       // (rows, G) gradient of the pre-activations
  void* d_pre_h;     // GRU: (rows, G) gradient of the hidden part
  void* dh_prev;     // GRU: (rows, P) receives z * dh (the GEMM adds the gates' part)
  void* dc;          // LSTM: (rows, H) dc of the step's output on entry, of its input on return
};

using RnnCellForwardFn = void (*)(DType dtype, const RnnLayout& l, const RnnStepForward& s, int64_t begin,
                                  int64_t end);
using RnnCellBackwardFn = void (*)(DType dtype, const RnnLayout& l, const RnnStepBackward& s, int64_t begin,
                                   int64_t end);
extern DispatchStub<RnnCellForwardFn> rnn_cell_forward_stub;
extern DispatchStub<RnnCellBackwardFn> rnn_cell_backward_stub;

}  // namespace tz
