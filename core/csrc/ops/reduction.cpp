#include "ops/reduction.h"

#include <cmath>
#include <limits>

#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/promotion.h"
#include "ops/reduce_engine.h"
#include "ops/views.h"

namespace tz {

namespace {

bool is_float_or_complex(DType t) { return is_floating(t) || is_complex(t); }

void check_plain(const Tensor& t, const char* op) {
  TZ_CHECK(!is_quantized(t.dtype()), NotImplemented, op, "(): not supported for quantized tensors");
}

// Runs reduction `op` over `t` converted to `via` (when given) and then to `compute`. The
// stride-0 reduced dims are dropped before converting, so an expanded input is never copied.
Tensor run(const Tensor& t, const ReduceDims& rd, ReduceOp op, DType compute, double p = 0,
           const void* center = nullptr, std::optional<DType> via = std::nullopt) {
  if (auto u = unrepeat(t, rd)) {
    Tensor r = run(u->in, u->rd, op, compute, p, center, via);
    repeat_combine(r, op, u->times);
    return r;
  }
  Tensor in = to_dtype(via ? to_dtype(t, *via) : t, compute);
  return reduce(in, rd, ReduceArgs{op, compute, p, center});
}

// The reduced tensor (keep shape) as the op's result: its shape and dtype.
Tensor finish(const Tensor& r, const ReduceDims& rd, DType out) {
  return to_dtype(reshaped(r, rd.out_shape), out);
}

// r[i] <- f(r[i], i) on a contiguous float32/float64 tensor.
template <class F> void update_floats(const Tensor& r, F f) {
  TZ_DISPATCH_FLOATING(r.dtype(), "reduce", [&] {
    scalar_t* p = r.data<scalar_t>();
    for (int64_t i = 0, n = r.numel(); i < n; ++i) p[i] = static_cast<scalar_t>(f(p[i], i));
  });
}

void divide_by(const Tensor& r, double n) {
  if (r.dtype() == DType::Complex64) {
    complex64* p = r.data<complex64>();
    for (int64_t i = 0, m = r.numel(); i < m; ++i) p[i] /= static_cast<float>(n);
    return;
  }
  if (r.dtype() == DType::Complex128) {
    complex128* p = r.data<complex128>();
    for (int64_t i = 0, m = r.numel(); i < m; ++i) p[i] /= n;
    return;
  }
  update_floats(r, [n](auto x, int64_t) { return x / n; });
}

// Sums and products: integral inputs accumulate in int64 (the result dtype too).
DType sum_result_dtype(DType in, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return is_integral(in, true) ? DType::Int64 : in;
}
DType sum_compute_dtype(DType out) { return is_integral(out, true) ? DType::Int64 : compute_dtype(out); }

Tensor sum_like(ReduceOp op, const Tensor& t, const OptDims& dim, bool keepdim,
                std::optional<DType> dtype, const char* name) {
  check_plain(t, name);
  ReduceDims rd = reduce_dims(t, dim, keepdim, name);
  DType out = sum_result_dtype(t.dtype(), dtype);
  DType ct = sum_compute_dtype(out);
  if (op == ReduceOp::NanSum) {
    TZ_CHECK(!is_complex(ct), Runtime, name, "(): nansum on CPU does not support complex inputs");
    if (!is_floating(ct)) op = ReduceOp::Sum;
  }
  return finish(run(t, rd, op, ct, 0, nullptr, dtype), rd, out);
}

// max/min compute in uint8 (bool too), int64, float32 or float64.
DType minmax_compute_dtype(DType t) {
  if (t == DType::Bool || t == DType::UInt8) return DType::UInt8;
  if (is_integral(t, false)) return DType::Int64;
  return compute_dtype(t);
}

// Bool is reduced as its bytes.
Tensor minmax_input(const Tensor& t) {
  return t.dtype() == DType::Bool ? reinterpret_dtype(t, DType::UInt8) : t;
}

// Arg reductions compute in int64, float32 or float64.
DType arg_compute_dtype(DType t) { return is_integral(t, true) ? DType::Int64 : compute_dtype(t); }

void check_not_complex(const Tensor& t, const char* op, const char* kernel) {
  TZ_CHECK(!is_complex(t.dtype()), NotImplemented, op, "(): \"", kernel, "\" not implemented for '",
           scalar_type_name(t.dtype()), "'");
}

// PyTorch refuses to reduce an empty tensor without an identity over a zero-size dim.
void check_nonempty_dims(const Tensor& t, const ReduceDims& rd, bool all_dims, const char* op,
                         bool index_error_for_all = false) {
  if (t.numel() != 0) return;
  if (all_dims) {
    if (index_error_for_all)
      fail(ErrorKind::Index, op, "(): Expected reduction dim to be specified for input.numel() == 0.");
    fail(ErrorKind::Runtime, op, "(): Expected reduction dim to be specified for input.numel() == 0. "
         "Specify the reduction dim with the 'dim' argument.");
  }
  for (int64_t d = 0; d < t.dim(); ++d)
    TZ_CHECK(!(rd.reduced[d] && t.sizes()[d] == 0), Index, op, "(): Expected reduction dim ", d,
             " to have non-zero size.");
}

// A 0-d tensor as shape [1] (its dim 0 / -1 stays valid); others unchanged.
Tensor at_least_1d(const Tensor& t) { return t.dim() == 0 ? reshape(t, {1}) : t; }

// The explicit dims a reduction over `dim` covers (all when None or empty).
IntList explicit_dims(const Tensor& t, const OptDims& dim) {
  IntList out;
  if (dim && !dim->empty()) {
    for (int64_t d : *dim) out.push_back(wrap_dim(d, t.dim(), "reduce"));
  } else {
    for (int64_t d = 0; d < t.dim(); ++d) out.push_back(d);
  }
  return out;
}

// (sum of squared deviations, mean) of a real tensor computed in `compute` (float32 or
// float64), keep shapes. A repeated (stride-0) value adds nothing to the mean and its
// deviations count `times` over: a constant region has the mean of its value and ssd 0.
std::pair<Tensor, Tensor> sq_dev_and_mean(const Tensor& t, const ReduceDims& rd, DType compute) {
  if (auto u = unrepeat(t, rd)) {
    auto [ssd, mean] = sq_dev_and_mean(u->in, u->rd, compute);
    repeat_combine(ssd, ReduceOp::SqDevSum, u->times);
    return {ssd, mean};
  }
  Tensor in = to_dtype(t, compute);
  Tensor mean = reduce(in, rd, ReduceArgs{ReduceOp::Sum, compute});
  divide_by(mean, static_cast<double>(rd.region));
  Tensor ssd = reduce(in, rd, ReduceArgs{ReduceOp::SqDevSum, compute, 0, mean.raw_data()});
  return {ssd, mean};
}

}  // namespace

Tensor sum(const Tensor& t, const OptDims& dim, bool keepdim, std::optional<DType> dtype) {
  return sum_like(ReduceOp::Sum, t, dim, keepdim, dtype, "sum");
}

Tensor nansum(const Tensor& t, const OptDims& dim, bool keepdim, std::optional<DType> dtype) {
  return sum_like(ReduceOp::NanSum, t, dim, keepdim, dtype, "nansum");
}

Tensor mean(const Tensor& t, const OptDims& dim, bool keepdim, std::optional<DType> dtype) {
  check_plain(t, "mean");
  if (dtype) {
    TZ_CHECK(is_float_or_complex(*dtype), Runtime, "mean(): could not infer output dtype. Optional "
             "dtype must be either a floating point or complex dtype. Got: ", scalar_type_name(*dtype));
  } else {
    TZ_CHECK(is_float_or_complex(t.dtype()), Runtime, "mean(): could not infer output dtype. Input "
             "dtype must be either a floating point or complex dtype. Got: ", scalar_type_name(t.dtype()));
  }
  ReduceDims rd = reduce_dims(t, dim, keepdim, "mean");
  DType out = dtype.value_or(t.dtype());
  // The mean of the distinct values: a repeated (stride-0) value is its own mean.
  const auto u = unrepeat(t, rd);
  const ReduceDims& distinct = u ? u->rd : rd;
  Tensor s = run(u ? u->in : t, distinct, ReduceOp::Sum, compute_dtype(out));
  divide_by(s, static_cast<double>(distinct.region));
  return finish(s, rd, out);
}

Tensor prod(const Tensor& t, std::optional<int64_t> dim, bool keepdim, std::optional<DType> dtype) {
  check_plain(t, "prod");
  ReduceDims rd = reduce_dims(t, dim ? OptDims(IntList{*dim}) : std::nullopt, keepdim, "prod");
  DType out = sum_result_dtype(t.dtype(), dtype);
  return finish(run(t, rd, ReduceOp::Prod, sum_compute_dtype(out), 0, nullptr, dtype), rd, out);
}

Tensor max_all(const Tensor& t, bool is_max) {
  const char* name = is_max ? "max" : "min";
  check_plain(t, name);
  check_not_complex(t, name, is_max ? "max_all" : "min_all");
  ReduceDims rd = reduce_dims(t, std::nullopt, false, name);
  check_nonempty_dims(t, rd, true, name);
  Tensor r = run(minmax_input(t), rd, is_max ? ReduceOp::Max : ReduceOp::Min, minmax_compute_dtype(t.dtype()));
  return finish(r, rd, t.dtype());
}

Tensor amax(const Tensor& t, const IntList& dim, bool keepdim, bool is_max) {
  const char* name = is_max ? "amax" : "amin";
  check_plain(t, name);
  check_not_complex(t, name, is_max ? "max_values_cpu" : "min_values_cpu");
  ReduceDims rd = reduce_dims(t, dim, keepdim, name);
  check_nonempty_dims(t, rd, dim.empty(), name);
  Tensor r = run(minmax_input(t), rd, is_max ? ReduceOp::Max : ReduceOp::Min, minmax_compute_dtype(t.dtype()));
  return finish(r, rd, t.dtype());
}

std::pair<Tensor, Tensor> max_dim(const Tensor& t, int64_t dim, bool keepdim, bool is_max) {
  const char* name = is_max ? "max" : "min";
  check_plain(t, name);
  TZ_CHECK(!is_complex(t.dtype()), Runtime, name, "(): does not support complex input");
  ReduceDims rd = reduce_dims(t, IntList{dim}, keepdim, name);
  check_nonempty_dims(t, rd, false, name);
  if (t.dim() == 0) return {clone(t), zeros({}, DType::Int64)};
  const int64_t d = wrap_dim(dim, t.dim(), name);
  // A stride-0 dim repeats one value: its first element is the answer (unrepeat keeps it).
  const auto u = unrepeat(t, rd);
  Tensor in = to_dtype(u ? u->in : t, arg_compute_dtype(t.dtype()));
  auto [values, indices] = arg_reduce(in, d, is_max);
  return {to_dtype(reshaped(values, rd.out_shape), t.dtype()), reshaped(indices, rd.out_shape)};
}

Tensor argmax(const Tensor& t, std::optional<int64_t> dim, bool keepdim, bool is_max) {
  const char* name = is_max ? "argmax" : "argmin";
  check_plain(t, name);
  TZ_CHECK(!is_complex(t.dtype()), Runtime, name, "(): does not support complex input");
  TZ_CHECK(t.dtype() != DType::Bool, Runtime, name, "(): does not support bool input");
  ReduceDims rd = reduce_dims(t, dim ? OptDims(IntList{*dim}) : std::nullopt, keepdim, name);
  check_nonempty_dims(t, rd, !dim, name, true);
  if (t.dim() == 0) return zeros({}, DType::Int64);
  // Stride-0 dims repeat one value: the first occurrence lies at their index 0 (unrepeat).
  const auto u = unrepeat(t, rd);
  Tensor in = to_dtype(u ? u->in : t, arg_compute_dtype(t.dtype()));
  if (!dim) {
    // Index into the flattened (row-major) tensor, mapped back to t's own flat index.
    Tensor flat = reshape(contiguous(in), {in.numel()});
    int64_t k = *arg_reduce(flat, 0, is_max).second.data<int64_t>(), index = 0, step = 1;
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      index += k % in.sizes()[d] * step;
      k /= in.sizes()[d];
      step *= t.sizes()[d];
    }
    return full(keepdim ? Shape(t.dim(), 1) : Shape{}, Scalar(index), DType::Int64);
  }
  return reshaped(arg_reduce(in, wrap_dim(*dim, t.dim(), name), is_max).second, rd.out_shape);
}

