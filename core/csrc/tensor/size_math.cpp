#include "tensor/size_math.h"

#include "tensor/errors.h"

namespace tz {

namespace {
std::string list_str(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}
}  // namespace

int64_t checked_mul(int64_t a, int64_t b, const char* op, const char* what) {
  int64_t out;
  TZ_CHECK(!__builtin_mul_overflow(a, b, &out), Runtime, op, "(): ", what,
           " is too large (int64 overflow computing ", a, " * ", b, ")");
  return out;
}

int64_t checked_add(int64_t a, int64_t b, const char* op, const char* what) {
  int64_t out;
  TZ_CHECK(!__builtin_add_overflow(a, b, &out), Runtime, op, "(): ", what,
           " is too large (int64 overflow computing ", a, " + ", b, ")");
  return out;
}

StridedExtent strided_extent(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                             const char* op) {
  TZ_CHECK(sizes.size() == strides.size(), Runtime, op, "(): mismatch in length of strides and shape");
  StridedExtent e;
  bool empty = false;
  for (int64_t s : sizes) {
    TZ_CHECK(s >= 0, Runtime, op, "(): negative dimension ", s, " in shape ", list_str(sizes));
    empty = empty || s == 0;
  }
  if (empty) return {0, 0, -1};
  for (size_t d = 0; d < sizes.size(); ++d) {
    e.numel = checked_mul(e.numel, sizes[d], op, "the number of elements");
    const int64_t step = checked_mul(sizes[d] - 1, strides[d], op, "the extent of the strides");
    if (step >= 0) e.highest = checked_add(e.highest, step, op, "the extent of the strides");
    else e.lowest = checked_add(e.lowest, step, op, "the extent of the strides");
  }
  return e;
}

void check_geometry(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                    int64_t offset, int64_t capacity, const char* op) {
  const StridedExtent e = strided_extent(sizes, strides, op);
  if (e.numel == 0) return;
  TZ_CHECK(offset >= 0, Runtime, op, "(): negative storage offset ", offset);
  const int64_t first = checked_add(offset, e.lowest, op, "the storage offset");
  const int64_t last = checked_add(offset, e.highest, op, "the storage offset");
  TZ_CHECK(first >= 0 && last < capacity, Runtime, op, "(): setStorage: sizes ", list_str(sizes),
           ", strides ", list_str(strides), " and storage offset ", offset,
           " require a storage of at least ", checked_add(last, 1, op, "the storage size"),
           " elements, but it has ", capacity);
}

}  // namespace tz
