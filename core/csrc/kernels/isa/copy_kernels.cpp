// Conversion between any two dtypes; half types go through float.
#include "kernels/copy.h"
#include "kernels/loops.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

template <typename To, typename From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_complex_v<From> && is_complex_v<To>) {
    using Part = typename To::value_type;
    return To(static_cast<Part>(v.real()), static_cast<Part>(v.imag()));
  } else if constexpr (is_complex_v<From> && std::is_same_v<To, bool>) {
    return v.real() != 0 || v.imag() != 0;  // nonzero if either part is
  } else if constexpr (is_complex_v<From>) {
    return convert<To>(v.real());  // like numpy: the imaginary part is dropped
  } else if constexpr (is_complex_v<To>) {
    using Part = typename To::value_type;
    return To(static_cast<Part>(convert<double>(v)), Part(0));
  } else if constexpr (std::is_same_v<From, Half> || std::is_same_v<From, BFloat16>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, Half> || std::is_same_v<To, BFloat16>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    // Out-of-range float -> int is undefined in C++; go through int64 like PyTorch on x86.
    return static_cast<To>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

template <typename To>
void copy_to(const TensorIter& iter, DType in) {
  TZ_DISPATCH_ALL(in, "copy_", [&] {
    iter.for_each([](char** data, const int64_t* strides, int64_t n) {
      unary_loop<To, scalar_t>(data, strides, n, [](scalar_t v) { return convert<To>(v); });
    });
  });
}

void copy_kernel(const TensorIter& iter, DType out, DType in) {
  TZ_DISPATCH_ALL(out, "copy_", [&] { copy_to<scalar_t>(iter, in); });
}

}  // namespace
TZ_REGISTER_KERNEL(copy_stub, &copy_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
