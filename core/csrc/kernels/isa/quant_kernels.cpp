// Elementwise, pooling and depthwise kernels of quantized tensors (kernels/quant.h): plain
// loops that the compiler vectorises under each ISA build's flags. Integer steps are exact
// and every float step is spelled out, so all builds give the same bits.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/isa_vector.h"
#include "kernels/quant.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

template <typename Q> constexpr int64_t quant_lo() { return std::numeric_limits<Q>::min(); }
template <typename Q> constexpr int64_t quant_hi() { return std::numeric_limits<Q>::max(); }

// nearbyint(v) + zp clamped to [lo, hi], for v already scaled to the integer domain.
inline int32_t requant(float v, float zp, float lo, float hi) {
  float r = std::nearbyint(v) + zp;
  return static_cast<int32_t>(std::min(std::max(r, lo), hi));
}

template <typename Q>
bool quantize_run(const float* x, Q* q, int64_t n, float inv_scale, int64_t zp) {
  const float lo = static_cast<float>(quant_lo<Q>()), hi = static_cast<float>(quant_hi<Q>());
  const float fzp = static_cast<float>(zp);
  bool nan = false;
  for (int64_t i = 0; i < n; ++i) {
    nan |= x[i] != x[i];
    if constexpr (sizeof(Q) == 4) {  // int32 range: clamp in double (float cannot hold INT32_MAX)
      double r = static_cast<double>(std::nearbyint(x[i] * inv_scale)) + static_cast<double>(zp);
      q[i] = static_cast<Q>(std::min(std::max(r, double(quant_lo<Q>())), double(quant_hi<Q>())));
    } else {
      q[i] = static_cast<Q>(requant(x[i] * inv_scale, fzp, lo, hi));
    }
  }
  return nan;
}

bool quantize_kernel(DType qdtype, const float* x, void* q, int64_t n, float inv_scale, int64_t zp) {
  switch (qdtype) {
    case DType::QUInt8: return quantize_run(x, static_cast<uint8_t*>(q), n, inv_scale, zp);
    case DType::QInt8: return quantize_run(x, static_cast<int8_t*>(q), n, inv_scale, zp);
    default: return quantize_run(x, static_cast<int32_t*>(q), n, inv_scale, zp);
  }
}

template <typename Q>
void dequantize_run(const Q* q, float* x, int64_t n, float scale, int64_t zp) {
  if constexpr (sizeof(Q) == 4) {
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(static_cast<int64_t>(q[i]) - zp) * scale;
  } else {
    const int32_t z = static_cast<int32_t>(zp);
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(static_cast<int32_t>(q[i]) - z) * scale;
  }
}

void dequantize_kernel(DType qdtype, const void* q, float* x, int64_t n, float scale, int64_t zp) {
  switch (qdtype) {
    case DType::QUInt8: return dequantize_run(static_cast<const uint8_t*>(q), x, n, scale, zp);
    case DType::QInt8: return dequantize_run(static_cast<const int8_t*>(q), x, n, scale, zp);
    default: return dequantize_run(static_cast<const int32_t*>(q), x, n, scale, zp);
  }
}

void fake_quant_kernel(const float* x, float* out, bool* mask, int64_t n, float scale, float inv_scale, int64_t zp,
                       int64_t qmin, int64_t qmax) {
  const float fzp = static_cast<float>(zp), lo = static_cast<float>(qmin), hi = static_cast<float>(qmax);
  for (int64_t i = 0; i < n; ++i) {
    const float r = std::nearbyint(x[i] * inv_scale) + fzp;
    out[i] = (std::min(std::max(r, lo), hi) - fzp) * scale;
  }
  if (mask)
    for (int64_t i = 0; i < n; ++i) {
      const float r = std::nearbyint(x[i] * inv_scale) + fzp;
      mask[i] = r >= lo && r <= hi;
    }
}

void qbinary_kernel(QBinaryOp op, const uint8_t* a, const uint8_t* b, uint8_t* y, int64_t n, const QBinaryArgs& p) {
  const float zy = static_cast<float>(p.out_zp);
  const float lo = p.relu ? zy : 0.0f, hi = 255.0f;
  if (op == QBinaryOp::Add) {
    for (int64_t i = 0; i < n; ++i) {
      const float da = static_cast<float>(int32_t(a[i]) - p.a_zp) * p.a_scale;
      const float db = static_cast<float>(int32_t(b[i]) - p.b_zp) * p.b_scale;
      y[i] = static_cast<uint8_t>(requant((da + db) * p.inv_out_scale, zy, lo, hi));
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      const int32_t prod = (int32_t(a[i]) - p.a_zp) * (int32_t(b[i]) - p.b_zp);
      y[i] = static_cast<uint8_t>(requant(static_cast<float>(prod) * p.multiplier, zy, lo, hi));
    }
  }
}

void qlookup_kernel(const uint8_t* x, uint8_t* y, int64_t n, const uint8_t* table) {
  for (int64_t i = 0; i < n; ++i) y[i] = table[x[i]];
}

