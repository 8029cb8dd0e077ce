#include "ops/random.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "autograd/op_node.h"
#include "iter/tensor_iter.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/elementwise.h"
#include "random/distributions.h"
#include "random/multinomial.h"
#include "random/normal.h"
#include "random/randperm.h"

namespace tz {

namespace {

// ------------------------------------------------------------------ shared checks

void check_floating(const Tensor& t, const char* op) {
  TZ_CHECK(is_floating(t.dtype()), NotImplemented, op, "(): expected a floating point tensor, but got dtype ",
           dtype_name(t.dtype()));
}

// In-place samplers write every element once: a tensor whose elements share memory
// (an expanded one) cannot take them.
void check_writable(const Tensor& t, const char* op) {
  for (int64_t d = 0; d < t.dim(); ++d)
    TZ_CHECK(t.sizes()[d] <= 1 || t.strides()[d] != 0, Runtime, op,
             "(): unsupported operation: more than one element of the written-to tensor refers to a "
             "single memory location. Please clone() the tensor before performing the operation.");
}

// A real view (float32 or float64) of a complex tensor's (real, imag) pairs, sharing storage.
Tensor real_view(const Tensor& t) {
  Shape sizes = t.sizes(), strides = t.strides();
  for (int64_t& s : strides) s *= 2;
  sizes.push_back(2);
  strides.push_back(1);
  return Tensor(std::make_shared<TensorImpl>(t.storage(), sizes, strides, t.offset() * 2,
                                             complex_part_dtype(t.dtype()), t.impl()->version));
}

// Mantissa digits of a floating dtype.
int mantissa_digits(DType dt) {
  switch (dt) {
    case DType::Float16: return 11;
    case DType::BFloat16: return 8;
    case DType::Float32: return 24;
    default: return 53;
  }
}

// The range of finite values of a floating dtype.
double floating_max(DType dt) {
  switch (dt) {
    case DType::Float16: return 65504.0;
    case DType::BFloat16: return 3.3895313892515355e38;
    case DType::Float32: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

// [lowest, max] of an integral dtype (bool is [0, 1]).
std::pair<int64_t, int64_t> integral_range(DType dt) {
  switch (dt) {
    case DType::Bool: return {0, 1};
    case DType::UInt8: return {0, 255};
    case DType::Int8: return {-128, 127};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: return {INT32_MIN, INT32_MAX};
    default: return {INT64_MIN, INT64_MAX};
  }
}

// v rounded to a floating dtype (as PyTorch casts its bounds).
double rounded_to(int64_t v, DType dt) {
  switch (dt) {
    case DType::Float16: return static_cast<float>(Half(static_cast<float>(v)));
    case DType::BFloat16: return static_cast<float>(BFloat16(static_cast<float>(v)));
    case DType::Float32: return static_cast<float>(v);
    default: return static_cast<double>(v);
  }
}

// PyTorch's update_from / update_to: a bound the dtype cannot hold moves inwards to a
// value whose neighbour it can.
int64_t step_below(int64_t v, DType dt) {
  int n = 0;
  for (uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); mag >>= 1;) ++n;
  int shift = n - mantissa_digits(dt) + 1;
  return shift > 0 ? int64_t(1) << shift : 1;
}

int64_t update_from(int64_t from, DType dt) {
  if (from == INT64_MAX) return from;
  double r = rounded_to(from + 1, dt);
  if (!(std::fabs(r) < 9.2e18) || static_cast<int64_t>(r) >= from) return from;
  return static_cast<int64_t>(r) + step_below(from + 1, dt);
}

int64_t update_to(int64_t to, DType dt) {
  if (to == INT64_MIN) return to;
  double r = rounded_to(to - 1, dt);
  if (!(std::fabs(r) < 9.2e18) || static_cast<int64_t>(r) < to) return to;
  return static_cast<int64_t>(r) - step_below(to - 1, dt);
}

// Bounds of random_ and randint: the dtype's range (finite range for floating dtypes).
void check_bounds(int64_t from, int64_t to_inc, DType dt, const char* op) {
  double lo, hi;
  if (is_floating(dt)) {
    hi = floating_max(dt);
    lo = -hi;
  } else {
    auto range = integral_range(dt);
    lo = static_cast<double>(range.first);
    hi = static_cast<double>(range.second);
  }
  TZ_CHECK(from >= lo && from <= hi, Runtime, op, "(): from is out of bounds for ", dtype_name(dt));
  TZ_CHECK(to_inc >= lo && to_inc <= hi, Runtime, op, "(): to - 1 is out of bounds for ", dtype_name(dt));
}

// Fills t with integers in [from, to) (to absent: up to the dtype's maximum), after
// PyTorch's checks. No version bump: callers decide.
void fill_from_to(const Tensor& t, int64_t from, std::optional<int64_t> to, Generator& g, const char* op) {
  TZ_CHECK(!is_complex(t.dtype()) && !is_quantized(t.dtype()), NotImplemented, op,
           "(): not implemented for dtype ", dtype_name(t.dtype()));
  const DType dt = t.dtype();
  if (to) {
    int64_t end = *to;
    TZ_CHECK(from < end, Runtime, op, "(): expected 'from' to be less than 'to', but got from=", from,
             " >= to=", end);
    if (is_floating(dt)) {
      from = update_from(from, dt);
      end = update_to(end, dt);
      TZ_CHECK(from < end, Runtime, op, "(): expected 'from' cast to ", dtype_name(dt),
               " to be less than 'to' cast to it, but got from=", from, " >= to=", end);
    }
    check_bounds(from, end - 1, dt, op);
    if (t.numel() == 0) return;
    random_from_to_kernel(t, static_cast<uint64_t>(end) - static_cast<uint64_t>(from), from, g);
  } else if (from != std::numeric_limits<int64_t>::lowest()) {
    int64_t to_inc = integral_range(dt).second;
    if (is_floating(dt)) {
      to_inc = int64_t(1) << mantissa_digits(dt);
      from = update_from(from, dt);
      TZ_CHECK(from < to_inc, Runtime, op, "(): expected 'from' cast to ", dtype_name(dt),
               " to be less than ", to_inc, ", but got from=", from);
    }
    check_bounds(from, to_inc, dt, op);
    if (t.numel() == 0) return;
    random_from_to_kernel(t, static_cast<uint64_t>(to_inc) - static_cast<uint64_t>(from) + 1, from, g);
  } else {
    if (t.numel() == 0) return;
    random_full_range_kernel(t, g);
  }
}

// uniform_ without the version bump, shared by rand and rand_like.
void fill_uniform(const Tensor& t, double from, double to, Generator& g, const char* op) {
  if (is_complex(t.dtype())) return fill_uniform(real_view(t), from, to, g, op);
  check_floating(t, op);
  TZ_CHECK(from <= to, Runtime, op, "(): expected a [from, to) range, but found from=", from, " > to=", to);
  const double max = floating_max(t.dtype());
  TZ_CHECK(from >= -max && from <= max, Runtime, op, "(): from is out of bounds for ", dtype_name(t.dtype()));
  TZ_CHECK(to >= -max && to <= max, Runtime, op, "(): to is out of bounds for ", dtype_name(t.dtype()));
  TZ_CHECK(to - from <= max, Runtime, op, "(): expected to - from <= the largest ", dtype_name(t.dtype()),
           ", but found to=", to, " and from=", from);
  if (t.numel() == 0) return;
  uniform_kernel(t, from, to, g);
}

void check_std(double std, const char* op) {
  TZ_CHECK(std >= 0.0, Runtime, op, "(): expected std >= 0.0, but found std ", std);
}

// normal_ without the version bump.
void fill_normal(const Tensor& t, double mean, double std, Generator& g, const char* op) {
  check_std(std, op);
  // Real and imaginary parts each carry half of the variance.
  if (is_complex(t.dtype())) return fill_normal(real_view(t), mean, std / std::sqrt(2.0), g, op);
  check_floating(t, op);
  normal_kernel(t, mean, std, g);
}

void check_std_tensor(const Tensor& std, const char* op) {
  TZ_CHECK(!is_complex(std.dtype()), Runtime, op, "(): expected a non-complex standard deviation");
  Tensor values = contiguous(to_dtype(std, DType::Float64));
  const double* v = values.data<double>();
  for (int64_t i = 0; i < values.numel(); ++i)
    TZ_CHECK(v[i] >= 0.0, Runtime, op, "(): expected all elements of std >= 0.0");
}

template <typename Fill>
const Tensor& in_place(const Tensor& self, const char* op, Fill fill) {
  check_writable(self, op);
  fill();
  self.bump_version();
  return self;
}

}  // namespace

// ------------------------------------------------------------------ in-place samplers

const Tensor& uniform_(const Tensor& self, double from, double to, const GeneratorPtr& g) {
  return in_place(self, "uniform_", [&] { fill_uniform(self, from, to, generator_or_default(g), "uniform_"); });
}

const Tensor& normal_(const Tensor& self, double mean, double std, const GeneratorPtr& g) {
  return in_place(self, "normal_", [&] { fill_normal(self, mean, std, generator_or_default(g), "normal_"); });
}

const Tensor& random_(const Tensor& self, const GeneratorPtr& g) {
  return in_place(self, "random_", [&] {
    TZ_CHECK(!is_complex(self.dtype()) && !is_quantized(self.dtype()), NotImplemented,
             "random_(): not implemented for dtype ", dtype_name(self.dtype()));
    if (self.numel()) random_kernel(self, generator_or_default(g));
  });
}

const Tensor& random_(const Tensor& self, int64_t to, const GeneratorPtr& g) {
  return random_(self, 0, to, g);
}

const Tensor& random_(const Tensor& self, int64_t from, std::optional<int64_t> to, const GeneratorPtr& g) {
  return in_place(self, "random_", [&] { fill_from_to(self, from, to, generator_or_default(g), "random_"); });
}

const Tensor& bernoulli_(const Tensor& self, double p, const GeneratorPtr& g) {
  return in_place(self, "bernoulli_", [&] {
    TZ_CHECK(p >= 0 && p <= 1, Runtime, "bernoulli_(): expected p to be in [0, 1], but got p=", p);
    bernoulli_kernel(self, p, generator_or_default(g));
  });
}

const Tensor& bernoulli_(const Tensor& self, const Tensor& p, const GeneratorPtr& g) {
  return in_place(self, "bernoulli_", [&] {
    TZ_CHECK(is_floating(p.dtype()), NotImplemented,
             "bernoulli_(): expected a floating point tensor of probabilities, but got dtype ", dtype_name(p.dtype()));
    Shape shape = broadcast_shapes(self.sizes(), p.sizes(), "bernoulli_");
    TZ_CHECK(shape == self.sizes(), Runtime, "bernoulli_(): probabilities of shape ", shape_str(p.sizes()),
             " do not broadcast to the shape ", shape_str(self.sizes()));
    bernoulli_kernel(self, p, generator_or_default(g));
  });
}

const Tensor& exponential_(const Tensor& self, double lambd, const GeneratorPtr& g) {
  return in_place(self, "exponential_", [&] {
    TZ_CHECK(lambd > 0.0 && std::isfinite(lambd), Runtime,
             "exponential_(): expected lambda > 0.0, but found lambda=", lambd);
    check_floating(self, "exponential_");
    exponential_kernel(self, lambd, generator_or_default(g));
  });
}

const Tensor& cauchy_(const Tensor& self, double median, double sigma, const GeneratorPtr& g) {
  return in_place(self, "cauchy_", [&] {
    TZ_CHECK(sigma > 0.0, Runtime, "cauchy_(): expected sigma > 0.0, but found sigma=", sigma);
    check_floating(self, "cauchy_");
    cauchy_kernel(self, median, sigma, generator_or_default(g));
  });
}

const Tensor& log_normal_(const Tensor& self, double mean, double std, const GeneratorPtr& g) {
  return in_place(self, "log_normal_", [&] {
    TZ_CHECK(std > 0.0, Runtime, "log_normal_(): expected std > 0.0, but found std=", std);
    check_floating(self, "log_normal_");
    log_normal_kernel(self, mean, std, generator_or_default(g));
  });
}

const Tensor& geometric_(const Tensor& self, double p, const GeneratorPtr& g) {
  return in_place(self, "geometric_", [&] {
    TZ_CHECK(p > 0.0 && p < 1.0, Runtime, "geometric_(): expected p to be in (0, 1), but got p=", p);
    geometric_kernel(self, p, generator_or_default(g));
  });
}

// ------------------------------------------------------------------ factories

Tensor rand(const Shape& size, const GeneratorPtr& g, std::optional<DType> dtype) {
  Tensor t = Tensor::empty(size, dtype.value_or(default_float_dtype()));
  fill_uniform(t, 0.0, 1.0, generator_or_default(g), "rand");
  return t;
}

Tensor randn(const Shape& size, const GeneratorPtr& g, std::optional<DType> dtype) {
  Tensor t = Tensor::empty(size, dtype.value_or(default_float_dtype()));
  fill_normal(t, 0.0, 1.0, generator_or_default(g), "randn");
  return t;
}

Tensor randint(int64_t low, int64_t high, const Shape& size, const GeneratorPtr& g, std::optional<DType> dtype) {
  Tensor t = Tensor::empty(size, dtype.value_or(DType::Int64));
  fill_from_to(t, low, high, generator_or_default(g), "randint");
  return t;
}

Tensor randperm(int64_t n, const GeneratorPtr& g, std::optional<DType> dtype) {
  TZ_CHECK(n >= 0, Runtime, "randperm(): n must be non-negative, got ", n);
  const DType dt = dtype.value_or(DType::Int64);
  TZ_CHECK(dt != DType::Bool && !is_complex(dt) && !is_quantized(dt), NotImplemented,
           "randperm(): not implemented for dtype ", dtype_name(dt));
  // Every value must be exact in a floating result.
  if (dt == DType::Float16 || dt == DType::Float32 || dt == DType::Float64)
    TZ_CHECK(n <= (int64_t(1) << mantissa_digits(dt)) + 1, Runtime, "randperm(): n cannot be greater than 2^",
             mantissa_digits(dt), "+1 for ", dtype_name(dt));
  Tensor t = Tensor::empty({n}, dt);
  randperm_kernel(t, generator_or_default(g));
  return t;
}

Tensor rand_like(const Tensor& self, const GeneratorPtr& g, std::optional<DType> dtype) {
  Tensor t = empty_like(self, dtype);
  fill_uniform(t, 0.0, 1.0, generator_or_default(g), "rand_like");
  return t;
}

Tensor randn_like(const Tensor& self, const GeneratorPtr& g, std::optional<DType> dtype) {
  Tensor t = empty_like(self, dtype);
  fill_normal(t, 0.0, 1.0, generator_or_default(g), "randn_like");
  return t;
}

Tensor randint_like(const Tensor& self, int64_t low, int64_t high, const GeneratorPtr& g,
                    std::optional<DType> dtype) {
  Tensor t = empty_like(self, dtype);
  fill_from_to(t, low, high, generator_or_default(g), "randint_like");
  return t;
}

// ------------------------------------------------------------------ normal

// PyTorch samples N(0, 1) (or N(0, std)) and then scales and shifts with separate
// in-place ops, so the roundings match its mul_ and add_.
Tensor normal(const Tensor& mean, const Tensor& std, const GeneratorPtr& g) {
  check_std_tensor(std, "normal");
  Tensor out = Tensor::empty(broadcast_shapes(mean.sizes(), std.sizes(), "normal"), mean.dtype());
  fill_normal(out, 0.0, 1.0, generator_or_default(g), "normal");
  binary_op_(BinaryOp::Mul, out, std, "normal");
  binary_op_(BinaryOp::Add, out, mean, "normal");
  out.impl()->version->version = 0;
  return out;
}

Tensor normal(const Tensor& mean, double std, const GeneratorPtr& g) {
  check_std(std, "normal");
  Tensor out = Tensor::empty(mean.sizes(), mean.dtype());
  fill_normal(out, 0.0, std, generator_or_default(g), "normal");
  binary_op_(BinaryOp::Add, out, mean, "normal");
  out.impl()->version->version = 0;
  return out;
}

Tensor normal(double mean, const Tensor& std, const GeneratorPtr& g) {
  check_std_tensor(std, "normal");
  Tensor out = Tensor::empty(std.sizes(), std.dtype());
  fill_normal(out, 0.0, 1.0, generator_or_default(g), "normal");
  binary_op_(BinaryOp::Mul, out, std, "normal");
  binary_op_(BinaryOp::Add, out, full({}, Scalar(mean), out.dtype()), "normal");
  out.impl()->version->version = 0;
  return out;
}

Tensor normal(double mean, double std, const Shape& size, const GeneratorPtr& g, std::optional<DType> dtype) {
  Tensor out = Tensor::empty(size, dtype.value_or(default_float_dtype()));
  fill_normal(out, mean, std, generator_or_default(g), "normal");
  return out;
}

// ------------------------------------------------------------------ bernoulli, multinomial

Tensor bernoulli(const Tensor& self, const GeneratorPtr& g) {
  Tensor out = Tensor::empty(self.sizes(), self.dtype());
  bernoulli_(out, self, g);
  out.impl()->version->version = 0;
  return out;
}

Tensor bernoulli(const Tensor& self, double p, const GeneratorPtr& g) {
  Tensor out = Tensor::empty(self.sizes(), self.dtype());
  bernoulli_(out, p, g);
  out.impl()->version->version = 0;
  return out;
}

Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement, const GeneratorPtr& g) {
  TZ_CHECK(self.dim() == 1 || self.dim() == 2, Runtime, "multinomial(): prob_dist must be 1 or 2 dim");
  TZ_CHECK(is_floating(self.dtype()), Runtime,
           "multinomial(): multinomial only supports floating-point dtypes for input, got: ", dtype_name(self.dtype()));
  TZ_CHECK(num_samples > 0, Runtime, "multinomial(): cannot sample n_sample <= 0 samples");
  const int64_t categories = self.size(-1);
  TZ_CHECK(replacement || num_samples <= categories, Runtime,
           "multinomial(): cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  TZ_CHECK(categories <= (int64_t(1) << 24), Runtime, "multinomial(): number of categories cannot exceed 2^24");
  Tensor out = self.dim() == 1 ? Tensor::empty({num_samples}, DType::Int64)
                               : Tensor::empty({self.size(0), num_samples}, DType::Int64);
  if (out.numel() == 0) return out;
  Generator& gen = generator_or_default(g);
  if (replacement && num_samples > 1) {
    multinomial_with_replacement_kernel(self, num_samples, out, gen);
    return out;
  }
  // Without replacement: rank p / q for q ~ Exp(1) (Gumbel-top-k), as PyTorch does.
  Tensor values = contiguous(to_dtype(self, DType::Float64));
  const double* v = values.data<double>();
  const int64_t rows = values.numel() / std::max<int64_t>(categories, 1);
  for (int64_t i = 0; i < values.numel(); ++i)
    TZ_CHECK(v[i] >= 0 && std::isfinite(v[i]), Runtime,
             "multinomial(): probability tensor contains either `inf`, `nan` or element < 0");
  for (int64_t r = 0; r < rows; ++r) {
    bool any = false;
    for (int64_t j = 0; j < categories; ++j) any = any || v[r * categories + j] != 0;
    TZ_CHECK(any, Runtime, "multinomial(): invalid multinomial distribution (sum of probabilities <= 0)");
  }
  Tensor keys = empty_like(self);
  exponential_kernel(keys, 1.0, gen);
  multinomial_top_keys(self, keys, num_samples, out);
  return out;
}

// ------------------------------------------------------------------ autograd

TensorList zero_grads(BackwardContext& c) {
  TensorList grads(c.inputs.size());
  for (size_t i = 0; i < grads.size(); ++i)
    if (c.needs_grad_at(i)) grads[i] = zeros(c.input_sizes_at(i), c.inputs.at(i).dtype);
  return grads;
}

}  // namespace tz
