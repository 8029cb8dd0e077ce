#include "iter/thread_pool.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "tensor/errors.h"

namespace tz {

namespace {

thread_local bool t_in_parallel = false;

// One job at a time: workers claim chunk indices from `next_chunk` until none are left.
struct Job {
  const std::function<void(int64_t, int64_t)>* fn = nullptr;
  int64_t begin = 0, end = 0, chunk = 1, num_chunks = 0;
  std::atomic<int64_t> next_chunk{0};
  std::atomic<int64_t> chunks_done{0};
  std::exception_ptr error;
  std::mutex error_mutex;

  void run_chunks() {
    for (int64_t c; (c = next_chunk.fetch_add(1)) < num_chunks;) {
      int64_t b = begin + c * chunk, e = std::min(end, b + chunk);
      try {
        (*fn)(b, e);
      } catch (...) {
        std::lock_guard<std::mutex> g(error_mutex);
        if (!error) error = std::current_exception();
      }
      chunks_done.fetch_add(1, std::memory_order_release);
    }
  }
};

// Workers take part in a job by counting themselves in `active_` before they read `job_`;
// run() clears `job_` and then waits for `active_` to reach zero, so no worker can still be
// looking at a finished job (it lives on run()'s stack). Both sides spin: a job is a few
// hundred microseconds at most, and sleeping on a condition variable there (a futex wake-up
// of tens of microseconds) was what kept 1M-element ops from gaining from a second thread.
class ThreadPool {
 public:
  // Starts up to `workers` threads; when the system refuses one (a memory or process limit)
  // the pool keeps those it has and the callers still get their work done.
  explicit ThreadPool(int workers) : requested_(workers) {
    for (int i = 0; i < workers; ++i) {
      try {
        threads_.emplace_back([this] { worker_loop(); });
      } catch (const std::exception&) {  // std::system_error, or bad_alloc growing the vector
        break;
      }
    }
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> g(mutex_);
      stop_ = true;
      generation_.fetch_add(1);
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }
  int workers() const { return static_cast<int>(threads_.size()); }
  int requested() const { return requested_; }

  void run(Job& job) {
    std::lock_guard<std::mutex> one_job_at_a_time(run_mutex_);
    job_.store(&job);
    bool sleepers;
    {
      std::lock_guard<std::mutex> g(mutex_);  // a worker going to sleep cannot miss this
      generation_.fetch_add(1);
      sleepers = sleeping_ > 0;
    }
    if (sleepers) wake_.notify_all();
    job.run_chunks();
    // The other workers are finishing their last chunk.
    for (int spins = 0; job.chunks_done.load(std::memory_order_acquire) < job.num_chunks; ++spins)
      spins < kSpinsBeforeYield ? pause() : std::this_thread::yield();
    job_.store(nullptr);
    for (int spins = 0; active_.load() != 0; ++spins)
      spins < kSpinsBeforeYield ? pause() : std::this_thread::yield();
  }

 private:
  static constexpr int kSpinsBeforeYield = 2000;
  // Spinning for the next job before sleeping: ops often come back to back.
  static constexpr int kSpinsBeforeSleep = 20000;
  static void pause() { __builtin_ia32_pause(); }

  void worker_loop() {
    t_in_parallel = true;
    uint64_t seen = 0;  // joins a job published before it started
    for (;;) {
      for (int spins = 0; spins < kSpinsBeforeSleep && generation_.load(std::memory_order_acquire) == seen; ++spins)
        pause();
      if (generation_.load() == seen) {
        std::unique_lock<std::mutex> lock(mutex_);
        ++sleeping_;
        wake_.wait(lock, [&] { return generation_.load() != seen; });
        --sleeping_;
      }
      if (stop_) return;
      seen = generation_.load();
      active_.fetch_add(1);
      if (Job* job = job_.load()) job->run_chunks();
      active_.fetch_sub(1);
    }
  }

  const int requested_;
  std::vector<std::thread> threads_;
  std::mutex run_mutex_;
  std::mutex mutex_;  // guards sleeping_, and orders generation_ with the sleepers
  std::condition_variable wake_;
  std::atomic<Job*> job_{nullptr};
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> active_{0};
  int sleeping_ = 0;
  std::atomic<bool> stop_{false};
};

int default_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

// More compute threads than this only oversubscribes the cores (and set_num_threads(10000)
// would spend seconds, and gigabytes of stacks, starting threads that cannot help). Read once:
// hardware_concurrency() opens /sys/devices/system/cpu/online on every call, which cost every
// parallel region a few microseconds of system calls.
int max_pool_threads() {
  static const int limit = std::max(4 * default_threads(), 16);
  return limit;
}

std::mutex g_pool_mutex;
int g_num_threads = default_threads();
// Created lazily and shared with the parallel_for calls running on it: a pool replaced by
// set_num_threads() while another thread runs a job is destroyed by the last of them.
// Never destroyed at exit (its workers are not joined in static teardown) nor after fork.
std::shared_ptr<ThreadPool>& current_pool() {
  static auto* pool = new std::shared_ptr<ThreadPool>();
  return *pool;
}

void forget_pool_after_fork() {
  // The child has none of the parent's threads: drop the pool (leaked) and start afresh on demand.
  new (&current_pool()) std::shared_ptr<ThreadPool>();
  new (&g_pool_mutex) std::mutex();
}

std::shared_ptr<ThreadPool> pool() {
  static bool registered = (pthread_atfork(nullptr, nullptr, forget_pool_after_fork), true);
  (void)registered;
  std::lock_guard<std::mutex> g(g_pool_mutex);
  std::shared_ptr<ThreadPool>& current = current_pool();
  int wanted = std::min(g_num_threads, max_pool_threads()) - 1;
  if (current && current->requested() != wanted) current.reset();
  if (!current && wanted > 0) current = std::make_shared<ThreadPool>(wanted);
  return current && current->workers() > 0 ? current : nullptr;
}

}  // namespace

int get_num_threads() { return g_num_threads; }

void set_num_threads(int n) {
  TZ_CHECK(n >= 1, Value, "set_num_threads(): expected a positive number of threads, got ", n);
  std::lock_guard<std::mutex> g(g_pool_mutex);
  g_num_threads = n;
}

bool in_parallel_region() { return t_in_parallel; }

void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& fn) {
  if (begin >= end) return;
  int64_t n = end - begin;
  grain = std::max<int64_t>(grain, 1);
  int threads = g_num_threads;
  if (t_in_parallel || threads == 1 || n <= grain) {
    fn(begin, end);
    return;
  }
  std::shared_ptr<ThreadPool> p = pool();
  if (!p) {
    fn(begin, end);
    return;
  }
  int64_t max_chunks = std::min<int64_t>((n + grain - 1) / grain, int64_t(p->workers() + 1) * 4);
  Job job;
  job.fn = &fn;
  job.begin = begin;
  job.end = end;
  job.chunk = (n + max_chunks - 1) / max_chunks;
  job.num_chunks = (n + job.chunk - 1) / job.chunk;
  t_in_parallel = true;
  p->run(job);
  t_in_parallel = false;
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace tz
