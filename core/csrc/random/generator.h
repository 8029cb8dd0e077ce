// Random engines. `Generator` is the pluggable engine interface behind `core.Generator`
// and every `generator=` argument; `CPUGenerator` reproduces PyTorch's CPU generator
// (mt19937 seeded the same way); other packages (crypto_rng) implement their own engines.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tz {

class Generator {
 public:
  virtual ~Generator() = default;
  virtual uint32_t random() = 0;  // 32 uniformly random bits
  virtual uint64_t random64();    // 64 bits: two draws of random(), the first one high
  virtual void set_seed(uint64_t seed) = 0;
  virtual uint64_t initial_seed() const = 0;
  virtual std::vector<uint8_t> get_state() const = 0;
  virtual void set_state(const std::vector<uint8_t>& state) = 0;
  virtual std::string engine_name() const { return "custom"; }
  // Seeds from the OS's entropy and returns the seed.
  uint64_t seed();

  // Box-Muller's second value, kept for the next scalar normal draw (PyTorch does this).
  std::optional<double> next_double_normal;
  std::optional<float> next_float_normal;
  // Held while a kernel draws from this engine.
  std::mutex mutex;
};

using GeneratorPtr = std::shared_ptr<Generator>;

// The standard Mersenne Twister (MT19937), seeded like PyTorch's `at::mt19937`.
class MT19937 {
 public:
  static constexpr int kN = 624;
  explicit MT19937(uint64_t seed = 5489) { init(seed); }
  void init(uint64_t seed);
  uint32_t operator()();
  uint64_t seed() const { return seed_; }
  // Serialised as seed, position and the 624 state words.
  std::vector<uint8_t> state() const;
  void set_state(const std::vector<uint8_t>& bytes);

 private:
  void twist();
  uint64_t seed_;
  int left_ = 1, next_ = 0;
  uint32_t state_[kN];
};

class CPUGenerator final : public Generator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // PyTorch's default
  explicit CPUGenerator(uint64_t seed = kDefaultSeed) : engine_(seed) {}
  uint32_t random() override { return engine_(); }
  void set_seed(uint64_t seed) override;
  uint64_t initial_seed() const override { return engine_.seed(); }
  std::vector<uint8_t> get_state() const override;
  void set_state(const std::vector<uint8_t>& state) override;
  std::string engine_name() const override { return "mt19937"; }

 private:
  MT19937 engine_;
};

// The process-wide default generator used when `generator=None`.
const GeneratorPtr& default_generator();
// `g` if given, else the default generator.
inline Generator& generator_or_default(const GeneratorPtr& g) { return g ? *g : *default_generator(); }

}  // namespace tz
