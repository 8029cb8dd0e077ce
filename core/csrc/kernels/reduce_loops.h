// Reduction building blocks for kernels/isa/*.cpp (compiled per ISA: everything lives in
// tz::<capability>). A reducer is a small struct whose map and combine work on scalars and
// on GCC vectors alike, so one template serves vector bodies, masked tails and gathers.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/reduce.h"
#include "kernels/vec_math.h"
#include "tensor/dtype.h"

// Vector arguments change the ABI between ISA builds; the builds never call each other.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace tz {
namespace TZ_CPU_CAPABILITY {

using vm::kLanes;
using vm::splat;
using vm::vec;
using vm::Wide;

template <typename T> constexpr bool kVectorized = !is_complex_v<T>;
template <typename X> TZ_VINLINE X zero() { return X{}; }

// Integer lanes of the same width as T, for masks.
template <size_t N> struct MaskInt;
template <> struct MaskInt<1> { using type = int8_t; };
template <> struct MaskInt<4> { using type = int32_t; };
template <> struct MaskInt<8> { using type = int64_t; };
template <typename T> using mask_vec = vec<typename MaskInt<sizeof(T)>::type>;

// Lanes [0, k) set.
template <typename T> TZ_VINLINE mask_vec<T> first_lanes(int64_t k) {
  mask_vec<T> iota;
  for (int i = 0; i < kLanes<T>; ++i) iota[i] = i;
  return iota < static_cast<typename MaskInt<sizeof(T)>::type>(k);
}

// pow on scalars and vectors (per lane).
template <typename X> TZ_VINLINE X pow_any(X x, double p) {
  if constexpr (std::is_arithmetic_v<X>) {
    return static_cast<X>(std::pow(x, p));
  } else {
    for (int i = 0; i < int(sizeof(X) / sizeof(x[0])); ++i) x[i] = std::pow(x[i], p);
    return x;
  }
}
template <typename X> TZ_VINLINE X abs_any(X x) { return x <= zero<X>() ? zero<X>() - x : x; }
template <typename X> TZ_VINLINE X max_nan(X a, X b) { return ((a > b) | (a != a)) ? a : b; }
template <typename X> TZ_VINLINE X min_nan(X a, X b) { return ((a < b) | (a != a)) ? a : b; }

// ---- reducers: identity, map(x, center), combine; kCascade marks sums (combined pairwise).
template <typename T> struct Lowest {
  static T get() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
  }
};
template <typename T> struct Highest {
  static T get() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::max();
  }
};

template <typename T> struct SumBase {
  static constexpr bool kCascade = true;
  double p = 0;
  T identity() const { return T(0); }
  template <class X> TZ_VINLINE X combine(X a, X b) const { return a + b; }
};
template <typename T> struct SumR : SumBase<T> {
  template <class X> TZ_VINLINE X map(X x, X) const { return x; }
};
template <typename T> struct NanSumR : SumBase<T> {
  template <class X> TZ_VINLINE X map(X x, X) const { return x == x ? x : zero<X>(); }
};
template <typename T> struct AbsSumR : SumBase<T> {
  template <class X> TZ_VINLINE X map(X x, X) const { return abs_any(x); }
};
template <typename T> struct SqSumR : SumBase<T> {
  template <class X> TZ_VINLINE X map(X x, X) const { return x * x; }
};
template <typename T> struct PowSumR : SumBase<T> {
  template <class X> TZ_VINLINE X map(X x, X) const { return pow_any(abs_any(x), this->p); }
};
template <typename T> struct NonZeroR : SumBase<T> {
  template <class X> TZ_VINLINE X map(X x, X) const { return x != zero<X>() ? zero<X>() + T(1) : zero<X>(); }
};
template <typename T> struct SqDevSumR : SumBase<T> {
  template <class X> TZ_VINLINE X map(X x, X c) const { X d = x - c; return d * d; }
};
template <typename T> struct ExpDevSumR : SumBase<T> {
  template <class X> TZ_VINLINE X map(X x, X c) const { return vm::exp(x - c); }
};
template <typename T> struct ProdR {
  static constexpr bool kCascade = false;
  double p = 0;
  T identity() const { return T(1); }
  template <class X> TZ_VINLINE X map(X x, X) const { return x; }
  template <class X> TZ_VINLINE X combine(X a, X b) const { return a * b; }
};
template <typename T> struct MaxR {
  static constexpr bool kCascade = false;
  double p = 0;
  T identity() const { return Lowest<T>::get(); }
  template <class X> TZ_VINLINE X map(X x, X) const { return x; }
  template <class X> TZ_VINLINE X combine(X a, X b) const { return max_nan(a, b); }
};
template <typename T> struct MinR {
  static constexpr bool kCascade = false;
  double p = 0;
  T identity() const { return Highest<T>::get(); }
  template <class X> TZ_VINLINE X map(X x, X) const { return x; }
  template <class X> TZ_VINLINE X combine(X a, X b) const { return min_nan(a, b); }
};
template <typename T> struct AbsMaxR : MaxR<T> {
  T identity() const { return T(0); }
  template <class X> TZ_VINLINE X map(X x, X) const { return abs_any(x); }
};
template <typename T> struct AbsMinR : MinR<T> {
  template <class X> TZ_VINLINE X map(X x, X) const { return abs_any(x); }
};

