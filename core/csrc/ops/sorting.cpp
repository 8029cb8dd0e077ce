#include "ops/sorting.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/reduce_engine.h"
#include "ops/views.h"

namespace tz {

namespace {

template <typename T> inline bool is_nan(T x) { return x != x; }
// Orders in which NaN is the largest value.
template <typename T> inline bool less_nan_last(T a, T b) { return a < b || (is_nan(b) && !is_nan(a)); }
template <typename T> inline bool greater_nan_first(T a, T b) { return a > b || (is_nan(a) && !is_nan(b)); }

template <typename T> using Pair = std::pair<T, int64_t>;

// Sorting computes in int64 (integers and bool: order preserved), float32 (half types) or float64.
DType sort_compute_dtype(DType t) {
  return is_integral(t, true) ? DType::Int64 : compute_dtype(t);
}

template <class F> void with_sort_type(DType t, F&& f) {
  switch (t) {
    case DType::Int64: return f(int64_t{});
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    default: fail(ErrorKind::Runtime, "sorting: unsupported dtype ", dtype_name(t));
  }
}

void check_sortable(const Tensor& t, const char* op) {
  TZ_CHECK(!is_quantized(t.dtype()), NotImplemented, op, "(): not supported for quantized tensors");
}

[[noreturn]] void not_implemented(const char* op, const char* kernel, DType t) {
  fail(ErrorKind::NotImplemented, op, "(): \"", kernel, "\" not implemented for '", scalar_type_name(t), "'");
}

// `t` (converted to the compute dtype) with `dim` moved last, contiguous: rows of n.
struct Rows {
  Tensor data;
  IntList perm;   // dims of the row layout, in original numbering
  Shape shape;    // the row layout's shape
  int64_t rows = 1, n = 1;
};

Rows rows_along(const Tensor& t, int64_t dim, DType compute) {
  Rows r;
  Tensor c = to_dtype(t, compute);
  if (t.dim() == 0) {
    r.data = reshape(contiguous(c), {1});
    r.perm = {0};
    r.shape = {1};
    return r;
  }
  for (int64_t d = 0; d < t.dim(); ++d)
    if (d != dim) r.perm.push_back(d);
  r.perm.push_back(dim);
  r.data = contiguous(permute(c, r.perm));
  r.shape = r.data.sizes();
  r.n = t.sizes()[dim];
  r.rows = numel_of(Shape(r.shape.begin(), r.shape.end() - 1));
  return r;
}

// A result laid out like `r` but with k per row, in the original dim order (contiguous).
Tensor new_rows(const Rows& r, int64_t k, DType dtype) {
  Shape s = r.shape;
  s.back() = k;
  return Tensor::empty(s, dtype);
}
Tensor from_rows(const Tensor& x, const Rows& r, bool was_0d) {
  if (was_0d) return reshaped(x, {});
  IntList inv(r.perm.size());
  for (size_t i = 0; i < r.perm.size(); ++i) inv[r.perm[i]] = static_cast<int64_t>(i);
  return contiguous(permute(x, inv));
}
// Drops (or keeps as 1) the reduced last dim of a per-row result.
Tensor reduced_rows(const Tensor& x, const Rows& r, const Tensor& t, int64_t dim, bool keepdim) {
  if (t.dim() == 0) return reshaped(x, {});
  Tensor back = from_rows(x, r, false);
  if (keepdim) return back;
  Shape s = t.sizes();
  s.erase(s.begin() + dim);
  return reshaped(back, s);
}

// f(row) for every row, in parallel when there is enough work.
template <class F> void for_rows(int64_t rows, int64_t n, const F& f) {
  auto run = [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) f(r);
  };
  if (rows > 1 && rows * n >= 16384 && get_num_threads() > 1 && !in_parallel_region()) {
    parallel_for(0, rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)), run);
  } else {
    run(0, rows);
  }
}

