// torch.nn.functional.pad. Constant mode fills the output and copies the (cropped)
// input into its interior. Reflect, replicate and circular pad one dim per pass: each
// output position o along the dim reads input index i = o - left, mapped back into
// [0, n); every border is then one strided copy from a reversed, repeated or shifted view.
// (Circular, like PyTorch, first crops negative pads and wraps within what is left.)
#include <limits>

#include "ops/creation.h"
#include "ops/joining.h"
#include "ops/joining_util.h"

namespace tz {

using joining::copy_into;
using joining::slice_dim;

namespace {

enum class PadMode { Reflect, Replicate, Circular };

// The pad value as a Scalar of the tensor's kind; integer types take it truncated and
// must be able to hold it (PyTorch's checked conversion).
Scalar fill_value(double value, DType dtype) {
  if (!is_integral(dtype, false)) return Scalar(value);
  double lo = 0, hi = 0;
  TZ_DISPATCH_REAL(dtype, "pad", [&] {
    lo = static_cast<double>(std::numeric_limits<scalar_t>::lowest());
    hi = static_cast<double>(std::numeric_limits<scalar_t>::max());
  });
  // (int64's max rounds up to 2^63 as a double, which must still be refused.)
  TZ_CHECK(value >= lo && value <= hi && value < 0x1p63, Runtime, "value cannot be converted to type ", dtype_name(dtype),
           " without overflow");
  return Scalar(static_cast<int64_t>(value));
}

Tensor constant_pad(const Tensor& t, const IntList& pad, double value) {
  const int64_t nd = t.dim(), k = static_cast<int64_t>(pad.size()) / 2;
  Shape shape = t.sizes();
  bool grows = false;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t d = nd - 1 - j, l = pad[2 * j], r = pad[2 * j + 1];
    shape[d] += l + r;
    TZ_CHECK(shape[d] >= 0, Runtime, "The input size ", t.sizes()[d], ", plus negative padding ", l,
             " and ", r, " resulted in a negative output size, which is invalid. Check dimension ",
             d, " of your input.");
    grows = grows || l > 0 || r > 0;
  }
  Tensor out = Tensor::empty(shape, t.dtype());
  if (grows) fill_(out, fill_value(value, t.dtype()));
  Tensor dst = out, src = t;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t d = nd - 1 - j, l = pad[2 * j], r = pad[2 * j + 1], n = t.sizes()[d];
    const int64_t len = n - std::max<int64_t>(-l, 0) - std::max<int64_t>(-r, 0);
    if (len <= 0) return out;  // the input is cropped away entirely
    dst = slice_dim(dst, d, std::max<int64_t>(l, 0), len);
    src = slice_dim(src, d, std::max<int64_t>(-l, 0), len);
  }
  copy_into(dst, src);
  return out;
}

// The view of src along d holding input indices first, first+1, ... (count of them) after
// mapping each back into [0, n) by the mode; first lies outside [0, n).
Tensor border_source(const Tensor& src, int64_t d, int64_t first, int64_t count, PadMode mode) {
  const int64_t n = src.sizes()[d];
  const bool left = first < 0;
  switch (mode) {
    case PadMode::Reflect:  // -1 -> 1, n -> n-2: walking outwards walks inwards
      return slice_dim(src, d, left ? -first : 2 * (n - 1) - first, count, -1);
    case PadMode::Replicate:  // the edge element, repeated
      return slice_dim(src, d, left ? 0 : n - 1, count, 0);
    case PadMode::Circular:  // wrap around once
      return slice_dim(src, d, left ? first + n : first - n, count, 1);
  }
  return src;
}

