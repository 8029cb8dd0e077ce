// Broadcasting elementwise iteration. Operands (outputs first) are broadcast to one shape,
// dimensions are reordered by the first output's strides and coalesced where contiguous,
// and a 1-D inner loop is handed runs of elements with per-operand byte strides.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "iter/thread_pool.h"
#include "tensor/tensor.h"

namespace tz {

// The broadcast shape of several shapes (numpy rules); names `op` in the error.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op);

class TensorIter {
 public:
  static constexpr int kMaxOperands = 8;
  static constexpr int kMaxDims = 16;
  static constexpr int64_t kGrain = 32768;  // elements per parallel chunk, at least

  // `operands` = outputs then inputs; every operand must broadcast to `shape`. The iterator
  // keeps raw pointers: the operands must stay alive while it is used.
  // Building one allocates nothing: small ops spend most of their time here otherwise.
  TensorIter(const std::vector<Tensor>& operands, const Shape& shape)
      : TensorIter(operands.data(), static_cast<int>(operands.size()), shape) {}
  TensorIter(std::initializer_list<Tensor> operands, const Shape& shape)
      : TensorIter(operands.begin(), static_cast<int>(operands.size()), shape) {}
  TensorIter(const Tensor* operands, int num_operands, const Shape& shape);

  int64_t numel() const { return numel_; }
  int num_operands() const { return nops_; }
  int ndim() const { return ndim_; }

  // f(char** data, const int64_t* strides, int64_t n): process n elements; element i of
  // operand k is at data[k] + i * strides[k]. Runs in parallel when large enough.
  template <typename F>
  void for_each(const F& f, int64_t grain = kGrain) const {
    if (numel_ == 0) return;
    if (tiled_) return for_each_tile(f, grain);
    if (numel_ < grain || get_num_threads() == 1) {
      run_range(f, 0, numel_);
      return;
    }
    parallel_for(0, numel_, grain, [&](int64_t b, int64_t e) { run_range(f, b, e); });
  }

  // Serial iteration over [begin, end) of the linear index space.
  template <typename F>
  void run_range(const F& f, int64_t begin, int64_t end) const {
    std::array<char*, kMaxOperands> ptrs;
    std::array<int64_t, kMaxOperands> inner;
    std::array<int64_t, kMaxDims> idx{};
    const int nd = ndim();
    if (nd == 0) {
      for (int k = 0; k < nops_; ++k) ptrs[k] = base_[k], inner[k] = 0;
      f(ptrs.data(), inner.data(), 1);
      return;
    }
    // Decompose `begin` into a multi-index (dim 0 is fastest).
    int64_t rem = begin;
    for (int d = 0; d < nd; ++d) idx[d] = rem % shape_[d], rem /= shape_[d];
    for (int k = 0; k < nops_; ++k) inner[k] = strides_[k][0];
    int64_t pos = begin;
    while (pos < end) {
      for (int k = 0; k < nops_; ++k) {
        char* p = base_[k];
        for (int d = 0; d < nd; ++d) p += idx[d] * strides_[k][d];
        ptrs[k] = p;
      }
      int64_t n = std::min(shape_[0] - idx[0], end - pos);
      f(ptrs.data(), inner.data(), n);
      pos += n;
      idx[0] += n;
      for (int d = 0; d < nd - 1 && idx[d] >= shape_[d]; ++d) idx[d] = 0, idx[d + 1]++;
    }
  }

  // Tile side, in elements, where an input walks dim 1 faster than dim 0 (a transposed view):
  // kTile runs along dim 0 at kTile neighbouring positions of dim 1 reuse that input's cache
  // lines, which element-by-element runs along dim 0 fetch once per element.
  static constexpr int64_t kTile = 32;

  // for_each in tiles of kTile x kTile over dims 0 and 1 (and every index of the outer dims).
  template <typename F>
  void for_each_tile(const F& f, int64_t grain) const {
    const int64_t n0 = shape_[0], n1 = shape_[1];
    const int64_t t0 = (n0 + kTile - 1) / kTile, t1 = (n1 + kTile - 1) / kTile;
    const int64_t tiles = t0 * t1 * (numel_ / (n0 * n1));
    auto run = [&](int64_t begin, int64_t end) {
      std::array<char*, kMaxOperands> base, ptrs;
      std::array<int64_t, kMaxOperands> inner;
      for (int k = 0; k < nops_; ++k) inner[k] = strides_[k][0];
      for (int64_t t = begin; t < end; ++t) {
        const int64_t i0 = t % t0 * kTile, j0 = t / t0 % t1 * kTile;
        for (int k = 0; k < nops_; ++k) base[k] = base_[k] + i0 * strides_[k][0];
        int64_t rem = t / (t0 * t1);
        for (int d = 2; d < ndim_; ++d) {
          const int64_t i = rem % shape_[d];
          rem /= shape_[d];
          for (int k = 0; k < nops_; ++k) base[k] += i * strides_[k][d];
        }
        const int64_t n = std::min(kTile, n0 - i0), j1 = std::min(n1, j0 + kTile);
        for (int64_t j = j0; j < j1; ++j) {
          for (int k = 0; k < nops_; ++k) ptrs[k] = base[k] + j * strides_[k][1];
          f(ptrs.data(), inner.data(), n);
        }
      }
    };
    if (numel_ < grain || get_num_threads() == 1) return run(0, tiles);
    parallel_for(0, tiles, std::max<int64_t>(1, grain / (kTile * kTile)), run);
  }

 private:
  bool tiled_ = false;  // for_each goes by tiles (see kTile)
  int nops_ = 0;
  int ndim_ = 0;
  int64_t numel_ = 0;
  // Only the first ndim_ dims (and nops_ operands) are set.
  std::array<int64_t, kMaxDims> shape_;  // iteration shape, fastest dim first
  std::array<char*, kMaxOperands> base_{};
  std::array<std::array<int64_t, kMaxDims>, kMaxOperands> strides_;  // byte strides per operand
};

}  // namespace tz
