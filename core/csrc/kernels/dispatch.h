// Run-time choice of kernel builds. Files under kernels/isa/ are compiled three times
// (baseline, AVX2, AVX-512), each into its own namespace, and register into stubs; a
// stub calls the best build this CPU supports. TENSORZOO_CPU_CAPABILITY=baseline|avx2|avx512
// caps the choice, so tests can exercise every path on one machine.
#pragma once
#include <utility>

#include "tensor/errors.h"

namespace tz {

enum class CpuCapability : int { Baseline = 0, AVX2 = 1, AVX512 = 2 };
constexpr int kNumCapabilities = 3;

CpuCapability cpu_capability();  // the capability in use (detected, then capped by the env var)
const char* cpu_capability_name(CpuCapability c);

template <typename Fn>
struct DispatchStub {
  Fn impls[kNumCapabilities] = {};
  const char* name;
  // constexpr: stubs are constant-initialised, before any registrar runs.
  explicit constexpr DispatchStub(const char* n) : name(n) {}

  Fn get() const {
    for (int c = static_cast<int>(cpu_capability()); c >= 0; --c)
      if (impls[c]) return impls[c];
    fail(ErrorKind::Runtime, "no kernel registered for ", name);
  }
  template <typename... Args>
  decltype(auto) operator()(Args&&... args) const {
    return get()(std::forward<Args>(args)...);
  }
};

struct StubRegistrar {
  template <typename Fn>
  StubRegistrar(DispatchStub<Fn>& stub, int capability, Fn fn) { stub.impls[capability] = fn; }
};

}  // namespace tz

#define TZ_CAT_(a, b) a##b
#define TZ_CAT(a, b) TZ_CAT_(a, b)
#define TZ_CAPABILITY_INDEX_baseline 0
#define TZ_CAPABILITY_INDEX_avx2 1
#define TZ_CAPABILITY_INDEX_avx512 2

// Inside kernels/isa/*.cpp: register `fn` as this build's implementation of `stub`.
#define TZ_REGISTER_KERNEL(stub, fn)                                            \
  static ::tz::StubRegistrar TZ_CAT(stub##_registrar_, __LINE__)(               \
      stub, TZ_CAT(TZ_CAPABILITY_INDEX_, TZ_CPU_CAPABILITY), fn)
