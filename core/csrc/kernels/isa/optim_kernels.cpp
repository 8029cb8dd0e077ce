// Fused optimizer updates (see kernels/optim.h). Each slice is processed in blocks of
// kBlock elements: a handful of simple loops per block (each one vectorises), with the
// temporaries in L1, so one pass over memory does what the op-by-op formula does in many.
// Every line is the op-by-op formula's operation in its order (no contraction: the files
// build with -ffp-contract=off), so the results are bit-identical to the composite path.
#include <cmath>

#include "kernels/optim.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

constexpr int64_t kBlock = 512;

template <typename T> using Ptr = T* __restrict;
template <typename T> using CPtr = const T* __restrict;

// d <- (maximize ? -g : g) + wd * p   (the L2 term only when wd != 0)
template <typename T>
void effective_grad(Ptr<T> d, CPtr<T> g, CPtr<T> p, int64_t n, bool maximize, double wd) {
  if (maximize)
    for (int64_t i = 0; i < n; ++i) d[i] = -g[i];
  else
    for (int64_t i = 0; i < n; ++i) d[i] = g[i];
  if (wd != 0) {
    const T w = T(wd);
    for (int64_t i = 0; i < n; ++i) d[i] = d[i] + w * p[i];
  }
}

// a <- a * s + c * b   (a.mul_(s).add_(b, alpha=c))
template <typename T> void decay_add(Ptr<T> a, CPtr<T> b, T s, T c, int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] = a[i] * s + c * b[i];
}
// a <- a * s + c * (b * b)   (a.mul_(s).add_(b * b, alpha=c))
template <typename T> void decay_add_sq(Ptr<T> a, CPtr<T> b, T s, T c, int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] = a[i] * s + c * (b[i] * b[i]);
}
// p <- p + c * b   (p.add_(b, alpha=c))
template <typename T> void axpy(Ptr<T> p, CPtr<T> b, T c, int64_t n) {
  for (int64_t i = 0; i < n; ++i) p[i] = p[i] + c * b[i];
}
// p <- p + c * (a / b)
template <typename T> void axpy_div(Ptr<T> p, CPtr<T> a, CPtr<T> b, T c, int64_t n) {
  for (int64_t i = 0; i < n; ++i) p[i] = p[i] + c * (a[i] / b[i]);
}
// NaN-propagating maximum (torch.maximum / amax).
template <typename T> inline T nan_max(T a, T b) { return (a < b || b != b) ? b : a; }

template <typename T> struct Slice {
  T* p;
  const T* g;
  T* s0;
  T* s1;
  T* s2;
};

template <typename T> void sgd_block(const OptimHyper& h, const Slice<T>& x, int64_t n) {
  T d[kBlock];
  effective_grad<T>(d, x.g, x.p, n, h.maximize, h.weight_decay);
  const T* step = d;
  if (h.momentum != 0) {
    T* buf = x.s0;
    if (h.first)
      for (int64_t i = 0; i < n; ++i) buf[i] = d[i];
    else
      decay_add<T>(buf, d, T(h.momentum), T(1.0 - h.dampening), n);
    if (h.nesterov) axpy<T>(d, buf, T(h.momentum), n);
    else step = buf;
  }
  axpy<T>(x.p, step, T(-h.lr), n);
}

template <typename T> void rmsprop_block(const OptimHyper& h, const Slice<T>& x, int64_t n) {
  T d[kBlock], avg[kBlock];
  effective_grad<T>(d, x.g, x.p, n, h.maximize, h.weight_decay);
  T* sq = x.s0;
  const T a = T(h.alpha), c = T(1.0 - h.alpha), eps = T(h.eps);
  decay_add_sq<T>(sq, d, a, c, n);
  if (h.centered) {
    T* ga = x.s2;
    decay_add<T>(ga, d, a, c, n);
    for (int64_t i = 0; i < n; ++i) avg[i] = std::sqrt(sq[i] - ga[i] * ga[i]) + eps;
  } else {
    for (int64_t i = 0; i < n; ++i) avg[i] = std::sqrt(sq[i]) + eps;
  }
  if (h.momentum > 0) {
    T* buf = x.s1;
    const T m = T(h.momentum);
    for (int64_t i = 0; i < n; ++i) buf[i] = buf[i] * m + d[i] / avg[i];
    axpy<T>(x.p, buf, T(-h.lr), n);
  } else {
    axpy_div<T>(x.p, d, avg, T(-h.lr), n);
  }
}

