// Random engines. `Generator` is the pluggable engine interface behind `core.Generator`
// and every `generator=` argument; `CPUGenerator` reproduces PyTorch's CPU generator
// (mt19937 seeded the same way, the same state layout); other packages (crypto_rng) and
// Python subclasses implement their own engines.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tz {

// A counter-based random stream (crypto_rng's AES-128-CTR keystream): block i, 16 bytes, is
// a pure function of i, so any range of blocks can be made independently, in any order or
// in parallel, and the result is the serial one.
class BlockStream {
 public:
  virtual ~BlockStream() = default;
  // Writes blocks first, first + 1, ..., first + count - 1 to out, 16 bytes each.
  virtual void fill(uint64_t first, int64_t count, uint8_t* out) const = 0;
};

using BlockStreamPtr = std::shared_ptr<const BlockStream>;

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
  // Counter-based engines return true: the sampling kernels then take one block_stream()
  // per call (with the lock held; it may draw from the engine, e.g. a fresh key) and make
  // each element from its own part of the stream (random/counter_sampling.h), in parallel.
  // Other engines are drawn from sequentially through random() / random64().
  virtual bool counter_based() const { return false; }
  virtual BlockStreamPtr block_stream() { return nullptr; }
  // Seeds the engine and forgets cached normals (torch.Generator.manual_seed).
  void manual_seed(uint64_t seed);
  // Seeds from the OS's entropy and returns the seed.
  uint64_t seed();

  // Held (through GeneratorLock) while a kernel draws. An engine whose draws can wait on
  // something else (a Python engine needs the GIL) overrides these to avoid deadlocks.
  virtual void lock() { mutex.lock(); }
  virtual void unlock() { mutex.unlock(); }

  // Box-Muller's second value, kept for the next scalar normal draw (PyTorch does this).
  std::optional<double> next_double_normal;
  std::optional<float> next_float_normal;
  std::mutex mutex;
};

using GeneratorPtr = std::shared_ptr<Generator>;

// Scoped ownership of a generator while drawing from it.
class GeneratorLock {
 public:
  explicit GeneratorLock(Generator& g) : g_(g) { g_.lock(); }
  ~GeneratorLock() { g_.unlock(); }
  GeneratorLock(const GeneratorLock&) = delete;
  GeneratorLock& operator=(const GeneratorLock&) = delete;

 private:
  Generator& g_;
};

// The standard Mersenne Twister (MT19937), seeded like PyTorch's `at::mt19937`.
class MT19937 {
 public:
  static constexpr int kN = 624;
  explicit MT19937(uint64_t seed = 5489) { init(seed); }
  void init(uint64_t seed);
  // Inline: samplers call it once per element.
  uint32_t operator()() {
    if (--left_ <= 0) twist();
    uint32_t y = state_[next_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }

  uint64_t seed() const { return seed_; }
  int left() const { return left_; }  // draws until the next twist, plus one
  int next() const { return next_; }  // index of the next state word to temper
  const uint32_t* words() const { return state_; }
  // Restores a position; false (and nothing changed) when it is not a valid one.
  bool set(uint64_t seed, int left, int next, const uint32_t* words);

 private:
  void twist();
  uint64_t seed_;
  int left_ = 1, next_ = 0;
  uint32_t state_[kN];
};

class CPUGenerator final : public Generator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // PyTorch's default
  // Sizes of PyTorch's serialised CPU generator state (torch.get_rng_state()).
  static constexpr size_t kLegacyStateSize = 5048, kStateSize = 5056;
  explicit CPUGenerator(uint64_t seed = kDefaultSeed) : engine_(seed) {}
  uint32_t random() override { return engine_(); }
  uint64_t random64() override {
    uint64_t hi = engine_();
    return (hi << 32) | engine_();
  }
  void set_seed(uint64_t seed) override;
  uint64_t initial_seed() const override { return engine_.seed(); }
  // PyTorch's byte layout, so states move between torch and core in both directions.
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

// Calls f(engine) with the engine's static type when it is the default CPU engine (its
// draws then inline into the sampling loop), else with the Generator interface.
template <typename F>
decltype(auto) with_engine(Generator& g, F&& f) {
  if (auto* cpu = dynamic_cast<CPUGenerator*>(&g)) return f(*cpu);
  return f(g);
}

}  // namespace tz
