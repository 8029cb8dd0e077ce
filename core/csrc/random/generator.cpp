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

uint64_t Generator::seed() {
  std::random_device rd;
  uint64_t s = (uint64_t(rd()) << 32) | rd();
  set_seed(s);
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

uint32_t MT19937::operator()() {
  if (--left_ <= 0) twist();
  uint32_t y = state_[next_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

std::vector<uint8_t> MT19937::state() const {
  std::vector<uint8_t> out(8 + 4 + 4 + sizeof(state_));
  std::memcpy(out.data(), &seed_, 8);
  std::memcpy(out.data() + 8, &left_, 4);
  std::memcpy(out.data() + 12, &next_, 4);
  std::memcpy(out.data() + 16, state_, sizeof(state_));
  return out;
}

void MT19937::set_state(const std::vector<uint8_t>& bytes) {
  TZ_CHECK(bytes.size() == 16 + sizeof(state_), Runtime,
           "set_state(): expected a mt19937 state of ", 16 + sizeof(state_), " bytes, got ", bytes.size());
  int left, next;
  std::memcpy(&left, bytes.data() + 8, 4);
  std::memcpy(&next, bytes.data() + 12, 4);
  TZ_CHECK(left >= 1 && left <= kN && next >= 0 && next < kN, Runtime,
           "set_state(): corrupt mt19937 state");
  std::memcpy(&seed_, bytes.data(), 8);
  left_ = left;
  next_ = next;
  std::memcpy(state_, bytes.data() + 16, sizeof(state_));
}

void CPUGenerator::set_seed(uint64_t seed) {
  engine_.init(seed);
  next_double_normal.reset();
  next_float_normal.reset();
}

std::vector<uint8_t> CPUGenerator::get_state() const {
  std::vector<uint8_t> out = engine_.state();
  // Trailing flag + cached normals so that set_state resumes exactly.
  double cached_double = next_double_normal.value_or(0.0);
  float cached_float = next_float_normal.value_or(0.0f);
  out.push_back(next_double_normal.has_value());
  out.push_back(next_float_normal.has_value());
  out.resize(out.size() + 12);
  std::memcpy(out.data() + out.size() - 12, &cached_double, 8);
  std::memcpy(out.data() + out.size() - 4, &cached_float, 4);
  return out;
}

void CPUGenerator::set_state(const std::vector<uint8_t>& state) {
  TZ_CHECK(state.size() == 16 + 4 * MT19937::kN + 14, Runtime,
           "set_state(): expected a state of ", 16 + 4 * MT19937::kN + 14, " bytes, got ", state.size());
  size_t engine_bytes = state.size() - 14;
  engine_.set_state(std::vector<uint8_t>(state.begin(), state.begin() + engine_bytes));
  double d;
  float f;
  std::memcpy(&d, state.data() + engine_bytes + 2, 8);
  std::memcpy(&f, state.data() + engine_bytes + 10, 4);
  next_double_normal = state[engine_bytes] ? std::optional<double>(d) : std::nullopt;
  next_float_normal = state[engine_bytes + 1] ? std::optional<float>(f) : std::nullopt;
}

const GeneratorPtr& default_generator() {
  static const GeneratorPtr g = std::make_shared<CPUGenerator>();
  return g;
}

}  // namespace tz