template <typename T> struct TypeOf;
template <template <class> class R, typename T> struct TypeOf<R<T>> { using type = T; };

// Combines values in arrival order; sums go through a binary-counter cascade (pairwise).
template <class R, typename T> struct Acc {
  const R& r;
  T value;
  T level[64];
  uint64_t count = 0;
  explicit Acc(const R& red) : r(red), value(red.identity()) {}
  void push(T v) {
    if constexpr (R::kCascade) {
      int l = 0;
      for (; (count >> l) & 1; ++l) v = r.combine(level[l], v);
      level[l] = v;
      ++count;
    } else {
      value = r.combine(value, v);
    }
  }
  T total() const {
    if constexpr (R::kCascade) {
      if (count == 0) return r.identity();
      int l = 63 - __builtin_clzll(count);
      T s = level[l];
      for (--l; l >= 0; --l)
        if ((count >> l) & 1) s = r.combine(s, level[l]);
      return s;
    } else {
      return value;
    }
  }
};

constexpr int64_t kBlock = 4096;  // cascade leaf, in elements: at 1024 the per-leaf combine cost a 1M sum 5%

// Lane k takes lane (k + W) mod L: a constant shuffle mask.
template <typename T, int W, int... K>
constexpr mask_vec<T> rotate_mask(std::integer_sequence<int, K...>) {
  return mask_vec<T>{((K + W) % kLanes<T>)...};
}

template <typename T, int W, class R> TZ_VINLINE vec<T> fold_lanes(const R& r, vec<T> a) {
  if constexpr (W == 0) {
    return a;
  } else {
    constexpr mask_vec<T> m = rotate_mask<T, W>(std::make_integer_sequence<int, kLanes<T>>{});
    return fold_lanes<T, W / 2>(r, r.combine(a, __builtin_shuffle(a, m)));
  }
}

// The lanes of a wide vector combined pairwise: lane k with lane k + w for w = 32, 16, ..., 1
// bytes' worth (whole native parts first, then shuffles within one).
template <typename T, class R> TZ_VINLINE T combine_lanes(const R& r, const Wide<T>& w) {
  Wide<T> a = w;
  for (int h = vm::kParts / 2; h >= 1; h /= 2)
    for (int q = 0; q < h; ++q) a.v[q] = r.combine(a.v[q], a.v[q + h]);
  return fold_lanes<T, kLanes<T> / 2>(r, a.v[0])[0];
}

