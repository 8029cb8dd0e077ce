// Sparse-layer front-ends (ops/nn_pool.h): embedding lookups, their dense backward, the
// max_norm renormalisation, embedding_bag's reductions and one_hot.
#include <cmath>
#include <unordered_map>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/indexing.h"
#include "ops/nn_pool_util.h"
#include "ops/views.h"

namespace tz {

namespace {
void check_indices(const Tensor& indices, const char* op, const char* what = "indices") {
  TZ_CHECK(indices.dtype() == DType::Int64 || indices.dtype() == DType::Int32, Runtime, op, "(): Expected tensor for "
           "argument #1 '", what, "' to have one of the following scalar types: Long, Int; but got ",
           scalar_type_name(indices.dtype()), " instead");
}
Tensor as_long(const Tensor& t) { return contiguous(to_dtype(t, DType::Int64)); }
}  // namespace

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx) {
  (void)padding_idx;  // only the backward skips it
  TZ_CHECK(weight.dim() == 2, Runtime, "embedding(): 'weight' must be 2-D");
  check_indices(indices, "embedding");
  Shape out = indices.sizes();
  out.push_back(weight.sizes()[1]);
  Tensor rows = index_select(weight, 0, reshape(indices, {-1}));
  return reshape(rows, IntList(out.begin(), out.end()));
}

Tensor embedding_dense_backward(const Tensor& grad, const Tensor& indices, int64_t num_weights, int64_t padding_idx,
                                bool scale_grad_by_freq) {
  const char* op = "embedding_backward";
  check_indices(indices, op);
  const DType cd = compute_dtype(grad.dtype());
  const int64_t D = grad.sizes().back(), n = indices.numel();
  const Tensor idx = as_long(indices);
  const Tensor g = contiguous(to_dtype(reshape(grad, {n, D}), cd));
  Tensor out = zeros({num_weights, D}, cd);
  const int64_t* ix = idx.data<int64_t>();
  std::vector<int64_t> counts;
  if (scale_grad_by_freq) {
    counts.assign(num_weights, 0);
    for (int64_t i = 0; i < n; ++i) counts[ix[i]]++;
  }
  TZ_DISPATCH_FLOATING(cd, op, [&] {
    const scalar_t* gp = g.data<scalar_t>();
    scalar_t* op_ = out.data<scalar_t>();
    // Rows of the result are independent: split the vocabulary over the pool... but the
    // indices are unsorted, so one pass over them, parallel over the embedding dim.
    parallel_for(0, D, std::max<int64_t>(1, 16384 / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t r = ix[i];
        if (r == padding_idx) continue;
        const scalar_t s = scale_grad_by_freq ? scalar_t(1) / static_cast<scalar_t>(counts[r]) : scalar_t(1);
        scalar_t* dst = op_ + r * D;
        const scalar_t* src = gp + i * D;
        for (int64_t d = b; d < e; ++d) dst[d] += src[d] * s;
      }
    });
  });
  return to_dtype(out, grad.dtype());
}

const Tensor& embedding_renorm_(const Tensor& weight, const Tensor& indices, double max_norm, double norm_type) {
  const char* op = "embedding_renorm_";
  TZ_CHECK(weight.dim() == 2, Runtime, op, "(): 'self' must be 2-D");
  check_indices(indices, op);
  TZ_CHECK(is_floating(weight.dtype()), Runtime, op, "(): expected a floating weight");
  const Tensor idx = as_long(indices);
  const int64_t n = idx.numel(), V = weight.sizes()[0];
  const int64_t* ix = idx.data<int64_t>();
  std::vector<int64_t> unique;
  std::vector<bool> seen(V, false);
  for (int64_t i = 0; i < n; ++i) {
    TZ_CHECK(ix[i] >= 0 && ix[i] < V, Index, op, "(): index ", ix[i], " is out of bounds for dimension 0 with size ", V);
    if (!seen[ix[i]]) seen[ix[i]] = true, unique.push_back(ix[i]);
  }
  for (int64_t r : unique) {
    Tensor row = select(weight, 0, r);
    const Tensor rc = contiguous(to_dtype(row, DType::Float64));
    const double* p = rc.data<double>();
    const int64_t D = row.numel();
    double norm = 0;
    if (norm_type == 1) for (int64_t d = 0; d < D; ++d) norm += std::abs(p[d]);
    else if (std::isinf(norm_type)) for (int64_t d = 0; d < D; ++d) norm = std::max(norm, std::abs(p[d]));
    else {
      for (int64_t d = 0; d < D; ++d) norm += std::pow(std::abs(p[d]), norm_type);
      norm = std::pow(norm, 1.0 / norm_type);
    }
    if (norm > max_norm) {
      const double scale = max_norm / (norm + 1e-7);
      Tensor scaled = Tensor::empty({D}, DType::Float64);
      for (int64_t d = 0; d < D; ++d) scaled.data<double>()[d] = p[d] * scale;
      copy_(row, scaled);
    }
  }
  weight.bump_version();
  return weight;
}

