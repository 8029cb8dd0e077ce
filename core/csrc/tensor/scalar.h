// A Python number crossing into C++: bool, int, float or complex, with its category kept
// so that type promotion can treat it as a "wrapped number" like PyTorch does.
#pragma once
#include <cstdint>

#include "tensor/dtype.h"

namespace tz {

class Scalar {
 public:
  enum class Kind : int8_t { Bool, Int, Float, Complex };
  Scalar() : kind_(Kind::Int), i_(0) {}
  Scalar(bool v) : kind_(Kind::Bool), i_(v) {}
  Scalar(int v) : kind_(Kind::Int), i_(v) {}
  Scalar(int64_t v) : kind_(Kind::Int), i_(v) {}
  Scalar(double v) : kind_(Kind::Float), d_(v) {}
  Scalar(complex64 v) : kind_(Kind::Complex), d_(v.real()), imag_(v.imag()) {}
  Scalar(complex128 v) : kind_(Kind::Complex), d_(v.real()), imag_(v.imag()) {}

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_integral() const { return kind_ == Kind::Int || kind_ == Kind::Bool; }
  bool is_floating() const { return kind_ == Kind::Float; }
  bool is_complex() const { return kind_ == Kind::Complex; }

  int64_t to_int() const { return is_integral() ? i_ : static_cast<int64_t>(d_); }
  double to_double() const { return is_integral() ? static_cast<double>(i_) : d_; }
  bool to_bool() const { return is_integral() ? i_ != 0 : (d_ != 0 || imag_ != 0); }
  complex64 to_complex() const { return {float(to_double()), float(imag_)}; }
  complex128 to_complex128() const { return {to_double(), imag_}; }

  template <typename T> T to() const;

  // The dtype this number has on its own: bool, int64, default float, its complex type.
  DType natural_dtype() const {
    switch (kind_) {
      case Kind::Bool: return DType::Bool;
      case Kind::Int: return DType::Int64;
      case Kind::Float: return default_float_dtype();
      default: return complex_dtype_of(default_float_dtype());
    }
  }

 private:
  Kind kind_;
  union { int64_t i_; double d_; };
  double imag_ = 0;
};

template <typename T> inline T Scalar::to() const {
  if (is_integral()) return static_cast<T>(i_);
  return static_cast<T>(d_);
}
template <> inline bool Scalar::to<bool>() const { return to_bool(); }
template <> inline Half Scalar::to<Half>() const { return Half(float(to_double())); }
template <> inline BFloat16 Scalar::to<BFloat16>() const { return BFloat16(float(to_double())); }
template <> inline complex64 Scalar::to<complex64>() const { return to_complex(); }
template <> inline complex128 Scalar::to<complex128>() const { return to_complex128(); }

}  // namespace tz