Tensor pad_dim(const Tensor& src, int64_t d, int64_t l, int64_t r, PadMode mode, const Shape& input_shape) {
  const int64_t n = src.sizes()[d], out_n = n + l + r;
  TZ_CHECK(out_n >= 0, Runtime, "input (size ", n, " at dimension ", d, ") is too small for padding (",
           l, ", ", r, "): calculated output size ", out_n);
  if (mode == PadMode::Circular && (l < 0 || r < 0)) {
    // PyTorch crops first and wraps around what is left.
    const int64_t lo = std::max<int64_t>(-l, 0), hi = std::max<int64_t>(-r, 0);
    return pad_dim(slice_dim(src, d, lo, n - lo - hi), d, l + lo, r + hi, mode, input_shape);
  }
  if (mode == PadMode::Reflect)
    TZ_CHECK(l < n && r < n, Runtime, "Argument #4: Padding size should be less than the corresponding "
             "input dimension, but got: padding (", l, ", ", r, ") at dimension ", d, " of input ",
             shape_str(input_shape));
  if (mode == PadMode::Circular)
    TZ_CHECK(l <= n && r <= n, Runtime, "Padding value causes wrapping around more than once.");
  Shape shape = src.sizes();
  shape[d] = out_n;
  Tensor out = Tensor::empty(shape, src.dtype());
  if (out.numel() == 0) return out;
  // Output ranges [o0, o1) of the left border, the interior and the right border.
  const int64_t left_end = std::min(std::max<int64_t>(l, 0), out_n);
  const int64_t mid_end = std::max(left_end, std::min(l + n, out_n));
  if (left_end > 0)
    copy_into(slice_dim(out, d, 0, left_end), border_source(src, d, -l, left_end, mode));
  if (mid_end > left_end)
    copy_into(slice_dim(out, d, left_end, mid_end - left_end), slice_dim(src, d, left_end - l, mid_end - left_end));
  if (out_n > mid_end)
    copy_into(slice_dim(out, d, mid_end, out_n - mid_end), border_source(src, d, mid_end - l, out_n - mid_end, mode));
  return out;
}

}  // namespace

Tensor pad(const Tensor& t, const IntList& pad, const std::string& mode, std::optional<double> value) {
  const int64_t nd = t.dim(), len = static_cast<int64_t>(pad.size()), k = len / 2;
  TZ_CHECK(len % 2 == 0, Runtime, "Padding length must be divisible by 2");
  TZ_CHECK(k <= nd, Runtime, "Padding length should be less than or equal to two times the input "
           "dimension but got padding length ", len, " and input of dimension ", nd);
  if (mode == "constant") return constant_pad(t, pad, value.value_or(0.0));
  PadMode m;
  if (mode == "reflect") m = PadMode::Reflect;
  else if (mode == "replicate") m = PadMode::Replicate;
  else if (mode == "circular") m = PadMode::Circular;
  else fail(ErrorKind::NotImplemented, "Unrecognised padding mode ", mode);
  TZ_CHECK(!value.has_value() || *value == 0.0, Runtime, "Padding mode \"", mode,
           "\" doesn't take in value argument");
  TZ_CHECK(k >= 1 && k <= 3 && (nd == k + 1 || nd == k + 2), NotImplemented, "Padding size ", len,
           " is not supported for ", nd, "D input tensor.\nSupported combinations for non-constant "
           "padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D input: "
           "padding size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads "
           "last 3 dimensions)");
  // Reflect and replicate need every dim but an optional leading batch dim non-empty.
  for (int64_t d = nd == k + 2 ? 1 : 0; m != PadMode::Circular && d < nd; ++d)
    TZ_CHECK(t.sizes()[d] > 0, Runtime, "Expected ", k + 1, "D or ", k + 2, "D (batch mode) tensor with "
             "possibly 0 batch size and other non-zero dimensions for input, but got: ", shape_str(t.sizes()));
  Tensor cur = t;
  for (int64_t j = 0; j < k; ++j) cur = pad_dim(cur, nd - 1 - j, pad[2 * j], pad[2 * j + 1], m, t.sizes());
  return cur;
}

}  // namespace tz
