#include "bindings/py_nogil.h"

#include <thread>

namespace tz::py {

std::shared_mutex& tensor_swap_mutex() {
  static std::shared_mutex m;
  return m;
}

std::unique_lock<std::shared_mutex> lock_for_tensor_swap() {
  std::unique_lock<std::shared_mutex> lock(tensor_swap_mutex(), std::try_to_lock);
  while (!lock.owns_lock()) {
    Py_BEGIN_ALLOW_THREADS
    std::this_thread::yield();
    Py_END_ALLOW_THREADS
    lock.try_lock();
  }
  return lock;
}

}  // namespace tz::py
