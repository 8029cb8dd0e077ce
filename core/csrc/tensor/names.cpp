#include "tensor/names.h"

#include <algorithm>
#include <cctype>

#include "tensor/errors.h"

namespace tz {

namespace {

bool all_none(const DimNames& names) {
  return std::all_of(names.begin(), names.end(), [](const auto& n) { return !n.has_value(); });
}

bool valid_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string name_repr(const std::optional<std::string>& n) { return n ? "'" + *n + "'" : "None"; }

}  // namespace

DimNames names_of(const Tensor& t) {
  if (const DimNames* names = t.impl()->names.get()) return *names;
  return DimNames(static_cast<size_t>(t.dim()));
}

void check_names(const DimNames& names, int64_t ndim) {
  TZ_CHECK(static_cast<int64_t>(names.size()) == ndim, Runtime, "Number of names (", names.size(),
           ") and number of dimensions in tensor (", ndim, ") do not match. Attempted to create a tensor with names ",
           names_repr(names));
  for (size_t i = 0; i < names.size(); ++i) {
    if (!names[i]) continue;
    TZ_CHECK(valid_identifier(*names[i]), Runtime, "Invalid name: a valid identifier contains only digits, "
             "alphabetical characters, and/or underscore and starts with a non-digit. got: '", *names[i], "'.");
    for (size_t j = 0; j < i; ++j)
      TZ_CHECK(names[j] != names[i], Runtime, "Cannot construct a tensor with duplicate names. Got names: ",
               names_repr(names), ".");
  }
}

void set_names(const Tensor& t, const DimNames* names) {
  if (names == nullptr || all_none(*names)) {
    if (names) check_names(*names, t.dim());
    t.impl()->names.reset();
    return;
  }
  check_names(*names, t.dim());
  t.impl()->names = std::make_unique<DimNames>(*names);
}

std::string names_repr(const DimNames& names) {
  std::string s = "[";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + name_repr(names[i]);
  return s + "]";
}

std::string tensor_names_repr(const Tensor& t) { return "Tensor" + names_repr(names_of(t)); }

int64_t dim_of_name(const Tensor& t, const std::string& name) {
  if (const DimNames* names = t.impl()->names.get()) {
    for (size_t i = 0; i < names->size(); ++i)
      if ((*names)[i] == name) return static_cast<int64_t>(i);
  }
  fail(ErrorKind::Runtime, "Name '", name, "' not found in ", tensor_names_repr(t), ".");
}

namespace {

// A name taken from one side at a position where the other is None must not sit elsewhere in
// the other side (misaligned dims); PyTorch names `names` first, then `other`.
void check_misalignment(const std::optional<std::string>& name, const DimNames& names, const DimNames& other) {
  if (!name) return;
  TZ_CHECK(std::find(other.begin(), other.end(), name) == other.end(), Runtime,
           "Misaligned dims when attempting to broadcast dims ", names_repr(names), " and dims ", names_repr(other),
           ": dim ", name_repr(name), " appears in a different position from the right across both lists.");
}

}  // namespace

DimNames unify_from_right(const DimNames& a, const DimNames& b) {
  DimNames out(std::max(a.size(), b.size()));
  for (size_t k = 1; k <= out.size(); ++k) {
    const std::optional<std::string> none;
    const auto& x = k <= a.size() ? a[a.size() - k] : none;
    const auto& y = k <= b.size() ? b[b.size() - k] : none;
    TZ_CHECK(!x || !y || x == y, Runtime, "Error when attempting to broadcast dims ", names_repr(a), " and dims ",
             names_repr(b), ": dim ", name_repr(x), " and dim ", name_repr(y),
             " are at the same position from the right but do not match.");
    out[out.size() - k] = x ? x : y;
    if (!x || !y) {
      check_misalignment(x, a, b);
      check_misalignment(y, b, a);
    }
  }
  return out;
}

}  // namespace tz
