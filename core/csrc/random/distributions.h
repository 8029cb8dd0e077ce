// In-place sampling kernels. Each fills `self` (any layout) from `g` while holding g's
// lock, element by element in memory order, reproducing PyTorch's CPU kernels. Argument
// and dtype checks belong to the front-ends (ops/random.cpp). Counter-based engines
// (Generator::counter_based()) take random/counter_sampling.h's parallel path instead.
#pragma once
#include <cstdint>

#include "random/generator.h"
#include "tensor/tensor.h"

namespace tz {

void uniform_kernel(const Tensor& self, double from, double to, Generator& g);  // floating
void random_kernel(const Tensor& self, Generator& g);  // [0, max] per dtype; real and bool
// [base, base + range) for any real or bool dtype.
void random_from_to_kernel(const Tensor& self, uint64_t range, int64_t base, Generator& g);
// The whole int64 range, for int64 and floating dtypes.
void random_full_range_kernel(const Tensor& self, Generator& g);
void bernoulli_kernel(const Tensor& self, double p, Generator& g);
// p: a floating tensor broadcastable to self.
void bernoulli_kernel(const Tensor& self, const Tensor& p, Generator& g);
void exponential_kernel(const Tensor& self, double lambd, Generator& g);  // floating
void cauchy_kernel(const Tensor& self, double median, double sigma, Generator& g);
void log_normal_kernel(const Tensor& self, double mean, double std, Generator& g);
void geometric_kernel(const Tensor& self, double p, Generator& g);  // real dtypes

}  // namespace tz
