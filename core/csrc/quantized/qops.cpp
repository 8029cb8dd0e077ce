#include "quantized/qops.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "iter/tensor_iter.h"
#include "iter/thread_pool.h"
#include "kernels/quant.h"
#include "ops/conversion.h"
#include "ops/joining.h"
#include "ops/promotion.h"
#include "ops/views.h"
#include "quantized/qlinear_conv.h"
#include "quantized/quantize.h"
#include "tensor/memory_format.h"

namespace tz {

namespace {

constexpr int64_t kGrain = 1 << 15;

const Quantizer& quint8_quantizer(const Tensor& x, const char* op) {
  TZ_CHECK(x.dtype() == DType::QUInt8, Type, op, "(): expected a quint8 tensor, got ", dtype_name(x.dtype()));
  const Quantizer& q = quantizer_of(x, op);
  TZ_CHECK(!q.per_channel(), NotImplemented, op, "(): the input must be quantized per tensor");
  return q;
}

// x's bytes in dense NCHW or NHWC order (4-d channels_last kept), and an empty result like it.
Tensor dense_bytes(const Tensor& x, bool* nhwc) {
  *nhwc = x.dim() == 4 && !x.is_contiguous() && is_contiguous_as(x, MemoryFormat::ChannelsLast);
  return contiguous(int_view(x), *nhwc ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous);
}

// qnnpack's table entry: the zero point is added before rounding (ties differ otherwise).
uint8_t quantize_one(float v, float inv_scale, int64_t zp) {
  const float r = std::nearbyint(v * inv_scale + static_cast<float>(zp));
  return static_cast<uint8_t>(std::min(std::max(r, 0.0f), 255.0f));
}

using RealFn = float (*)(float);

float hardswish_real(float v) { return v * std::min(std::max(v + 3.0f, 0.0f), 6.0f) / 6.0f; }
float hardsigmoid_real(float v) { return std::min(std::max(v + 3.0f, 0.0f), 6.0f) / 6.0f; }

// The table of real_fn from bytes of (in_scale, in_zp) to bytes of (out_scale, out_zp).
ByteTable table_of(double in_scale, int64_t in_zp, double out_scale, int64_t out_zp, RealFn real_fn) {
  ByteTable table;
  const float in = static_cast<float>(in_scale), inv_out = 1.0f / static_cast<float>(out_scale);
  for (int v = 0; v < 256; ++v) {
    const float real = static_cast<float>(v - static_cast<int32_t>(in_zp)) * in;
    table[v] = quantize_one(real_fn(real), inv_out, out_zp);
  }
  return table;
}

// table_of, remembered per thread in a small direct-mapped cache: a model's layers ask for the
// same tables at every call, and making one costs more than looking a small image up in it.
ByteTable cached_table(double in_scale, int64_t in_zp, double out_scale, int64_t out_zp, RealFn real_fn) {
  struct Entry {
    RealFn fn;
    double in_scale, out_scale;
    int64_t in_zp, out_zp;
    ByteTable table;
  };
  thread_local std::array<Entry, 64> cache{};
  const uint64_t h = std::hash<double>{}(in_scale) * 31 + std::hash<double>{}(out_scale) * 7 +
                     static_cast<uint64_t>(in_zp * 257 + out_zp) + reinterpret_cast<uintptr_t>(real_fn);
  Entry& e = cache[h % cache.size()];
  if (e.fn != real_fn || e.in_scale != in_scale || e.out_scale != out_scale || e.in_zp != in_zp || e.out_zp != out_zp)
    e = Entry{real_fn, in_scale, out_scale, in_zp, out_zp, table_of(in_scale, in_zp, out_scale, out_zp, real_fn)};
  return e.table;
}

// y[i] = table[x[i]] over a quint8 tensor, with the output's qparams.
Tensor map_through_table(const Tensor& x, double out_scale, int64_t out_zp, RealFn real_fn, const char* op) {
  const Quantizer& q = quint8_quantizer(x, op);
  const ByteTable table = cached_table(q.scale, q.zero_point, out_scale, out_zp, real_fn);
  bool nhwc;
  Tensor src = dense_bytes(x, &nhwc);
  Tensor y = empty_quantized(x.sizes(), DType::QUInt8, per_tensor_quantizer(out_scale, out_zp), nhwc);
  const uint8_t* in = src.data<uint8_t>();
  uint8_t* out = y.data<uint8_t>();
  parallel_for(0, x.numel(), kGrain, [&](int64_t b, int64_t e) { qlookup_stub(in + b, out + b, e - b, table.data()); });
  return y;
}

// Whether t is a dense (N, C, 1, 1) operand of the 4-d NHWC `shape`: one value per image and channel.
bool per_channel_of(const Tensor& t, const Shape& shape) {
  return t.dim() == 4 && t.sizes()[0] == shape[0] && t.sizes()[1] == shape[1] && t.sizes()[2] == 1 &&
         t.sizes()[3] == 1 && t.is_contiguous() && shape[2] * shape[3] > 1;
}

// The SE block's product of an NHWC image and its per-channel scale, an (N, C, 1, 1) operand
// (b, or a where !a_full): the kernel runs each pixel's C channels against the image's C
// values, so the scale is never expanded to the image's size.
Tensor channel_broadcast(QBinaryOp kind, const Tensor& a, const Tensor& b, bool a_full, const Shape& shape,
                         QuantizerPtr out_q, const QBinaryArgs& args) {
  const Tensor full = contiguous(int_view(a_full ? a : b), MemoryFormat::ChannelsLast);
  const Tensor channels = int_view(a_full ? b : a);
  Tensor y = empty_quantized(shape, DType::QUInt8, std::move(out_q), true);
  const int64_t C = shape[1], HW = shape[2] * shape[3];
  const uint8_t* pf = full.data<uint8_t>();
  const uint8_t* pc = channels.data<uint8_t>();
  uint8_t* py = y.data<uint8_t>();
  parallel_for(0, shape[0] * HW, std::max<int64_t>(1, kGrain / C), [&](int64_t s, int64_t e) {
    for (int64_t p = s; p < e; ++p) {
      const uint8_t* scale_row = pc + p / HW * C;
      const uint8_t* pixel = pf + p * C;
      qbinary_stub(kind, a_full ? pixel : scale_row, a_full ? scale_row : pixel, py + p * C, C, args);
    }
  });
  return y;
}

Tensor binary(QBinaryOp kind, const Tensor& a, const Tensor& b, double scale, int64_t zero_point, bool relu,
              const char* op) {
  const Quantizer& qa = quint8_quantizer(a, op);
  const Quantizer& qb = quint8_quantizer(b, op);
  check_qparams(scale, zero_point, 0, 255, op);
  // Broadcast operands (the SE block's (N, C, 1, 1) scale times its input) are expanded;
  // the result is NHWC when either full-shape operand is.
  const Shape shape = broadcast_shapes(a.sizes(), b.sizes(), op);
  auto full_nhwc = [&](const Tensor& t) {
    return t.sizes() == shape && t.dim() == 4 && !t.is_contiguous() && is_contiguous_as(t, MemoryFormat::ChannelsLast);
  };
  const bool nhwc = full_nhwc(a) || full_nhwc(b);
  const QBinaryArgs args = qbinary_args(qa.scale, qa.zero_point, qb.scale, qb.zero_point, scale, zero_point, relu);
  const bool a_per_channel = nhwc && per_channel_of(a, shape);
  if (a_per_channel || (nhwc && per_channel_of(b, shape)))
    return channel_broadcast(kind, a, b, !a_per_channel, shape, per_tensor_quantizer(scale, zero_point), args);
  const MemoryFormat format = nhwc ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous;
  Tensor ab = contiguous(expand(int_view(a), IntList(shape.begin(), shape.end())), format);
  Tensor bb = contiguous(expand(int_view(b), IntList(shape.begin(), shape.end())), format);
  Tensor y = empty_quantized(shape, DType::QUInt8, per_tensor_quantizer(scale, zero_point), nhwc);
  const uint8_t* pa = ab.data<uint8_t>();
  const uint8_t* pb = bb.data<uint8_t>();
  uint8_t* py = y.data<uint8_t>();
  parallel_for(0, y.numel(), kGrain, [&](int64_t s, int64_t e) { qbinary_stub(kind, pa + s, pb + s, py + s, e - s, args); });
  return y;
}

}  // namespace

QBinaryArgs qbinary_args(double a_scale, int64_t a_zp, double b_scale, int64_t b_zp, double scale, int64_t zero_point,
                         bool relu) {
  QBinaryArgs args{static_cast<float>(a_scale), static_cast<float>(b_scale), 1.0f / static_cast<float>(scale),
                   static_cast<float>(a_scale * b_scale / scale), static_cast<int32_t>(a_zp),
                   static_cast<int32_t>(b_zp), static_cast<int32_t>(zero_point), relu};
  // |a - za| and |b - zb| are at most 255: the add reaches 255 (sa + sb) / sy, the product
  // 255^2 sa sb / sy (twice either leaves room for float rounding on the way)
  const double reach = std::max(255.0 * (a_scale + b_scale), 255.0 * 255.0 * a_scale * b_scale) / scale;
  args.pack_clamps = 2 * reach < static_cast<double>(1 << 30);
  return args;
}

Tensor quantized_add(const Tensor& a, const Tensor& b, double scale, int64_t zero_point, bool relu) {
  return binary(QBinaryOp::Add, a, b, scale, zero_point, relu, relu ? "quantized::add_relu" : "quantized::add");
}

Tensor quantized_mul(const Tensor& a, const Tensor& b, double scale, int64_t zero_point, bool relu) {
  return binary(QBinaryOp::Mul, a, b, scale, zero_point, relu, relu ? "quantized::mul_relu" : "quantized::mul");
}

// PyTorch's qadd_scalar: shift the zero point by round(c / scale) while it stays in range,
// else widen the scale so that the result's range still fits.
Tensor quantized_add_scalar(const Tensor& a, double c, bool relu) {
  const char* op = "quantized::add_scalar";
  const Quantizer& q = quint8_quantizer(a, op);
  const int64_t c_q = static_cast<int64_t>(std::nearbyint(c / q.scale)), z = q.zero_point;
  double scale = q.scale;
  int64_t zp = z - c_q;
  if (zp < 0) {
    scale = (255.0 - (z - c_q)) / 255.0 * q.scale;
    zp = 0;
  } else if (zp > 255) {
    scale = static_cast<double>(z - c_q) / 255.0 * q.scale;
    zp = 255;
  }
  Tensor real = dequantize(a);
  const float fc = static_cast<float>(c);
  Tensor shifted = Tensor::empty(real.sizes(), DType::Float32);
  for (int64_t i = 0; i < real.numel(); ++i) shifted.data<float>()[i] = real.data<float>()[i] + fc;
  Tensor y = quantize_per_tensor(shifted, scale, zp, DType::QUInt8);
  return relu ? quantized_clamp(y, 0.0, std::nullopt, op) : y;
}

// PyTorch's qmul_scalar: a positive factor scales the scale, a negative one also mirrors
// the integers, zero gives zeros with scale 1.
Tensor quantized_mul_scalar(const Tensor& a, double c, bool relu) {
  const char* op = "quantized::mul_scalar";
  const Quantizer& q = quint8_quantizer(a, op);
  Tensor ints = contiguous(int_view(a), MemoryFormat::Contiguous);
  Tensor y;
  if (c == 0.0) {
    y = empty_quantized(a.sizes(), DType::QUInt8, per_tensor_quantizer(1.0, 0));
    std::memset(y.raw_data(), 0, y.numel());
  } else if (c > 0) {
    y = empty_quantized(a.sizes(), DType::QUInt8, per_tensor_quantizer(c * q.scale, q.zero_point));
    std::memcpy(y.raw_data(), ints.raw_data(), y.numel());
  } else {
    y = empty_quantized(a.sizes(), DType::QUInt8, per_tensor_quantizer(-c * q.scale, 255 - q.zero_point));
    const uint8_t* in = ints.data<uint8_t>();
    uint8_t* out = y.data<uint8_t>();
    for (int64_t i = 0; i < y.numel(); ++i) out[i] = static_cast<uint8_t>(255 - in[i]);
  }
  return relu ? quantized_clamp(y, 0.0, std::nullopt, op) : y;
}

Tensor quantized_cat(const TensorList& tensors, int64_t dim, double scale, int64_t zero_point, bool relu) {
  const char* op = "quantized::cat";
  TZ_CHECK(!tensors.empty(), Value, op, "(): expected a non-empty list of tensors");
  check_qparams(scale, zero_point, 0, 255, op);
  TensorList parts;
  for (const Tensor& t : tensors) {
    const Quantizer& q = quint8_quantizer(t, op);
    parts.push_back(q.scale == scale && q.zero_point == zero_point ? t
                                                                   : requantize(t, scale, zero_point, DType::QUInt8));
  }
  Tensor y = cat(parts, dim);
  return relu ? quantized_clamp(y, 0.0, std::nullopt, op) : y;
}

Tensor quantized_hardswish(const Tensor& x, double scale, int64_t zero_point) {
  check_qparams(scale, zero_point, 0, 255, "quantized::hardswish");
  return map_through_table(x, scale, zero_point, hardswish_real, "quantized::hardswish");
}

ByteTable hardswish_table(double in_scale, int64_t in_zp, double out_scale, int64_t out_zp) {
  return cached_table(in_scale, in_zp, out_scale, out_zp, hardswish_real);
}

Tensor quantized_hardsigmoid(const Tensor& x) {
  return map_through_table(x, 1.0 / 256.0, 0, hardsigmoid_real, "quantized::hardsigmoid");
}

Tensor quantized_clamp(const Tensor& x, std::optional<double> min, std::optional<double> max, const char* op) {
  TZ_CHECK(is_quantized(x.dtype()), Type, op, "(): expected a quantized tensor, got ", dtype_name(x.dtype()));
  const Quantizer& q = quantizer_of(x, op);
  TZ_CHECK(!q.per_channel(), NotImplemented, op, "(): the input must be quantized per tensor");
  const float inv = 1.0f / static_cast<float>(q.scale);
  auto bound = [&](double v) {
    const double r = std::nearbyint(static_cast<float>(v) * inv) + static_cast<double>(q.zero_point);
    return static_cast<int32_t>(std::min<double>(std::max<double>(r, quant_min_of(x.dtype())), quant_max_of(x.dtype())));
  };
  const int32_t lo = min ? bound(*min) : static_cast<int32_t>(quant_min_of(x.dtype()));
  const int32_t hi = max ? bound(*max) : static_cast<int32_t>(quant_max_of(x.dtype()));
  bool nhwc;
  Tensor src = dense_bytes(x, &nhwc);
  Tensor y = empty_quantized(x.sizes(), x.dtype(), per_tensor_quantizer(q.scale, q.zero_point), nhwc);
  const char* in = static_cast<const char*>(src.raw_data());
  char* out = static_cast<char*>(y.raw_data());
  const int64_t item = y.itemsize();
  parallel_for(0, x.numel(), kGrain,
               [&](int64_t b, int64_t e) { qclamp_stub(x.dtype(), in + b * item, out + b * item, e - b, lo, hi); });
  return y;
}

Tensor quantized_adaptive_avg_pool2d(const Tensor& x, const IntList& output_size) {
  const char* op = "quantized::adaptive_avg_pool2d";
  const Quantizer& q = quint8_quantizer(x, op);
  TZ_CHECK(x.dim() == 3 || x.dim() == 4, Runtime, op, "(): expected a 3-d or 4-d input, got shape ",
           shape_str(x.sizes()));
  TZ_CHECK(output_size.size() == 2 && output_size[0] > 0 && output_size[1] > 0, Runtime, op,
           "(): output_size must be two positive ints");
  Tensor x4 = x.dim() == 4 ? x : Tensor::view_of(x, {1, x.sizes()[0], x.sizes()[1], x.sizes()[2]},
                                                 {0, x.strides()[0], x.strides()[1], x.strides()[2]}, x.offset());
  const int64_t N = x4.sizes()[0], C = x4.sizes()[1], H = x4.sizes()[2], W = x4.sizes()[3];
  const int64_t OH = output_size[0], OW = output_size[1];
  Tensor src = contiguous(int_view(x4), MemoryFormat::ChannelsLast);
  Tensor y = empty_quantized({N, C, OH, OW}, DType::QUInt8, per_tensor_quantizer(q.scale, q.zero_point), true);
  const float s = static_cast<float>(q.scale);
  const int32_t zp = static_cast<int32_t>(q.zero_point);
  // PyTorch runs qnnpack's average pooling when the windows tile the input evenly
  const bool qnnpack = quantized_engine() == QuantizedEngine::QNNPACK && H % OH == 0 && W % OW == 0;
  parallel_for(0, N * OH, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t n = t / OH, oh = t % OH;
      QAvgPoolArgs args{src.data<uint8_t>() + n * H * W * C, y.data<uint8_t>() + n * OH * OW * C, H, W, C, OH, OW, s, s,
                        zp, zp, qnnpack};
      qadaptive_avg_pool_stub(args, oh, oh + 1);
    }
  });
  if (x.dim() == 3) return Tensor::view_of(y, {C, OH, OW}, {y.strides()[1], y.strides()[2], y.strides()[3]}, 0);
  return y;
}

