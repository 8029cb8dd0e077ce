// Op-table entries of the fused recurrent layer (core.nn.modules.rnn's RNN, LSTM, GRU and their
// cells run on it). Internal, like PyTorch's _thnn_fused_* and cuDNN RNN entries. Tested by
// tests/core/nn/test_rnn_fused.py (against the step-by-step composition, gradcheck of every mode).
#include "autograd/grad_mode.h"
#include "derivatives/rnn.h"
#include "op_table/util.h"
#include "ops/rnn.h"

namespace tz {
namespace {

using namespace op_table;

std::optional<Tensor> opt(const Value& v) { return v.is_none() ? std::nullopt : std::optional<Tensor>(v.tensor()); }

// An entry of the backward's result, undefined where the layer has no such input.
Tensor present(const Value& v) { return v.tensor().numel() ? v.tensor() : Tensor(); }

TensorList rnn_layer_grad(BackwardContext& c) {
  if (GradMode::is_enabled()) return grad::rnn_layer_recorded(c);  // create_graph: a differentiable replay
  Value out = F::call(TZ_OP("_rnn_layer_backward"),
                      {c.grad(0), c.grad(1), c.grad(2), c.input("hx"), c.arg("cx"), c.input("w_hh"), c.arg("b_hh"),
                       c.arg("w_hr"), c.result(0), c.result(3), c.arg("batch_sizes"), c.arg("mode"),
                       c.arg("reverse")});
  const Value::Tuple& g = out.tuple();
  TensorList grads(6);
  const char* names[] = {"gates_in", "hx", "cx", "w_hh", "b_hh", "w_hr"};
  for (size_t k = 0; k < 6; ++k)
    if (c.needs_grad(names[k])) grads[k] = present(g[k]);
  return grads;
}

const OpDef kRnnOps[] = {
    {"_rnn_layer(Tensor gates_in, Tensor hx, Tensor? cx, Tensor w_hh, Tensor? b_hh, Tensor? w_hr, int[] batch_sizes, "
     "int mode, bool reverse) -> (Tensor output, Tensor hy, Tensor cy, Tensor workspace)",
     kInternal, N::Unsupported,
     OP {
       auto [output, hy, cy, workspace] = rnn_layer(a[0].tensor(), a[1].tensor(), opt(a[2]), a[3].tensor(), opt(a[4]),
                                                    opt(a[5]), a[6].int_list(), a[7].to_int(), a[8].to_bool());
       return Value::Tuple{output, hy, cy, workspace};
     },
     "", "gates_in hx cx w_hh b_hh w_hr result", &rnn_layer_grad},
    // Its gradient runs one reverse loop and is never recorded: a backward with create_graph takes
    // the differentiable replay instead (derivatives/rnn.h), so this node is never differentiated.
    {"_rnn_layer_backward(Tensor grad_output, Tensor grad_hy, Tensor grad_cy, Tensor hx, Tensor? cx, Tensor w_hh, "
     "Tensor? b_hh, Tensor? w_hr, Tensor output, Tensor workspace, int[] batch_sizes, int mode, bool reverse) "
     "-> (Tensor, Tensor, Tensor, Tensor, Tensor, Tensor)",
     kInternal, N::Unsupported,
     OP {
       auto [d_gates, d_hx, d_cx, d_w_hh, d_b_hh, d_w_hr] =
           rnn_layer_backward(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].tensor(), opt(a[4]), a[5].tensor(),
                              opt(a[6]), opt(a[7]), a[8].tensor(), a[9].tensor(), a[10].int_list(), a[11].to_int(),
                              a[12].to_bool());
       return Value::Tuple{d_gates, d_hx, d_cx, d_w_hh, d_b_hh, d_w_hr};
     },
     "", "",
     GRAD {
       (void)c;
       fail(ErrorKind::NotImplemented, "_rnn_layer_backward is not differentiable: differentiate _rnn_layer with "
            "create_graph=True, which records a differentiable replay instead");
     },
     false},
};

}  // namespace

OpTableRef op_table::rnn_ops() { return kRnnOps; }

}  // namespace tz
