#include "quantized/qlinear_conv.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "iter/thread_pool.h"
#include "kernels/qgemm.h"
#include "kernels/quant.h"
#include "ops/conversion.h"
#include "quantized/qops.h"
#include "quantized/quantize.h"
#include "tensor/memory_format.h"

namespace tz {

namespace {
std::atomic<QuantizedEngine> g_engine{QuantizedEngine::FBGEMM};
}  // namespace

QuantizedEngine quantized_engine() { return g_engine.load(std::memory_order_relaxed); }
void set_quantized_engine(QuantizedEngine engine) { g_engine.store(engine, std::memory_order_relaxed); }

// Per output channel: the requantization multiplier and the bias in accumulator units.
// fbgemm keeps the bias a float, acc + bias / (sx * sw); qnnpack first quantizes it to an
// int32 of scale sx * sw and multiplies by (sw * sx) * (1 / sy) (its rounding, not fbgemm's).
struct OutputStage {
  float x_scale;
  double out_scale;
  QuantizedEngine engine;
  std::vector<float> mult, bias;
  bool pack_clamps = false;  // QGemmOutput::pack_clamps

  OutputStage(const PackedWeight& p, float x_scale, double out_scale)
      : x_scale(x_scale), out_scale(out_scale), engine(quantized_engine()), mult(p.O + kQGemmBlock) {
    const bool qnnpack = engine == QuantizedEngine::QNNPACK;
    const float out = static_cast<float>(out_scale), inv_out = 1.0f / out;
    const float* w_scales = p.w_scales.data();
    for (int64_t o = 0; o < p.O; ++o)
      mult[o] = qnnpack ? w_scales[o] * x_scale * inv_out : x_scale * w_scales[o] / out;
    if (p.bias.defined()) {
      bias.resize(p.O + kQGemmBlock);
      const float* b = p.bias.data<float>();
      for (int64_t o = 0; o < p.O; ++o)
        bias[o] = qnnpack ? std::nearbyint(b[o] * (1.0f / static_cast<float>(double(w_scales[o]) * double(x_scale))))
                          : b[o] / (x_scale * w_scales[o]);
    }
    pack_clamps = values_fit_int32(p);
  }

