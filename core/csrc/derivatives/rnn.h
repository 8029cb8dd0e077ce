// The fused recurrent layer's gradient as a differentiable function (for create_graph=True).
#pragma once
#include "autograd/op_node.h"

namespace tz::grad {

// The gradients of _rnn_layer's gates_in, hx, cx, w_hh, b_hh and w_hr, recorded so that they can
// be differentiated again: the layer is replayed step by step with table ops from the saved inputs
// and differentiated by a nested backward with create_graph. Slower than _rnn_layer_backward's
// single reverse loop, so it is taken only when the backward records a graph; double backward
// then works as it does through PyTorch's CPU cells.
TensorList rnn_layer_recorded(BackwardContext& c);

}  // namespace tz::grad