template <typename T> void adam_block(const OptimHyper& h, const Slice<T>& x, int64_t n) {
  T d[kBlock], denom[kBlock];
  if (h.decoupled && h.weight_decay != 0) {
    const T keep = T(1.0 - h.lr * h.weight_decay);
    for (int64_t i = 0; i < n; ++i) x.p[i] = x.p[i] * keep;
  }
  effective_grad<T>(d, x.g, x.p, n, h.maximize, h.decoupled ? 0.0 : h.weight_decay);
  T* m = x.s0;
  T* v = x.s1;
  decay_add<T>(m, d, T(h.beta1), T(1.0 - h.beta1), n);
  decay_add_sq<T>(v, d, T(h.beta2), T(1.0 - h.beta2), n);
  const T* second = v;
  if (h.amsgrad) {
    T* mx = x.s2;
    for (int64_t i = 0; i < n; ++i) mx[i] = nan_max(mx[i], v[i]);
    second = mx;
  }
  const T bc2 = T(h.bias_correction2_sqrt), eps = T(h.eps);
  for (int64_t i = 0; i < n; ++i) denom[i] = std::sqrt(second[i]) / bc2 + eps;
  axpy_div<T>(x.p, m, denom, T(-h.step_size), n);
}

template <typename T> void adagrad_block(const OptimHyper& h, const Slice<T>& x, int64_t n) {
  T d[kBlock], std_[kBlock];
  effective_grad<T>(d, x.g, x.p, n, h.maximize, h.weight_decay);
  T* sum = x.s0;
  const T eps = T(h.eps);
  for (int64_t i = 0; i < n; ++i) sum[i] = sum[i] + d[i] * d[i];
  for (int64_t i = 0; i < n; ++i) std_[i] = std::sqrt(sum[i]) + eps;
  axpy_div<T>(x.p, d, std_, T(-h.step_size), n);
}

template <typename T> void adadelta_block(const OptimHyper& h, const Slice<T>& x, int64_t n) {
  T d[kBlock], delta[kBlock];
  effective_grad<T>(d, x.g, x.p, n, h.maximize, h.weight_decay);
  T* sq = x.s0;
  T* acc = x.s1;
  const T rho = T(h.alpha), c = T(1.0 - h.alpha), eps = T(h.eps);
  decay_add_sq<T>(sq, d, rho, c, n);
  for (int64_t i = 0; i < n; ++i) delta[i] = std::sqrt(acc[i] + eps) / std::sqrt(sq[i] + eps) * d[i];
  axpy<T>(x.p, delta, T(-h.lr), n);
  decay_add_sq<T>(acc, delta, rho, c, n);
}

template <typename T> void adamax_block(const OptimHyper& h, const Slice<T>& x, int64_t n) {
  T d[kBlock];
  effective_grad<T>(d, x.g, x.p, n, h.maximize, h.weight_decay);
  T* m = x.s0;
  T* u = x.s1;
  const T b2 = T(h.beta2), eps = T(h.eps);
  decay_add<T>(m, d, T(h.beta1), T(1.0 - h.beta1), n);
  for (int64_t i = 0; i < n; ++i) u[i] = nan_max(u[i] * b2, std::abs(d[i]) + eps);
  axpy_div<T>(x.p, m, u, T(-h.step_size), n);
}

template <typename T>
void run(OptimKind kind, const OptimHyper& h, char* const* data, int64_t n) {
  auto at = [&](int k, int64_t off) { return data[k] ? reinterpret_cast<T*>(data[k]) + off : nullptr; };
  for (int64_t off = 0; off < n; off += kBlock) {
    const int64_t len = std::min(kBlock, n - off);
    const Slice<T> x{at(0, off), at(1, off), at(2, off), at(3, off), at(4, off)};
    switch (kind) {
      case OptimKind::SGD: sgd_block<T>(h, x, len); break;
      case OptimKind::RMSprop: rmsprop_block<T>(h, x, len); break;
      case OptimKind::Adam: adam_block<T>(h, x, len); break;
      case OptimKind::Adagrad: adagrad_block<T>(h, x, len); break;
      case OptimKind::Adadelta: adadelta_block<T>(h, x, len); break;
      case OptimKind::Adamax: adamax_block<T>(h, x, len); break;
    }
  }
}

void fused_optim_kernel(OptimKind kind, DType dtype, const OptimHyper& h, char* const* data, int64_t n) {
  if (dtype == DType::Float64) return run<double>(kind, h, data, n);
  run<float>(kind, h, data, n);
}

}  // namespace

TZ_REGISTER_KERNEL(fused_optim_stub, &fused_optim_kernel);

}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
