// Op-table entries of the FFT family: PyTorch's three primitives, from which core.fft,
// core.stft and core.istft are composed (core/fft/, core/_spectral.py). Each derivative is
// the adjoint transform, itself an entry here, so double backward works.
#include "ops/creation.h"
#include "ops/fft.h"
#include "ops/op_table_util.h"

namespace tz {
namespace {

using namespace op_table;

// Zeros appended to dim d of t up to `size` (the bins a onesided transform dropped).
Tensor pad_dim_to(const Tensor& t, int64_t d, int64_t size) {
  IntList pad(2 * (t.dim() - d), 0);
  pad.back() = size - t.sizes()[d];
  return F::tensor_call(TZ_OP("pad"), {t, pad, std::string("constant"), 0.0});
}

// The weights 1, 2, ..., 2, 1 (or 1, 2, ..., 2 for odd n) along dim d of a onesided spectrum:
// each bin between 0 and n/2 stands for itself and its mirror image.
Tensor mirror_weights(int64_t bins, int64_t n, int64_t d, int64_t ndim, DType dtype) {
  Shape shape(ndim - d, 1);
  shape[0] = bins;
  Tensor w = full(shape, Scalar(2.0), dtype);  // contiguous: bin k at k
  TZ_DISPATCH_FLOATING(dtype, "_fft_c2r_backward", [&] {
    scalar_t* p = w.data<scalar_t>();
    p[0] = scalar_t(1);
    if (n % 2 == 0) p[bins - 1] = scalar_t(1);
  });
  return w;
}

TensorList r2c_backward(BackwardContext& c) {
  const IntList& dims = c.arg("dim").int_list();
  const int64_t ndim = static_cast<int64_t>(c.input_sizes("self").size());
  const int64_t last = wrap_dim(dims.back(), ndim, "_fft_r2c");
  Tensor g = c.grad();
  if (c.arg("onesided").to_bool()) g = pad_dim_to(g, last, c.input_sizes("self")[last]);
  Tensor full_grad = F::tensor_call(TZ_OP("_fft_c2c"), {g, dims, c.arg("normalization"), false});
  return {F::tensor_call(TZ_OP("real"), {full_grad})};
}

TensorList c2r_backward(BackwardContext& c) {
  const IntList& dims = c.arg("dim").int_list();
  const int64_t ndim = static_cast<int64_t>(c.input_sizes("self").size());
  const int64_t last = wrap_dim(dims.back(), ndim, "_fft_c2r");
  const int64_t n = c.arg("last_dim_size").to_int(), bins = n / 2 + 1;
  Tensor g = F::tensor_call(TZ_OP("_fft_r2c"), {c.grad(), dims, c.arg("normalization"), true});
  return {F::mul(g, mirror_weights(bins, n, last, ndim, c.grad().dtype()))};
}

const OpDef kFftOps[] = {
    {"_fft_c2c(Tensor self, int[] dim, int normalization, bool forward) -> Tensor", kFunction, N::Keep,
     OP { return fft_c2c(a[0].tensor(), a[1].int_list(), a[2].to_int(), a[3].to_bool()); }, "fft_c2c",
     "", GRAD { return {F::tensor_call(TZ_OP("_fft_c2c"), {c.grad(), c.arg("dim"), c.arg("normalization"), !c.arg("forward").to_bool()})}; }},
    {"_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor", kFunction, N::Keep,
     OP { return fft_r2c(a[0].tensor(), a[1].int_list(), a[2].to_int(), a[3].to_bool()); }, "fft_r2c",
     "", &r2c_backward},
    {"_fft_c2r(Tensor self, int[] dim, int normalization, int last_dim_size) -> Tensor", kFunction, N::Keep,
     OP { return fft_c2r(a[0].tensor(), a[1].int_list(), a[2].to_int(), a[3].to_int()); }, "fft_c2r",
     "", &c2r_backward},
};

const OpTableRegistrar registrar(kFftOps);

}  // namespace
}  // namespace tz
