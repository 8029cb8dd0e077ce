// Normalization front-ends: checks, layouts (NCHW planes or channels-last rows), statistics
// in double, per-channel coefficients, then the kernels of kernels/norm.h.
#include "ops/normalization.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "iter/thread_pool.h"
#include "kernels/norm.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/elementwise_util.h"
#include "ops/views.h"
#include "tensor/memory_format.h"

namespace tz {

namespace {

using Doubles = std::vector<double>;

void check_floating(const Tensor& t, const char* name) {
  TZ_CHECK(is_floating(t.dtype()), NotImplemented, name, "(): \"", name, "\" not implemented for '",
           scalar_type_name(t.dtype()), "'");
}

// The channels-last order of dims: N, spatial dims, C.
Shape channels_last_order(int64_t nd) {
  Shape perm{0};
  for (int64_t d = 2; d < nd; ++d) perm.push_back(d);
  perm.push_back(1);
  return perm;
}

// t in dtype ct, dense in format f (contiguous or channels-last).
Tensor in_layout(const Tensor& t, DType ct, MemoryFormat f) { return contiguous(to_dtype(t, ct), f); }

Tensor as_compute(const Tensor& t, DType ct) { return t.defined() ? contiguous(to_dtype(t, ct)) : Tensor(); }
const void* ptr(const Tensor& t) { return t.defined() ? t.raw_data() : nullptr; }

Doubles to_doubles(const Tensor& t) {
  Tensor d = contiguous(to_dtype(t, DType::Float64));
  const double* p = d.data<double>();
  return Doubles(p, p + d.numel());
}
Doubles filled(int64_t n, double v) { return Doubles(static_cast<size_t>(n), v); }

Tensor from_doubles(const Doubles& v, DType dtype, const Shape& shape) {
  Tensor t = Tensor::empty({static_cast<int64_t>(v.size())}, DType::Float64);
  std::copy(v.begin(), v.end(), t.data<double>());
  return reshape(to_dtype(t, dtype), shape);
}

// fn(begin, end) over [0, n), in parallel when the work (n * cost elements) is large.
template <typename Fn> void run(int64_t n, int64_t cost, const Fn& fn) {
  if (n > 1 && n * cost >= 65536 && get_num_threads() > 1 && !in_parallel_region())
    parallel_for(0, n, std::max<int64_t>(1, 16384 / std::max<int64_t>(cost, 1)), fn);
  else if (n > 0)
    fn(0, n);
}

// fn(acc, begin, end) over row chunks, each with its own `width` double accumulators;
// returns their sum.
template <typename Fn> Doubles chunked(int64_t rows, int64_t width, int64_t cost, const Fn& fn) {
  int64_t chunks = 1;
  if (rows * cost >= 65536 && get_num_threads() > 1 && !in_parallel_region())
    chunks = std::min<int64_t>(rows, 4 * get_num_threads());
  Doubles acc(static_cast<size_t>(chunks * width), 0.0);
  run(chunks, rows * cost, [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) fn(acc.data() + k * width, rows * k / chunks, rows * (k + 1) / chunks);
  });
  Doubles out(static_cast<size_t>(width), 0.0);
  for (int64_t k = 0; k < chunks; ++k)
    for (int64_t j = 0; j < width; ++j) out[j] += acc[k * width + j];
  return out;
}

void check_channels(const Tensor& t, int64_t C, const char* what) {
  if (!t.defined()) return;
  TZ_CHECK(t.numel() == C, Runtime, what, " should contain ", C, " elements not ", t.numel());
}

// Per-channel (sum of g, sum of g * (x - center)) of a batch-norm layout.
std::pair<Doubles, Doubles> channel_grad_sums(const Tensor& g, const Tensor& x, const Doubles& center,
                                              bool cl, int64_t N, int64_t C, int64_t HW) {
  const DType ct = x.dtype();
  Doubles sg(C, 0.0), sgx(C, 0.0);
  if (cl) {
    Tensor cen = from_doubles(center, ct, {C});
    Doubles acc = chunked(N * HW, 2 * C, C, [&](double* a, int64_t b, int64_t e) {
      cl_grad_sums_stub(ct, g.raw_data(), x.raw_data(), C, cen.raw_data(), a, a + C, b, e);
    });
    std::copy(acc.begin(), acc.begin() + C, sg.begin());
    std::copy(acc.begin() + C, acc.end(), sgx.begin());
  } else {
    const int64_t P = N * C;
    Doubles pc(P), s1(P), s2(P);
    for (int64_t p = 0; p < P; ++p) pc[p] = center[p % C];
    run(P, HW, [&](int64_t b, int64_t e) {
      plane_grad_sums_stub(ct, g.raw_data(), x.raw_data(), nullptr, HW, pc.data(), s1.data(), s2.data(), b, e);
    });
    for (int64_t p = 0; p < P; ++p) sg[p % C] += s1[p], sgx[p % C] += s2[p];
  }
  return {sg, sgx};
}

// out = [g * a] + x * b + d per channel, in the layout of x.
Tensor channel_affine(const Tensor& g, const Tensor& x, const Doubles& a, const Doubles& b,
                      const Doubles& d, bool cl, int64_t N, int64_t C, int64_t HW) {
  const DType ct = x.dtype();
  Tensor out = empty_in_layout_of(x.sizes(), ct, x);
  Tensor at = g.defined() ? from_doubles(a, ct, {C}) : Tensor();
  Tensor bt = from_doubles(b, ct, {C}), dt = from_doubles(d, ct, {C});
  const void* gp = ptr(g);
  if (cl) {
    run(N * HW, C, [&](int64_t s, int64_t e) {
      cl_affine_stub(ct, gp, x.raw_data(), out.raw_data(), C, ptr(at), bt.raw_data(), dt.raw_data(), s, e);
    });
  } else {
    run(N * C, HW, [&](int64_t s, int64_t e) {
      plane_affine_stub(ct, gp, x.raw_data(), nullptr, out.raw_data(), HW, C, ptr(at), bt.raw_data(),
                        dt.raw_data(), s, e);
    });
  }
  return out;
}

// (sum of (x - pivot), sum of (x - pivot)^2) per plane of n elements, pivots given per plane.
std::pair<Doubles, Doubles> plane_moments(const Tensor& x, int64_t planes, int64_t n, const Doubles& pivot) {
  Doubles s1(planes), s2(planes);
  run(planes, n, [&](int64_t b, int64_t e) {
    plane_moments_stub(x.dtype(), x.raw_data(), n, pivot.data(), s1.data(), s2.data(), b, e);
  });
  return {s1, s2};
}

// The first element of each of `planes` planes of n elements, as pivots.
Doubles plane_pivots(const Tensor& x, int64_t planes, int64_t n) {
  Tensor flat = reshape(x, {planes, n});
  return to_doubles(select(flat, 1, 0));
}

}  // namespace