template <typename T> void fill_pairs(const T* x, int64_t n, std::vector<Pair<T>>& v) {
  v.resize(n);
  for (int64_t i = 0; i < n; ++i) v[i] = {x[i], i};
}

// Sedgewick's quickselect with a median-of-three pivot (the order PyTorch's kthvalue
// uses, so ties resolve to the same index): afterwards v[k] is the k-th smallest.
template <typename T> void quick_select(T* v, int64_t* ix, int64_t n, int64_t k) {
  auto gt = [](T a, T b) { return (is_nan(a) && !is_nan(b)) || a > b; };
  auto swap = [&](int64_t i, int64_t j) {
    std::swap(v[i], v[j]);
    std::swap(ix[i], ix[j]);
  };
  int64_t lo = 0, hi = n - 1;
  while (hi > lo) {
    if (hi == lo + 1) {
      if (gt(v[lo], v[hi])) swap(lo, hi);
      return;
    }
    swap((lo + hi) >> 1, lo + 1);
    if (gt(v[lo + 1], v[hi])) swap(lo + 1, hi);
    if (gt(v[lo], v[hi])) swap(lo, hi);
    if (gt(v[lo + 1], v[lo])) swap(lo + 1, lo);
    int64_t i = lo + 1, j = hi;
    const T pivot = v[lo];
    while (true) {
      do ++i; while (gt(pivot, v[i]));
      do --j; while (gt(v[j], pivot));
      if (j < i) break;
      swap(i, j);
    }
    swap(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
}

void check_dim_nonempty(const Tensor& t, int64_t dim, const char* op) {
  TZ_CHECK(t.dim() == 0 || t.sizes()[dim] != 0, Index, op, "(): Expected reduction dim ", dim,
           " to have non-zero size.");
}

// (values, indices) of one element per line along `dim`: pick(line, n) returns its index.
template <class Pick>
std::pair<Tensor, Tensor> pick_along(const Tensor& t, int64_t dim, bool keepdim, const Pick& pick) {
  Rows r = rows_along(t, dim, sort_compute_dtype(t.dtype()));
  Tensor values = new_rows(r, 1, r.data.dtype()), indices = new_rows(r, 1, DType::Int64);
  with_sort_type(r.data.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = r.data.data<T>();
    for_rows(r.rows, r.n, [&](int64_t row) {
      const T* x = in + row * r.n;
      const int64_t i = pick(x, r.n);
      values.data<T>()[row] = x[i];
      indices.data<int64_t>()[row] = i;
    });
  });
  return {to_dtype(reduced_rows(values, r, t, dim, keepdim), t.dtype()),
          reduced_rows(indices, r, t, dim, keepdim)};
}

}  // namespace

std::pair<Tensor, Tensor> sort(const Tensor& t, int64_t dim, bool descending) {
  check_sortable(t, "sort");
  TZ_CHECK(!is_complex(t.dtype()), Runtime, "sort(): Sort does not support complex dtypes on CPU");
  const int64_t d = wrap_dim(dim, t.dim(), "sort");
  Rows r = rows_along(t, d, sort_compute_dtype(t.dtype()));
  Tensor values = new_rows(r, r.n, r.data.dtype()), indices = new_rows(r, r.n, DType::Int64);
  with_sort_type(r.data.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = r.data.data<T>();
    T* vo = values.data<T>();
    int64_t* io = indices.data<int64_t>();
    for_rows(r.rows, r.n, [&](int64_t row) {
      std::vector<Pair<T>> v;
      fill_pairs(in + row * r.n, r.n, v);
      if (descending) {
        std::stable_sort(v.begin(), v.end(), [](const Pair<T>& a, const Pair<T>& b) {
          return greater_nan_first(a.first, b.first);
        });
      } else {
        std::stable_sort(v.begin(), v.end(), [](const Pair<T>& a, const Pair<T>& b) {
          return less_nan_last(a.first, b.first);
        });
      }
      for (int64_t i = 0; i < r.n; ++i) vo[row * r.n + i] = v[i].first, io[row * r.n + i] = v[i].second;
    });
  });
  return {to_dtype(from_rows(values, r, t.dim() == 0), t.dtype()), from_rows(indices, r, t.dim() == 0)};
}

