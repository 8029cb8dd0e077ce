// Sampling from counter-based engines (Generator::counter_based(), crypto_rng's AES-CTR
// generators), in torchcsprng's layout: one block stream per call; each 16-byte block is
// cut into sub-blocks of an unsigned type U, and element k of the tensor (in memory
// order, as for the sequential kernels) takes N consecutive sub-blocks: element k uses
// block k / (16 / (N sizeof(U))). A sub-block feeds the distribution as `random()` (its
// low 32 bits) or `random64()` (all of it), and the transforms are those of PyTorch 1.8's
// DistributionsHelper, which torchcsprng 0.2 applies:
//   random_          U = u64 for int64/float64, u16 for half types, else u32; N = 1
//   random_(from,to) U = u64 for int64/float64/float32/bfloat16, else u32; N = 1;
//                    64 bits when the range is >= 2^32 and U is u64, else 32
//   uniform_         U = u64, N = 1: (bits & (2^53 - 1)) 2^-53 (to - from) + from in
//                    double, then rounded to the dtype (a value that rounds up to `to`
//                    becomes `from`, keeping [from, to); torchcsprng keeps `to`)
//   normal_          U = u64, N = 2: Box-Muller, r = sqrt(-2 log(1 - u2)), cos(2 pi u1)
//   log_normal_      exp of normal_
//   exponential_     U = u64, N = 1: -1/lambda log(1 - u)
//   cauchy_          U = u64, N = 1: median + sigma tan(pi (u - 1/2))
//   geometric_       U = u64, N = 1: ceil(log(u) / log(1 - p)) in double, for every real
//                    dtype (torchcsprng uses the dtype's own uniforms, U as random_, whose
//                    24 or 11 bits give u = 0, an infinite sample, far too often; it
//                    rejects integer dtypes)
//   bernoulli_       U = u64, N = 1: u < p with u 53-bit (torchcsprng has no bernoulli_)
// Every function returns false, doing nothing, when g is not counter-based; argument
// checks belong to the front-ends (ops/random.cpp).
#pragma once
#include <cstdint>

#include "random/generator.h"
#include "tensor/tensor.h"

namespace tz::counter_sampling {

bool uniform(const Tensor& self, double from, double to, Generator& g);
bool normal(const Tensor& self, double mean, double std, Generator& g);
bool random(const Tensor& self, Generator& g);
bool random_from_to(const Tensor& self, uint64_t range, int64_t base, Generator& g);
bool random_full_range(const Tensor& self, Generator& g);
bool bernoulli(const Tensor& self, double p, Generator& g);
bool bernoulli(const Tensor& self, const Tensor& p, Generator& g);
bool exponential(const Tensor& self, double lambd, Generator& g);
bool cauchy(const Tensor& self, double median, double sigma, Generator& g);
bool log_normal(const Tensor& self, double mean, double std, Generator& g);
bool geometric(const Tensor& self, double p, Generator& g);

}  // namespace tz::counter_sampling