Tensor3 native_batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                          const Tensor& running_mean, const Tensor& running_var, bool training,
                          double momentum, double eps) {
  TZ_CHECK(input.dim() >= 2, Runtime, "native_batch_norm(): expected an input with 2 or more dims, got ",
           input.dim());
  check_floating(input, "batch_norm");
  const int64_t N = input.size(0), C = input.size(1), M = C ? input.numel() / C : 0, HW = N ? M / N : 0;
  check_channels(weight, C, "weight");
  check_channels(bias, C, "bias");
  check_channels(running_mean, C, "running_mean");
  check_channels(running_var, C, "running_var");
  TZ_CHECK(training || (running_mean.defined() && running_var.defined()), Runtime,
           "native_batch_norm(): running_mean and running_var must be defined in evaluation mode");
  const DType ct = compute_dtype(input.dtype());
  const MemoryFormat format = suggest_memory_format(input);
  const bool cl = format != MemoryFormat::Contiguous;
  Tensor x = in_layout(input, ct, format);

  Doubles mean(C, 0.0), var(C, 1.0);
  if (training && M > 0) {
    Doubles s1(C, 0.0), s2(C, 0.0), pivot;
    if (cl) {
      Tensor first = contiguous(select(reshape(permute(x, channels_last_order(x.dim())), {M, C}), 0, 0));
      pivot = to_doubles(first);
      Doubles acc = chunked(M, 2 * C, C, [&](double* a, int64_t b, int64_t e) {
        cl_moments_stub(ct, x.raw_data(), C, first.raw_data(), a, a + C, b, e);
      });
      std::copy(acc.begin(), acc.begin() + C, s1.begin());
      std::copy(acc.begin() + C, acc.end(), s2.begin());
    } else {
      pivot = plane_pivots(select(x, 0, 0), C, HW);  // x[0, c, first]
      Doubles pp(N * C);
      for (int64_t p = 0; p < N * C; ++p) pp[p] = pivot[p % C];
      auto [p1, p2] = plane_moments(x, N * C, HW, pp);
      for (int64_t p = 0; p < N * C; ++p) s1[p % C] += p1[p], s2[p % C] += p2[p];
    }
    for (int64_t c = 0; c < C; ++c) {
      mean[c] = pivot[c] + s1[c] / M;
      var[c] = std::max(0.0, (s2[c] - s1[c] * s1[c] / M) / M);
    }
  } else if (!training) {
    mean = to_doubles(running_mean);
    var = to_doubles(running_var);
  }
  Doubles invstd(C), scale(C), shift(C);
  const Doubles w = weight.defined() ? to_doubles(weight) : filled(C, 1.0);
  const Doubles b = bias.defined() ? to_doubles(bias) : filled(C, 0.0);
  for (int64_t c = 0; c < C; ++c) {
    invstd[c] = 1.0 / std::sqrt(var[c] + eps);
    scale[c] = w[c] * invstd[c];
    shift[c] = b[c] - mean[c] * scale[c];
  }
  Tensor out = channel_affine(Tensor(), x, {}, scale, shift, cl, N, C, HW);

  if (training && running_mean.defined() && M > 0) {
    Doubles rm = to_doubles(running_mean);
    for (int64_t c = 0; c < C; ++c) rm[c] = (1 - momentum) * rm[c] + momentum * mean[c];
    copy_(running_mean, from_doubles(rm, running_mean.dtype(), running_mean.sizes()));
  }
  if (training && running_var.defined() && M > 0) {
    Doubles rv = to_doubles(running_var);
    const double unbias = M > 1 ? double(M) / double(M - 1) : std::nan("");
    for (int64_t c = 0; c < C; ++c) rv[c] = (1 - momentum) * rv[c] + momentum * var[c] * unbias;
    copy_(running_var, from_doubles(rv, running_var.dtype(), running_var.sizes()));
  }
  // Eval mode too returns the statistics used (PyTorch returns empty tensors there): the
  // backward then never reads the running stats, which training updates in place.
  Tensor save_mean = from_doubles(mean, ct, {C}), save_invstd = from_doubles(invstd, ct, {C});
  return {to_dtype(out, input.dtype()), save_mean, save_invstd};
}

