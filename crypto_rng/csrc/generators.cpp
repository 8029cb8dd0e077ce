#include "generators.h"

#include <pthread.h>
#include <sys/random.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "aes.h"
#include "tensor/errors.h"

namespace crypto_rng {

namespace {

// AES-128-CTR keystream under one key, with the implementation in use when it was made.
class AesCtrStream final : public tz::BlockStream {
 public:
  explicit AesCtrStream(const uint8_t key[aes::kKeyBytes]) : impl_(aes::active()), keys_(impl_.expand_key(key)) {}
  ~AesCtrStream() override { secure_wipe(&keys_, sizeof(keys_)); }
  void fill(uint64_t first, int64_t count, uint8_t* out) const override {
    impl_.ctr(keys_, first, nullptr, out, count);
  }

 private:
  const aes::Impl& impl_;
  aes::RoundKeys keys_;
};

// Bumped in every child process after fork(), so buffered OS randomness is never shared.
std::atomic<uint64_t> fork_epoch{0};

void count_fork() { fork_epoch.fetch_add(1, std::memory_order_relaxed); }

[[noreturn]] void not_seedable(const char* what) {
  tz::fail(tz::ErrorKind::Runtime, what,
           "(): a random device generator is not seedable and has no state: it draws from the OS's "
           "cryptographically secure generator (use crypto_rng.create_mt19937_generator(seed) for "
           "reproducible streams)");
}

}  // namespace

void secure_wipe(void* p, size_t n) {
  volatile uint8_t* b = static_cast<volatile uint8_t*>(p);
  for (size_t i = 0; i < n; ++i) b[i] = 0;
}

void AesGenerator::next_key(uint8_t key[16]) {
  for (int i = 0; i < 4; ++i) {
    const uint32_t r = random();
    for (int j = 0; j < 4; ++j) key[4 * i + j] = static_cast<uint8_t>(r >> (8 * j));
  }
}

tz::BlockStreamPtr AesGenerator::block_stream() {
  uint8_t key[aes::kKeyBytes];
  next_key(key);
  auto stream = std::make_shared<AesCtrStream>(key);
  secure_wipe(key, sizeof(key));
  return stream;
}

// ------------------------------------------------------------------ random device

RandomDeviceGenerator::RandomDeviceGenerator(const std::optional<std::string>& token) {
  static std::once_flag registered;
  std::call_once(registered, [] { pthread_atfork(nullptr, nullptr, &count_fork); });
  if (token && !token->empty()) {
    try {
      device_ = std::make_unique<std::random_device>(*token);
    } catch (const std::exception& e) {
      tz::fail(tz::ErrorKind::Runtime, "create_random_device_generator(): cannot open the random device '", *token,
               "': ", e.what());
    }
  }
}

RandomDeviceGenerator::~RandomDeviceGenerator() { secure_wipe(buffer_, sizeof(buffer_)); }

void RandomDeviceGenerator::refill() {
  size_t got = 0;
  while (got < sizeof(buffer_)) {
    const ssize_t n = getrandom(buffer_ + got, sizeof(buffer_) - got, 0);
    if (n < 0) {
      TZ_CHECK(errno == EINTR, Runtime, "random device generator: getrandom() failed: ", std::strerror(errno));
      continue;
    }
    got += static_cast<size_t>(n);
  }
  used_ = 0;
  fork_epoch_ = fork_epoch.load(std::memory_order_relaxed);
}

uint32_t RandomDeviceGenerator::random() {
  if (device_) return static_cast<uint32_t>((*device_)());
  if (used_ + 4 > sizeof(buffer_) || fork_epoch_ != fork_epoch.load(std::memory_order_relaxed)) refill();
  uint32_t r = 0;
  for (int j = 0; j < 4; ++j) r |= uint32_t(buffer_[used_ + j]) << (8 * j);
  secure_wipe(buffer_ + used_, 4);  // handed out once
  used_ += 4;
  return r;
}

void RandomDeviceGenerator::set_seed(uint64_t) { not_seedable("manual_seed"); }
uint64_t RandomDeviceGenerator::initial_seed() const { not_seedable("initial_seed"); }
std::vector<uint8_t> RandomDeviceGenerator::get_state() const { not_seedable("get_state"); }
void RandomDeviceGenerator::set_state(const std::vector<uint8_t>&) { not_seedable("set_state"); }

}  // namespace crypto_rng
