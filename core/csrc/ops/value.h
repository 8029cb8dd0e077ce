// A boxed argument or result of an op, so one generic path can parse, record and call ops.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tensor/memory_format.h"
#include "tensor/tensor.h"

namespace tz {

class Generator;
using GeneratorPtr = std::shared_ptr<Generator>;
using IntList = std::vector<int64_t>;

class Value {
 public:
  using Tuple = std::vector<Value>;
  Value() = default;  // None
  Value(Tensor t) : v_(std::move(t)) {}
  Value(Scalar s) : v_(s) {}
  Value(int64_t i) : v_(i) {}
  Value(int i) : v_(int64_t(i)) {}
  Value(double d) : v_(d) {}
  Value(bool b) : v_(b) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(const char* s) : v_(std::string(s)) {}
  Value(IntList l) : v_(std::move(l)) {}
  Value(TensorList l) : v_(std::move(l)) {}
  Value(DType d) : v_(d) {}
  Value(MemoryFormat f) : v_(f) {}
  Value(GeneratorPtr g) : v_(std::move(g)) {}
  Value(Tuple t) : v_(std::move(t)) {}

  bool is_none() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_tensor() const { return std::holds_alternative<Tensor>(v_); }
  bool is_tuple() const { return std::holds_alternative<Tuple>(v_); }

  const Tensor& tensor() const { return std::get<Tensor>(v_); }
  // None reads as an undefined tensor.
  Tensor opt_tensor() const { return is_none() ? Tensor() : tensor(); }
  Scalar scalar() const;  // accepts Scalar, int, float or bool
  int64_t to_int() const { return std::get<int64_t>(v_); }
  std::optional<int64_t> opt_int() const {
    return is_none() ? std::nullopt : std::optional<int64_t>(to_int());
  }
  double to_double() const;  // accepts int too
  std::optional<double> opt_double() const {
    return is_none() ? std::nullopt : std::optional<double>(to_double());
  }
  bool to_bool() const { return std::get<bool>(v_); }
  std::optional<bool> opt_bool() const {
    return is_none() ? std::nullopt : std::optional<bool>(to_bool());
  }
  const std::string& str() const { return std::get<std::string>(v_); }
  const IntList& int_list() const { return std::get<IntList>(v_); }
  std::optional<IntList> opt_int_list() const {
    return is_none() ? std::nullopt : std::optional<IntList>(int_list());
  }
  const TensorList& tensor_list() const { return std::get<TensorList>(v_); }
  DType dtype() const { return std::get<DType>(v_); }
  std::optional<DType> opt_dtype() const {
    return is_none() ? std::nullopt : std::optional<DType>(dtype());
  }
  MemoryFormat memory_format() const { return std::get<MemoryFormat>(v_); }
  std::optional<MemoryFormat> opt_memory_format() const {
    return is_none() ? std::nullopt : std::optional<MemoryFormat>(memory_format());
  }
  const GeneratorPtr& generator() const { return std::get<GeneratorPtr>(v_); }
  GeneratorPtr opt_generator() const { return is_none() ? nullptr : generator(); }
  const Tuple& tuple() const { return std::get<Tuple>(v_); }

  template <typename T> bool holds() const { return std::holds_alternative<T>(v_); }

 private:
  std::variant<std::monostate, Tensor, Scalar, int64_t, double, bool, std::string, IntList,
               TensorList, DType, MemoryFormat, GeneratorPtr, Tuple>
      v_;
};

inline Scalar Value::scalar() const {
  if (auto* s = std::get_if<Scalar>(&v_)) return *s;
  if (auto* i = std::get_if<int64_t>(&v_)) return Scalar(*i);
  if (auto* d = std::get_if<double>(&v_)) return Scalar(*d);
  return Scalar(std::get<bool>(v_));
}

inline double Value::to_double() const {
  if (auto* i = std::get_if<int64_t>(&v_)) return static_cast<double>(*i);
  return std::get<double>(v_);
}

using Stack = std::vector<Value>;

}  // namespace tz
