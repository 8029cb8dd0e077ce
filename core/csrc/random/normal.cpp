#include "random/normal.h"

#include <cmath>
#include <vector>

#include "iter/thread_pool.h"
#include "kernels/random.h"
#include "random/counter_sampling.h"
#include "random/sampling.h"
#include "random/serial_fill.h"

namespace tz {

namespace {

constexpr int64_t kBlock = 16;
constexpr int64_t kBlocksPerTask = 4096;

// The double version of the block transform: libm's log, sin and cos.
void double_blocks(double* data, int64_t nblocks, double mean, double std) {
  for (int64_t b = 0; b < nblocks; ++b, data += kBlock) {
    for (int j = 0; j < 8; ++j) {
      double u1 = 1.0 - data[j];
      double u2 = data[j + 8];
      double radius = std::sqrt(-2.0 * std::log(u1));
      double theta = (2.0 * sampling::kPi) * u2;
      data[j] = std::fma(radius * std::cos(theta), std, mean);
      data[j + 8] = std::fma(radius * std::sin(theta), std, mean);
    }
  }
}

// Blocks are independent once drawn: transform them in parallel.
template <typename T, typename Fn>
void transform_blocks(T* data, int64_t nblocks, Fn fn) {
  parallel_for(0, nblocks, kBlocksPerTask, [&](int64_t b, int64_t e) { fn(data + b * kBlock, e - b); });
}

// Draws `count` uniforms of type T into buf, holding g's lock.
template <typename T>
void draw_uniforms(T* buf, int64_t count, Generator& g) {
  with_engine(g, [&](auto& eng) {
    for (int64_t i = 0; i < count; ++i) buf[i] = sampling::uniform01<T>(eng);
  });
}

// float32 and float64: uniforms for every element, then 16 more for a partial last block.
template <typename T, typename Fn>
void fill_blocks_inplace(const Tensor& self, Generator& g, Fn blocks) {
  T* data = self.data<T>();
  const int64_t n = self.numel(), nfull = n / kBlock;
  T tail[kBlock];
  {
    GeneratorLock lock(g);
    draw_uniforms<T>(data, n, g);
    if (n % kBlock) draw_uniforms<T>(tail, kBlock, g);
  }
  transform_blocks(data, nfull, blocks);
  if (n % kBlock) {
    blocks(tail, 1);
    std::copy(tail, tail + kBlock, data + n - kBlock);
  }
}

// Half types: each block (and the redrawn last one) goes through a float buffer; no
// uniforms are drawn for the partial block's leading elements.
template <typename T>
void fill_blocks_reduced(const Tensor& self, float mean, float std, Generator& g) {
  T* data = self.data<T>();
  const int64_t n = self.numel(), nfull = n / kBlock;
  const int64_t nblocks = nfull + (n % kBlock ? 1 : 0);
  std::vector<float> buf(nblocks * kBlock);
  {
    GeneratorLock lock(g);
    draw_uniforms<float>(buf.data(), nblocks * kBlock, g);
  }
  transform_blocks(buf.data(), nblocks, [&](float* d, int64_t k) { normal_blocks_stub(d, k, mean, std); });
  for (int64_t i = 0; i < nfull * kBlock; ++i) data[i] = T(buf[i]);
  if (n % kBlock)
    for (int64_t i = 0; i < kBlock; ++i) data[n - kBlock + i] = T(buf[nfull * kBlock + i]);
}

}  // namespace

void normal_kernel(const Tensor& self, double mean, double std, Generator& g) {
  if (counter_sampling::normal(self, mean, std, g)) return;
  const DType dt = self.dtype();
  if (self.numel() >= kBlock && self.is_contiguous()) {
    const float fmean = static_cast<float>(mean), fstd = static_cast<float>(std);
    switch (dt) {
      case DType::Float32:
        return fill_blocks_inplace<float>(self, g, [&](float* d, int64_t k) { normal_blocks_stub(d, k, fmean, fstd); });
      case DType::Float64:
        return fill_blocks_inplace<double>(self, g, [&](double* d, int64_t k) { double_blocks(d, k, mean, std); });
      case DType::Float16: return fill_blocks_reduced<Half>(self, fmean, fstd, g);
      case DType::BFloat16: return fill_blocks_reduced<BFloat16>(self, fmean, fstd, g);
      default: break;
    }
  }
  GeneratorLock lock(g);
  with_engine(g, [&](auto& eng) {
    TZ_DISPATCH_SAMPLING_FLOATING(dt, "normal_", [&] {
      fill_serial<scalar_t>(self, [&] { return static_cast<scalar_t>(sampling::normal_double(eng, mean, std)); });
    });
  });
}

}  // namespace tz
