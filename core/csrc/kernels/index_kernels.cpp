// Element movement for indexing ops (see kernels/index.h). Plain loops: the work is
// address arithmetic and memory traffic, which SIMD builds would not change.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <type_traits>
#include <vector>

#include "iter/tensor_iter.h"
#include "kernels/index.h"

namespace tz {
namespace {

// Rows shorter than this are copied element by element: memcpy calls would cost more.
constexpr int64_t kMinRowBytes = 64;
// Bytes of row copies per parallel chunk, at least.
constexpr int64_t kRowGrainBytes = 128 * 1024;

// Calls f(T{}) with an unsigned integer type of the element size: moving bytes needs no dtype.
template <typename F>
void by_size(int64_t itemsize, const F& f) {
  switch (itemsize) {
    case 1: f(uint8_t()); break;
    case 2: f(uint16_t()); break;
    case 4: f(uint32_t()); break;
    case 8: f(uint64_t()); break;
    default: fail(ErrorKind::Type, "indexing of elements of ", itemsize, " bytes is not supported");
  }
}

// The rows of an operation: the longest run of trailing dims along which `a` and `b` are
// both contiguous and `offsets` is constant. Returns the row length in elements and sets
// `outer` to the number of leading dims the rows are spread over.
int64_t row_length(const Tensor& a, const Tensor& b, const Tensor& offsets, int64_t* outer) {
  int64_t row = 1, d = a.dim();
  for (; d > 0; --d) {
    int64_t k = d - 1, size = a.sizes()[k];
    if (size != 1 && (a.strides()[k] != row || b.strides()[k] != row || offsets.strides()[k] != 0)) break;
    row *= size;
  }
  *outer = d;
  return row;
}

// f(a_off, b_off, offsets_off) for rows [begin, end) of the leading `nd` dims (element offsets).
template <typename F>
void for_rows(const Tensor& a, const Tensor& b, const Tensor& offsets, int64_t nd, int64_t begin,
              int64_t end, const F& f) {
  const Shape& sizes = a.sizes();
  const Tensor* ops[3] = {&a, &b, &offsets};
  std::vector<int64_t> idx(nd);
  int64_t off[3] = {0, 0, 0};
  for (int64_t k = nd - 1, rem = begin; k >= 0; --k) {
    idx[k] = rem % sizes[k];
    rem /= sizes[k];
    for (int j = 0; j < 3; ++j) off[j] += idx[k] * ops[j]->strides()[k];
  }
  for (int64_t r = begin; r < end; ++r) {
    f(off[0], off[1], off[2]);
    for (int64_t k = nd - 1; k >= 0; --k) {  // next multi-index, last dim fastest
      for (int j = 0; j < 3; ++j) off[j] += ops[j]->strides()[k];
      if (++idx[k] < sizes[k]) break;
      for (int j = 0; j < 3; ++j) off[j] -= sizes[k] * ops[j]->strides()[k];
      idx[k] = 0;
    }
  }
}

template <typename T>
inline T combine(T a, T b, ScatterMode mode) {
  if constexpr (std::is_same_v<T, bool>) {
    return mode == ScatterMode::Add ? (a || b) : (a && b);
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return T(mode == ScatterMode::Add ? float(a) + float(b) : float(a) * float(b));
  } else {
    return static_cast<T>(mode == ScatterMode::Add ? a + b : a * b);
  }
}

// dst[off] = combine(dst[off], v), one element at a time in iteration order.
void scatter_reduce(const Tensor& dst, const Tensor& values, const Tensor& offsets, ScatterMode mode) {
  const int64_t* poff = offsets.data<int64_t>();
  TZ_DISPATCH_ALL(dst.dtype(), "scatter", [&] {
    using T = scalar_t;
    int64_t nd;
    int64_t row = row_length(dst, values, offsets, &nd);
    if (row > 1) {
      T* pd = dst.data<T>();
      const T* pv = values.data<T>();
      for_rows(dst, values, offsets, nd, 0, dst.numel() / row, [&](int64_t da, int64_t va, int64_t fa) {
        T* d = pd + da + poff[fa];
        const T* v = pv + va;
        for (int64_t i = 0; i < row; ++i) d[i] = combine(d[i], v[i], mode);
      });
      return;
    }
    TensorIter iter({dst, values, offsets}, dst.sizes());
    iter.run_range([mode](char** data, const int64_t* strides, int64_t n) {
      char* d = data[0];
      const char* v = data[1];
      const char* f = data[2];
      for (int64_t i = 0; i < n; ++i, d += strides[0], v += strides[1], f += strides[2]) {
        T* target = reinterpret_cast<T*>(d) + *reinterpret_cast<const int64_t*>(f);
        *target = combine(*target, *reinterpret_cast<const T*>(v), mode);
      }
    }, 0, iter.numel());
  });
}

// dst[i] = src[i], with the side kIndirectDst names displaced by offsets[i] elements: the
// source for gathers, the destination for scatters. Rows long enough go by memcpy.
template <bool kIndirectDst>
void move_elements(const Tensor& dst, const Tensor& src, const Tensor& offsets) {
  if (dst.numel() == 0) return;
  const int64_t isz = dst.itemsize();
  int64_t nd;
  int64_t row = row_length(dst, src, offsets, &nd);
  if (row * isz >= kMinRowBytes) {
    char* pd = static_cast<char*>(dst.raw_data());
    const char* ps = static_cast<const char*>(src.raw_data());
    const int64_t* poff = offsets.data<int64_t>();
    const int64_t bytes = row * isz;
    // Scatters to repeated offsets race, as in PyTorch: which of the values lands is unspecified.
    parallel_for(0, dst.numel() / row, std::max<int64_t>(1, kRowGrainBytes / bytes), [&](int64_t b, int64_t e) {
      for_rows(dst, src, offsets, nd, b, e, [&](int64_t da, int64_t sa, int64_t fa) {
        (kIndirectDst ? da : sa) += poff[fa];
        std::memcpy(pd + da * isz, ps + sa * isz, bytes);
      });
    });
    return;
  }
  TensorIter iter({dst, src, offsets}, dst.sizes());
  by_size(isz, [&](auto tag) {
    using T = decltype(tag);
    iter.for_each([](char** data, const int64_t* strides, int64_t n) {
      char* d = data[0];
      const char* s = data[1];
      const char* f = data[2];
      for (int64_t i = 0; i < n; ++i, d += strides[0], s += strides[1], f += strides[2]) {
        int64_t off = *reinterpret_cast<const int64_t*>(f);
        reinterpret_cast<T*>(d)[kIndirectDst ? off : 0] = reinterpret_cast<const T*>(s)[kIndirectDst ? 0 : off];
      }
    });
  });
}

// Assigning one value (a 0-d tensor expanded): fill rows of dst instead of copying them.
bool scatter_fill(const Tensor& dst, const Tensor& values, const Tensor& offsets) {
  for (int64_t s : values.strides())
    if (s != 0) return false;
  int64_t nd;
  int64_t row = row_length(dst, dst, offsets, &nd);
  const int64_t isz = dst.itemsize();
  if (row * isz < kMinRowBytes) return false;
  const int64_t* poff = offsets.data<int64_t>();
  by_size(isz, [&](auto tag) {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, values.raw_data(), sizeof(T));
    T* pd = static_cast<T*>(dst.raw_data());
    parallel_for(0, dst.numel() / row, std::max<int64_t>(1, kRowGrainBytes / (row * isz)), [&](int64_t b, int64_t e) {
      for_rows(dst, dst, offsets, nd, b, e, [&](int64_t da, int64_t, int64_t fa) {
        std::fill_n(pd + da + poff[fa], row, v);
      });
    });
  });
  return true;
}

}  // namespace

