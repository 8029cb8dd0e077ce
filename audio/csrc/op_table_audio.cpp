// The audio package's entries in core's op table (registered when audio._C loads). Python
// reaches them through core._C._op("audio_<name>"); like core's ops they record autograd, and
// an entry without a formula raises when a gradient is asked through it.
#include "lfilter.h"
#include "ops/creation.h"
#include "ops/op_table_util.h"

namespace tz {
namespace {

using namespace op_table;

Tensor call_lfilter(const Tensor& x, const Tensor& a, const Tensor& b) {
  return F::tensor_call(TZ_OP("audio_lfilter"), {x, a, b});
}

Tensor flip_time(const Tensor& t) { return F::tensor_call(TZ_OP("flip"), {t, IntList{2}}); }

Tensor narrow_time(const Tensor& t, int64_t start, int64_t length) {
  return F::tensor_call(TZ_OP("narrow"), {t, int64_t{2}, start, length});
}

// The (F, K) coefficients of a pure recursion (b = [1, 0, ...]): a constant.
Tensor unit_impulse(const Tensor& like) {
  Tensor e = zeros(like.sizes(), like.dtype());
  const int64_t filters = like.sizes()[0], order = like.sizes()[1];
  for (int64_t f = 0; f < filters; ++f) {
    if (like.dtype() == DType::Float32) e.data<float>()[f * order] = 1.0f;
    else e.data<double>()[f * order] = 1.0;
  }
  return e;
}

// out[f, k] = sum over batch and t of g[., f, t] * s[., f, t - k], for k in [first, K), zero
// for k < first: the gradient of a coefficient that multiplies s delayed by k.
Tensor lag_products(const Tensor& g, const Tensor& s, int64_t order, int64_t first) {
  const int64_t filters = g.sizes()[1], length = g.sizes()[2];
  TensorList columns;
  for (int64_t k = 0; k < order; ++k) {
    if (k < first || k >= length) {
      columns.push_back(zeros({filters}, g.dtype()));
      continue;
    }
    Tensor prod = F::mul(narrow_time(g, k, length - k), narrow_time(s, 0, length - k));
    columns.push_back(F::tensor_call(TZ_OP("sum"), {prod, IntList{0, 2}}));
  }
  return F::tensor_call(TZ_OP("stack"), {columns, int64_t{1}});
}

// The adjoint of a causal filter is the same filter run backwards in time. With v the
// feed-forward part's output, dL/dv runs the recursion alone backwards; b's gradient pairs it
// with the delayed input, a's (k >= 1) with the delayed output, negated.
TensorList lfilter_grad(BackwardContext& c) {
  const Tensor& a = c.tensor(1);
  const Tensor& b = c.tensor(2);
  const int64_t order = a.sizes()[1];
  const Tensor reversed = flip_time(c.grad());
  Tensor gx, ga, gb;
  if (c.needs_grad(0)) gx = flip_time(call_lfilter(reversed, a, b));
  if (c.needs_grad(1) || c.needs_grad(2)) {
    const Tensor gv = flip_time(call_lfilter(reversed, a, unit_impulse(b)));
    if (c.needs_grad(1)) ga = F::neg(lag_products(gv, c.result(), order, 1));
    if (c.needs_grad(2)) gb = lag_products(gv, c.tensor(0), order, 0);
  }
  return {gx, ga, gb};
}

const OpDef kAudioOps[] = {
    {"audio_lfilter(Tensor waveform, Tensor a_coeffs, Tensor b_coeffs) -> Tensor", kInternal, N::Unsupported,
     OP { return audio::lfilter(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "",
     "waveform a_coeffs b_coeffs result", &lfilter_grad},
};

const OpTableRegistrar registrar(kAudioOps);

}  // namespace
}  // namespace tz
