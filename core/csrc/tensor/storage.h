// Refcounted, 64-byte aligned byte buffers, or views of memory owned by someone else
// (a numpy array, a DLPack capsule) kept alive through `owner`.
#pragma once
#include <cstddef>
#include <memory>

namespace tz {

class Storage {
 public:
  // Uninitialised memory of nbytes, aligned to 64 bytes.
  static std::shared_ptr<Storage> allocate(size_t nbytes);
  // Borrowed memory; `owner` is released when the storage dies.
  static std::shared_ptr<Storage> wrap(void* data, size_t nbytes, std::shared_ptr<void> owner);

  // Made only by allocate() and wrap() (the key is private): one allocation with its
  // reference count.
  class Key {
    friend class Storage;
    Key() = default;
  };
  Storage(Key, void* data, size_t nbytes, bool owns, std::shared_ptr<void> owner)
      : data_(data), nbytes_(nbytes), owns_(owns), owner_(std::move(owner)) {}
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  ~Storage();

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  bool owns_memory() const { return owns_; }

  // Allocator statistics, for memory tests.
  static int64_t bytes_in_use();

 private:
  void* data_;
  size_t nbytes_;
  bool owns_;
  std::shared_ptr<void> owner_;
};

using StoragePtr = std::shared_ptr<Storage>;

}  // namespace tz