std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(const Tensor& weight, const Tensor& indices,
                                                         const Tensor& offsets, int64_t mode,
                                                         const Tensor& per_sample_weights, bool include_last_offset,
                                                         int64_t padding_idx) {
  const char* op = "embedding_bag";
  TZ_CHECK(weight.dim() == 2, Runtime, op, "(): weight has to be a 2D Tensor, but got Tensor of dimension ", weight.dim());
  TZ_CHECK(indices.dim() == 1, Runtime, op, "(): input has to be a 1D or 2D Tensor, but got Tensor of dimension ",
           indices.dim());
  TZ_CHECK(offsets.dim() == 1, Runtime, op, "(): offsets has to be a 1D Tensor, but got Tensor of dimension ",
           offsets.dim());
  check_indices(indices, op);
  check_indices(offsets, op, "offsets");
  TZ_CHECK(is_floating(weight.dtype()), Runtime, op, "(): \"embedding_bag\" not implemented for '",
           scalar_type_name(weight.dtype()), "'");
  TZ_CHECK(mode >= 0 && mode <= 2, Runtime, op, "(): unknown mode ", mode);
  const bool psw = per_sample_weights.defined();
  if (psw) {
    TZ_CHECK(mode == 0, NotImplemented, op, "(): embedding_bag: per_sample_weights was not None. per_sample_weights is "
             "only supported for mode='sum' (got mode='", mode == 1 ? "mean" : "max", "'). Please open a feature "
             "request on GitHub.");
    TZ_CHECK(per_sample_weights.dtype() == weight.dtype(), Runtime, op, "(): expected per_sample_weights to have the "
             "dtype of weight");
    TZ_CHECK(per_sample_weights.dim() == 1 && per_sample_weights.numel() == indices.numel(), Runtime, op,
             "(): expected per_sample_weights to be 1-D with as many elements as input");
  }
  const int64_t V = weight.sizes()[0], D = weight.sizes()[1], n = indices.numel();
  const Tensor idx = as_long(indices), off = as_long(offsets);
  const int64_t* ix = idx.data<int64_t>();
  const int64_t* of = off.data<int64_t>();
  int64_t B = off.numel() - (include_last_offset ? 1 : 0);
  TZ_CHECK(B >= 0, Runtime, op, "(): include_last_offset needs at least one offset");
  for (int64_t b = 0; b < off.numel(); ++b) {
    TZ_CHECK(of[b] >= 0 && of[b] <= n && (b == 0 || of[b] >= of[b - 1]), Runtime, op, "(): offsets must be "
             "non-decreasing and within [0, ", n, "], but got offsets[", b, "] = ", of[b]);
  }
  TZ_CHECK(off.numel() == 0 || of[0] == 0, Runtime, op, "(): offsets[0] has to be 0, i.e., the first sequence in the "
           "mini-batch has to start from position 0. However, got ", off.numel() ? of[0] : 0);
  for (int64_t i = 0; i < n; ++i)
    TZ_CHECK(ix[i] >= 0 && ix[i] < V, Index, op, "(): index ", ix[i], " is out of bounds for dimension 0 with size ", V);
  // Bag b holds positions [of[b], of[b + 1]); the last bag always runs to the end of the
  // input (also with include_last_offset, whose final offset PyTorch then ignores).
  auto bag_end = [&](int64_t b) { return b + 1 < B ? of[b + 1] : n; };
  Tensor offset2bag = Tensor::empty({n}, DType::Int64), bag_size = Tensor::empty({B}, DType::Int64);
  Tensor max_indices = mode == 2 ? Tensor::empty({B, D}, DType::Int64) : zeros({0}, DType::Int64);
  int64_t* o2b = offset2bag.data<int64_t>();
  int64_t* bs = bag_size.data<int64_t>();
  std::fill(o2b, o2b + n, int64_t(0));  // no bags at all: positions carry no weight
  for (int64_t b = 0; b < B; ++b) {
    int64_t count = 0;
    for (int64_t i = of[b]; i < bag_end(b); ++i) o2b[i] = b, count += ix[i] != padding_idx;
    bs[b] = count;
  }
  const DType cd = compute_dtype(weight.dtype());
  const Tensor w = contiguous(to_dtype(weight, cd));
  const Tensor ps = psw ? contiguous(to_dtype(per_sample_weights, cd)) : Tensor();
  Tensor out = zeros({B, D}, cd);
  TZ_DISPATCH_FLOATING(cd, op, [&] {
    const scalar_t* wp = w.data<scalar_t>();
    const scalar_t* pp = psw ? ps.data<scalar_t>() : nullptr;
    scalar_t* outp = out.data<scalar_t>();
    int64_t* mi = mode == 2 ? max_indices.data<int64_t>() : nullptr;
    parallel_for(0, B, std::max<int64_t>(1, 4096 / std::max<int64_t>(D, 1)), [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        scalar_t* o = outp + b * D;
        if (mi) std::fill(mi + b * D, mi + (b + 1) * D, int64_t(-1));
        for (int64_t i = of[b]; i < bag_end(b); ++i) {
          const int64_t r = ix[i];
          if (r == padding_idx) continue;
          const scalar_t* row = wp + r * D;
          if (mode == 2) {
            int64_t* m = mi + b * D;
            for (int64_t d = 0; d < D; ++d)
              if (m[d] < 0 || row[d] > o[d]) o[d] = row[d], m[d] = r;
          } else {
            const scalar_t s = pp ? pp[i] : scalar_t(1);
            for (int64_t d = 0; d < D; ++d) o[d] += pp ? row[d] * s : row[d];
          }
        }
        if (mode == 1 && bs[b] > 0)
          for (int64_t d = 0; d < D; ++d) o[d] /= static_cast<scalar_t>(bs[b]);
      }
    });
  });
  return {to_dtype(out, weight.dtype()), offset2bag, bag_size, max_indices};
}