  // Whether |(acc + bias) * mult| stays below 2^30 for every accumulator the layer can reach:
  // K products of an activation minus its zero point and a weight minus its, each at most
  // 255 * 255 in magnitude. NaN or infinite factors fail the test.
  bool values_fit_int32(const PackedWeight& p) const {
    const double acc_bound = static_cast<double>(p.K) * 255.0 * 255.0, limit = 1073741824.0;
    for (int64_t o = 0; o < p.O; ++o) {
      const double b = bias.empty() ? 0.0 : std::fabs(double(bias[o]));
      if (!((acc_bound + b) * std::fabs(double(mult[o])) < limit)) return false;
    }
    return true;
  }
};

namespace {

// p's output stage for these scales under the current engine: the one of its last call when
// that matches, else a new one that p keeps.
std::shared_ptr<const OutputStage> output_stage(const PackedWeight& p, float x_scale, double out_scale) {
  std::shared_ptr<const OutputStage> last = std::atomic_load(&p.last_stage);
  if (last && last->x_scale == x_scale && last->out_scale == out_scale && last->engine == quantized_engine())
    return last;
  auto stage = std::make_shared<const OutputStage>(p, x_scale, out_scale);
  std::atomic_store(&p.last_stage, stage);
  return stage;
}

constexpr int64_t kRowChunk = 120;  // A rows per task: a multiple of every build's register tile (5, 8)

// The weight's per-output-channel scales and zero points (per tensor: repeated).
void read_weight_qparams(const Tensor& w, PackedWeight& p, const char* op) {
  TZ_CHECK(w.dtype() == DType::QInt8, Type, op, "(): the weight must be qint8, got ", dtype_name(w.dtype()));
  const Quantizer& q = quantizer_of(w, op);
  p.w_scales.resize(p.O);
  p.w_zero_points.resize(p.O + kQGemmBlock);  // readable past O: the GEMM output stage loads whole vectors
  if (q.per_channel()) {
    TZ_CHECK(q.scheme == QScheme::PerChannelAffine && q.axis == 0, NotImplemented, op,
             "(): per-channel weights must be quantized along dim 0 with integer zero points");
    for (int64_t o = 0; o < p.O; ++o) {
      p.w_scales[o] = static_cast<float>(q.scales.data<double>()[o]);
      p.w_zero_points[o] = static_cast<int32_t>(q.zero_points.data<int64_t>()[o]);
    }
  } else {
    std::fill(p.w_scales.begin(), p.w_scales.end(), static_cast<float>(q.scale));
    std::fill(p.w_zero_points.begin(), p.w_zero_points.end(), static_cast<int32_t>(q.zero_point));
  }
  p.has_w_zero_points = std::any_of(p.w_zero_points.begin(), p.w_zero_points.begin() + p.O,
                                    [](int32_t z) { return z != 0; });
}

void read_bias(const Tensor& bias, PackedWeight& p, const char* op) {
  if (!bias.defined()) return;
  TZ_CHECK(!is_quantized(bias.dtype()) && is_floating(bias.dtype()), Type, op, "(): bias must be a float tensor, got ",
           dtype_name(bias.dtype()));
  TZ_CHECK(bias.dim() == 1 && bias.sizes()[0] == p.O, Runtime, op, "(): bias must have shape [", p.O, "], got ",
           shape_str(bias.sizes()));
  p.bias = contiguous(to_dtype(bias, DType::Float32, true), MemoryFormat::Contiguous);
}

// Packs each group's rows (O / groups of them) of the (O, K) int8 matrix.
void pack_groups(const Tensor& w_ints, PackedWeight& p) {
  const int64_t og = p.O / p.groups, og16 = (og + kQGemmBlock - 1) / kQGemmBlock * kQGemmBlock;
  p.K4 = round_up4(p.K);
  p.packed.resize(static_cast<size_t>(p.groups * og16 * p.K4));
  p.colsum.resize(p.O + kQGemmBlock);  // zeros past O, for whole-vector loads
  const int8_t* b = w_ints.data<int8_t>();
  for (int64_t g = 0; g < p.groups; ++g) {
    int32_t pmax = 0;
    qgemm_pack(b + g * og * p.K, p.K, og, p.K, p.packed.data() + g * og16 * p.K4, p.colsum.data() + g * og, &pmax);
    p.pair_max = std::max(p.pair_max, pmax);
  }
}

// Whether vpmaddubsw's int16 pair sums could saturate with this B on some A (only builds
// without VNNI, and B's largest same-sign pair times 255 past int16).
bool may_saturate(int32_t w_pair_max) {
  const CpuCapability cap = cpu_capability();
  return (cap == CpuCapability::AVX2 || cap == CpuCapability::AVX512) && 255 * w_pair_max > 32767;
}

void row_sums(const uint8_t* a, int64_t rows, int64_t lda, int64_t k, int32_t* sums) {
  for (int64_t m = 0; m < rows; ++m) {
    int32_t s = 0;
    for (int64_t j = 0; j < k; ++j) s += a[m * lda + j];
    sums[m] = s;
  }
}

// Rows [m0, m1) of the GEMM of `args` as a GEMM of their own: their A, output rows, row sums
// (into `sums`, with zero-pointed weights) and widening decision (`saturable`: may_saturate's).
// Deciding per chunk of rows scans them just before the kernel reads them (in cache then),
// and only chunks whose bytes could saturate pay for the widened products.
QGemmArgs row_chunk(const QGemmArgs& args, int64_t m0, int64_t m1, bool saturable, std::vector<int32_t>& sums) {
  QGemmArgs c = args;
  c.a = args.a + m0 * args.lda;
  c.M = m1 - m0;
  c.out.y = static_cast<char*>(args.out.y) + m0 * args.out.ldy * (args.out.to_float ? sizeof(float) : 1);
  if (args.out.residual) c.out.residual = args.out.residual + m0 * args.out.ldy;
  if (args.b_zp) {
    sums.resize(static_cast<size_t>(c.M));
    row_sums(c.a, c.M, c.lda, c.b.K, sums.data());
    c.a_rowsum = sums.data();
  }
  // Scanning the K4 bytes the kernel reads (B is zero past K, so they cannot saturate, and a
  // larger maximum only costs the widening) makes rows of K4 bytes one dense run.
  c.widen = saturable && int32_t(qmax_byte_stub(c.a, c.M, c.lda, c.b.K4)) * args.b.pair_max > 32767;
  return c;
}

// Rows [m0, m1) and packed blocks [nb0, nb1) of the GEMM of `args`, on this thread; a fused
// table maps the rows' bytes while they are in cache.
void qgemm_range(const QGemmArgs& args, int64_t m0, int64_t m1, int64_t nb0, int64_t nb1, bool saturable,
                 std::vector<int32_t>& sums) {
  const QGemmArgs chunk = row_chunk(args, m0, m1, saturable, sums);
  qgemm_stub(chunk, 0, chunk.M, nb0, nb1);
  uint8_t* y = static_cast<uint8_t*>(chunk.out.y);
  const int64_t c0 = nb0 * kQGemmBlock, c1 = std::min(nb1 * kQGemmBlock, chunk.b.N);
  if (chunk.out.table) lookup_rows(y, chunk.M, chunk.out.ldy, c0, c1, chunk.out.table);
  if (chunk.out.residual) add_rows(y, chunk.out.residual, chunk.M, chunk.out.ldy, c0, c1, *chunk.out.add);
}

int64_t block_count(const QGemmArgs& args) { return (args.b.N + kQGemmBlock - 1) / kQGemmBlock; }

// Runs the GEMM of `args` over all rows and channel blocks on the thread pool.
void run_qgemm(const QGemmArgs& args) {
  const bool saturable = may_saturate(args.b.pair_max);
  const int64_t blocks = block_count(args);
  const int64_t row_tasks = (args.M + kRowChunk - 1) / kRowChunk;
  const int64_t want = 4 * get_num_threads();
  const int64_t block_chunk = row_tasks >= want ? blocks : std::max<int64_t>(2, blocks * row_tasks / want);
  const int64_t block_tasks = (blocks + block_chunk - 1) / block_chunk;
  parallel_for(0, row_tasks * block_tasks, 1, [&](int64_t begin, int64_t end) {
    std::vector<int32_t> sums;
    for (int64_t t = begin; t < end; ++t) {
      const int64_t mt = t / block_tasks, bt = t % block_tasks;
      qgemm_range(args, mt * kRowChunk, std::min(args.M, (mt + 1) * kRowChunk), bt * block_chunk,
                  std::min(blocks, (bt + 1) * block_chunk), saturable, sums);
    }
  });
}

// A (rows x k) as rows of K4 bytes when its rows cannot be read as they are.
const uint8_t* rows_readable(const uint8_t* a, int64_t rows, int64_t lda, int64_t k, int64_t k4,
                             std::vector<uint8_t>& copy, int64_t* out_lda) {
  if (k == k4) {
    *out_lda = lda;
    return a;
  }
  copy.assign(static_cast<size_t>(rows * k4), 0);
  for (int64_t m = 0; m < rows; ++m) std::memcpy(copy.data() + m * k4, a + m * lda, k);
  *out_lda = k4;
  return copy.data();
}

const Quantizer& activation_quantizer(const Tensor& x, const char* op) {
  TZ_CHECK(x.dtype() == DType::QUInt8, Type, op, "(): expected a quint8 input (quantize it with a QuantStub), got ",
           dtype_name(x.dtype()));
  const Quantizer& q = quantizer_of(x, op);
  TZ_CHECK(!q.per_channel(), NotImplemented, op, "(): the input must be quantized per tensor");
  return q;
}

QGemmArgs gemm_args(const PackedWeight& p, int64_t group, const uint8_t* a, int64_t lda, int64_t M, int32_t a_zp) {
  const int64_t og = p.O / p.groups, og16 = (og + kQGemmBlock - 1) / kQGemmBlock * kQGemmBlock;
  QGemmArgs g{};
  g.a = a;
  g.lda = lda;
  g.M = M;
  g.a_zp = a_zp;
  g.b_zp = p.has_w_zero_points ? p.w_zero_points.data() + group * og : nullptr;
  g.b = QGemmPackedB{p.packed.data() + group * og16 * p.K4, p.colsum.data() + group * og, og, p.K, p.K4, p.pair_max};
  return g;
}

// n bytes from src to dst as at most two fixed-size, possibly overlapping copies (the head and
// the tail of the run), which compile to plain loads and stores: the stem's runs of KW * C
// bytes are short, and a memcpy call per run cost more than the copy.
inline void copy_short(uint8_t* dst, const uint8_t* src, int64_t n) {
  if (n >= 16 && n <= 32) {
    std::memcpy(dst, src, 16);
    std::memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8 && n < 16) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4 && n < 8) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + n - 4, src + n - 4, 4);
  } else if (n < 4) {
    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
  } else {
    std::memcpy(dst, src, n);
  }
}