Tensor msort(const Tensor& t) { return sort(t, 0, false).first; }

std::pair<Tensor, Tensor> topk(const Tensor& t, int64_t k, int64_t dim, bool largest, bool sorted) {
  check_sortable(t, "topk");
  TZ_CHECK(!is_complex(t.dtype()), Runtime, "topk(): topk does not support complex dtypes on CPU");
  TZ_CHECK(t.dtype() != DType::Bool, Runtime, "topk(): topk does not support bool dtypes on CPU");
  const int64_t d = wrap_dim(dim, t.dim(), "topk");
  const int64_t size = t.dim() == 0 ? 1 : t.sizes()[d];
  TZ_CHECK(k >= 0 && k <= size, Runtime, "topk(): selected index k out of range");
  Rows r = rows_along(t, d, sort_compute_dtype(t.dtype()));
  Tensor values = new_rows(r, k, r.data.dtype()), indices = new_rows(r, k, DType::Int64);
  if (k > 0) {
    with_sort_type(r.data.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* in = r.data.data<T>();
      T* vo = values.data<T>();
      int64_t* io = indices.data<int64_t>();
      auto run = [&](auto cmp) {
        for_rows(r.rows, r.n, [&](int64_t row) {
          std::vector<Pair<T>> v;
          fill_pairs(in + row * r.n, r.n, v);
          // The same selection steps as PyTorch's CPU topk, so ties pick the same indices.
          if (k * 64 <= r.n) {
            std::partial_sort(v.begin(), v.begin() + k, v.end(), cmp);
          } else {
            std::nth_element(v.begin(), v.begin() + k - 1, v.end(), cmp);
            if (sorted) std::sort(v.begin(), v.begin() + k - 1, cmp);
          }
          for (int64_t i = 0; i < k; ++i) vo[row * k + i] = v[i].first, io[row * k + i] = v[i].second;
        });
      };
      if (largest) {
        run([](const Pair<T>& a, const Pair<T>& b) { return greater_nan_first(a.first, b.first); });
      } else {
        run([](const Pair<T>& a, const Pair<T>& b) { return less_nan_last(a.first, b.first); });
      }
    });
  }
  const bool scalar = t.dim() == 0 && k == 1;
  return {to_dtype(from_rows(values, r, scalar), t.dtype()), from_rows(indices, r, scalar)};
}

std::pair<Tensor, Tensor> kthvalue(const Tensor& t, int64_t k, int64_t dim, bool keepdim) {
  check_sortable(t, "kthvalue");
  if (t.dtype() == DType::Bool || is_complex(t.dtype())) not_implemented("kthvalue", "kthvalue_cpu", t.dtype());
  const int64_t d = wrap_dim(dim, t.dim(), "kthvalue");
  check_dim_nonempty(t, d, "kthvalue");
  const int64_t size = t.dim() == 0 ? 1 : t.sizes()[d];
  TZ_CHECK(k >= 1 && k <= size, Runtime, "kthvalue(): selected number k out of range for dimension ", d);
  return pick_along(t, d, keepdim, [k](const auto* x, int64_t n) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
    std::vector<T> v(x, x + n);
    std::vector<int64_t> ix(n);
    std::iota(ix.begin(), ix.end(), 0);
    quick_select(v.data(), ix.data(), n, k - 1);
    return ix[k - 1];
  });
}

