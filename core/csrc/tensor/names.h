// Dimension names of named tensors (TensorImpl::names): checking, setting, lookup by name and
// unification from the right, with PyTorch's error messages. Unnamed tensors store no names
// (a null pointer), and a tensor whose names are all None is stored unnamed.
#pragma once
#include <cstdint>
#include <string>

#include "tensor/tensor.h"

namespace tz {

// t's names, one per dim (all None for an unnamed tensor).
DimNames names_of(const Tensor& t);
// Sets t's names after checking them (count, identifiers, duplicates); null or all-None clears.
void set_names(const Tensor& t, const DimNames* names);
// Throws unless `names` are valid names for a tensor of `ndim` dims.
void check_names(const DimNames& names, int64_t ndim);
// "['N', None]" and "Tensor['N', None]", as PyTorch prints them in errors.
std::string names_repr(const DimNames& names);
std::string tensor_names_repr(const Tensor& t);
// The dim of t called `name`; "Name 'X' not found in Tensor['N', 'C']." otherwise.
int64_t dim_of_name(const Tensor& t, const std::string& name);
// Broadcasting names: aligned from the right, equal or None on one side; a name may not
// appear at two different positions from the right.
DimNames unify_from_right(const DimNames& a, const DimNames& b);

}  // namespace tz