// The KW taps of column ow of one kernel row (source row src) into dst, padding outside the image.
inline void im2col_taps(const uint8_t* src, int64_t W, int64_t C, const PackedWeight& p, int64_t ow, uint8_t pad,
                        uint8_t* dst) {
  const int64_t iw0 = ow * p.stride[1] - p.padding[1];
  for (int64_t kw = 0; kw < p.KW; ++kw, dst += p.Cg) {
    const int64_t iw = iw0 + kw * p.dilation[1];
    if (iw < 0 || iw >= W)
      std::memset(dst, pad, p.Cg);
    else
      copy_short(dst, src + iw * C, p.Cg);
  }
}

// Output rows [oh0, oh1) of one NHWC image's patches as GEMM rows of K4 bytes (taps in
// (kh, kw, c) order, padding = the input zero point, zeros past K), a kernel row at a time for
// a whole output row. With one group and no column dilation the KW taps of a column whose
// kernel row lies inside the image are one contiguous run of KW * C bytes.
void im2col_u8(const uint8_t* x, int64_t H, int64_t W, int64_t C, int64_t c0, const PackedWeight& p, int64_t oh0,
               int64_t oh1, int64_t OW, uint8_t pad, uint8_t* col) {
  const int64_t K4 = p.K4, run = p.KW * p.Cg, sw = p.stride[1], pw = p.padding[1];
  // columns [inside0, inside1) read whole runs: iw0 >= 0 and iw0 + KW <= W
  int64_t inside0 = OW, inside1 = OW;
  if (p.Cg == C && p.dilation[1] == 1 && W >= p.KW) {
    inside0 = std::min(OW, (pw + sw - 1) / sw);
    inside1 = std::max(inside0, std::min(OW, (W - p.KW + pw) / sw + 1));
  }
  for (int64_t oh = oh0; oh < oh1; ++oh) {
    uint8_t* out = col + (oh - oh0) * OW * K4;
    if (K4 != p.K) {  // the zeros past K: each row's last 4 bytes first, the taps then overwrite
      const uint32_t zero = 0;  // those before K (GCC makes a loop over 1 to 3 bytes a memset call)
      for (int64_t ow = 0; ow < OW; ++ow) std::memcpy(out + ow * K4 + K4 - 4, &zero, 4);
    }
    for (int64_t kh = 0; kh < p.KH; ++kh) {
      uint8_t* taps = out + kh * run;
      const int64_t ih = oh * p.stride[0] - p.padding[0] + kh * p.dilation[0];
      if (ih < 0 || ih >= H) {
        for (int64_t ow = 0; ow < OW; ++ow) std::memset(taps + ow * K4, pad, run);
        continue;
      }
      const uint8_t* src = x + (ih * W) * C + c0;
      for (int64_t ow = 0; ow < inside0; ++ow) im2col_taps(src, W, C, p, ow, pad, taps + ow * K4);
      for (int64_t ow = inside0; ow < inside1; ++ow) copy_short(taps + ow * K4, src + (ow * sw - pw) * C, run);
      for (int64_t ow = inside1; ow < OW; ++ow) im2col_taps(src, W, C, p, ow, pad, taps + ow * K4);
    }
  }
}

