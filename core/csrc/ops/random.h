// Random sampling ops: argument checks, dtypes and composition around the kernels in
// random/. Every op takes an optional generator (null: the default one) and, for the
// default CPU engine, gives PyTorch's numbers after the same seed.
#pragma once
#include <optional>

#include "ops/value.h"

namespace tz {

// In-place samplers (Tensor methods); each bumps self's version.
const Tensor& uniform_(const Tensor& self, double from, double to, const GeneratorPtr& g);
const Tensor& normal_(const Tensor& self, double mean, double std, const GeneratorPtr& g);
const Tensor& random_(const Tensor& self, const GeneratorPtr& g);
// [0, to)
const Tensor& random_(const Tensor& self, int64_t to, const GeneratorPtr& g);
// [from, to), or [from, the dtype's maximum] when `to` is absent.
const Tensor& random_(const Tensor& self, int64_t from, std::optional<int64_t> to, const GeneratorPtr& g);
const Tensor& bernoulli_(const Tensor& self, double p, const GeneratorPtr& g);
const Tensor& bernoulli_(const Tensor& self, const Tensor& p, const GeneratorPtr& g);
const Tensor& exponential_(const Tensor& self, double lambd, const GeneratorPtr& g);
const Tensor& cauchy_(const Tensor& self, double median, double sigma, const GeneratorPtr& g);
const Tensor& log_normal_(const Tensor& self, double mean, double std, const GeneratorPtr& g);
const Tensor& geometric_(const Tensor& self, double p, const GeneratorPtr& g);

// Factories.
Tensor rand(const Shape& size, const GeneratorPtr& g, std::optional<DType> dtype);
Tensor randn(const Shape& size, const GeneratorPtr& g, std::optional<DType> dtype);
Tensor randint(int64_t low, int64_t high, const Shape& size, const GeneratorPtr& g,
               std::optional<DType> dtype);
Tensor randperm(int64_t n, const GeneratorPtr& g, std::optional<DType> dtype);
Tensor rand_like(const Tensor& self, const GeneratorPtr& g, std::optional<DType> dtype);
Tensor randn_like(const Tensor& self, const GeneratorPtr& g, std::optional<DType> dtype);
Tensor randint_like(const Tensor& self, int64_t low, int64_t high, const GeneratorPtr& g,
                    std::optional<DType> dtype);

// normal with tensor and/or float parameters (PyTorch's four overloads).
Tensor normal(const Tensor& mean, const Tensor& std, const GeneratorPtr& g);
Tensor normal(const Tensor& mean, double std, const GeneratorPtr& g);
Tensor normal(double mean, const Tensor& std, const GeneratorPtr& g);
Tensor normal(double mean, double std, const Shape& size, const GeneratorPtr& g, std::optional<DType> dtype);

// Samples with self as the probabilities; the result has self's dtype.
Tensor bernoulli(const Tensor& self, const GeneratorPtr& g);
Tensor bernoulli(const Tensor& self, double p, const GeneratorPtr& g);
// Category indices (int64) drawn from the rows of a 1-D or 2-D probability tensor.
Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement, const GeneratorPtr& g);

}  // namespace tz
