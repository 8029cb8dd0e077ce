// Host memory for storages. Large blocks are cached and reused: fresh pages from the OS
// cost a page fault each (about 0.25 us per 4 KiB, zeroed by the kernel), which made
// big-output ops slower than their kernels. Small blocks go straight to malloc.
#pragma once
#include <cstddef>
#include <cstdint>

namespace tz::allocator {

constexpr size_t kAlignment = 64;

// A 64-byte aligned block of at least `nbytes` (> 0); nullptr when out of memory.
void* allocate(size_t nbytes);
// Gives back a block from allocate(nbytes) (same nbytes).
void release(void* data, size_t nbytes);
// The most the cache holds: TENSORZOO_ALLOCATOR_CACHE_MB, else a quarter of physical memory
// (or of the cgroup's limit), at least 1 GiB.
size_t cache_limit_bytes();
// Bytes held in the cache, not in use.
size_t cached_bytes();
// Returns every cached block to the OS.
void empty_cache();
// Bytes this thread allocated minus those it released, since it started (the profiler's
// per-op memory is the difference across the op).
int64_t thread_net_bytes();

}  // namespace tz::allocator
