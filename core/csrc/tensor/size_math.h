// Overflow-checked arithmetic on sizes, strides and offsets. Every tensor geometry (each view
// and each allocation, through TensorImpl's constructor) and every computed output size goes
// through these, so an int64 never wraps into a wrong element count or an out-of-bounds index.
#pragma once
#include <cstdint>
#include <vector>

namespace tz {

// a * b and a + b, or a RuntimeError "<op>(): <what> is too large (int64 overflow)".
int64_t checked_mul(int64_t a, int64_t b, const char* op, const char* what);
int64_t checked_add(int64_t a, int64_t b, const char* op, const char* what);

// The elements a strided geometry reaches, relative to its storage offset.
struct StridedExtent {
  int64_t numel = 1;
  int64_t lowest = 0;   // most negative index reached (0 without negative strides)
  int64_t highest = 0;  // largest index reached; -1 when numel == 0
};

// Checks sizes >= 0 and that neither the element count nor the reach overflows int64.
StridedExtent strided_extent(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                             const char* op);

// Throws unless every element of (sizes, strides, offset) lies inside a storage of `capacity`
// elements. The one bounds check behind every tensor's construction.
void check_geometry(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                    int64_t offset, int64_t capacity, const char* op);

}  // namespace tz
