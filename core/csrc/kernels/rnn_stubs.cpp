// The recurrent cells' dispatch stubs; kernels/isa/rnn_kernels.cpp fills them in.
#include "kernels/rnn.h"

namespace tz {
DispatchStub<RnnCellForwardFn> rnn_cell_forward_stub("rnn_cell_forward");
DispatchStub<RnnCellBackwardFn> rnn_cell_backward_stub("rnn_cell_backward");
}  // namespace tz
