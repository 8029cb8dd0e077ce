#include "random/generator.h"

#include <cstring>
#include <random>

#include "tensor/errors.h"

namespace tz {

uint64_t Generator::random64() {
  uint64_t hi = random();
  uint64_t lo = random();
  return (hi << 32) | lo;
}

void Generator::manual_seed(uint64_t seed) {
  set_seed(seed);
  next_double_normal.reset();
  next_float_normal.reset();
}

uint64_t Generator::seed() {
  std::random_device rd;
  uint64_t s = (uint64_t(rd()) << 32) | rd();
  manual_seed(s);
  return s;
}

void MT19937::init(uint64_t seed) {
  seed_ = seed;
  state_[0] = static_cast<uint32_t>(seed & 0xffffffffu);
  for (int j = 1; j < kN; ++j)
    state_[j] = 1812433253u * (state_[j - 1] ^ (state_[j - 1] >> 30)) + static_cast<uint32_t>(j);
  left_ = 1;
  next_ = 0;
}

void MT19937::twist() {
  constexpr uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;
  constexpr int kM = 397;
  auto mix = [](uint32_t u, uint32_t v) {
    uint32_t y = (u & kUpper) | (v & kLower);
    return (y >> 1) ^ ((v & 1u) ? kMatrixA : 0u);
  };
  int i = 0;
  for (; i < kN - kM; ++i) state_[i] = state_[i + kM] ^ mix(state_[i], state_[i + 1]);
  for (; i < kN - 1; ++i) state_[i] = state_[i + kM - kN] ^ mix(state_[i], state_[i + 1]);
  state_[kN - 1] = state_[kM - 1] ^ mix(state_[kN - 1], state_[0]);
  left_ = kN;
  next_ = 0;
}

bool MT19937::set(uint64_t seed, int left, int next, const uint32_t* words) {
  // The same validity rule as PyTorch: `next` may equal kN right before a twist.
  if (left < 1 || left > kN || next < 0 || next > kN) return false;
  seed_ = seed;
  left_ = left;
  next_ = next;
  std::memcpy(state_, words, sizeof(state_));
  return true;
}

namespace {

// PyTorch's CPUGeneratorImplState: the legacy THGeneratorState followed by the cached
// float normal. Offsets are those of the C structs on x86-64.
constexpr size_t kSeedAt = 0, kLeftAt = 8, kSeededAt = 12, kNextAt = 16, kWordsAt = 24;
constexpr size_t kNormalYAt = kWordsAt + 8 * MT19937::kN + 8;  // after normal_x
constexpr size_t kNormalValidAt = kNormalYAt + 16;             // after normal_y, normal_rho
constexpr size_t kFloatNormalAt = 5048, kFloatValidAt = 5052;

template <typename T>
void put(std::vector<uint8_t>& out, size_t at, T v) { std::memcpy(out.data() + at, &v, sizeof(T)); }
template <typename T>
T get(const std::vector<uint8_t>& in, size_t at) {
  T v;
  std::memcpy(&v, in.data() + at, sizeof(T));
  return v;
}

}  // namespace

void CPUGenerator::set_seed(uint64_t seed) {
  engine_.init(seed);
  next_double_normal.reset();
  next_float_normal.reset();
}

std::vector<uint8_t> CPUGenerator::get_state() const {
  std::vector<uint8_t> out(kStateSize, 0);
  put<uint64_t>(out, kSeedAt, engine_.seed());
  put<int32_t>(out, kLeftAt, engine_.left());
  put<int32_t>(out, kSeededAt, 1);
  put<uint64_t>(out, kNextAt, static_cast<uint64_t>(engine_.next()));
  for (int i = 0; i < MT19937::kN; ++i) put<uint64_t>(out, kWordsAt + 8 * i, engine_.words()[i]);
  if (next_double_normal) {
    put<double>(out, kNormalYAt, *next_double_normal);
    put<int32_t>(out, kNormalValidAt, 1);
  }
  if (next_float_normal) {
    put<float>(out, kFloatNormalAt, *next_float_normal);
    out[kFloatValidAt] = 1;
  }
  return out;
}

void CPUGenerator::set_state(const std::vector<uint8_t>& state) {
  TZ_CHECK(state.size() == kLegacyStateSize || state.size() == kStateSize, Runtime,
           "set_state(): expected a generator state of ", kLegacyStateSize, " or ", kStateSize,
           " bytes (torch.get_rng_state()), but got ", state.size(), " bytes");
  uint32_t words[MT19937::kN];
  for (int i = 0; i < MT19937::kN; ++i)
    words[i] = static_cast<uint32_t>(get<uint64_t>(state, kWordsAt + 8 * i));
  uint64_t next = get<uint64_t>(state, kNextAt);
  bool valid = get<int32_t>(state, kSeededAt) != 0 && next <= uint64_t(MT19937::kN);
  MT19937 engine;
  valid = valid && engine.set(get<uint64_t>(state, kSeedAt), get<int32_t>(state, kLeftAt),
                              static_cast<int>(next), words);
  TZ_CHECK(valid, Runtime, "set_state(): invalid mt19937 state");
  engine_ = engine;
  next_double_normal.reset();
  next_float_normal.reset();
  if (get<int32_t>(state, kNormalValidAt)) next_double_normal = get<double>(state, kNormalYAt);
  if (state.size() == kStateSize && state[kFloatValidAt])
    next_float_normal = get<float>(state, kFloatNormalAt);
}

const GeneratorPtr& default_generator() {
  static const GeneratorPtr g = std::make_shared<CPUGenerator>();
  return g;
}

}  // namespace tz