// Pixels [b, e) of C planes of HW bytes interleaved into NHWC pixels.
void interleave_planes(const uint8_t* planes, int64_t C, int64_t HW, int64_t b, int64_t e, uint8_t* dst) {
  if (C == 3) {  // RGB: a pixel as one 4-byte store whose last byte the next pixel rewrites
    const uint8_t *r = planes, *g = planes + HW, *bl = planes + 2 * HW;
    for (; b + 1 < e; ++b) {
      const uint32_t pixel = r[b] | uint32_t(g[b]) << 8 | uint32_t(bl[b]) << 16;
      std::memcpy(dst + 3 * b, &pixel, 4);  // little-endian byte order
    }
  }
  for (int64_t i = b; i < e; ++i)  // the last RGB pixel stops at its own bytes (the next may be another task's)
    for (int64_t c = 0; c < C; ++c) dst[i * C + c] = planes[c * HW + i];
}

// NCHW bytes to NHWC (the stem's input comes from a QuantStub in NCHW; few channels).
Tensor nhwc_bytes(const Tensor& x_ints) {
  if (x_ints.dim() != 4 || !x_ints.is_contiguous() || x_ints.sizes()[1] > 8)
    return contiguous(x_ints, MemoryFormat::ChannelsLast);
  const int64_t N = x_ints.sizes()[0], C = x_ints.sizes()[1], HW = x_ints.sizes()[2] * x_ints.sizes()[3];
  Tensor out = empty_with_format(x_ints.sizes(), x_ints.dtype(), MemoryFormat::ChannelsLast);
  const uint8_t* src = static_cast<const uint8_t*>(x_ints.raw_data());
  uint8_t* dst = static_cast<uint8_t*>(out.raw_data());
  for (int64_t n = 0; n < N; ++n) {
    const uint8_t* planes = src + n * C * HW;
    uint8_t* image = dst + n * HW * C;
    parallel_for(0, HW, 4096, [&](int64_t b, int64_t e) { interleave_planes(planes, C, HW, b, e, image); });
  }
  return out;
}

// Kernel rows 2r and 2r + 1 of depthwise_w as int16 pairs and their sums (kernels/quant.h).
void pack_depthwise_row_pairs(PackedWeight& p) {
  const int64_t C = p.O, pairs = (p.KH + 1) / 2;
  p.depthwise_pairs.assign(pairs * p.KW * C, 0);
  p.depthwise_pair_sums.assign(pairs * C, 0);
  for (int64_t r = 0; r < pairs; ++r)
    for (int64_t kw = 0; kw < p.KW; ++kw) {
      const int32_t* w0 = p.depthwise_w.data() + (2 * r * p.KW + kw) * C;
      const int32_t* w1 = 2 * r + 1 < p.KH ? w0 + p.KW * C : nullptr;
      int32_t* packed = p.depthwise_pairs.data() + (r * p.KW + kw) * C;
      int32_t* sums = p.depthwise_pair_sums.data() + r * C;
      for (int64_t c = 0; c < C; ++c) {
        const int32_t high = w1 ? w1[c] : 0;
        packed[c] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint16_t>(w0[c])) |
                                         static_cast<uint32_t>(static_cast<uint16_t>(high)) << 16);
        sums[c] += w0[c] + high;
      }
    }
}