Tensor quantized_max_pool2d(const Tensor& x, const IntList& kernel, const IntList& stride, const IntList& padding,
                            const IntList& dilation, bool ceil_mode) {
  const char* op = "quantized::max_pool2d";
  const Quantizer& q = quint8_quantizer(x, op);
  TZ_CHECK(x.dim() == 4, Runtime, op, "(): expected a 4-d input, got shape ", shape_str(x.sizes()));
  TZ_CHECK(kernel.size() == 2 && stride.size() == 2 && padding.size() == 2 && dilation.size() == 2, Runtime, op,
           "(): kernel_size, stride, padding and dilation need two values each");
  const int64_t N = x.sizes()[0], C = x.sizes()[1], H = x.sizes()[2], W = x.sizes()[3];
  auto out_len = [&](int64_t in, int d) {
    const int64_t span = in + 2 * padding[d] - dilation[d] * (kernel[d] - 1) - 1;
    int64_t o = (ceil_mode ? span + stride[d] - 1 : span) / stride[d] + 1;
    if (ceil_mode && (o - 1) * stride[d] >= in + padding[d]) --o;
    return o;
  };
  const int64_t OH = out_len(H, 0), OW = out_len(W, 1);
  TZ_CHECK(OH > 0 && OW > 0, Runtime, op, "(): the output would be empty for input shape ", shape_str(x.sizes()));
  Tensor src = contiguous(int_view(x), MemoryFormat::ChannelsLast);
  Tensor y = empty_quantized({N, C, OH, OW}, DType::QUInt8, per_tensor_quantizer(q.scale, q.zero_point), true);
  const uint8_t* in = src.data<uint8_t>();
  uint8_t* out = y.data<uint8_t>();
  parallel_for(0, N * OH, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t n = t / OH, oh = t % OH;
      for (int64_t ow = 0; ow < OW; ++ow) {
        uint8_t* py = out + ((n * OH + oh) * OW + ow) * C;
        std::memset(py, 0, C);
        for (int64_t kh = 0; kh < kernel[0]; ++kh) {
          const int64_t ih = oh * stride[0] - padding[0] + kh * dilation[0];
          if (ih < 0 || ih >= H) continue;
          for (int64_t kw = 0; kw < kernel[1]; ++kw) {
            const int64_t iw = ow * stride[1] - padding[1] + kw * dilation[1];
            if (iw < 0 || iw >= W) continue;
            const uint8_t* px = in + ((n * H + ih) * W + iw) * C;
            for (int64_t c = 0; c < C; ++c) py[c] = std::max(py[c], px[c]);
          }
        }
      }
    }
  });
  return y;
}

}  // namespace tz
