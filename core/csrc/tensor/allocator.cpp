#include "tensor/allocator.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tz::allocator {

namespace {

constexpr size_t kCachedMin = size_t(128) << 10;  // glibc's default mmap threshold
constexpr size_t kHugePageMin = size_t(4) << 20;   // numpy's threshold for huge-page advice
constexpr size_t kHugePage = size_t(2) << 20;

// Size classes of 8 steps per power of two: at most 12.5% of a block is slack.
size_t size_class(size_t nbytes) {
  size_t top = size_t(1) << (63 - __builtin_clzll(nbytes));  // the highest power of two <= nbytes
  size_t step = top / 8;
  return (nbytes + step - 1) / step * step;
}

// Physical memory, or the cgroup's limit where one is set and lower ("max" does not parse).
size_t usable_memory() {
  size_t bytes = size_t(sysconf(_SC_PHYS_PAGES)) * size_t(sysconf(_SC_PAGE_SIZE));
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  unsigned long long limit = 0;
  if (cgroup >> limit && limit > 0 && limit < bytes) bytes = limit;
  return bytes;
}

// A quarter of usable memory, at least 1 GiB. A ResNet-50 training step at batch 16 frees and
// reallocates 1.7 GB: with 1 GiB cached it spent 5% of its time zeroing fresh pages.
size_t cache_limit() {
  const char* env = std::getenv("TENSORZOO_ALLOCATOR_CACHE_MB");
  return env ? size_t(std::stoull(env)) << 20 : std::max(size_t(1) << 30, usable_memory() / 4);
}

struct Cache {
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<void*>> free_blocks;
  size_t cached = 0;
  const size_t limit = cache_limit();

  Cache() {
    // A fork while another thread holds the lock would leave the child's copy locked.
    pthread_atfork([] { get().mutex.lock(); }, [] { get().mutex.unlock(); }, [] { get().mutex.unlock(); });
  }
  static Cache& get() {
    static Cache* cache = new Cache();  // never destroyed: storages may outlive static teardown
    return *cache;
  }
};

// Large blocks start on a huge-page boundary and ask for transparent huge pages, as numpy's
// do: one page fault per 2 MiB instead of per 4 KiB, fewer TLB misses (MPI copied numpy's
// memory 30% faster than ours before). The data begins a few cache lines past the boundary:
// a page-aligned buffer 4K-aliases with MPI's page-aligned shared-memory cells (a 100 MB
// all_reduce took 140 ms at offset 0, 73-77 ms at 64 to 1024, 92 ms at 2048), and successive
// blocks take turns among offsets 64, 320, 576 and 832 so that an op's inputs and output do
// not all sit at the same offset within a page (a 1M-element add was 10% slower when they did).
// The byte before the data holds its offset in cache lines. Only the huge pages the data fills
// are advised: the tail past the last one stays in 4 KiB pages rather than costing a whole
// huge page of memory.
std::atomic<unsigned> g_huge_blocks{0};

void* huge_fresh(size_t nbytes) {
  const size_t offset = kAlignment * (1 + 4 * (g_huge_blocks.fetch_add(1, std::memory_order_relaxed) % 4));
  const size_t spanned = nbytes + offset;
  const size_t rounded = (spanned + kHugePage - 1) / kHugePage * kHugePage;
  char* block = static_cast<char*>(std::aligned_alloc(kHugePage, rounded));
  if (block == nullptr) return nullptr;
#ifdef MADV_HUGEPAGE
  madvise(block, spanned / kHugePage * kHugePage, MADV_HUGEPAGE);  // advice: failing changes nothing
#endif
  block[offset - 1] = static_cast<char>(offset / kAlignment);
  return block + offset;
}

void* fresh(size_t nbytes) {
  return nbytes < kHugePageMin ? std::aligned_alloc(kAlignment, nbytes) : huge_fresh(nbytes);
}

void fresh_release(void* data, size_t size) {
  char* bytes = static_cast<char*>(data);
  std::free(size < kHugePageMin ? data : bytes - kAlignment * static_cast<unsigned char>(bytes[-1]));
}

// Small blocks come from plain malloc, aligned by hand: glibc's aligned_alloc skips its
// per-thread cache and splits chunks, which made it the costliest step of a small op.
// The byte before the block holds how far it was moved from malloc's pointer (16..64); the
// block is padded to a multiple of 64 bytes, as aligned_alloc's were.
void* small_fresh(size_t nbytes) {
  char* raw = static_cast<char*>(std::malloc((nbytes + kAlignment - 1) / kAlignment * kAlignment + kAlignment));
  if (raw == nullptr) return nullptr;
  char* block = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(raw) + kAlignment) & ~(kAlignment - 1));
  block[-1] = static_cast<char>(block - raw);
  return block;
}

void small_release(void* data) {
  char* block = static_cast<char*>(data);
  std::free(block - static_cast<unsigned char>(block[-1]));
}

thread_local int64_t t_net_bytes = 0;

void* allocate_block(size_t nbytes) {
  if (nbytes < kCachedMin) return small_fresh(nbytes);
  const size_t size = size_class(nbytes);
  Cache& cache = Cache::get();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.free_blocks.find(size);
    if (it != cache.free_blocks.end() && !it->second.empty()) {
      void* block = it->second.back();
      it->second.pop_back();
      cache.cached -= size;
      return block;
    }
  }
  void* block = fresh(size);
  if (block == nullptr) {  // give the cache back and retry once
    empty_cache();
    block = fresh(size);
  }
  return block;
}

void release_block(void* data, size_t nbytes) {
  if (nbytes < kCachedMin) return small_release(data);
  const size_t size = size_class(nbytes);
  Cache& cache = Cache::get();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.cached + size <= cache.limit) {
      cache.free_blocks[size].push_back(data);
      cache.cached += size;
      return;
    }
  }
  fresh_release(data, size);
}

}  // namespace

void* allocate(size_t nbytes) {
  void* block = allocate_block(nbytes);
  if (block != nullptr) t_net_bytes += static_cast<int64_t>(nbytes);
  return block;
}

void release(void* data, size_t nbytes) {
  release_block(data, nbytes);
  t_net_bytes -= static_cast<int64_t>(nbytes);
}

int64_t thread_net_bytes() { return t_net_bytes; }

size_t cache_limit_bytes() { return Cache::get().limit; }

size_t cached_bytes() {
  Cache& cache = Cache::get();
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.cached;
}

void empty_cache() {
  Cache& cache = Cache::get();
  std::unordered_map<size_t, std::vector<void*>> blocks;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    blocks.swap(cache.free_blocks);
    cache.cached = 0;
  }
  for (auto& [size, list] : blocks)
    for (void* p : list) fresh_release(p, size);
}

}  // namespace tz::allocator