// The depthwise kernel's tasks: bands of output rows whose input rows take about 128 KiB (the
// lines a block of channels reads a part of stay in cache for the next block). When the images'
// bands are too few to share out among the threads, chunks of channels (free) and then shorter
// bands (each band builds the row pairs it shares with its neighbours again).
void split_depthwise(QDepthwiseArgs& a) {
  constexpr int64_t kBandBytes = 128 << 10;
  constexpr int64_t kChunkChannels = 32;  // a multiple of every build's vector
  constexpr int64_t kMinBandRows = 4;
  const int64_t input_rows = std::max<int64_t>(1, kBandBytes / (a.W * a.C));
  a.band_rows = std::max<int64_t>(1, (input_rows - (a.KH - 1) * a.dh) / a.sh);
  a.bands = (a.OH + a.band_rows - 1) / a.band_rows;
  a.chunk_channels = a.C;
  a.chunks = 1;
  const int64_t threads = get_num_threads(), want = 4 * threads;
  if (threads == 1 || a.N * a.bands >= want) return;
  const int64_t chunks_wanted = (want + a.N * a.bands - 1) / (a.N * a.bands);
  if (a.C >= 2 * kChunkChannels) {
    a.chunk_channels = std::max(kChunkChannels, a.C / chunks_wanted / kChunkChannels * kChunkChannels);
    a.chunks = a.C / a.chunk_channels;
  }
  if (a.N * a.bands * a.chunks >= want) return;
  const int64_t bands_wanted = (want + a.N * a.chunks - 1) / (a.N * a.chunks);
  a.band_rows = std::min(a.band_rows, std::max(kMinBandRows, (a.OH + bands_wanted - 1) / bands_wanted));
  a.bands = (a.OH + a.band_rows - 1) / a.band_rows;
}

}  // namespace

PackedWeightPtr pack_linear(const Tensor& weight, const Tensor& bias) {
  const char* op = "linear_prepack";
  TZ_CHECK(weight.dim() == 2, Runtime, op, "(): the weight must be 2-d (out_features, in_features), got ",
           shape_str(weight.sizes()));
  auto p = std::make_shared<PackedWeight>();
  p->weight = weight;
  p->O = weight.sizes()[0];
  p->Cg = p->K = weight.sizes()[1];
  read_weight_qparams(weight, *p, op);
  read_bias(bias, *p, op);
  pack_groups(contiguous(int_view(weight), MemoryFormat::Contiguous), *p);
  return p;
}

PackedWeightPtr pack_conv2d(const Tensor& weight, const Tensor& bias, const IntList& stride, const IntList& padding,
                            const IntList& dilation, int64_t groups) {
  const char* op = "conv2d_prepack";
  TZ_CHECK(weight.dim() == 4, Runtime, op, "(): the weight must be 4-d (O, C/groups, KH, KW), got ",
           shape_str(weight.sizes()));
  TZ_CHECK(stride.size() == 2 && padding.size() == 2 && dilation.size() == 2, Runtime, op,
           "(): stride, padding and dilation must have two values each");
  TZ_CHECK(stride[0] > 0 && stride[1] > 0 && dilation[0] > 0 && dilation[1] > 0 && padding[0] >= 0 && padding[1] >= 0,
           Runtime, op, "(): stride and dilation must be positive and padding non-negative");
  TZ_CHECK(groups > 0 && weight.sizes()[0] % groups == 0, Runtime, op, "(): groups ", groups,
           " must divide the output channels ", weight.sizes()[0]);
  auto p = std::make_shared<PackedWeight>();
  p->weight = weight;
  p->is_conv = true;
  p->stride = stride;
  p->padding = padding;
  p->dilation = dilation;
  p->groups = groups;
  p->O = weight.sizes()[0];
  p->Cg = weight.sizes()[1];
  p->KH = weight.sizes()[2];
  p->KW = weight.sizes()[3];
  p->K = p->KH * p->KW * p->Cg;
  read_weight_qparams(weight, *p, op);
  read_bias(bias, *p, op);
  Tensor ints = contiguous(int_view(weight), MemoryFormat::Contiguous);  // (O, Cg, KH, KW)
  p->depthwise = p->Cg == 1 && groups == p->O && p->KH * p->KW <= kMaxDepthwiseTaps;
  if (p->depthwise) {
    const int64_t taps = p->KH * p->KW;
    p->depthwise_w.resize(taps * p->O);
    for (int64_t o = 0; o < p->O; ++o)
      for (int64_t t = 0; t < taps; ++t)
        p->depthwise_w[t * p->O + o] = int32_t(ints.data<int8_t>()[o * taps + t]) - p->w_zero_points[o];
    pack_depthwise_row_pairs(*p);
    return p;
  }
  // GEMM rows in the NHWC column order (kh, kw, c).
  const Shape& st = ints.strides();
  Tensor rows = contiguous(Tensor::view_of(ints, {p->O, p->KH, p->KW, p->Cg}, {st[0], st[2], st[3], st[1]}, ints.offset()),
                           MemoryFormat::Contiguous);
  pack_groups(rows, *p);
  return p;
}