Tensor3 native_batch_norm_backward(const Tensor& grad_out, const Tensor& input, const Tensor& weight,
                                   const Tensor& running_mean, const Tensor& running_var,
                                   const Tensor& save_mean, const Tensor& save_invstd, bool training,
                                   double eps) {
  check_floating(input, "batch_norm_backward");
  TZ_CHECK(grad_out.sizes() == input.sizes(), Runtime, "native_batch_norm_backward(): grad_out of shape ",
           shape_str(grad_out.sizes()), " does not match the input's ", shape_str(input.sizes()));
  const int64_t N = input.size(0), C = input.size(1), M = C ? input.numel() / C : 0, HW = N ? M / N : 0;
  const DType ct = compute_dtype(input.dtype());
  const MemoryFormat format = suggest_memory_format(input);
  const bool cl = format != MemoryFormat::Contiguous;
  Tensor x = in_layout(input, ct, format), g = in_layout(grad_out, ct, format);
  Doubles mean, invstd;
  if (save_mean.defined() && save_mean.numel() == C && save_invstd.defined() && save_invstd.numel() == C) {
    mean = to_doubles(save_mean);
    invstd = to_doubles(save_invstd);
  } else {
    TZ_CHECK(!training && running_mean.defined() && running_var.defined(), Runtime,
             "native_batch_norm_backward(): needs save_mean and save_invstd (training) or the running stats");
    mean = to_doubles(running_mean);
    invstd = to_doubles(running_var);
    for (double& v : invstd) v = 1.0 / std::sqrt(v + eps);
  }
  const Doubles w = weight.defined() ? to_doubles(weight) : filled(C, 1.0);
  auto [sg, sgx] = channel_grad_sums(g, x, mean, cl, N, C, HW);
  Doubles a(C), b(C, 0.0), d(C, 0.0);
  for (int64_t c = 0; c < C; ++c) {
    a[c] = w[c] * invstd[c];
    if (training && M > 0) {
      b[c] = -a[c] * invstd[c] * invstd[c] * sgx[c] / M;
      d[c] = -a[c] * sg[c] / M - b[c] * mean[c];
    }
  }
  Tensor gi = channel_affine(g, x, a, b, d, cl, N, C, HW);
  Doubles gwv(C);
  for (int64_t c = 0; c < C; ++c) gwv[c] = sgx[c] * invstd[c];
  const DType wd = weight.defined() ? weight.dtype() : ct;
  return {to_dtype(gi, input.dtype()), from_doubles(gwv, wd, {C}), from_doubles(sg, wd, {C})};
}

