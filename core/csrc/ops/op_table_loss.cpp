// Op-table entries of the loss family (core.nn.functional's losses build on these).
#include "ops/loss.h"
#include "ops/op_table_util.h"

namespace tz {
namespace {

using namespace op_table;

std::optional<Tensor> opt(const Value& v) { return v.is_none() ? std::nullopt : std::optional<Tensor>(v.tensor()); }

Value pair(std::pair<Tensor, Tensor> p) { return Value::Tuple{std::move(p.first), std::move(p.second)}; }

// d self of nll_loss: the backward op (linear in the incoming gradient, so twice differentiable).
TensorList nll_loss_grad(BackwardContext& c) {
  if (!c.needs_grad("self")) return {};
  const Shape& sizes = c.input_sizes("self");
  return {F::tensor_call(TZ_OP("_nll_loss_backward"),
                         {c.grad(0), c.input("target"), c.arg("weight"), c.arg("reduction"), c.arg("ignore_index"), c.result(1),
                          IntList(sizes.begin(), sizes.end())})};
}

// The backward is linear in grad_output; its adjoint is the forward itself (same total weight).
TensorList nll_loss_backward_grad(BackwardContext& c) {
  if (!c.needs_grad("grad_output")) return {};
  Value out = F::call(TZ_OP("_nll_loss_forward"), {c.grad(), c.input("target"), c.arg("weight"), c.arg("reduction"), c.arg("ignore_index")});
  return {out.tuple()[0].tensor()};
}

TensorList ctc_loss_grad(BackwardContext& c) {
  if (!c.needs_grad("log_probs")) return {};
  return {F::tensor_call(TZ_OP("_ctc_loss_backward"),
                         {c.grad(0), c.input("log_probs"), c.input("targets"), c.arg("input_lengths"), c.arg("target_lengths"), c.result(0), c.result(1),
                          c.arg("blank"), c.arg("zero_infinity")})};
}

const OpDef kLossOps[] = {
    // ---------------------------------------------------------------- loss
    {"_nll_loss_forward(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) "
     "-> (Tensor output, Tensor total_weight)",
     kFunction, N::Unsupported,
     OP { return pair(nll_loss_forward(a[0].tensor(), a[1].tensor(), opt(a[2]), a[3].to_int(), a[4].to_int())); },
     "nll_loss", "target weight result", &nll_loss_grad},
    {"_nll_loss_backward(Tensor grad_output, Tensor target, Tensor? weight, int reduction, int ignore_index, "
     "Tensor total_weight, int[] self_sizes) -> Tensor",
     kInternal, N::Unsupported,
     OP {
       return nll_loss_backward(a[0].tensor(), a[1].tensor(), opt(a[2]), a[3].to_int(), a[4].to_int(), a[5].tensor(),
                                a[6].int_list());
     },
     "", "target weight", &nll_loss_backward_grad},
    // The gradient follows PyTorch's (see ctc_loss_backward): right once it passes log_softmax.
    {"_ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, "
     "bool zero_infinity=False) -> (Tensor neg_log_likelihood, Tensor log_alpha)",
     kFunction, N::Unsupported,
     OP {
       return pair(ctc_loss_forward(a[0].tensor(), a[1].tensor(), a[2].int_list(), a[3].int_list(), a[4].to_int(),
                                    a[5].to_bool()));
     },
     "", "log_probs targets result", &ctc_loss_grad, false},
    {"_ctc_loss_backward(Tensor grad, Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, "
     "Tensor neg_log_likelihood, Tensor log_alpha, int blank, bool zero_infinity=False) -> Tensor",
     kInternal, N::Unsupported,
     OP {
       return ctc_loss_backward(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].int_list(), a[4].int_list(),
                                a[5].tensor(), a[6].tensor(), a[7].to_int(), a[8].to_bool());
     },
     ""},
};

const OpTableRegistrar registrar(kLossOps);

}  // namespace
}  // namespace tz
