#include "kernels/dispatch.h"

#include <cstdlib>
#include <cstring>

namespace tz {

namespace {
CpuCapability detect() {
  __builtin_cpu_init();
  // The AVX-512 build's flags (CMakeLists.txt, TZ_ISA_avx512): F, BW, VL and DQ; the
  // int8 GEMM's extra build (TZ_ISA_avx512vnni) adds VNNI.
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
    return __builtin_cpu_supports("avx512vnni") ? CpuCapability::AVX512VNNI : CpuCapability::AVX512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CpuCapability::AVX2;
  return CpuCapability::Baseline;
}

CpuCapability choose() {
  CpuCapability best = detect();
  const char* env = std::getenv("TENSORZOO_CPU_CAPABILITY");
  if (!env || !*env) return best;
  for (int c = 0; c < kNumCapabilities; ++c)
    if (std::strcmp(env, cpu_capability_name(CpuCapability(c))) == 0)
      return CpuCapability(std::min(c, static_cast<int>(best)));
  return best;  // unknown values are ignored rather than crashing at import
}
}  // namespace

CpuCapability cpu_capability() {
  static const CpuCapability chosen = choose();
  return chosen;
}

const char* cpu_capability_name(CpuCapability c) {
  static const char* names[] = {"baseline", "avx2", "avx512", "avx512vnni"};
  return names[static_cast<int>(c)];
}

}  // namespace tz