namespace {

// Rows (M) and row length (n) of a layer norm; checks shapes like PyTorch.
std::pair<int64_t, int64_t> layer_norm_dims(const Tensor& input, const IntList& normalized_shape,
                                            const Tensor& weight, const Tensor& bias) {
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  TZ_CHECK(k >= 1, Runtime, "layer_norm(): Expected normalized_shape to be at least 1-dimensional, i.e., "
           "containing at least one element, but got normalized_shape = ", shape_str(normalized_shape));
  for (const Tensor* t : {&weight, &bias})
    TZ_CHECK(!t->defined() || t->sizes() == normalized_shape, Runtime, "layer_norm(): Expected ",
             t == &weight ? "weight" : "bias", " to be of same shape as normalized_shape, but got ",
             t == &weight ? "weight" : "bias", " of shape ", shape_str(t->sizes()), " and normalized_shape = ",
             shape_str(normalized_shape));
  bool ok = input.dim() >= k;
  for (int64_t i = 0; ok && i < k; ++i) ok = input.size(input.dim() - k + i) == normalized_shape[i];
  TZ_CHECK(ok, Runtime, "layer_norm(): Given normalized_shape=", shape_str(normalized_shape),
           ", expected input with shape [*", [&] {
             std::string s;
             for (int64_t v : normalized_shape) s += ", " + std::to_string(v);
             return s;
           }(), "], but got input of size", shape_str(input.sizes()));
  const int64_t n = numel_of(normalized_shape);
  return {n ? input.numel() / n : 0, n};
}

Shape stat_shape(const Tensor& input, int64_t k) {
  Shape s(input.sizes().begin(), input.sizes().end() - k);
  s.insert(s.end(), k, 1);
  return s;
}

// (mean, rstd) of rows of n contiguous elements.
std::pair<Doubles, Doubles> row_stats(const Tensor& x, int64_t rows, int64_t n, double eps) {
  Doubles mean(rows), rstd(rows);
  if (rows == 0 || n == 0) return {mean, rstd};
  Doubles pivot = plane_pivots(x, rows, n);
  auto [s1, s2] = plane_moments(x, rows, n, pivot);
  for (int64_t p = 0; p < rows; ++p) {
    mean[p] = pivot[p] + s1[p] / n;
    rstd[p] = 1.0 / std::sqrt(std::max(0.0, (s2[p] - s1[p] * s1[p] / n) / n) + eps);
  }
  return {mean, rstd};
}

}  // namespace