Tensor quantized_linear(const Tensor& x, const PackedWeight& p, double scale, int64_t zero_point, bool relu) {
  const char* op = "quantized::linear";
  TZ_CHECK(!p.is_conv, Runtime, op, "(): packed weights of a convolution");
  const Quantizer& xq = activation_quantizer(x, op);
  check_qparams(scale, zero_point, 0, 255, op);
  TZ_CHECK(x.dim() >= 1 && x.sizes().back() == p.K, Runtime, op, "(): the input's last dim must be ", p.K,
           " (in_features), got shape ", shape_str(x.sizes()));
  Tensor a = contiguous(int_view(x), MemoryFormat::Contiguous);
  const int64_t M = p.K ? a.numel() / p.K : 0;
  Shape out_shape = x.sizes();
  out_shape.back() = p.O;
  Tensor y = empty_quantized(out_shape, DType::QUInt8, per_tensor_quantizer(scale, zero_point));
  if (y.numel() == 0) return y;
  std::vector<uint8_t> copy;
  int64_t lda;
  const uint8_t* ap = rows_readable(a.data<uint8_t>(), M, p.K, p.K, p.K4, copy, &lda);
  const std::shared_ptr<const OutputStage> stage = output_stage(p, static_cast<float>(xq.scale), scale);
  QGemmArgs g = gemm_args(p, 0, ap, lda, M, static_cast<int32_t>(xq.zero_point));
  g.out.mult = stage->mult.data();
  g.out.bias = stage->bias.empty() ? nullptr : stage->bias.data();
  g.out.out_zp = static_cast<int32_t>(zero_point);
  g.out.lo = relu ? static_cast<int32_t>(zero_point) : 0;
  g.out.hi = 255;
  g.out.pack_clamps = stage->pack_clamps;
  g.out.y = y.raw_data();
  g.out.ldy = p.O;
  run_qgemm(g);
  return y;
}

void choose_qparams(float min, float max, int64_t qmin, int64_t qmax, double* scale_out, int64_t* zp_out) {
  constexpr float kSmallScale = 6.1e-5f;
  min = std::min(min, 0.0f);
  max = std::max(max, 0.0f);
  float scale = static_cast<float>((static_cast<double>(max) - min) / static_cast<double>(qmax - qmin));
  if (scale == 0.0f || std::isinf(1.0f / scale)) scale = 0.1f;
  if (scale < kSmallScale) {
    const float original = scale;
    scale = kSmallScale;
    if (min == 0.0f) {
      max = kSmallScale * static_cast<float>(qmax - qmin);
    } else if (max == 0.0f) {
      min = -kSmallScale * static_cast<float>(qmax - qmin);
    } else {
      const float amplifier = kSmallScale / original;
      min *= amplifier;
      max *= amplifier;
    }
  }
  const double from_min = qmin - min / static_cast<double>(scale);
  const double from_max = qmax - max / static_cast<double>(scale);
  const double from_min_error = std::abs(static_cast<double>(qmin)) - std::abs(min / static_cast<double>(scale));
  const double from_max_error = std::abs(static_cast<double>(qmax)) - std::abs(max / static_cast<double>(scale));
  const double initial = from_min_error < from_max_error ? from_min : from_max;
  int64_t zp;
  if (initial < qmin) zp = qmin;
  else if (initial > qmax) zp = qmax;
  else zp = static_cast<int64_t>(std::nearbyint(initial));
  *scale_out = scale;
  *zp_out = zp;
}

Tensor quantized_linear_dynamic(const Tensor& x, const PackedWeight& p, bool reduce_range) {
  const char* op = "quantized::linear_dynamic";
  TZ_CHECK(!p.is_conv, Runtime, op, "(): packed weights of a convolution");
  check_float_input(x, op);
  TZ_CHECK(x.dim() >= 1 && x.sizes().back() == p.K, Runtime, op, "(): the input's last dim must be ", p.K,
           " (in_features), got shape ", shape_str(x.sizes()));
  Tensor xc = contiguous(x, MemoryFormat::Contiguous);
  const float* v = xc.data<float>();
  float lo = 0, hi = 0;
  for (int64_t i = 0; i < xc.numel(); ++i) {
    lo = std::min(lo, v[i]);
    hi = std::max(hi, v[i]);
  }
  TZ_CHECK(std::isfinite(lo) && std::isfinite(hi), Value, op, "(): the input holds an infinite value or NaN");
  double scale;
  int64_t zp;
  choose_qparams(lo, hi, 0, reduce_range ? 127 : 255, &scale, &zp);
  Tensor qx = quantize_per_tensor(xc, scale, zp, DType::QUInt8);
  const int64_t M = p.K ? x.numel() / p.K : 0;
  Shape out_shape = x.sizes();
  out_shape.back() = p.O;
  Tensor y = Tensor::empty(out_shape, DType::Float32);
  if (y.numel() == 0) return y;
  std::vector<uint8_t> copy;
  int64_t lda;
  const uint8_t* ap = rows_readable(qx.data<uint8_t>(), M, p.K, p.K, p.K4, copy, &lda);
  std::vector<float> mult(p.O + kQGemmBlock), bias;  // padded: the output stage loads whole vectors
  for (int64_t o = 0; o < p.O; ++o) mult[o] = static_cast<float>(scale) * p.w_scales[o];
  if (p.bias.defined()) {
    bias.assign(p.O + kQGemmBlock, 0.0f);
    std::copy(p.bias.data<float>(), p.bias.data<float>() + p.O, bias.begin());
  }
  QGemmArgs g = gemm_args(p, 0, ap, lda, M, static_cast<int32_t>(zp));
  g.out.to_float = true;
  g.out.mult = mult.data();
  g.out.bias = bias.empty() ? nullptr : bias.data();
  g.out.y = y.raw_data();
  g.out.ldy = p.O;
  run_qgemm(g);
  return y;
}

