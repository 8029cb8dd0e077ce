// One cycle of sox's low-frequency oscillators (its lsx_generate_wave_table): sine or
// triangle between min and max, starting at `phase` radians, as doubles or rounded to ints.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace tz::audio {

enum class Wave { Sine, Triangle };

inline std::vector<double> wave_table(Wave wave, int64_t size, double min, double max, double phase,
                                      bool round_to_int) {
  std::vector<double> table(size);
  const auto offset = static_cast<int64_t>(phase / M_PI / 2 * size + 0.5);
  for (int64_t t = 0; t < size; ++t) {
    const int64_t point = (t + offset) % size;
    double d;
    if (wave == Wave::Sine) {
      d = (std::sin(static_cast<double>(point) / size * 2 * M_PI) + 1) / 2;
    } else {
      d = static_cast<double>(point) * 2 / size;
      switch (4 * point / size) {
        case 0: d += 0.5; break;
        case 1: case 2: d = 1.5 - d; break;
        default: d -= 1.5; break;
      }
    }
    d = d * (max - min) + min;
    // sox keeps float tables in single precision; int tables round half away from zero
    table[t] = round_to_int ? std::trunc(d + (d < 0 ? -0.5 : 0.5)) : static_cast<double>(static_cast<float>(d));
  }
  return table;
}

}  // namespace tz::audio
