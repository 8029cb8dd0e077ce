// Run-time choice of the AES implementation (see aes.h for the environment variables).
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "aes_isa.h"
#include "tensor/errors.h"

namespace crypto_rng::aes {

namespace {

bool cpu_has_aesni() { return __builtin_cpu_supports("aes"); }
bool cpu_has_vaes() {
  return cpu_has_aesni() && __builtin_cpu_supports("vaes") && __builtin_cpu_supports("avx512f");
}

// The implementation the environment asks for, or the best one the CPU has.
const Impl* initial() {
  const char* forced = std::getenv("CRYPTO_RNG_FORCE_PORTABLE");
  if (forced && *forced && std::strcmp(forced, "0") != 0) return &portable_impl();
  const char* name = std::getenv("CRYPTO_RNG_AES");
  const std::string want = name ? name : "";
  if (want == "portable") return &portable_impl();
  if (want == "aesni") return aesni_impl() ? aesni_impl() : &portable_impl();
  return available().back();
}

std::atomic<const Impl*>& current() {
  static std::atomic<const Impl*> impl{initial()};
  return impl;
}

}  // namespace

const Impl* aesni_impl() { return cpu_has_aesni() ? &kAesniImpl : nullptr; }
const Impl* vaes_impl() { return cpu_has_vaes() ? &kVaesImpl : nullptr; }

std::vector<const Impl*> available() {
  std::vector<const Impl*> out{&portable_impl()};
  for (const Impl* impl : {aesni_impl(), vaes_impl()})
    if (impl) out.push_back(impl);
  return out;
}

const Impl& active() { return *current().load(std::memory_order_acquire); }

void set_active(const std::string& name) {
  for (const Impl* impl : available()) {
    if (name == impl->name) {
      current().store(impl, std::memory_order_release);
      return;
    }
  }
  tz::fail(tz::ErrorKind::Value, "unknown or unsupported AES implementation '", name,
           "' (this CPU has: ", [] {
             std::string names;
             for (const Impl* impl : available()) names += (names.empty() ? "" : ", ") + std::string(impl->name);
             return names;
           }(), ")");
}

}  // namespace crypto_rng::aes
