#include "quantized/quantize.h"

#include <atomic>
#include <cmath>
#include <vector>
#include <cstring>

#include "iter/thread_pool.h"
#include "kernels/quant.h"
#include "ops/conversion.h"
#include "tensor/memory_format.h"

namespace tz {

namespace {

constexpr int64_t kGrain = 1 << 15;

// x as dense float32 memory in NCHW or NHWC order, and whether it is NHWC.
Tensor dense_input(const Tensor& x, bool* channels_last) {
  *channels_last = x.dim() == 4 && !x.is_contiguous() && is_contiguous_as(x, MemoryFormat::ChannelsLast);
  return *channels_last ? x : contiguous(x, MemoryFormat::Contiguous);
}

// The per-channel qparams of a tensor of `channels` channels as contiguous float64/int64
// (or float32/float32 for float qparams); checks their shapes and values.
QuantizerPtr per_channel_quantizer(const Tensor& scales, const Tensor& zero_points, int64_t axis, int64_t channels,
                                   DType dtype, const char* op) {
  TZ_CHECK(scales.dim() == 1 && zero_points.dim() == 1, Runtime, op,
           "(): scales and zero_points must be 1-d tensors, got sizes ", shape_str(scales.sizes()), " and ",
           shape_str(zero_points.sizes()));
  TZ_CHECK(scales.numel() == channels && zero_points.numel() == channels, Runtime, op,
           "(): expected ", channels, " scales and zero_points (the size of dim ", axis, "), got ", scales.numel(),
           " and ", zero_points.numel());
  TZ_CHECK(is_floating(scales.dtype()), Type, op, "(): scales must be a floating tensor, got ",
           dtype_name(scales.dtype()));
  auto q = std::make_shared<Quantizer>();
  const bool float_qparams = is_floating(zero_points.dtype());
  q->scheme = float_qparams ? QScheme::PerChannelAffineFloatQParams : QScheme::PerChannelAffine;
  q->axis = axis;
  q->scales = contiguous(to_dtype(scales, float_qparams ? DType::Float32 : DType::Float64, false), MemoryFormat::Contiguous);
  q->zero_points = contiguous(to_dtype(zero_points, float_qparams ? DType::Float32 : DType::Int64, false),
                              MemoryFormat::Contiguous);
  if (float_qparams) {
    TZ_CHECK(dtype == DType::QUInt8, Runtime, op,
             "(): float zero_points (per_channel_affine_float_qparams) need quint8");
  }
  for (int64_t c = 0; c < channels; ++c) {
    const double s = float_qparams ? q->scales.data<float>()[c] : q->scales.data<double>()[c];
    TZ_CHECK(std::isfinite(s) && s > 0, Runtime, op, "(): scale ", s, " of channel ", c,
             " must be positive and finite");
    if (!float_qparams) {
      const int64_t z = q->zero_points.data<int64_t>()[c];
      TZ_CHECK(z >= quant_min_of(dtype) && z <= quant_max_of(dtype), Runtime, op, "(): zero_point ", z,
               " of channel ", c, " is outside the range [", quant_min_of(dtype), ", ", quant_max_of(dtype), "] of ",
               dtype_name(dtype));
    }
  }
  return q;
}

// outer x channels x inner view of a contiguous tensor along axis.
struct ChannelLoop {
  int64_t outer = 1, channels = 1, inner = 1;
  ChannelLoop(const Shape& s, int64_t axis) {
    for (int64_t d = 0; d < axis; ++d) outer *= s[d];
    channels = s[axis];
    for (size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  }
  template <typename F> void run(F f) const {  // f(channel, first element, count)
    parallel_for(0, outer * channels, std::max<int64_t>(1, kGrain / std::max<int64_t>(inner, 1)),
                 [&](int64_t b, int64_t e) {
                   for (int64_t i = b; i < e; ++i) f(i % channels, i * inner, inner);
                 });
  }
};

float per_channel_scale(const Quantizer& q, int64_t c) {
  return q.scheme == QScheme::PerChannelAffineFloatQParams ? q.scales.data<float>()[c]
                                                            : static_cast<float>(q.scales.data<double>()[c]);
}

}  // namespace

void check_qparams(double scale, int64_t zero_point, int64_t qmin, int64_t qmax, const char* op) {
  TZ_CHECK(std::isfinite(scale) && scale > 0, Runtime, op, "(): scale must be positive and finite, got ", scale);
  TZ_CHECK(static_cast<float>(scale) > 0, Runtime, op, "(): scale ", scale, " underflows float32");
  TZ_CHECK(zero_point >= qmin && zero_point <= qmax, Runtime, op, "(): zero_point ", zero_point,
           " is outside the quantized range [", qmin, ", ", qmax, "]");
}

void check_float_input(const Tensor& x, const char* op) {
  TZ_CHECK(!is_quantized(x.dtype()), Type, op, "(): the input is already quantized (", dtype_name(x.dtype()),
           "); dequantize() it first");
  TZ_CHECK(x.dtype() == DType::Float32, Type, op, "(): Quantize only works on float32 tensors, got ",
           dtype_name(x.dtype()), " (convert with .float() first)");
}

Tensor quantize_per_tensor(const Tensor& x, double scale, int64_t zero_point, DType dtype) {
  const char* op = "quantize_per_tensor";
  TZ_CHECK(is_quantized(dtype), Type, op, "(): dtype must be quint8, qint8 or qint32, got ", dtype_name(dtype));
  check_float_input(x, op);
  check_qparams(scale, zero_point, quant_min_of(dtype), quant_max_of(dtype), op);
  bool nhwc;
  Tensor src = dense_input(x, &nhwc);
  Tensor out = empty_quantized(x.sizes(), dtype, per_tensor_quantizer(scale, zero_point), nhwc);
  const float inv_scale = 1.0f / static_cast<float>(scale);
  const float* in = src.data<float>();
  char* q = static_cast<char*>(out.raw_data());
  const int64_t item = out.itemsize();
  std::atomic<bool> nan{false};
  parallel_for(0, x.numel(), kGrain, [&](int64_t b, int64_t e) {
    if (quantize_stub(dtype, in + b, q + b * item, e - b, inv_scale, zero_point, true)) nan = true;
  });
  TZ_CHECK(!nan, Value, op, "(): the input contains NaN, which has no quantized value");
  return out;
}

Tensor quantize_per_channel(const Tensor& x, const Tensor& scales, const Tensor& zero_points, int64_t axis,
                            DType dtype) {
  const char* op = "quantize_per_channel";
  TZ_CHECK(is_quantized(dtype), Type, op, "(): dtype must be quint8, qint8 or qint32, got ", dtype_name(dtype));
  check_float_input(x, op);
  TZ_CHECK(x.dim() > 0, Runtime, op, "(): a 0-d tensor has no channel axis");
  axis = wrap_dim(axis, x.dim(), op);
  QuantizerPtr qz = per_channel_quantizer(scales, zero_points, axis, x.sizes()[axis], dtype, op);
  Tensor src = contiguous(x, MemoryFormat::Contiguous);
  Tensor out = empty_quantized(x.sizes(), dtype, qz);
  const float* in = src.data<float>();
  char* q = static_cast<char*>(out.raw_data());
  const int64_t item = out.itemsize();
  std::atomic<bool> nan{false};
  if (qz->scheme == QScheme::PerChannelAffineFloatQParams) {
    // q = nearbyint(x / scale + zero_point), as PyTorch's float-qparams quantization
    const float* zps = qz->zero_points.data<float>();
    ChannelLoop(x.sizes(), axis).run([&](int64_t c, int64_t first, int64_t n) {
      const float inv = 1.0f / per_channel_scale(*qz, c);
      std::vector<float> shifted(n);
      for (int64_t i = 0; i < n; ++i) shifted[i] = in[first + i] * inv + zps[c];
      if (quantize_stub(dtype, shifted.data(), q + first * item, n, 1.0f, 0, false)) nan = true;
    });
  } else {
    const int64_t* zps = qz->zero_points.data<int64_t>();
    ChannelLoop(x.sizes(), axis).run([&](int64_t c, int64_t first, int64_t n) {
      const float inv = 1.0f / per_channel_scale(*qz, c);
      if (quantize_stub(dtype, in + first, q + first * item, n, inv, zps[c], false)) nan = true;
    });
  }
  TZ_CHECK(!nan, Value, op, "(): the input contains NaN, which has no quantized value");
  return out;
}

Tensor dequantize(const Tensor& t) {
  if (!is_quantized(t.dtype())) return to_dtype(t, DType::Float32, false);
  const Quantizer& qz = quantizer_of(t, "dequantize");
  const DType dtype = t.dtype();
  if (!qz.per_channel()) {
    bool nhwc;
    Tensor src = dense_input(t, &nhwc);
    Tensor out = nhwc ? empty_with_format(t.sizes(), DType::Float32, MemoryFormat::ChannelsLast)
                      : Tensor::empty(t.sizes(), DType::Float32);
    const char* q = static_cast<const char*>(src.raw_data());
    float* y = out.data<float>();
    const float scale = static_cast<float>(qz.scale);
    parallel_for(0, t.numel(), kGrain, [&](int64_t b, int64_t e) {
      dequantize_stub(dtype, q + b * src.itemsize(), y + b, e - b, scale, qz.zero_point);
    });
    return out;
  }
  Tensor src = contiguous(t, MemoryFormat::Contiguous);
  Tensor out = Tensor::empty(t.sizes(), DType::Float32);
  const char* q = static_cast<const char*>(src.raw_data());
  float* y = out.data<float>();
  const int64_t item = src.itemsize();
  if (qz.scheme == QScheme::PerChannelAffineFloatQParams) {
    const float* zps = qz.zero_points.data<float>();
    ChannelLoop(t.sizes(), qz.axis).run([&](int64_t c, int64_t first, int64_t n) {
      const float s = per_channel_scale(qz, c);
      dequantize_stub(dtype, q + first * item, y + first, n, 1.0f, 0);
      for (int64_t i = 0; i < n; ++i) y[first + i] = (y[first + i] - zps[c]) * s;
    });
  } else {
    const int64_t* zps = qz.zero_points.data<int64_t>();
    ChannelLoop(t.sizes(), qz.axis).run([&](int64_t c, int64_t first, int64_t n) {
      dequantize_stub(dtype, q + first * item, y + first, n, per_channel_scale(qz, c), zps[c]);
    });
  }
  return out;
}

Tensor int_repr(const Tensor& t) {
  quantizer_of(t, "int_repr");
  return clone(int_view(t), MemoryFormat::Preserve);
}

Tensor make_per_tensor_quantized(const Tensor& ints, double scale, int64_t zero_point) {
  const char* op = "_make_per_tensor_quantized_tensor";
  const DType dtype = quantized_dtype_of(ints.dtype(), op);
  check_qparams(scale, zero_point, quant_min_of(dtype), quant_max_of(dtype), op);
  Tensor out = empty_quantized(ints.sizes(), dtype, per_tensor_quantizer(scale, zero_point));
  copy_(int_view(out), ints);
  return out;
}

Tensor make_per_channel_quantized(const Tensor& ints, const Tensor& scales, const Tensor& zero_points, int64_t axis) {
  const char* op = "_make_per_channel_quantized_tensor";
  const DType dtype = quantized_dtype_of(ints.dtype(), op);
  TZ_CHECK(ints.dim() > 0, Runtime, op, "(): a 0-d tensor has no channel axis");
  axis = wrap_dim(axis, ints.dim(), op);
  Tensor out = empty_quantized(ints.sizes(), dtype,
                               per_channel_quantizer(scales, zero_points, axis, ints.sizes()[axis], dtype, op));
  copy_(int_view(out), ints);
  return out;
}

Tensor requantize(const Tensor& q, double scale, int64_t zero_point, DType dtype) {
  return quantize_per_tensor(dequantize(q), scale, zero_point, dtype);
}

Tensor fake_quantize_per_tensor(const Tensor& x, double scale, int64_t zero_point, int64_t quant_min,
                                int64_t quant_max, bool mask) {
  const char* op = "fake_quantize_per_tensor_affine";
  check_float_input(x, op);
  TZ_CHECK(quant_min <= quant_max, Runtime, op, "(): quant_min ", quant_min, " must not exceed quant_max ", quant_max);
  check_qparams(scale, zero_point, quant_min, quant_max, op);
  Tensor src = contiguous(x, MemoryFormat::Contiguous);
  Tensor out = Tensor::empty(x.sizes(), mask ? DType::Bool : DType::Float32);
  Tensor values = mask ? Tensor::empty(x.sizes(), DType::Float32) : out;
  const float s = static_cast<float>(scale), inv = 1.0f / s;
  const float* in = src.data<float>();
  parallel_for(0, x.numel(), kGrain, [&](int64_t b, int64_t e) {
    fake_quant_stub(in + b, values.data<float>() + b, mask ? out.data<bool>() + b : nullptr, e - b, s, inv,
                    zero_point, quant_min, quant_max);
  });
  return out;
}

Tensor fake_quantize_per_channel(const Tensor& x, const Tensor& scales, const Tensor& zero_points, int64_t axis,
                                 int64_t quant_min, int64_t quant_max, bool mask) {
  const char* op = "fake_quantize_per_channel_affine";
  check_float_input(x, op);
  TZ_CHECK(x.dim() > 0, Runtime, op, "(): a 0-d tensor has no channel axis");
  TZ_CHECK(quant_min <= quant_max, Runtime, op, "(): quant_min ", quant_min, " must not exceed quant_max ", quant_max);
  axis = wrap_dim(axis, x.dim(), op);
  const int64_t C = x.sizes()[axis];
  TZ_CHECK(scales.dim() == 1 && zero_points.dim() == 1 && scales.numel() == C && zero_points.numel() == C, Runtime,
           op, "(): expected ", C, " scales and zero points (the size of dim ", axis, "), got sizes ",
           shape_str(scales.sizes()), " and ", shape_str(zero_points.sizes()));
  Tensor sc = contiguous(to_dtype(scales, DType::Float32, false), MemoryFormat::Contiguous);
  Tensor zp = contiguous(to_dtype(zero_points, DType::Int64, false), MemoryFormat::Contiguous);
  for (int64_t c = 0; c < C; ++c) check_qparams(sc.data<float>()[c], zp.data<int64_t>()[c], quant_min, quant_max, op);
  Tensor src = contiguous(x, MemoryFormat::Contiguous);
  Tensor out = Tensor::empty(x.sizes(), mask ? DType::Bool : DType::Float32);
  Tensor values = mask ? Tensor::empty(x.sizes(), DType::Float32) : out;
  const float* in = src.data<float>();
  ChannelLoop(x.sizes(), axis).run([&](int64_t c, int64_t first, int64_t n) {
    const float s = sc.data<float>()[c];
    fake_quant_stub(in + first, values.data<float>() + first, mask ? out.data<bool>() + first : nullptr, n, s,
                    1.0f / s, zp.data<int64_t>()[c], quant_min, quant_max);
  });
  return out;
}

}  // namespace tz