std::pair<Tensor, Tensor> median_dim(const Tensor& t, int64_t dim, bool keepdim, bool ignore_nan) {
  const char* name = ignore_nan ? "nanmedian" : "median";
  check_sortable(t, name);
  if (t.dtype() == DType::Bool || is_complex(t.dtype())) not_implemented(name, "median_out", t.dtype());
  const int64_t d = wrap_dim(dim, t.dim(), name);
  check_dim_nonempty(t, d, name);
  return pick_along(t, d, keepdim, [ignore_nan](const auto* x, int64_t n) -> int64_t {
    int64_t nan_count = 0, first_nan = -1;
    for (int64_t i = 0; i < n; ++i)
      if (is_nan(x[i])) nan_count++, first_nan = first_nan < 0 ? i : first_nan;
    if (!ignore_nan && nan_count > 0) return first_nan;
    // The lower median in (value, index) order, NaN last, selected by the same steps as
    // PyTorch (std::nth_element over indices), so even all-NaN lines report its index.
    std::vector<int64_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    auto nth = idx.begin() + std::max<int64_t>(0, (n - nan_count - 1) / 2);
    std::nth_element(idx.begin(), nth, idx.end(), [x](int64_t i, int64_t j) {
      return x[i] < x[j] || (x[i] == x[j] && i < j) || (is_nan(x[j]) && !is_nan(x[i]));
    });
    return *nth;
  });
}

Tensor median_all(const Tensor& t, bool ignore_nan) {
  const char* name = ignore_nan ? "nanmedian" : "median";
  check_sortable(t, name);
  if (t.dtype() == DType::Bool || is_complex(t.dtype())) not_implemented(name, "median_cpu", t.dtype());
  if (t.numel() == 0) {
    TZ_CHECK(is_floating(t.dtype()), Runtime, name,
             "(): operation does not have an identity for empty input tensor");
    return full({}, Scalar(std::numeric_limits<double>::quiet_NaN()), t.dtype());
  }
  Tensor flat = reshape(contiguous(t), {t.numel()});
  return median_dim(flat, 0, false, ignore_nan).first;
}

std::pair<Tensor, Tensor> mode(const Tensor& t, int64_t dim, bool keepdim) {
  check_sortable(t, "mode");
  if (is_complex(t.dtype())) not_implemented("mode", "mode_cpu", t.dtype());
  const int64_t d = wrap_dim(dim, t.dim(), "mode");
  check_dim_nonempty(t, d, "mode");
  return pick_along(t, d, keepdim, [](const auto* x, int64_t n) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
    std::vector<Pair<T>> v;
    fill_pairs(x, n, v);
    // PyTorch's steps (an unstable sort by value, then the first longest run, reporting the
    // index the sort left last in it), so the index matches on ties.
    std::sort(v.begin(), v.end(), [](const Pair<T>& a, const Pair<T>& b) { return a.first < b.first; });
    int64_t best_index = 0, best_count = 0, run = 0;
    for (int64_t i = 0; i < n; ++i) {
      run++;
      if (i == n - 1 || v[i].first != v[i + 1].first) {
        if (run > best_count) best_index = v[i].second, best_count = run;
        run = 0;
      }
    }
    return best_index;
  });
}

