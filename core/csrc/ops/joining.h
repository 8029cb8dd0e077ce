// Joining and shape-building ops: cat/stack, flip/roll, repeat/tile, triangular and
// diagonal ops, meshgrid/broadcasting helpers and padding. Outputs are fresh contiguous
// tensors except where PyTorch returns views (diagonal, meshgrid, broadcast_*, atleast_*).
#pragma once
#include <optional>
#include <string>

#include "ops/value.h"

namespace tz {

// ---- cat.cpp
Tensor cat(const TensorList& tensors, int64_t dim = 0);
Tensor stack(const TensorList& tensors, int64_t dim = 0);
Tensor hstack(const TensorList& tensors);
Tensor vstack(const TensorList& tensors);
Tensor dstack(const TensorList& tensors);
Tensor column_stack(const TensorList& tensors);
Tensor atleast_1d(const Tensor& t);
Tensor atleast_2d(const Tensor& t);
Tensor atleast_3d(const Tensor& t);
TensorList atleast_1d(const TensorList& tensors);
TensorList atleast_2d(const TensorList& tensors);
TensorList atleast_3d(const TensorList& tensors);

// ---- flip.cpp
Tensor flip(const Tensor& t, const IntList& dims);
Tensor fliplr(const Tensor& t);
Tensor flipud(const Tensor& t);
// dims empty: roll the flattened tensor (shifts must then hold one value).
Tensor roll(const Tensor& t, const IntList& shifts, const IntList& dims);
Tensor rot90(const Tensor& t, int64_t k, const IntList& dims);

// ---- repeat.cpp
Tensor repeat(const Tensor& t, const IntList& repeats);
Tensor tile(const Tensor& t, const IntList& dims);
Tensor repeat_interleave(const Tensor& t, int64_t repeats, std::optional<int64_t> dim);
Tensor repeat_interleave(const Tensor& t, const Tensor& repeats, std::optional<int64_t> dim);
// The index form: [0]*r0 + [1]*r1 + ... (int32 or int64, like repeats).
Tensor repeat_interleave(const Tensor& repeats);

// ---- triangular.cpp
Tensor tril(const Tensor& t, int64_t diagonal = 0);
Tensor triu(const Tensor& t, int64_t diagonal = 0);
const Tensor& tril_(const Tensor& t, int64_t diagonal = 0);
const Tensor& triu_(const Tensor& t, int64_t diagonal = 0);
Tensor diag(const Tensor& t, int64_t diagonal = 0);
Tensor diag_embed(const Tensor& t, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1);
// A view sharing t's storage.
Tensor diagonal(const Tensor& t, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1);
Tensor trace(const Tensor& t);

// ---- meshgrid.cpp
TensorList meshgrid(const TensorList& tensors, const std::string& indexing = "ij");
Tensor cartesian_prod(const TensorList& tensors);
TensorList broadcast_tensors(const TensorList& tensors);
Tensor broadcast_to(const Tensor& t, const IntList& size);

// ---- pad.cpp
// torch.nn.functional.pad: mode constant (any dims; negative pads crop), reflect,
// replicate or circular (the last 1-3 dims). `value` only for constant mode.
Tensor pad(const Tensor& t, const IntList& pad, const std::string& mode = "constant",
           std::optional<double> value = std::nullopt);

}  // namespace tz