double var_correction(std::optional<bool> unbiased, const std::optional<Scalar>& correction) {
  if (correction) return correction->to_double();
  return unbiased.value_or(true) ? 1.0 : 0.0;
}

std::pair<Tensor, Tensor> var_mean(const Tensor& t, const OptDims& dim, double correction,
                                   bool keepdim, bool take_sqrt) {
  const char* name = take_sqrt ? "std" : "var";
  check_plain(t, name);
  TZ_CHECK(is_float_or_complex(t.dtype()), Runtime, name,
           "(): std and var only support floating point and complex dtypes");
  ReduceDims rd = reduce_dims(t, dim, keepdim, name);
  const double dof = std::max(0.0, static_cast<double>(rd.region) - correction);
  Tensor var, mean;
  if (is_complex(t.dtype())) {
    // var(z) = var(re z) + var(im z): reduce the real view over the same dims.
    Tensor t1 = at_least_1d(t);
    Tensor real = complex_as_real(t1);
    ReduceDims rdr = reduce_dims(real, explicit_dims(t1, dim), true, name);
    auto [ssd, m] = sq_dev_and_mean(real, rdr, real.dtype());
    var = Tensor::empty(rd.keep_shape, real.dtype());
    TZ_DISPATCH_FLOATING(real.dtype(), name, [&] {
      const scalar_t* s = ssd.data<scalar_t>();
      scalar_t* v = var.data<scalar_t>();
      for (int64_t i = 0; i < var.numel(); ++i) v[i] = static_cast<scalar_t>((s[2 * i] + s[2 * i + 1]) / dof);
    });
    mean = real_as_complex(m);
  } else {
    std::tie(var, mean) = sq_dev_and_mean(t, rd, compute_dtype(t.dtype()));
    update_floats(var, [dof](auto x, int64_t) { return x / dof; });
  }
  if (take_sqrt) update_floats(var, [](auto x, int64_t) { return std::sqrt(x); });
  DType real_out = is_complex(t.dtype()) ? complex_part_dtype(t.dtype()) : t.dtype();
  return {finish(var, rd, real_out), finish(mean, rd, t.dtype())};
}

