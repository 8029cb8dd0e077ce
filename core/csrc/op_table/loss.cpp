// Op-table entries of the loss family (core.nn.functional's losses build on these).
#include "ops/loss.h"
#include "derivatives/loss.h"
#include "op_table/util.h"

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
     kFunction, N::Custom,
     OP { return pair(nll_loss_forward(a[0].tensor(), a[1].tensor(), opt(a[2]), a[3].to_int(), a[4].to_int())); },
     "nll_loss", "target weight result", &nll_loss_grad},
    {"_nll_loss_backward(Tensor grad_output, Tensor target, Tensor? weight, int reduction, int ignore_index, "
     "Tensor total_weight, int[] self_sizes) -> Tensor",
     kInternal, N::None,
     OP {
       return nll_loss_backward(a[0].tensor(), a[1].tensor(), opt(a[2]), a[3].to_int(), a[4].to_int(), a[5].tensor(),
                                a[6].int_list());
     },
     "", "target weight", &nll_loss_backward_grad},
    // Elementwise losses: one node each (MseLossBackward0 ...), as PyTorch records them; internal
    // like torch._C._nn's, core.nn.functional calls them.
    {"mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kInternal, N::Custom,
     OP { return mse_loss(a[0].tensor(), a[1].tensor(), a[2].to_int()); }, "", "self target", &grad::mse_loss},
    {"smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.0) -> Tensor", kInternal,
     N::Custom, OP { return smooth_l1_loss(a[0].tensor(), a[1].tensor(), a[2].to_int(), a[3].to_double()); },
     "", "self target", &grad::smooth_l1_loss},
    {"huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.0) -> Tensor", kInternal,
     N::Custom, OP { return huber_loss(a[0].tensor(), a[1].tensor(), a[2].to_int(), a[3].to_double()); },
     "", "self target", &grad::huber_loss},
    {"soft_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kInternal, N::Custom,
     OP { return soft_margin_loss(a[0].tensor(), a[1].tensor(), a[2].to_int()); }, "", "self target",
     &grad::soft_margin_loss},
    {"binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> Tensor", kInternal,
     N::Custom, OP { return binary_cross_entropy(a[0].tensor(), a[1].tensor(), opt(a[2]), a[3].to_int()); },
     "", "self target weight", &grad::binary_cross_entropy},
    {"binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, "
     "int reduction=1) -> Tensor", kInternal, N::Custom,
     OP {
       return binary_cross_entropy_with_logits(a[0].tensor(), a[1].tensor(), opt(a[2]), opt(a[3]), a[4].to_int());
     },
     "", "self target weight pos_weight", &grad::binary_cross_entropy_with_logits},
    // The gradient follows PyTorch's (see ctc_loss_backward): right once it passes log_softmax.
    {"_ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, "
     "bool zero_infinity=False) -> (Tensor neg_log_likelihood, Tensor log_alpha)",
     kFunction, N::Custom,
     OP {
       return pair(ctc_loss_forward(a[0].tensor(), a[1].tensor(), a[2].int_list(), a[3].int_list(), a[4].to_int(),
                                    a[5].to_bool()));
     },
     "", "log_probs targets result", &ctc_loss_grad, false},
    {"_ctc_loss_backward(Tensor grad, Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, "
     "Tensor neg_log_likelihood, Tensor log_alpha, int blank, bool zero_infinity=False) -> Tensor",
     kInternal, N::Custom,
     OP {
       return ctc_loss_backward(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].int_list(), a[4].int_list(),
                                a[5].tensor(), a[6].tensor(), a[7].to_int(), a[8].to_bool());
     },
     ""},
};

}  // namespace

OpTableRef op_table::loss_ops() { return kLossOps; }

}  // namespace tz
