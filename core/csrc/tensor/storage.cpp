#include "tensor/storage.h"

#include <atomic>
#include <cstdlib>
#include <new>

#include "tensor/allocator.h"
#include "tensor/errors.h"

namespace tz {

namespace {
std::atomic<int64_t> g_bytes_in_use{0};
}  // namespace

std::shared_ptr<Storage> Storage::allocate(size_t nbytes) {
  void* data = nullptr;
  if (nbytes > 0) {
    data = allocator::allocate(nbytes);
    TZ_CHECK(data != nullptr, Runtime, "out of memory: tried to allocate ", nbytes, " bytes");
    g_bytes_in_use += static_cast<int64_t>(nbytes);
  }
  return std::make_shared<Storage>(Key(), data, nbytes, true, nullptr);
}

std::shared_ptr<Storage> Storage::wrap(void* data, size_t nbytes, std::shared_ptr<void> owner) {
  return std::make_shared<Storage>(Key(), data, nbytes, false, std::move(owner));
}

Storage::~Storage() {
  if (owns_ && data_ != nullptr) {
    allocator::release(data_, nbytes_);
    g_bytes_in_use -= static_cast<int64_t>(nbytes_);
  }
}

int64_t Storage::bytes_in_use() { return g_bytes_in_use.load(); }

}  // namespace tz