Tensor var(const Tensor& t, const OptDims& dim, double correction, bool keepdim, bool take_sqrt) {
  return var_mean(t, dim, correction, keepdim, take_sqrt).first;
}

Tensor norm(const Tensor& t, double p, const OptDims& dim, bool keepdim, std::optional<DType> dtype) {
  check_plain(t, "norm");
  Tensor src = dtype ? to_dtype(t, *dtype) : t;
  TZ_CHECK(is_float_or_complex(src.dtype()), Runtime, "norm(): Expected a floating point or complex "
           "tensor as input. Got ", scalar_type_name(src.dtype()));
  ReduceDims rd = reduce_dims(src, dim, keepdim, "norm");
  if (is_complex(src.dtype())) {
    Tensor src1 = at_least_1d(src);
    Tensor real = complex_as_real(src1);
    IntList dims = explicit_dims(src1, dim);
    if (p == 2) {
      // |z|^2 = re^2 + im^2: the 2-norm of the real view over the dims and the pair dim.
      dims.push_back(src1.dim());
      Tensor r = run(real, reduce_dims(real, dims, true, "norm"), ReduceOp::SqSum, real.dtype());
      update_floats(r, [](auto x, int64_t) { return std::sqrt(x); });
      return finish(r, rd, real.dtype());
    }
    Tensor mag = run(real, reduce_dims(real, IntList{src1.dim()}, false, "norm"), ReduceOp::SqSum,
                     real.dtype());
    update_floats(mag, [](auto x, int64_t) { return std::sqrt(x); });
    return norm(reshaped(mag, src.sizes()), p, dim, keepdim, std::nullopt);
  }
  DType ct = compute_dtype(src.dtype());
  const double inf = std::numeric_limits<double>::infinity();
  // Norms whose identity is infinite have none on an empty region.
  TZ_CHECK(!(rd.region == 0 && rd.numel_out > 0 && (p < 0 || std::isinf(p))), Runtime,
           "norm(): cannot compute the ", p, " norm on an empty tensor because the operation does "
           "not have an identity");
  Tensor r;
  if (p == 0) {
    r = run(src, rd, ReduceOp::NonZero, ct);
  } else if (p == 1) {
    r = run(src, rd, ReduceOp::AbsSum, ct);
  } else if (p == 2) {
    r = run(src, rd, ReduceOp::SqSum, ct);
    update_floats(r, [](auto x, int64_t) { return std::sqrt(x); });
  } else if (p == inf || p == -inf) {
    r = run(src, rd, p > 0 ? ReduceOp::AbsMax : ReduceOp::AbsMin, ct);
  } else {
    r = run(src, rd, ReduceOp::PowSum, ct, p);
    update_floats(r, [p](auto x, int64_t) { return std::pow(x, 1.0 / p); });
  }
  return finish(r, rd, src.dtype());
}

