// Copies, dtype conversion and the type-name helpers of Tensor.to / Tensor.type.
#pragma once
#include <optional>
#include <string>

#include "ops/promotion.h"  // the type helpers of the conversion section
#include "tensor/memory_format.h"
#include "tensor/tensor.h"

namespace tz {

// dst <- src, broadcasting src to dst's shape and converting dtype. Bumps dst's version.
// Rejects a dst whose elements alias each other and a src that partially overlaps dst.
const Tensor& copy_(const Tensor& dst, const Tensor& src);
// A copy; Preserve keeps a dense channels-last layout, other formats are applied.
Tensor clone(const Tensor& t, MemoryFormat format = MemoryFormat::Preserve);
// `t` itself when already dense in `format`, else a copy in it.
Tensor contiguous(const Tensor& t, MemoryFormat format = MemoryFormat::Contiguous);
// Same tensor when nothing changes (dtype equal and copy false), else a converted copy.
Tensor to_dtype(const Tensor& t, DType dtype, bool copy = false);
// Tensor.to(device, dtype): only the CPU exists; a device string is validated.
Tensor to_device(const Tensor& t, const std::optional<std::string>& device,
                 std::optional<DType> dtype, bool copy);
// "cpu" or "cpu:N" pass; any other device type raises (named after `op`).
void check_cpu_device(const std::string& device, const char* op);
// A 0-dim tensor holding a Python number (flagged for type promotion).
Tensor scalar_to_tensor(const Scalar& s, std::optional<DType> dtype = std::nullopt);
// The single value of a one-element tensor.
Scalar item(const Tensor& t);

// Legacy tensor type names: Float32 <-> "core.FloatTensor" (also accepts "torch.FloatTensor").
std::string tensor_type_name(DType t);
DType dtype_from_type_name(const std::string& name);

}  // namespace tz
