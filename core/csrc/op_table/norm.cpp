// Op-table entries of the normalization ops (ops/normalization.h): PyTorch's native_* ops
// (core.batch_norm, layer_norm, group_norm and instance_norm wrap them in core/_actnorm.py)
// and their fused backward ops. Outputs 1 and 2 (saved statistics) carry no gradient, like
// PyTorch's; tests/core/nn/test_norm.py gradchecks output 0.
#include "ops/normalization.h"
#include "derivatives/normalization.h"
#include "op_table/util.h"

namespace tz {
namespace {

using namespace op_table;

Value tuple3(const Tensor3& t) {
  return Value::Tuple{std::get<0>(t), std::get<1>(t), std::get<2>(t)};
}

const OpDef kNormOps[] = {
    {"native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
     "bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", kFunction, N::Keep,
     OP {
       return tuple3(native_batch_norm(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor(), a[3].opt_tensor(),
                                       a[4].opt_tensor(), a[5].to_bool(), a[6].to_double(), a[7].to_double()));
     }, "",
     "input weight result1 result2", &grad::native_batch_norm},
    {"native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean, "
     "Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps) -> (Tensor, Tensor, Tensor)",
     kInternal, N::Keep,
     OP {
       return tuple3(native_batch_norm_backward(a[0].tensor(), a[1].tensor(), a[2].opt_tensor(), a[3].opt_tensor(),
                                                a[4].opt_tensor(), a[5].opt_tensor(), a[6].opt_tensor(),
                                                a[7].to_bool(), a[8].to_double()));
     }, ""},
    {"native_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, Tensor? bias, float eps) "
     "-> (Tensor, Tensor, Tensor)", kFunction, N::Keep,
     OP {
       return tuple3(native_layer_norm(a[0].tensor(), a[1].int_list(), a[2].opt_tensor(), a[3].opt_tensor(),
                                       a[4].to_double()));
     }, "",
     "input weight result1 result2", &grad::native_layer_norm},
    {"native_layer_norm_backward(Tensor grad_out, Tensor input, int[] normalized_shape, Tensor mean, Tensor rstd, "
     "Tensor? weight) -> (Tensor, Tensor, Tensor)", kInternal, N::Keep,
     OP {
       return tuple3(native_layer_norm_backward(a[0].tensor(), a[1].tensor(), a[2].int_list(), a[3].tensor(),
                                                a[4].tensor(), a[5].opt_tensor()));
     }, ""},
    {"native_group_norm(Tensor input, Tensor? weight, Tensor? bias, int N, int C, int HxW, int group, float eps) "
     "-> (Tensor, Tensor, Tensor)", kFunction, N::Keep,
     OP {
       return tuple3(native_group_norm(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor(), a[3].to_int(),
                                       a[4].to_int(), a[5].to_int(), a[6].to_int(), a[7].to_double()));
     }, "",
     "input weight result1 result2", &grad::native_group_norm},
    {"native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, int N, "
     "int C, int HxW, int group) -> (Tensor, Tensor, Tensor)", kInternal, N::Keep,
     OP {
       return tuple3(native_group_norm_backward(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].tensor(),
                                                a[4].opt_tensor(), a[5].to_int(), a[6].to_int(), a[7].to_int(),
                                                a[8].to_int()));
     }, ""},
};

}  // namespace

OpTableRef op_table::norm_ops() { return kNormOps; }

}  // namespace tz
