// Run-time choice of kernel builds. Files under kernels/isa/ are compiled three times
// (baseline, AVX2, AVX-512), each into its own namespace, and register into stubs; a
// stub calls the best build this CPU supports. Files under kernels/isa_vnni/ (int8 GEMM)
// are compiled once more, for AVX-512 with VNNI, and fill that level of their stubs only;
// every other stub falls back to its AVX-512 build there.
// TENSORZOO_CPU_CAPABILITY=baseline|avx2|avx512|avx512vnni caps the choice, so tests can
// exercise every path on one machine.
#pragma once
#include <utility>

#include "tensor/errors.h"

namespace tz {

enum class CpuCapability : int { Baseline = 0, AVX2 = 1, AVX512 = 2, AVX512VNNI = 3 };
constexpr int kNumCapabilities = 4;

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
#define TZ_CAPABILITY_INDEX_avx512vnni 3

// Inside kernels/isa/*.cpp: register `fn` as this build's implementation of `stub`.
#define TZ_REGISTER_KERNEL(stub, fn)                                            \
  static ::tz::StubRegistrar TZ_CAT(stub##_registrar_, __LINE__)(               \
      stub, TZ_CAT(TZ_CAPABILITY_INDEX_, TZ_CPU_CAPABILITY), fn)