Tensor3 native_layer_norm(const Tensor& input, const IntList& normalized_shape, const Tensor& weight,
                          const Tensor& bias, double eps) {
  check_floating(input, "layer_norm");
  auto [M, n] = layer_norm_dims(input, normalized_shape, weight, bias);
  const DType ct = compute_dtype(input.dtype());
  Tensor x = contiguous(to_dtype(input, ct));
  auto [mean, rstd] = row_stats(x, M, n, eps);
  Tensor mt = from_doubles(mean, ct, {M}), rt = from_doubles(rstd, ct, {M});
  Tensor w = as_compute(weight, ct), b = as_compute(bias, ct);
  Tensor out = Tensor::empty(input.sizes(), ct);
  run(M, n, [&](int64_t s, int64_t e) {
    rows_normalize_stub(ct, x.raw_data(), out.raw_data(), n, mt.raw_data(), rt.raw_data(), ptr(w), ptr(b), s, e);
  });
  const Shape ss = stat_shape(input, static_cast<int64_t>(normalized_shape.size()));
  return {to_dtype(out, input.dtype()), reshape(mt, ss), reshape(rt, ss)};
}

Tensor3 native_layer_norm_backward(const Tensor& grad_out, const Tensor& input,
                                   const IntList& normalized_shape, const Tensor& mean,
                                   const Tensor& rstd, const Tensor& weight) {
  auto [M, n] = layer_norm_dims(input, normalized_shape, weight, Tensor());
  const DType ct = compute_dtype(input.dtype());
  Tensor x = contiguous(to_dtype(input, ct)), g = contiguous(to_dtype(grad_out, ct));
  Tensor w = as_compute(weight, ct);
  Tensor mt = as_compute(mean, ct), rt = as_compute(rstd, ct);
  const Doubles mu = to_doubles(mt), r = to_doubles(rt);
  Doubles A(M), B(M);
  run(M, n, [&](int64_t s, int64_t e) {
    plane_grad_sums_stub(ct, g.raw_data(), x.raw_data(), ptr(w), n, mu.data(), A.data(), B.data(), s, e);
  });
  Doubles b(M), d(M);
  for (int64_t p = 0; p < M; ++p) {
    b[p] = -r[p] * r[p] * r[p] * B[p] / n;
    d[p] = -r[p] * A[p] / n - b[p] * mu[p];
  }
  Tensor bt = from_doubles(b, ct, {M}), dt = from_doubles(d, ct, {M});
  Tensor gi = Tensor::empty(input.sizes(), ct);
  run(M, n, [&](int64_t s, int64_t e) {
    plane_affine_stub(ct, g.raw_data(), x.raw_data(), ptr(w), gi.raw_data(), n, M, rt.raw_data(),
                      bt.raw_data(), dt.raw_data(), s, e);
  });
  Doubles acc = chunked(M, 2 * n, n, [&](double* a, int64_t s, int64_t e) {
    rows_column_sums_stub(ct, g.raw_data(), x.raw_data(), n, mt.raw_data(), rt.raw_data(), a, a + n, s, e);
  });
  const DType wd = weight.defined() ? weight.dtype() : ct;
  return {to_dtype(gi, input.dtype()), from_doubles(Doubles(acc.begin(), acc.begin() + n), wd, normalized_shape),
          from_doubles(Doubles(acc.begin() + n, acc.end()), wd, normalized_shape)};
}

namespace {
void check_group_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, int64_t N, int64_t C,
                      int64_t HxW, int64_t group) {
  TZ_CHECK(group > 0, Runtime, "group_norm(): Expected num_groups to be positive, but got num_groups=", group);
  TZ_CHECK(C % group == 0, Runtime, "group_norm(): Expected number of channels in input to be divisible by "
           "num_groups, but got input of shape ", shape_str(input.sizes()), " and num_groups=", group);
  TZ_CHECK(input.numel() == N * C * HxW, Runtime, "group_norm(): input of shape ", shape_str(input.sizes()),
           " does not have N * C * HxW = ", N * C * HxW, " elements");
  for (const Tensor* t : {&weight, &bias})
    TZ_CHECK(!t->defined() || (t->dim() == 1 && t->numel() == C), Runtime, "group_norm(): Expected ",
             t == &weight ? "weight" : "bias", " to be a vector of size equal to the number of channels in "
             "input, but got ", t == &weight ? "weight" : "bias", " of shape ", shape_str(t->sizes()),
             " and input of shape ", shape_str(input.sizes()));
}
}  // namespace