Tensor embedding_bag_position_scale(const Tensor& indices, const Tensor& offsets, bool include_last_offset,
                                    int64_t mode, int64_t padding_idx, bool scale_grad_by_freq, int64_t num_weights,
                                    DType dtype) {
  const Tensor idx = as_long(indices), off = as_long(offsets);
  const int64_t n = idx.numel(), nb = off.numel(), B = nb - (include_last_offset ? 1 : 0);
  const int64_t* ix = idx.data<int64_t>();
  const int64_t* of = off.data<int64_t>();
  std::vector<int64_t> counts;
  if (scale_grad_by_freq) {
    counts.assign(num_weights, 0);
    for (int64_t i = 0; i < n; ++i) counts[ix[i]]++;
  }
  Tensor scale = zeros({n}, DType::Float64);
  double* s = scale.data<double>();
  for (int64_t b = 0; b < B; ++b) {
    const int64_t end = b + 1 < B ? of[b + 1] : n;
    int64_t size = 0;
    for (int64_t i = of[b]; i < end; ++i) size += ix[i] != padding_idx;
    for (int64_t i = of[b]; i < end; ++i) {
      if (ix[i] == padding_idx) continue;
      s[i] = mode == 1 ? 1.0 / static_cast<double>(size) : 1.0;
      if (scale_grad_by_freq) s[i] /= static_cast<double>(counts[ix[i]]);
    }
  }
  return to_dtype(scale, dtype);
}

Tensor one_hot(const Tensor& self, int64_t num_classes) {
  const char* op = "one_hot";
  TZ_CHECK(self.dtype() == DType::Int64, Runtime, op, "(): one_hot is only applicable to index tensor.");
  const Tensor idx = contiguous(self);
  const int64_t n = idx.numel();
  const int64_t* ix = idx.data<int64_t>();
  if (n == 0) {
    TZ_CHECK(num_classes > 0, Runtime, op, "(): Can not infer total number of classes from empty tensor.");
  } else {
    int64_t lo = ix[0], hi = ix[0];
    for (int64_t i = 1; i < n; ++i) lo = std::min(lo, ix[i]), hi = std::max(hi, ix[i]);
    TZ_CHECK(lo >= 0, Runtime, op, "(): Class values must be non-negative.");
    if (num_classes == -1) num_classes = hi + 1;
    else TZ_CHECK(num_classes > hi, Runtime, op, "(): Class values must be smaller than num_classes.");
  }
  Shape shape = self.sizes();
  shape.push_back(num_classes);
  Tensor out = zeros(shape, DType::Int64);
  int64_t* o = out.data<int64_t>();
  for (int64_t i = 0; i < n; ++i) o[i * num_classes + ix[i]] = 1;
  return out;
}

}  // namespace tz
