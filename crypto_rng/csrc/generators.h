// torchcsprng's generators on core's engine interface. Both are AES-128-CTR generators:
// every sampling call draws a fresh 128-bit key from the generator's engine (four
// random() draws, each unpacked little-endian into 4 key bytes) and element k of the
// result comes from AES_key(counter block k / elements-per-block) (see core's
// random/counter_sampling.h). Sequential consumers (randperm, multinomial) draw from the
// engine itself through random() / random64(), as torchcsprng's randperm does.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "random/generator.h"

namespace crypto_rng {

class AesGenerator : public tz::Generator {
 public:
  bool counter_based() const override { return true; }
  tz::BlockStreamPtr block_stream() override;
  // The key the next sampling call would use, drawn now (tests and torchcsprng parity).
  void next_key(uint8_t key[16]);
};

// Not seedable and without state: the OS's CSPRNG (getrandom), or the std::random_device
// source a token names ("/dev/urandom", "rdrand", ...).
class RandomDeviceGenerator final : public AesGenerator {
 public:
  explicit RandomDeviceGenerator(const std::optional<std::string>& token);
  ~RandomDeviceGenerator() override;
  uint32_t random() override;
  void set_seed(uint64_t seed) override;
  uint64_t initial_seed() const override;
  std::vector<uint8_t> get_state() const override;
  void set_state(const std::vector<uint8_t>& state) override;
  std::string engine_name() const override { return "random_device"; }

 private:
  void refill();
  std::unique_ptr<std::random_device> device_;  // set when a token names a source
  uint8_t buffer_[256];
  size_t used_ = sizeof(buffer_);
  uint64_t fork_epoch_ = 0;
};

// Deterministic: std::mt19937 seeded with the seed's low 32 bits (5489 without a seed).
// Seeding and states work as core's CPU generator's (torch's state layout).
class MT19937Generator final : public AesGenerator {
 public:
  explicit MT19937Generator(uint64_t seed) : engine_(seed) {}
  uint32_t random() override { return engine_.random(); }
  void set_seed(uint64_t seed) override { engine_.set_seed(seed); }
  uint64_t initial_seed() const override { return engine_.initial_seed(); }
  std::vector<uint8_t> get_state() const override { return engine_.get_state(); }
  void set_state(const std::vector<uint8_t>& state) override { engine_.set_state(state); }
  std::string engine_name() const override { return "mt19937"; }

 private:
  tz::CPUGenerator engine_;
};

// Overwrites secrets so they do not linger in freed memory.
void secure_wipe(void* p, size_t n);

}  // namespace crypto_rng
