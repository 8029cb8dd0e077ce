// Memory formats: the dimension order a dense tensor's strides follow. Channels-last keeps
// C innermost (NHWC / NDHWC in memory) for the same logical NCHW / NCDHW sizes.
#pragma once
#include "tensor/tensor.h"

namespace tz {

enum class MemoryFormat : uint8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };

const char* memory_format_name(MemoryFormat f);  // "contiguous_format", "channels_last", ...

// The strides of a dense tensor of `sizes` in format `f` (Contiguous or a channels-last one).
Shape strides_for(const Shape& sizes, MemoryFormat f, const char* op);
// Whether `t` is laid out densely in format `f` (size-1 dimensions' strides don't matter).
bool is_contiguous_as(const Tensor& t, MemoryFormat f);
// ChannelsLast(3d) when a 4-d (5-d) tensor is dense in that order and not plain contiguous.
MemoryFormat suggest_memory_format(const Tensor& t);
// A new uninitialised tensor in format `f`.
Tensor empty_with_format(const Shape& sizes, DType dtype, MemoryFormat f, const char* op = "empty");
// An op's output: channels-last when `like` has the output's shape and is channels-last, so
// that elementwise ops keep a model's NHWC layout like PyTorch does; else contiguous.
Tensor empty_in_layout_of(const Shape& sizes, DType dtype, const Tensor& like);

}  // namespace tz
