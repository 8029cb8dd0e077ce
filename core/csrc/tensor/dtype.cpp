#include "tensor/dtype.h"

namespace tz {

int64_t itemsize(DType t) {
  static constexpr int64_t sizes[kNumDTypes] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16, 1, 1, 4};
  return sizes[static_cast<int>(t)];
}

const char* dtype_name(DType t) {
  static constexpr const char* names[kNumDTypes] = {
      "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
      "float32", "float64", "complex64", "complex128", "quint8", "qint8", "qint32"};
  return names[static_cast<int>(t)];
}

const char* scalar_type_name(DType t) {
  static constexpr const char* names[kNumDTypes] = {
      "Bool", "Byte", "Char", "Short", "Int", "Long", "Half", "BFloat16",
      "Float", "Double", "ComplexFloat", "ComplexDouble", "QUInt8", "QInt8", "QInt32"};
  return names[static_cast<int>(t)];
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  TZ_CHECK(!is_quantized(a) && !is_quantized(b), Type,
           "promote_types(): quantized dtypes ", dtype_name(a), " and ", dtype_name(b),
           " do not promote");
  // torch.promote_types over b1 u1 i1 i2 i4 i8 f2 bf f4 f8 c8 c16.
  constexpr DType b1 = DType::Bool, u1 = DType::UInt8, i1 = DType::Int8, i2 = DType::Int16,
                  i4 = DType::Int32, i8 = DType::Int64, f2 = DType::Float16,
                  bf = DType::BFloat16, f4 = DType::Float32, f8 = DType::Float64,
                  c8 = DType::Complex64, c16 = DType::Complex128;
  static constexpr DType table[12][12] = {
      /*        b1   u1   i1   i2   i4   i8   f2   bf   f4   f8   c8   c16 */
      /* b1 */ {b1,  u1,  i1,  i2,  i4,  i8,  f2,  bf,  f4,  f8,  c8,  c16},
      /* u1 */ {u1,  u1,  i2,  i2,  i4,  i8,  f2,  bf,  f4,  f8,  c8,  c16},
      /* i1 */ {i1,  i2,  i1,  i2,  i4,  i8,  f2,  bf,  f4,  f8,  c8,  c16},
      /* i2 */ {i2,  i2,  i2,  i2,  i4,  i8,  f2,  bf,  f4,  f8,  c8,  c16},
      /* i4 */ {i4,  i4,  i4,  i4,  i4,  i8,  f2,  bf,  f4,  f8,  c8,  c16},
      /* i8 */ {i8,  i8,  i8,  i8,  i8,  i8,  f2,  bf,  f4,  f8,  c8,  c16},
      /* f2 */ {f2,  f2,  f2,  f2,  f2,  f2,  f2,  f4,  f4,  f8,  c8,  c16},
      /* bf */ {bf,  bf,  bf,  bf,  bf,  bf,  f4,  bf,  f4,  f8,  c8,  c16},
      /* f4 */ {f4,  f4,  f4,  f4,  f4,  f4,  f4,  f4,  f4,  f8,  c8,  c16},
      /* f8 */ {f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  c16, c16},
      /* c8 */ {c8,  c8,  c8,  c8,  c8,  c8,  c8,  c8,  c8,  c16, c8,  c16},
      /* c16 */{c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16},
  };
  return table[static_cast<int>(a)][static_cast<int>(b)];
}

namespace {
DType g_default_float = DType::Float32;
}
DType default_float_dtype() { return g_default_float; }
void set_default_float_dtype(DType t) {
  TZ_CHECK(t == DType::Float32 || t == DType::Float64, Type,
           "set_default_dtype(): only float32 and float64 are supported, got ", dtype_name(t));
  g_default_float = t;
}

}  // namespace tz
