// The one thread pool of the process. parallel_for splits [begin, end) into chunks of at
// least `grain` iterations and runs them on the pool's workers and the calling thread.
#pragma once
#include <cstdint>
#include <functional>

namespace tz {

int get_num_threads();
void set_num_threads(int n);  // n >= 1; takes effect for the next parallel region
bool in_parallel_region();

void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& fn);

}  // namespace tz
