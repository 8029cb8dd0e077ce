// The quantized tensor API's op-table entries (torch.quantize_per_tensor, Tensor.dequantize,
// q_scale, ... and fake quantization with its straight-through gradient). The int8 compute
// ops of quantized modules live in core._C._quantized (bindings/py_quantized.cpp).
#include "ops/conversion.h"
#include "op_table/util.h"
#include "quantized/quantize.h"

namespace tz {
namespace {

using namespace op_table;

const Quantizer& per_tensor(const Tensor& t, const char* op) {
  const Quantizer& q = quantizer_of(t, op);
  TZ_CHECK(!q.per_channel(), Runtime, op, "(): the tensor is quantized per channel (", qscheme_name(q.scheme),
           "); use q_per_channel_scales() / q_per_channel_zero_points()");
  return q;
}

const Quantizer& per_channel(const Tensor& t, const char* op) {
  const Quantizer& q = quantizer_of(t, op);
  TZ_CHECK(q.per_channel(), Runtime, op, "(): the tensor is quantized per tensor; use q_scale() / q_zero_point()");
  return q;
}

// The straight-through estimator: the gradient passes where the input was not clamped.
TensorList fake_quant_per_tensor_grad(BackwardContext& c) {
  Tensor mask = fake_quantize_per_tensor(c.input("self"), c.arg("scale").to_double(), c.arg("zero_point").to_int(),
                                         c.arg("quant_min").to_int(), c.arg("quant_max").to_int(), true);
  return {F::mul(c.grad(), mask)};
}

TensorList fake_quant_per_channel_grad(BackwardContext& c) {
  Tensor mask = fake_quantize_per_channel(c.input("self"), c.input("scale"), c.input("zero_point"), c.arg("axis").to_int(),
                                          c.arg("quant_min").to_int(), c.arg("quant_max").to_int(), true);
  return {F::mul(c.grad(), mask), Tensor(), Tensor()};
}

const OpDef kQuantizedOps[] = {
    {"quantize_per_tensor(Tensor self, float scale, int zero_point, ScalarType dtype) -> Tensor", kFunction, N::Keep,
     OP { return quantize_per_tensor(a[0].tensor(), a[1].to_double(), a[2].to_int(), a[3].dtype()); }, "",
     "", not_differentiable},
    {"quantize_per_channel(Tensor self, Tensor scales, Tensor zero_points, int axis, ScalarType dtype) -> Tensor",
     kFunction, N::Keep,
     OP { return quantize_per_channel(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_int(), a[4].dtype()); },
     "", "", not_differentiable},
    {"dequantize(Tensor self) -> Tensor", kBoth, N::Keep, OP { return dequantize(a[0].tensor()); }, "",
     "", not_differentiable},
    {"int_repr(Tensor self) -> Tensor", kBoth, N::Keep, OP { return int_repr(a[0].tensor()); }, "",
     "", not_differentiable},
    {"q_scale(Tensor self) -> float", kBoth, N::None, OP { return per_tensor(a[0].tensor(), "q_scale").scale; }, ""},
    {"q_zero_point(Tensor self) -> int", kBoth, N::None,
     OP { return per_tensor(a[0].tensor(), "q_zero_point").zero_point; }, ""},
    {"q_per_channel_scales(Tensor self) -> Tensor", kBoth, N::None,
     OP { return clone(per_channel(a[0].tensor(), "q_per_channel_scales").scales); }, ""},
    {"q_per_channel_zero_points(Tensor self) -> Tensor", kBoth, N::None,
     OP { return clone(per_channel(a[0].tensor(), "q_per_channel_zero_points").zero_points); }, ""},
    {"q_per_channel_axis(Tensor self) -> int", kBoth, N::None,
     OP { return per_channel(a[0].tensor(), "q_per_channel_axis").axis; }, ""},
    // The scheme's name; Tensor.qscheme() (core/quantization/_qscheme.py) turns it into a core.qscheme.
    {"_qscheme_name(Tensor self) -> str", kInternal, N::None,
     OP { return std::string(qscheme_name(quantizer_of(a[0].tensor(), "qscheme").scheme)); }, ""},
    // The stored integers as a uint8 / int8 / int32 view sharing memory (serialization).
    {"_int_view(Tensor self) -> Tensor", kInternal, N::Keep,
     OP { return int_view(a[0].tensor()); }, "", "", not_differentiable},
    {"_make_per_tensor_quantized_tensor(Tensor self, float scale, int zero_point) -> Tensor", kFunction, N::Keep,
     OP { return make_per_tensor_quantized(a[0].tensor(), a[1].to_double(), a[2].to_int()); }, "",
     "", not_differentiable},
    {"_make_per_channel_quantized_tensor(Tensor self, Tensor scale, Tensor zero_point, int axis) -> Tensor", kFunction,
     N::Keep,
     OP { return make_per_channel_quantized(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_int()); }, "",
     "", not_differentiable},
    {"fake_quantize_per_tensor_affine(Tensor self, float scale, int zero_point, int quant_min, int quant_max) -> Tensor",
     kFunction, N::Keep,
     OP {
       return fake_quantize_per_tensor(a[0].tensor(), a[1].to_double(), a[2].to_int(), a[3].to_int(), a[4].to_int(),
                                       false);
     }, "fake_quantize_per_tensor", "self", &fake_quant_per_tensor_grad},
    {"fake_quantize_per_channel_affine(Tensor self, Tensor scale, Tensor zero_point, int axis, int quant_min, int quant_max) -> Tensor",
     kFunction, N::Keep,
     OP {
       return fake_quantize_per_channel(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_int(), a[4].to_int(),
                                        a[5].to_int(), false);
     }, "fake_quantize_per_channel", "self scale zero_point", &fake_quant_per_channel_grad},
};

}  // namespace

OpTableRef op_table::quantized_ops() { return kQuantizedOps; }

}  // namespace tz