// Wide partial of p[0, n) into out, n a multiple of the wide lane count; pairwise above
// kBlock for sums. Four wide accumulators.
template <class R, typename T>
void reduce_vec(const R& r, const T* p, int64_t n, const vec<T>& cv, Wide<T>& out) {
  constexpr int P = vm::kParts, L = kLanes<T>, WL = vm::kWideLanes<T>;
  if constexpr (R::kCascade) {
    if (n > kBlock) {
      int64_t h = (n / 2 + kBlock - 1) / kBlock * kBlock;
      Wide<T> second;
      reduce_vec(r, p, h, cv, out);
      reduce_vec(r, p + h, n - h, cv, second);
      for (int q = 0; q < P; ++q) out.v[q] = r.combine(out.v[q], second.v[q]);
      return;
    }
  }
  using V = vec<T>;
  const V id = splat<V>(r.identity());
  V a[4][P];
  for (int k = 0; k < 4; ++k)
    for (int q = 0; q < P; ++q) a[k][q] = id;
  int64_t i = 0;
  for (; i + 4 * WL <= n; i += 4 * WL)
    for (int k = 0; k < 4; ++k)
      for (int q = 0; q < P; ++q) a[k][q] = r.combine(a[k][q], r.map(vm::load(p + i + k * WL + q * L), cv));
  for (; i < n; i += WL)
    for (int q = 0; q < P; ++q) a[0][q] = r.combine(a[0][q], r.map(vm::load(p + i + q * L), cv));
  for (int q = 0; q < P; ++q) out.v[q] = r.combine(r.combine(a[0][q], a[1][q]), r.combine(a[2][q], a[3][q]));
}

// The reduction of p[0, n): wide body, masked tail, lanes combined once at the end.
template <class R, typename T> T reduce_contig(const R& r, const T* p, int64_t n, T c) {
  if constexpr (!kVectorized<T>) {
    if constexpr (R::kCascade) {
      if (n > kBlock) {
        int64_t h = (n / 2 + kBlock - 1) / kBlock * kBlock;
        return r.combine(reduce_contig(r, p, h, c), reduce_contig(r, p + h, n - h, c));
      }
    }
    T a = r.identity();
    for (int64_t i = 0; i < n; ++i) a = r.combine(a, r.map(p[i], c));
    return a;
  } else {
    using V = vec<T>;
    constexpr int L = kLanes<T>, WL = vm::kWideLanes<T>;
    if (n < WL) {
      T a = r.identity();
      for (int64_t i = 0; i < n; ++i) a = r.combine(a, r.map(p[i], c));
      return a;
    }
    const V cv = splat<V>(c);
    const V id = splat<V>(r.identity());
    const int64_t body = n / WL * WL;
    Wide<T> a;
    reduce_vec(r, p, body, cv, a);
    if (body < n) {
      // The last wide vector overlaps the body; the lanes already counted are masked off.
      const int64_t counted = WL - (n - body);
      for (int q = 0; q < vm::kParts; ++q) {
        V x = r.map(vm::load(p + n - WL + q * L), cv);
        a.v[q] = r.combine(a.v[q], first_lanes<T>(counted - q * L) ? id : x);
      }
    }
    return combine_lanes<T>(r, a);
  }
}

// Walks the outputs of a reduction (its first `ndims` kept dims, row-major), keeping the
// byte offset of the current output's region without a division per output.
struct KeptCursor {
  const int64_t* size;
  const int64_t* stride;
  int nd;
  int64_t idx[kMaxReduceDims] = {};
  int64_t offset = 0;
  KeptCursor(const ReduceLayout& L, int ndims, int64_t start)
      : size(L.kept_size), stride(L.kept_stride), nd(ndims) {
    for (int d = nd - 1; d >= 0; --d) {
      idx[d] = start % size[d];
      start /= size[d];
      offset += idx[d] * stride[d];
    }
  }
  void next() {
    for (int d = nd - 1; d >= 0; --d) {
      offset += stride[d];
      if (++idx[d] < size[d]) return;
      offset -= stride[d] * size[d];
      idx[d] = 0;
    }
  }
};

}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz

