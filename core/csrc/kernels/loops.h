// Inner loops for kernels/isa/*.cpp. Contiguous and scalar-broadcast cases get plain loops
// the compiler vectorises with the file's ISA flags; everything else walks byte strides.
// The loops are flattened: the element function (and the vec_math.h calls in it) is always
// inlined, since a call per element would stop vectorisation (GCC declined to inline gelu's
// backward, a 23x slowdown).
#pragma once
#include <cstdint>

#define TZ_LOOP __attribute__((flatten)) inline

namespace tz {

template <typename Out, typename In, typename F>
TZ_LOOP void unary_loop(char** data, const int64_t* strides, int64_t n, F f) {
  if (strides[0] == sizeof(Out) && strides[1] == sizeof(In)) {
    Out* __restrict out = reinterpret_cast<Out*>(data[0]);
    const In* __restrict in = reinterpret_cast<const In*>(data[1]);
    for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
    return;
  }
  char *out = data[0], *in = data[1];
  for (int64_t i = 0; i < n; ++i, out += strides[0], in += strides[1])
    *reinterpret_cast<Out*>(out) = f(*reinterpret_cast<const In*>(in));
}

template <typename Out, typename A, typename B, typename F>
TZ_LOOP void binary_loop(char** data, const int64_t* strides, int64_t n, F f) {
  constexpr int64_t so = sizeof(Out), sa = sizeof(A), sb = sizeof(B);
  Out* __restrict out = reinterpret_cast<Out*>(data[0]);
  const A* __restrict a = reinterpret_cast<const A*>(data[1]);
  const B* __restrict b = reinterpret_cast<const B*>(data[2]);
  if (strides[0] == so && strides[1] == sa && strides[2] == sb) {
    for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
  } else if (strides[0] == so && strides[1] == sa && strides[2] == 0) {
    const B bv = *b;
    for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], bv);
  } else if (strides[0] == so && strides[1] == 0 && strides[2] == sb) {
    const A av = *a;
    for (int64_t i = 0; i < n; ++i) out[i] = f(av, b[i]);
  } else {
    char *po = data[0], *pa = data[1], *pb = data[2];
    for (int64_t i = 0; i < n; ++i, po += strides[0], pa += strides[1], pb += strides[2])
      *reinterpret_cast<Out*>(po) =
          f(*reinterpret_cast<const A*>(pa), *reinterpret_cast<const B*>(pb));
  }
}

template <typename Out, typename A, typename B, typename C, typename F>
TZ_LOOP void ternary_loop(char** data, const int64_t* strides, int64_t n, F f) {
  char *po = data[0], *pa = data[1], *pb = data[2], *pc = data[3];
  for (int64_t i = 0; i < n; ++i, po += strides[0], pa += strides[1], pb += strides[2], pc += strides[3])
    *reinterpret_cast<Out*>(po) = f(*reinterpret_cast<const A*>(pa),
                                    *reinterpret_cast<const B*>(pb),
                                    *reinterpret_cast<const C*>(pc));
}

}  // namespace tz