namespace {

// What a convolution applies to its requantized bytes, task by task while they are in cache:
// a fused activation's table, then a residual added (y = add(residual, y), residual of the
// output's shape quantized per tensor).
struct ConvPostOps {
  const ByteTable* table = nullptr;
  Tensor residual;
  QBinaryArgs add{};
};

// The convolution, its output stage requantizing to (scale, zero_point), then `post`; the
// result carries out_q.
Tensor conv2d_impl(const Tensor& x, const PackedWeight& p, double scale, int64_t zero_point, bool relu,
                   const ConvPostOps& post, QuantizerPtr out_q, const char* op) {
  TZ_CHECK(p.is_conv, Runtime, op, "(): packed weights of a linear layer");
  const Quantizer& xq = activation_quantizer(x, op);
  check_qparams(scale, zero_point, 0, 255, op);
  TZ_CHECK(x.dim() == 4, Runtime, op, "(): expected a 4-d (N, C, H, W) input, got shape ", shape_str(x.sizes()));
  const int64_t N = x.sizes()[0], C = x.sizes()[1], H = x.sizes()[2], W = x.sizes()[3];
  TZ_CHECK(C == p.Cg * p.groups, Runtime, op, "(): the weight expects ", p.Cg * p.groups,
           " input channels, got an input of shape ", shape_str(x.sizes()));
  const int64_t OH = (H + 2 * p.padding[0] - p.dilation[0] * (p.KH - 1) - 1) / p.stride[0] + 1;
  const int64_t OW = (W + 2 * p.padding[1] - p.dilation[1] * (p.KW - 1) - 1) / p.stride[1] + 1;
  TZ_CHECK(OH > 0 && OW > 0, Runtime, op, "(): the input of shape ", shape_str(x.sizes()),
           " is smaller than the kernel");
  const bool direct = p.KH == 1 && p.KW == 1 && p.stride[0] == 1 && p.stride[1] == 1 && p.padding[0] == 0 &&
                      p.padding[1] == 0 && p.groups == 1;
  Tensor xi = nhwc_bytes(int_view(x));
  Tensor y = empty_quantized({N, p.O, OH, OW}, DType::QUInt8, std::move(out_q), true);
  Tensor residual;
  if (post.residual.defined()) {
    TZ_CHECK(post.residual.sizes() == y.sizes(), Runtime, op, "(): the residual's shape ",
             shape_str(post.residual.sizes()), " differs from the convolution's output shape ", shape_str(y.sizes()));
    residual = contiguous(int_view(post.residual), MemoryFormat::ChannelsLast);
  }
  if (y.numel() == 0) return y;
  const ByteTable* table = post.table;
  const uint8_t* rp = residual.defined() ? residual.data<uint8_t>() : nullptr;
  const uint8_t* xp = xi.data<uint8_t>();
  uint8_t* yp = y.data<uint8_t>();
  const int32_t x_zp = static_cast<int32_t>(xq.zero_point);
  const std::shared_ptr<const OutputStage> stage = output_stage(p, static_cast<float>(xq.scale), scale);
  const int32_t lo = relu ? static_cast<int32_t>(zero_point) : 0;

  if (p.depthwise) {
    QDepthwiseArgs d{xp, p.depthwise_w.data(), p.depthwise_pairs.data(), p.depthwise_pair_sums.data(), yp, N, H, W, C,
                     OH, OW, p.KH, p.KW, p.stride[0], p.stride[1], p.padding[0], p.padding[1], p.dilation[0],
                     p.dilation[1], x_zp, static_cast<int32_t>(zero_point), lo, 255, stage->mult.data(),
                     stage->bias.empty() ? nullptr : stage->bias.data(), table ? table->data() : nullptr, 0, 0, 0, 0};
    d.pack_clamps = stage->pack_clamps;
    split_depthwise(d);
    parallel_for(0, N * d.bands * d.chunks, 1, [&](int64_t b, int64_t e) { qconv_depthwise_stub(d, b, e); });
    if (rp)  // after the kernel (its tasks are not rows of whole pixels)
      parallel_for(0, y.numel(), 1 << 15, [&](int64_t b, int64_t e) {
        qbinary_stub(QBinaryOp::Add, rp + b, yp + b, yp + b, e - b, post.add);
      });
    return y;
  }
  const int64_t og = p.O / p.groups;
  // The GEMM of group g: M rows of A (lda apart) into the output rows from y_rows.
  auto conv_gemm_args = [&](int64_t g, const uint8_t* a, int64_t lda, int64_t M, uint8_t* y_rows) {
    QGemmArgs args = gemm_args(p, g, a, lda, M, x_zp);
    args.out.mult = stage->mult.data() + g * og;
    args.out.bias = stage->bias.empty() ? nullptr : stage->bias.data() + g * og;
    args.out.out_zp = static_cast<int32_t>(zero_point);
    args.out.lo = lo;
    args.out.hi = 255;
    args.out.pack_clamps = stage->pack_clamps;
    args.out.y = y_rows + g * og;
    args.out.ldy = p.O;
    args.out.table = table ? table->data() : nullptr;
    args.out.residual = rp ? rp + (y_rows - yp) + g * og : nullptr;
    args.out.add = &post.add;
    return args;
  };
  if (direct) {  // the images' NHWC pixels are consecutive rows: one GEMM for the batch
    std::vector<uint8_t> copy;
    int64_t lda;
    const uint8_t* a = rows_readable(xp, N * H * W, C, p.K, p.K4, copy, &lda);
    run_qgemm(conv_gemm_args(0, a, lda, N * H * W, yp));
    return y;
  }
  // Patches a few output rows (about kRowChunk pixels) at a time, each task turning its rows
  // into GEMM rows in a buffer of its own and multiplying them while they are in cache.
  const int64_t rows_per_task = std::max<int64_t>(1, kRowChunk / OW), row_tasks = (OH + rows_per_task - 1) / rows_per_task;
  const bool saturable = may_saturate(p.pair_max);
  parallel_for(0, N * p.groups * row_tasks, 1, [&](int64_t begin, int64_t end) {
    std::vector<uint8_t> col(static_cast<size_t>(rows_per_task * OW * p.K4));
    std::vector<int32_t> sums;
    for (int64_t t = begin; t < end; ++t) {
      const int64_t n = t / (p.groups * row_tasks), g = t / row_tasks % p.groups, oh0 = t % row_tasks * rows_per_task;
      const int64_t oh1 = std::min(OH, oh0 + rows_per_task), M = (oh1 - oh0) * OW;
      im2col_u8(xp + n * H * W * C, H, W, C, g * p.Cg, p, oh0, oh1, OW, static_cast<uint8_t>(x_zp), col.data());
      const QGemmArgs args = conv_gemm_args(g, col.data(), p.K4, M, yp + (n * OH + oh0) * OW * p.O);
      qgemm_range(args, 0, M, 0, block_count(args), saturable, sums);
    }
  });
  return y;
}

}  // namespace