void index_gather_kernel(const Tensor& out, const Tensor& src, const Tensor& offsets) {
  move_elements<false>(out, src, offsets);
}

void index_scatter_kernel(const Tensor& dst, const Tensor& values, const Tensor& offsets, ScatterMode mode) {
  if (dst.numel() == 0) return;
  if (mode != ScatterMode::Assign) return scatter_reduce(dst, values, offsets, mode);
  if (scatter_fill(dst, values, offsets)) return;
  move_elements<true>(dst, values, offsets);
}

namespace {

bool indices_below(const Tensor& index, int64_t n) {
  const int64_t* p = index.data<int64_t>();
  bool ok = true;
  for (int64_t i = 0, count = index.numel(); i < count; ++i) ok &= static_cast<uint64_t>(p[i]) < static_cast<uint64_t>(n);
  return ok;
}

// Rows per parallel chunk: about kRowGrainBytes of index each.
int64_t row_grain(int64_t k) { return std::max<int64_t>(1, kRowGrainBytes / (8 * std::max<int64_t>(k, 1))); }

}  // namespace

bool gather_rows_kernel(const Tensor& out, const Tensor& src, const Tensor& index) {
  const int64_t n = src.sizes().back(), k = index.sizes().back();
  if (index.numel() == 0) return true;
  if (n == 0) return false;
  const int64_t* pi = index.data<int64_t>();
  std::atomic<bool> all_in_range{true};
  by_size(out.itemsize(), [&](auto tag) {
    using T = decltype(tag);
    T* po = static_cast<T*>(out.raw_data());
    const T* ps = static_cast<const T*>(src.raw_data());
    parallel_for(0, index.numel() / k, row_grain(k), [&](int64_t b, int64_t e) {
      bool ok = true;  // checked on the way (clamped reads stay inside the row); out is fresh
      for (int64_t r = b; r < e; ++r) {
        const T* row = ps + r * n;
        for (int64_t j = r * k; j < (r + 1) * k; ++j) {
          const uint64_t v = static_cast<uint64_t>(pi[j]);
          ok &= v < static_cast<uint64_t>(n);
          po[j] = row[std::min<uint64_t>(v, n - 1)];
        }
      }
      if (!ok) all_in_range = false;
    });
  });
  return all_in_range;
}