namespace {

Value unique_result(Tensor values, Tensor inverse, Tensor counts, bool return_inverse, bool return_counts) {
  if (!return_inverse && !return_counts) return values;
  Value::Tuple out{values};
  if (return_inverse) out.push_back(inverse);
  if (return_counts) out.push_back(counts);
  return out;
}

// Unique elements of the flattened tensor.
Value unique_flat(const Tensor& t, bool return_inverse, bool return_counts) {
  const int64_t n = t.numel();
  Tensor flat = reshape(contiguous(to_dtype(t, sort_compute_dtype(t.dtype()))), {n});
  Tensor inverse = Tensor::empty(t.sizes(), DType::Int64);
  Tensor values, counts;
  with_sort_type(flat.dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::vector<Pair<T>> v;
    fill_pairs(flat.data<T>(), n, v);
    std::stable_sort(v.begin(), v.end(),
                     [](const Pair<T>& a, const Pair<T>& b) { return less_nan_last(a.first, b.first); });
    std::vector<T> uniq;
    std::vector<int64_t> cnt;
    int64_t* inv = inverse.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      // NaN != NaN: every NaN is its own value, as in PyTorch.
      if (i == 0 || v[i].first != v[i - 1].first) uniq.push_back(v[i].first), cnt.push_back(0);
      cnt.back()++;
      inv[v[i].second] = static_cast<int64_t>(uniq.size()) - 1;
    }
    const int64_t m = static_cast<int64_t>(uniq.size());
    values = Tensor::empty({m}, flat.dtype());
    counts = Tensor::empty({m}, DType::Int64);
    std::copy(uniq.begin(), uniq.end(), values.data<T>());
    std::copy(cnt.begin(), cnt.end(), counts.data<int64_t>());
  });
  return unique_result(to_dtype(values, t.dtype()), inverse, counts, return_inverse, return_counts);
}

// Unique slices along `dim`, in lexicographic order.
Value unique_dim(const Tensor& t, int64_t dim, bool return_inverse, bool return_counts) {
  const int64_t n = t.sizes()[dim];
  IntList perm{dim};
  for (int64_t d = 0; d < t.dim(); ++d)
    if (d != dim) perm.push_back(d);
  Tensor moved = contiguous(permute(to_dtype(t, sort_compute_dtype(t.dtype())), perm));
  const int64_t m = n == 0 ? 0 : t.numel() / n;
  Tensor inverse = Tensor::empty({n}, DType::Int64), counts, values;
  with_sort_type(moved.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = moved.data<T>();
    std::vector<int64_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    auto row_less = [&](int64_t a, int64_t b) {
      return std::lexicographical_compare(x + a * m, x + (a + 1) * m, x + b * m, x + (b + 1) * m);
    };
    auto row_equal = [&](int64_t a, int64_t b) { return std::equal(x + a * m, x + (a + 1) * m, x + b * m); };
    std::stable_sort(order.begin(), order.end(), row_less);
    std::vector<int64_t> firsts, cnt;
    int64_t* inv = inverse.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      if (i == 0 || !row_equal(order[i], order[i - 1])) firsts.push_back(order[i]), cnt.push_back(0);
      cnt.back()++;
      inv[order[i]] = static_cast<int64_t>(firsts.size()) - 1;
    }
    Shape s = moved.sizes();
    s[0] = static_cast<int64_t>(firsts.size());
    values = Tensor::empty(s, moved.dtype());
    for (size_t u = 0; u < firsts.size(); ++u) std::copy(x + firsts[u] * m, x + (firsts[u] + 1) * m, values.data<T>() + u * m);
    counts = Tensor::empty({static_cast<int64_t>(cnt.size())}, DType::Int64);
    std::copy(cnt.begin(), cnt.end(), counts.data<int64_t>());
  });
  IntList inv_perm(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv_perm[perm[i]] = static_cast<int64_t>(i);
  Tensor back = to_dtype(contiguous(permute(values, inv_perm)), t.dtype());
  return unique_result(back, inverse, counts, return_inverse, return_counts);
}

}  // namespace

Value unique(const Tensor& t, bool sorted, bool return_inverse, bool return_counts,
             std::optional<int64_t> dim) {
  (void)sorted;  // results are always sorted (PyTorch allows it for sorted=False)
  check_sortable(t, "unique");
  if (is_complex(t.dtype())) not_implemented("unique", "unique_cpu", t.dtype());
  if (!dim) return unique_flat(t, return_inverse, return_counts);
  TZ_CHECK(t.dim() > 0, Index, "unique(): dimension out of range (expected to be in range of [-1, 0], "
           "but got ", *dim, ")");
  return unique_dim(t, wrap_dim(*dim, t.dim(), "unique"), return_inverse, return_counts);
}

}  // namespace tz
