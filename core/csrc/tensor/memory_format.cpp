#include "tensor/memory_format.h"

#include <algorithm>

#include "tensor/errors.h"

namespace tz {

namespace {

// Dimension order from innermost to outermost for each channels-last format.
const int kChannelsLastOrder[] = {1, 3, 2, 0};
const int kChannelsLast3dOrder[] = {1, 4, 3, 2, 0};

int rank_of(MemoryFormat f) { return f == MemoryFormat::ChannelsLast ? 4 : 5; }
const int* order_of(MemoryFormat f) {
  return f == MemoryFormat::ChannelsLast ? kChannelsLastOrder : kChannelsLast3dOrder;
}

}  // namespace

const char* memory_format_name(MemoryFormat f) {
  switch (f) {
    case MemoryFormat::Contiguous: return "contiguous_format";
    case MemoryFormat::Preserve: return "preserve_format";
    case MemoryFormat::ChannelsLast: return "channels_last";
    case MemoryFormat::ChannelsLast3d: return "channels_last_3d";
  }
  return "?";
}

Shape strides_for(const Shape& sizes, MemoryFormat f, const char* op) {
  if (f == MemoryFormat::Contiguous) return contiguous_strides(sizes);
  TZ_CHECK(f != MemoryFormat::Preserve, Runtime, op, "(): preserve_format is not a layout here");
  const int rank = rank_of(f);
  TZ_CHECK(static_cast<int>(sizes.size()) == rank, Runtime, op, "(): required rank ", rank,
           " tensor to use ", memory_format_name(f), " format, got a ", sizes.size(), "-d tensor");
  Shape strides(rank);
  int64_t acc = 1;
  for (int i = 0; i < rank; ++i) {
    int d = order_of(f)[i];
    strides[d] = acc;
    acc *= std::max<int64_t>(sizes[d], 1);
  }
  return strides;
}

bool is_contiguous_as(const Tensor& t, MemoryFormat f) {
  if (f == MemoryFormat::Contiguous || f == MemoryFormat::Preserve) return t.is_contiguous();
  if (t.dim() != rank_of(f)) return false;
  int64_t expected = 1;
  for (int i = 0; i < rank_of(f); ++i) {
    int d = order_of(f)[i];
    int64_t size = t.sizes()[d];
    if (size == 1) continue;
    if (t.strides()[d] != expected) return false;
    expected *= size;
  }
  return true;
}

MemoryFormat suggest_memory_format(const Tensor& t) {
  if (t.is_contiguous()) return MemoryFormat::Contiguous;
  if (t.dim() == 4 && is_contiguous_as(t, MemoryFormat::ChannelsLast)) return MemoryFormat::ChannelsLast;
  if (t.dim() == 5 && is_contiguous_as(t, MemoryFormat::ChannelsLast3d)) return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

Tensor empty_with_format(const Shape& sizes, DType dtype, MemoryFormat f, const char* op) {
  Tensor out = Tensor::empty(sizes, dtype);
  if (f == MemoryFormat::Contiguous || f == MemoryFormat::Preserve) return out;
  return Tensor::view_of(out, sizes, strides_for(sizes, f, op), 0);
}

Tensor empty_in_layout_of(const Shape& sizes, DType dtype, const Tensor& like) {
  if (!like.defined() || like.dim() < 4 || like.sizes() != sizes) return Tensor::empty(sizes, dtype);
  return empty_with_format(sizes, dtype, suggest_memory_format(like));
}

}  // namespace tz