template <typename Q> void clamp_run(const Q* x, Q* y, int64_t n, int32_t lo, int32_t hi) {
  const Q l = static_cast<Q>(std::max<int64_t>(lo, quant_lo<Q>())), h = static_cast<Q>(std::min<int64_t>(hi, quant_hi<Q>()));
  for (int64_t i = 0; i < n; ++i) y[i] = std::min(std::max(x[i], l), h);
}

void qclamp_kernel(DType qdtype, const void* x, void* y, int64_t n, int32_t lo, int32_t hi) {
  switch (qdtype) {
    case DType::QUInt8: return clamp_run(static_cast<const uint8_t*>(x), static_cast<uint8_t*>(y), n, lo, hi);
    case DType::QInt8: return clamp_run(static_cast<const int8_t*>(x), static_cast<int8_t*>(y), n, lo, hi);
    default: return clamp_run(static_cast<const int32_t*>(x), static_cast<int32_t*>(y), n, lo, hi);
  }
}

void qadaptive_avg_pool_kernel(const QAvgPoolArgs& a, int64_t oh0, int64_t oh1) {
  Vector<int32_t> acc(a.C);
  const float zy = static_cast<float>(a.out_zp);
  for (int64_t oh = oh0; oh < oh1; ++oh) {
    const int64_t h0 = oh * a.H / a.OH, h1 = ((oh + 1) * a.H + a.OH - 1) / a.OH;
    for (int64_t ow = 0; ow < a.OW; ++ow) {
      const int64_t w0 = ow * a.W / a.OW, w1 = ((ow + 1) * a.W + a.OW - 1) / a.OW;
      const int64_t count = (h1 - h0) * (w1 - w0);
      const int32_t start = -static_cast<int32_t>(count) * a.in_zp;
      int32_t* s = acc.data();
      for (int64_t c = 0; c < a.C; ++c) s[c] = start;
      for (int64_t h = h0; h < h1; ++h)
        for (int64_t w = w0; w < w1; ++w) {
          const uint8_t* px = a.x + (h * a.W + w) * a.C;
          for (int64_t c = 0; c < a.C; ++c) s[c] += px[c];
        }
      const float multiplier = a.in_scale / a.out_scale / static_cast<float>(count);
      const float inv = 1.0f / (1.0f / multiplier);  // PyTorch quantizes with scale 1 / multiplier
      uint8_t* py = a.y + (oh * a.OW + ow) * a.C;
      for (int64_t c = 0; c < a.C; ++c)
        py[c] = static_cast<uint8_t>(requant(static_cast<float>(s[c]) * inv, zy, 0.0f, 255.0f));
    }
  }
}

void qconv_depthwise_kernel(const QDepthwiseArgs& a, int64_t begin, int64_t end) {
  const int64_t C = a.C;
  Vector<int32_t> acc_buf(C);
  int32_t* acc = acc_buf.data();
  const float zy = static_cast<float>(a.out_zp), lo = static_cast<float>(a.lo), hi = static_cast<float>(a.hi);
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / a.OH, oh = task % a.OH;
    const uint8_t* x = a.x + n * a.H * a.W * C;
    uint8_t* y = a.y + (n * a.OH + oh) * a.OW * C;
    for (int64_t ow = 0; ow < a.OW; ++ow, y += C) {
      std::memset(acc, 0, C * sizeof(int32_t));
      for (int64_t kh = 0; kh < a.KH; ++kh) {
        const int64_t ih = oh * a.sh - a.ph + kh * a.dh;
        if (ih < 0 || ih >= a.H) continue;
        for (int64_t kw = 0; kw < a.KW; ++kw) {
          const int64_t iw = ow * a.sw - a.pw + kw * a.dw;
          if (iw < 0 || iw >= a.W) continue;
          const uint8_t* px = x + (ih * a.W + iw) * C;
          const int32_t* w = a.w + (kh * a.KW + kw) * C;
          const int32_t zp = a.x_zp;
          for (int64_t c = 0; c < C; ++c) acc[c] += (static_cast<int32_t>(px[c]) - zp) * w[c];
        }
      }
      if (a.bias) {
        for (int64_t c = 0; c < C; ++c)
          y[c] = static_cast<uint8_t>(requant((static_cast<float>(acc[c]) + a.bias[c]) * a.mult[c], zy, lo, hi));
      } else {
        for (int64_t c = 0; c < C; ++c)
          y[c] = static_cast<uint8_t>(requant(static_cast<float>(acc[c]) * a.mult[c], zy, lo, hi));
      }
    }
  }
}

}  // namespace
TZ_REGISTER_KERNEL(quantize_stub, &quantize_kernel);
TZ_REGISTER_KERNEL(dequantize_stub, &dequantize_kernel);
TZ_REGISTER_KERNEL(fake_quant_stub, &fake_quant_kernel);
TZ_REGISTER_KERNEL(qbinary_stub, &qbinary_kernel);
TZ_REGISTER_KERNEL(qlookup_stub, &qlookup_kernel);
TZ_REGISTER_KERNEL(qclamp_stub, &qclamp_kernel);
TZ_REGISTER_KERNEL(qadaptive_avg_pool_stub, &qadaptive_avg_pool_kernel);
TZ_REGISTER_KERNEL(qconv_depthwise_stub, &qconv_depthwise_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
