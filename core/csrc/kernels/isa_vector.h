// std::vector for kernels/isa/*.cpp. Its allocator type lives in the build's namespace, so
// the vector's out-of-line members (growth, fill) are this ISA build's own symbols: with
// std::allocator they would be COMDAT copies that the linker merges across the baseline,
// AVX2 and AVX-512 objects, keeping whichever comes first for every CPU.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#ifndef TZ_CPU_CAPABILITY
#error "kernels/isa_vector.h is for kernels/isa/*.cpp only"
#endif

namespace tz::TZ_CPU_CAPABILITY {

template <typename T> struct IsaAllocator {
  using value_type = T;
  IsaAllocator() = default;
  template <typename U> IsaAllocator(const IsaAllocator<U>&) {}
  T* allocate(size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* p, size_t n) { std::allocator<T>().deallocate(p, n); }
  template <typename U> bool operator==(const IsaAllocator<U>&) const { return true; }
  template <typename U> bool operator!=(const IsaAllocator<U>&) const { return false; }
};

template <typename T> using Vector = std::vector<T, IsaAllocator<T>>;

}  // namespace tz::TZ_CPU_CAPABILITY