Tensor3 native_group_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, int64_t N,
                          int64_t C, int64_t HxW, int64_t group, double eps) {
  check_floating(input, "group_norm");
  check_group_norm(input, weight, bias, N, C, HxW, group);
  const DType ct = compute_dtype(input.dtype());
  Tensor x = contiguous(to_dtype(input, ct));
  const int64_t D = (C / group) * HxW, cpg = C / group;
  auto [mean, rstd] = row_stats(x, N * group, D, eps);
  const Doubles w = weight.defined() ? to_doubles(weight) : filled(C, 1.0);
  const Doubles b = bias.defined() ? to_doubles(bias) : filled(C, 0.0);
  Doubles scale(N * C), shift(N * C);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      const int64_t r = n * group + c / cpg;
      scale[n * C + c] = rstd[r] * w[c];
      shift[n * C + c] = b[c] - mean[r] * rstd[r] * w[c];
    }
  Tensor st = from_doubles(scale, ct, {N * C}), sh = from_doubles(shift, ct, {N * C});
  Tensor out = Tensor::empty(input.sizes(), ct);
  run(N * C, HxW, [&](int64_t s, int64_t e) {
    plane_affine_stub(ct, nullptr, x.raw_data(), nullptr, out.raw_data(), HxW, N * C, nullptr, st.raw_data(),
                      sh.raw_data(), s, e);
  });
  return {to_dtype(out, input.dtype()), from_doubles(mean, ct, {N, group}), from_doubles(rstd, ct, {N, group})};
}

Tensor3 native_group_norm_backward(const Tensor& grad_out, const Tensor& input, const Tensor& mean,
                                   const Tensor& rstd, const Tensor& weight, int64_t N, int64_t C,
                                   int64_t HxW, int64_t group) {
  check_group_norm(input, weight, Tensor(), N, C, HxW, group);
  const DType ct = compute_dtype(input.dtype());
  Tensor x = contiguous(to_dtype(input, ct)), g = contiguous(to_dtype(grad_out, ct));
  const Doubles mu = to_doubles(mean), r = to_doubles(rstd);
  const Doubles w = weight.defined() ? to_doubles(weight) : filled(C, 1.0);
  const int64_t cpg = C / group;
  const double D = double(cpg * HxW);
  Doubles center(N * C), sg(N * C), sgx(N * C);
  for (int64_t p = 0; p < N * C; ++p) center[p] = mu[(p / C) * group + (p % C) / cpg];
  run(N * C, HxW, [&](int64_t s, int64_t e) {
    plane_grad_sums_stub(ct, g.raw_data(), x.raw_data(), nullptr, HxW, center.data(), sg.data(), sgx.data(), s, e);
  });
  Doubles a(N * C), b(N * C), d(N * C);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t q = 0; q < group; ++q) {
      const int64_t row = n * group + q;
      double A = 0, B = 0;
      for (int64_t c = q * cpg; c < (q + 1) * cpg; ++c) A += w[c] * sg[n * C + c], B += w[c] * sgx[n * C + c];
      const double rr = r[row], bc = -rr * rr * rr * B / D, dc = -rr * A / D - bc * mu[row];
      for (int64_t c = q * cpg; c < (q + 1) * cpg; ++c)
        a[n * C + c] = rr * w[c], b[n * C + c] = bc, d[n * C + c] = dc;
    }
  Tensor at = from_doubles(a, ct, {N * C}), bt = from_doubles(b, ct, {N * C}), dt = from_doubles(d, ct, {N * C});
  Tensor gi = Tensor::empty(input.sizes(), ct);
  run(N * C, HxW, [&](int64_t s, int64_t e) {
    plane_affine_stub(ct, g.raw_data(), x.raw_data(), nullptr, gi.raw_data(), HxW, N * C, at.raw_data(),
                      bt.raw_data(), dt.raw_data(), s, e);
  });
  Doubles gwv(C, 0.0), gbv(C, 0.0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      gwv[c] += r[n * group + c / cpg] * sgx[n * C + c];
      gbv[c] += sg[n * C + c];
    }
  const DType wd = weight.defined() ? weight.dtype() : ct;
  return {to_dtype(gi, input.dtype()), from_doubles(gwv, wd, {C}), from_doubles(gbv, wd, {C})};
}

}  // namespace tz
