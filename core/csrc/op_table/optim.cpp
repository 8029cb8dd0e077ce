// Op-table entries of the fused optimizer steps. kInternal: core.optim calls them through
// core._C._internal under no_grad (names without a trailing "_": the first argument is a list,
// which the in-place path of the autograd dispatcher does not take). Tested by
// tests/core/optim/test_optim.py.
#include "op_table/util.h"
#include "ops/optim_fused.h"

namespace tz {
namespace {

using namespace op_table;

const OpDef kOptimOps[] = {
    {"_fused_sgd_step(Tensor[] params, Tensor[] grads, Tensor[] momentum_buffers, float lr, float momentum, "
     "float dampening, float weight_decay, bool nesterov, bool maximize, bool first_step) -> ()",
     kInternal, N::None,
     OP {
       fused_sgd_(a[0].tensor_list(), a[1].tensor_list(), a[2].tensor_list(), a[3].to_double(), a[4].to_double(),
                  a[5].to_double(), a[6].to_double(), a[7].to_bool(), a[8].to_bool(), a[9].to_bool());
       return Value();
     }, "", "", not_differentiable},
    {"_fused_rmsprop_step(Tensor[] params, Tensor[] grads, Tensor[] square_avgs, Tensor[] momentum_buffers, "
     "Tensor[] grad_avgs, float lr, float alpha, float eps, float weight_decay, float momentum, bool centered, "
     "bool maximize) -> ()",
     kInternal, N::None,
     OP {
       fused_rmsprop_(a[0].tensor_list(), a[1].tensor_list(), a[2].tensor_list(), a[3].tensor_list(),
                      a[4].tensor_list(), a[5].to_double(), a[6].to_double(), a[7].to_double(), a[8].to_double(),
                      a[9].to_double(), a[10].to_bool(), a[11].to_bool());
       return Value();
     }, "", "", not_differentiable},
    {"_fused_adam_step(Tensor[] params, Tensor[] grads, Tensor[] exp_avgs, Tensor[] exp_avg_sqs, "
     "Tensor[] max_exp_avg_sqs, int[] steps, float lr, float beta1, float beta2, float eps, float weight_decay, "
     "bool amsgrad, bool decoupled_weight_decay, bool maximize) -> ()",
     kInternal, N::None,
     OP {
       fused_adam_(a[0].tensor_list(), a[1].tensor_list(), a[2].tensor_list(), a[3].tensor_list(),
                   a[4].tensor_list(), a[5].int_list(), a[6].to_double(), a[7].to_double(), a[8].to_double(),
                   a[9].to_double(), a[10].to_double(), a[11].to_bool(), a[12].to_bool(), a[13].to_bool());
       return Value();
     }, "", "", not_differentiable},
    {"_fused_adagrad_step(Tensor[] params, Tensor[] grads, Tensor[] state_sums, int[] steps, float lr, "
     "float lr_decay, float weight_decay, float eps, bool maximize) -> ()",
     kInternal, N::None,
     OP {
       fused_adagrad_(a[0].tensor_list(), a[1].tensor_list(), a[2].tensor_list(), a[3].int_list(),
                      a[4].to_double(), a[5].to_double(), a[6].to_double(), a[7].to_double(), a[8].to_bool());
       return Value();
     }, "", "", not_differentiable},
    {"_fused_adadelta_step(Tensor[] params, Tensor[] grads, Tensor[] square_avgs, Tensor[] acc_deltas, float lr, "
     "float rho, float eps, float weight_decay, bool maximize) -> ()",
     kInternal, N::None,
     OP {
       fused_adadelta_(a[0].tensor_list(), a[1].tensor_list(), a[2].tensor_list(), a[3].tensor_list(),
                       a[4].to_double(), a[5].to_double(), a[6].to_double(), a[7].to_double(), a[8].to_bool());
       return Value();
     }, "", "", not_differentiable},
    {"_fused_adamax_step(Tensor[] params, Tensor[] grads, Tensor[] exp_avgs, Tensor[] exp_infs, int[] steps, "
     "float lr, float beta1, float beta2, float eps, float weight_decay, bool maximize) -> ()",
     kInternal, N::None,
     OP {
       fused_adamax_(a[0].tensor_list(), a[1].tensor_list(), a[2].tensor_list(), a[3].tensor_list(),
                     a[4].int_list(), a[5].to_double(), a[6].to_double(), a[7].to_double(), a[8].to_double(),
                     a[9].to_double(), a[10].to_bool());
       return Value();
     }, "", "", not_differentiable},
};

}  // namespace

OpTableRef op_table::optim_ops() { return kOptimOps; }

}  // namespace tz
