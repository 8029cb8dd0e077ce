#include "ops/fft.h"

#include <cmath>

#include "kernels/fft.h"
#include "ops/conversion.h"

namespace tz {

namespace {

// Wrapped, checked dims (unique, in range).
IntList check_dims(const Tensor& t, const IntList& dim, const char* op) {
  IntList out;
  for (int64_t d : dim) {
    const int64_t w = wrap_dim(d, t.dim(), op);
    for (int64_t seen : out) TZ_CHECK(seen != w, Runtime, op, "(): dims must be unique, got dim ", d, " twice");
    out.push_back(w);
  }
  return out;
}

double norm_scale(int64_t normalization, double signal_numel, const char* op) {
  switch (normalization) {
    case 0: return 1.0;
    case 1: return 1.0 / std::sqrt(signal_numel);
    case 2: return 1.0 / signal_numel;
    default: fail(ErrorKind::Runtime, op, "(): normalization must be 0 (none), 1 (by sqrt(n)) or 2 (by n), got ", normalization);
  }
}

// outer = product of sizes before d, inner = product after d.
int64_t outer_of(const Shape& s, int64_t d) {
  int64_t p = 1;
  for (int64_t i = 0; i < d; ++i) p *= s[i];
  return p;
}
int64_t inner_of(const Shape& s, int64_t d) {
  int64_t p = 1;
  for (size_t i = d + 1; i < s.size(); ++i) p *= s[i];
  return p;
}

// In-place complex passes over `dims` of a contiguous complex tensor; the last pass scales.
void c2c_passes(const Tensor& src, const Tensor& dst, const IntList& dims, bool inverse, double scale) {
  const DType part = complex_part_dtype(dst.dtype());
  const Shape& s = dst.sizes();
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i];
    fft_c2c_stub(part, (i == 0 ? src : dst).raw_data(), dst.raw_data(), s[d], outer_of(s, d), inner_of(s, d), inverse,
                 i + 1 == dims.size() ? scale : 1.0);
  }
}

void check_lengths(const Shape& sizes, const IntList& dims, const char* op) {
  for (int64_t d : dims)
    TZ_CHECK(sizes[d] >= 1, Runtime, op, "(): Invalid number of data points (", sizes[d], ") specified");
}

}  // namespace

Tensor fft_c2c(const Tensor& self, const IntList& dim, int64_t normalization, bool forward) {
  const char* op = "_fft_c2c";
  TZ_CHECK(is_complex(self.dtype()), Runtime, op, "(): expects a complex input tensor, but got ", dtype_name(self.dtype()));
  const IntList dims = check_dims(self, dim, op);
  Tensor in = contiguous(self);
  Tensor out = Tensor::empty(self.sizes(), self.dtype());
  double numel = 1;
  for (int64_t d : dims) numel *= static_cast<double>(self.sizes()[d]);
  const double scale = norm_scale(normalization, numel, op);
  if (out.numel() == 0) return out;
  if (dims.empty()) return to_dtype(self, self.dtype(), true);  // a copy, like PyTorch
  check_lengths(self.sizes(), dims, op);
  c2c_passes(in, out, dims, !forward, scale);
  return out;
}

Tensor fft_r2c(const Tensor& self, const IntList& dim, int64_t normalization, bool onesided) {
  const char* op = "_fft_r2c";
  TZ_CHECK(self.dtype() == DType::Float32 || self.dtype() == DType::Float64, Runtime, op,
           "(): expects a float32 or float64 input tensor, but got ", dtype_name(self.dtype()));
  const IntList dims = check_dims(self, dim, op);
  TZ_CHECK(!dims.empty(), Runtime, op, "(): needs at least one dim to transform");
  const int64_t last = dims.back();
  Shape out_sizes = self.sizes();
  if (onesided) out_sizes[last] = self.sizes()[last] / 2 + 1;
  Tensor out = Tensor::empty(out_sizes, complex_dtype_of(self.dtype()));
  if (out.numel() == 0 && self.numel() == 0) return out;
  check_lengths(self.sizes(), dims, op);
  double numel = 1;
  for (int64_t d : dims) numel *= static_cast<double>(self.sizes()[d]);
  const double scale = norm_scale(normalization, numel, op);
  Tensor in = contiguous(self);
  const Shape& s = self.sizes();
  fft_r2c_stub(self.dtype(), in.raw_data(), out.raw_data(), s[last], outer_of(s, last), inner_of(s, last), onesided,
               dims.size() == 1 ? scale : 1.0);
  const IntList rest(dims.begin(), dims.end() - 1);
  if (!rest.empty()) c2c_passes(out, out, rest, false, scale);
  return out;
}

Tensor fft_c2r(const Tensor& self, const IntList& dim, int64_t normalization, int64_t last_dim_size) {
  const char* op = "_fft_c2r";
  TZ_CHECK(is_complex(self.dtype()), Runtime, op, "(): expects a complex input tensor, but got ", dtype_name(self.dtype()));
  const IntList dims = check_dims(self, dim, op);
  TZ_CHECK(!dims.empty(), Runtime, op, "(): needs at least one dim to transform");
  TZ_CHECK(last_dim_size >= 1, Runtime, op, "(): Invalid number of data points (", last_dim_size, ") specified");
  const int64_t last = dims.back();
  TZ_CHECK(self.sizes()[last] == last_dim_size / 2 + 1, Runtime, op, "(): expected ", last_dim_size / 2 + 1,
           " bins in dim ", last, " for an output of ", last_dim_size, " points, got ", self.sizes()[last]);
  Shape out_sizes = self.sizes();
  out_sizes[last] = last_dim_size;
  const DType real = complex_part_dtype(self.dtype());
  Tensor out = Tensor::empty(out_sizes, real);
  if (out.numel() == 0) return out;
  check_lengths(self.sizes(), dims, op);
  double numel = static_cast<double>(last_dim_size);
  for (size_t i = 0; i + 1 < dims.size(); ++i) numel *= static_cast<double>(self.sizes()[dims[i]]);
  const double scale = norm_scale(normalization, numel, op);
  // The other dims first (complex inverse passes into a copy), then the real last dim.
  Tensor spectrum = contiguous(self);
  const IntList rest(dims.begin(), dims.end() - 1);
  if (!rest.empty()) {
    Tensor tmp = Tensor::empty(self.sizes(), self.dtype());
    c2c_passes(spectrum, tmp, rest, true, 1.0);
    spectrum = tmp;
  }
  const Shape& s = self.sizes();
  fft_c2r_stub(real, spectrum.raw_data(), out.raw_data(), last_dim_size, outer_of(s, last), inner_of(s, last), scale);
  return out;
}

}  // namespace tz