bool scatter_add_rows_kernel(const Tensor& dst, const Tensor& src, const Tensor& index) {
  const int64_t n = dst.sizes().back(), k = index.sizes().back();
  if (index.numel() == 0) return true;
  if (!indices_below(index, n)) return false;
  const int64_t* pi = index.data<int64_t>();
  const int64_t step = src.is_contiguous() ? 1 : 0;  // contiguous like index, or one value
  TZ_DISPATCH_ALL(dst.dtype(), "scatter_add", [&] {
    using T = scalar_t;
    T* pd = dst.data<T>();
    const T* ps = src.data<T>();
    // Each row of the index writes its own row of dst: rows run in parallel, a row in order.
    parallel_for(0, index.numel() / k, row_grain(k), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        T* row = pd + r * n;
        for (int64_t j = r * k; j < (r + 1) * k; ++j)
          row[pi[j]] = combine(row[pi[j]], ps[j * step], ScatterMode::Add);
      }
    });
  });
  return true;
}

void masked_fill_kernel(const Tensor& self, const Tensor& mask, const Tensor& value) {
  if (self.numel() == 0) return;
  TensorIter iter({self, mask}, self.sizes());
  by_size(self.itemsize(), [&](auto tag) {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, value.raw_data(), sizeof(T));
    iter.for_each([v](char** data, const int64_t* strides, int64_t n) {
      char* o = data[0];
      const char* m = data[1];
      for (int64_t i = 0; i < n; ++i, o += strides[0], m += strides[1])
        if (*reinterpret_cast<const uint8_t*>(m)) *reinterpret_cast<T*>(o) = v;
    });
  });
}

void where_kernel(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b) {
  if (out.numel() == 0) return;
  TensorIter iter({out, cond, a, b}, out.sizes());
  by_size(out.itemsize(), [&](auto tag) {
    using T = decltype(tag);  // unsigned: the select below is bitwise
    // Both values loaded, then blended through a mask: no branch to mispredict on random
    // conditions, and the contiguous case vectorizes.
    auto select = [](uint8_t c, T x, T y) { return static_cast<T>(y ^ ((x ^ y) & (T(0) - T(c != 0)))); };
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
      T* o = reinterpret_cast<T*>(data[0]);
      const uint8_t* c = reinterpret_cast<const uint8_t*>(data[1]);
      const T* x = reinterpret_cast<const T*>(data[2]);
      const T* y = reinterpret_cast<const T*>(data[3]);
      const int64_t item = sizeof(T);
      // Contiguous runs, each value operand contiguous or one repeated value (a scalar).
      auto dense = [&](auto x_step, auto y_step) {
        for (int64_t i = 0; i < n; ++i) o[i] = select(c[i], x[i * x_step], y[i * y_step]);
      };
      using One = std::integral_constant<int64_t, 1>;
      using Zero = std::integral_constant<int64_t, 0>;
      if (strides[0] == item && strides[1] == 1) {
        const bool xs = strides[2] == item, ys = strides[3] == item;
        if (xs && ys) return dense(One{}, One{});
        if (xs && strides[3] == 0) return dense(One{}, Zero{});
        if (ys && strides[2] == 0) return dense(Zero{}, One{});
      }
      const int64_t so = strides[0] / item, sc = strides[1], sx = strides[2] / item, sy = strides[3] / item;
      for (int64_t i = 0; i < n; ++i) o[i * so] = select(c[i * sc], x[i * sx], y[i * sy]);
    });
  });
}

}  // namespace tz