Tensor quantized_conv2d(const Tensor& x, const PackedWeight& p, double scale, int64_t zero_point, bool relu) {
  return conv2d_impl(x, p, scale, zero_point, relu, ConvPostOps{}, per_tensor_quantizer(scale, zero_point),
                     relu ? "quantized::conv2d_relu" : "quantized::conv2d");
}

Tensor quantized_conv2d_hardswish(const Tensor& x, const PackedWeight& p, double conv_scale, int64_t conv_zero_point,
                                  double scale, int64_t zero_point) {
  check_qparams(scale, zero_point, 0, 255, "quantized::conv2d_hardswish");
  const ByteTable table = hardswish_table(conv_scale, conv_zero_point, scale, zero_point);
  ConvPostOps post;
  post.table = &table;
  return conv2d_impl(x, p, conv_scale, conv_zero_point, false, post, per_tensor_quantizer(scale, zero_point),
                     "quantized::conv2d_hardswish");
}

Tensor quantized_conv2d_add(const Tensor& x, const PackedWeight& p, double conv_scale, int64_t conv_zero_point,
                            const Tensor& residual, double scale, int64_t zero_point) {
  const char* op = "quantized::conv2d_add";
  check_qparams(scale, zero_point, 0, 255, op);
  const Quantizer& rq = activation_quantizer(residual, op);
  ConvPostOps post;
  post.residual = residual;
  // quantized::add(residual, conv): the conv's bytes second
  post.add = qbinary_args(rq.scale, rq.zero_point, conv_scale, conv_zero_point, scale, zero_point, false);
  return conv2d_impl(x, p, conv_scale, conv_zero_point, false, post, per_tensor_quantizer(scale, zero_point), op);
}

}  // namespace tz