Tensor norm_str(const Tensor& t, const std::string& p, const OptDims& dim, bool keepdim,
                std::optional<DType> dtype) {
  TZ_CHECK(p != "nuc", NotImplemented, "norm(): the nuclear norm is not supported");
  TZ_CHECK(p == "fro", Runtime, "norm(): Order ", p, " not supported.");
  return norm(t, 2.0, dim, keepdim, dtype);
}

Tensor logsumexp(const Tensor& t, const IntList& dim, bool keepdim) {
  check_plain(t, "logsumexp");
  ReduceDims rd = reduce_dims(t, dim, keepdim, "logsumexp");
  DType out = is_integral(t.dtype(), true) ? default_float_dtype() : t.dtype();
  TZ_CHECK(is_floating(out), Runtime, "logsumexp(): not implemented for '", scalar_type_name(out), "'");
  DType ct = compute_dtype(out);
  const auto u = unrepeat(t, rd);
  const ReduceDims& distinct = u ? u->rd : rd;
  Tensor in = to_dtype(u ? u->in : t, ct);
  // Shift by the max so exp never overflows; infinite maxima shift by 0 instead.
  Tensor shift = reduce(in, distinct, ReduceArgs{ReduceOp::Max, ct});
  update_floats(shift, [](auto x, int64_t) { return std::isinf(x) ? decltype(x)(0) : x; });
  Tensor s = reduce(in, distinct, ReduceArgs{ReduceOp::ExpDevSum, ct, 0, shift.raw_data()});
  if (u) repeat_combine(s, ReduceOp::ExpDevSum, u->times);
  TZ_DISPATCH_FLOATING(ct, "logsumexp", [&] {
    const scalar_t* c = shift.data<scalar_t>();
    update_floats(s, [c](auto x, int64_t i) { return std::log(x) + c[i]; });
  });
  return finish(s, rd, out);
}

