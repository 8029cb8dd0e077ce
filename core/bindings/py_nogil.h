// Regions that run kernels without the GIL, and the one thing that must not overlap them:
// `Tensor.data = other` rewrites a TensorImpl's storage and geometry in place. Each GIL-free
// region holds the swap lock shared; a swap holds it exclusively, so no kernel ever reads a
// half-swapped geometry or a storage the swap has just freed.
#pragma once
#include <Python.h>

#include <mutex>
#include <shared_mutex>

namespace tz::py {

std::shared_mutex& tensor_swap_mutex();

// Taken with the GIL held (so it never waits: a swap holds the GIL while it holds the lock);
// the lock is dropped before the GIL is taken back.
class WithoutGil {
 public:
  WithoutGil() : lock_(tensor_swap_mutex()), state_(PyEval_SaveThread()) {}
  ~WithoutGil() {
    lock_.unlock();
    PyEval_RestoreThread(state_);
  }
  WithoutGil(const WithoutGil&) = delete;
  WithoutGil& operator=(const WithoutGil&) = delete;

 private:
  std::shared_lock<std::shared_mutex> lock_;
  PyThreadState* state_;
};

// The exclusive side, for the swap; called with the GIL held. It lets the GIL go while it
// waits, since a kernel may need the GIL (a Python generator) before it can finish.
std::unique_lock<std::shared_mutex> lock_for_tensor_swap();

}  // namespace tz::py
