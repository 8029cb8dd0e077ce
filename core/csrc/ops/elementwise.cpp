#include "ops/elementwise.h"

#include "ops/conversion.h"
#include "ops/promotion.h"

namespace tz {

namespace {

// Half types are stored, not computed in: kernels run in float32 for them.
DType compute_dtype(DType t) { return t == DType::Float16 || t == DType::BFloat16 ? DType::Float32 : t; }

DType op_result_type(BinaryOp op, const Tensor& a, const Tensor& b, const char* name) {
  DType t = result_type(a, b);
  if (op == BinaryOp::Div) t = to_floating(t);
  if (op == BinaryOp::Sub)
    TZ_CHECK(t != DType::Bool, Type, name, "(): subtraction, the `-` operator, with two bool tensors "
             "is not supported. Use the `^` or `logical_xor()` operator instead.");
  return t;
}

void run_binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b, Scalar alpha) {
  DType ct = compute_dtype(out.dtype());
  Tensor o = ct == out.dtype() ? out : Tensor::empty(out.sizes(), ct);
  // The converted inputs must outlive the iterator, which holds raw pointers into them.
  Tensor ca = to_dtype(a, ct), cb = to_dtype(b, ct);
  TensorIter iter({o, ca, cb}, out.sizes());
  binary_stub(iter, ct, op, alpha);
  if (!o.is_same(out)) copy_(out, o);
}

}  // namespace

Tensor binary_op(BinaryOp op, const Tensor& a, const Tensor& b, const char* name, Scalar alpha) {
  DType t = op_result_type(op, a, b, name);
  Tensor out = Tensor::empty(broadcast_shapes(a.sizes(), b.sizes(), name), t);
  run_binary(op, out, a, b, alpha);
  return out;
}

const Tensor& binary_op_(BinaryOp op, const Tensor& self, const Tensor& other, const char* name,
                         Scalar alpha) {
  DType t = op_result_type(op, self, other, name);
  TZ_CHECK(can_cast(t, self.dtype()), Runtime, name, "(): result type ", dtype_name(t),
           " can't be cast to the desired output type ", dtype_name(self.dtype()));
  Shape shape = broadcast_shapes(self.sizes(), other.sizes(), name);
  TZ_CHECK(shape == self.sizes(), Runtime, name, "(): output with shape ", shape_str(self.sizes()),
           " doesn't match the broadcast shape ", shape_str(shape));
  if (t == self.dtype()) {
    run_binary(op, self, self, other, alpha);
  } else {
    Tensor tmp = Tensor::empty(self.sizes(), t);
    run_binary(op, tmp, self, other, alpha);
    copy_(self, tmp);
  }
  self.bump_version();
  return self;
}

Tensor add(const Tensor& a, const Tensor& b, Scalar alpha) { return binary_op(BinaryOp::Add, a, b, "add", alpha); }
Tensor sub(const Tensor& a, const Tensor& b, Scalar alpha) { return binary_op(BinaryOp::Sub, a, b, "sub", alpha); }
Tensor mul(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Mul, a, b, "mul"); }
Tensor div(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Div, a, b, "div"); }

}  // namespace tz