namespace {
Tensor all_any(const Tensor& t, const OptDims& dim, bool keepdim, bool is_all) {
  const char* name = is_all ? "all" : "any";
  check_plain(t, name);
  ReduceDims rd = reduce_dims(t, dim, keepdim, name);
  std::optional<DType> via = t.dtype() == DType::UInt8 ? std::nullopt : std::optional<DType>(DType::Bool);
  Tensor r = run(t, rd, is_all ? ReduceOp::Min : ReduceOp::Max, DType::UInt8, 0, nullptr, via);
  Tensor truth = to_dtype(reshaped(r, rd.out_shape), DType::Bool);
  return t.dtype() == DType::UInt8 ? to_dtype(truth, DType::UInt8) : truth;
}
}  // namespace

Tensor all(const Tensor& t, const OptDims& dim, bool keepdim) { return all_any(t, dim, keepdim, true); }
Tensor any(const Tensor& t, const OptDims& dim, bool keepdim) { return all_any(t, dim, keepdim, false); }

Tensor count_nonzero(const Tensor& t, const OptDims& dim) {
  check_plain(t, "count_nonzero");
  ReduceDims rd = reduce_dims(t, dim, false, "count_nonzero");
  return finish(run(t, rd, ReduceOp::Sum, DType::Int64, 0, nullptr, DType::Bool), rd, DType::Int64);
}

}  // namespace tz
