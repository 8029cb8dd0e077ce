// Convolution front-ends: checks (PyTorch's messages), 1-d / unbatched / half inputs
// brought to a 2-d float problem, and the choice of algorithm:
//   depthwise (groups == C)       hand-written kernels (kernels/isa/conv_kernels.cpp)
//   pointwise (1x1, stride 1)     one GEMM per group: NCHW weight x image, NHWC pixels x weight^T
//                                 (the weight untransposed where its memory is (C, O)); NHWC with
//                                 few input channels: the tile kernel
//   few input channels (C <= 4)   a direct kernel (kernels/isa/conv_direct_kernels.cpp); NCHW outputs through a
//                                 row buffer
//   dilated (groups 1, stride 1)  GEMMs over output regions of constant in-image taps (ops/conv_dilated.cpp)
//   3x3, stride 1, groups == 1    Winograd F(4x4, 3x3) (ops/conv_winograd.cpp) where it wins (also the weight
//                                 gradient); always on a weight _conv2d_fused's caller transformed once
//   regular, groups == 1          the tile kernel (ops/conv_tile.cpp) where it wins
//   (core._C._set_conv_algorithm('winograd' / 'tile' / 'gemm') forces one of the last three, for tests and benchmarks)
//   anything else                 im2col + GEMM, images split over the thread pool
// A transposed convolution is the data gradient of the regular one with the roles swapped.
#include "ops/conv.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "iter/thread_pool.h"
#include "kernels/conv.h"
#include "kernels/gemm.h"
#include "ops/conv_dilated.h"
#include "ops/conv_tile.h"
#include "ops/conv_winograd.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/joining.h"
#include "ops/views.h"
#include "tensor/memory_format.h"
#include "tensor/size_math.h"

namespace tz {

namespace {

std::string join(const IntList& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

void check_len(const IntList& l, int64_t k, const char* what) {
  TZ_CHECK(int64_t(l.size()) == k, Runtime, "expected ", what, " to be a single integer value or a list of ", k,
           " values to match the convolution dimensions, but got ", what, "=", shape_str(l));
}

// ---------------------------------------------------------------- GEMM plumbing


bool can_split() { return get_num_threads() > 1 && !in_parallel_region(); }

// f(n0, n1) over images [0, N): split over the pool when there are several images (each
// GEMM then runs single-threaded); a single image runs here and its GEMMs split instead.
template <typename F> void over_images(int64_t N, const F& f) {
  if (N > 1 && can_split()) parallel_for(0, N, 1, [&](int64_t b, int64_t e) { f(b, e); });
  else f(0, N);
}

// out[0, len) = the sum over P fixed chunks of [0, total) of f(begin, end, acc), each chunk
// adding into its own zeroed buffer, summed in chunk order (deterministic for a thread count).
template <typename T, typename F> void reduce_chunks(int64_t total, int64_t len, T* out, const F& f) {
  std::fill(out, out + len, T(0));
  const int64_t P = can_split() ? std::min<int64_t>(get_num_threads(), total) : 1;
  if (P <= 1) return f(int64_t(0), total, out);
  std::vector<T> buf((P - 1) * len, T(0));
  parallel_for(0, P, 1, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) f(p * total / P, (p + 1) * total / P, p == 0 ? out : buf.data() + (p - 1) * len);
  });
  for (int64_t p = 1; p < P; ++p) {
    const T* src = buf.data() + (p - 1) * len;
    for (int64_t i = 0; i < len; ++i) out[i] += src[i];
  }
}

int64_t grain_for(int64_t work_per_task) { return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, work_per_task)); }

bool is_pointwise(const ConvShape& s) {
  return s.KH == 1 && s.KW == 1 && s.sh == 1 && s.sw == 1 && s.ph == 0 && s.pw == 0 && s.OH == s.H && s.OW == s.W;
}
bool is_depthwise(const ConvShape& s) { return s.groups > 1 && s.groups == s.C; }

// ---------------------------------------------------------------- the fused epilogue

// The epilogue's residual in the output's memory layout (null when there is none).
struct Epilogue {
  ConvAct act = ConvAct::None;
  Tensor residual;
  bool active() const { return act != ConvAct::None || residual.defined(); }
  // What is left after a kernel that activates in registers takes `kernel_act`: everything
  // but the activation without a residual; with one, the pass adds it and then activates.
  Epilogue after_kernel_act(ConvAct& kernel_act) const {
    if (residual.defined()) return *this;
    kernel_act = act;
    return Epilogue{ConvAct::None, residual};
  }
};

// y[begin, end) = act(y + residual) over flat element indices of y's memory (the residual
// has y's dtype and layout); with a bias, [begin, end) are whole NHWC rows of `channels`
// elements and the bias joins first.
template <typename T>
void epilogue_range(const Epilogue& ep, T* y, int64_t begin, int64_t end, const T* bias = nullptr,
                    int64_t channels = 0) {
  if ((!ep.active() && !bias) || end <= begin) return;
  const T* res = ep.residual.defined() ? ep.residual.data<T>() + begin : nullptr;
  conv_epilogue_stub(std::is_same_v<T, double> ? DType::Float64 : DType::Float32, ep.act, y + begin, bias, channels,
                     res, end - begin);
}

void epilogue_range(const Epilogue& ep, const Tensor& y, int64_t begin, int64_t end) {
  if (y.dtype() == DType::Float64) epilogue_range(ep, y.data<double>(), begin, end);
  else epilogue_range(ep, y.data<float>(), begin, end);
}

// The epilogue over the whole output, for the paths that do not fuse it block by block.
void epilogue_all(const Epilogue& ep, const Tensor& y) {
  if (!ep.active()) return;
  parallel_for(0, y.numel(), 16384, [&](int64_t b, int64_t e) { epilogue_range(ep, y, b, e); });
}
// f(r0, r1) writes NHWC output rows [r0, r1) of `row` elements: over rows [begin, end) in
// steps of about 32 KiB of output, each followed by the epilogue while it is in cache (on one
// thread, parallel_for hands its function the whole range at once).
template <typename F>
void rows_then_epilogue(const Epilogue& ep, const Tensor& y, int64_t row, int64_t begin, int64_t end, const F& f) {
  const int64_t step = ep.active() ? std::max<int64_t>(1, (int64_t(32) << 10) / (row * y.itemsize())) : end - begin;
  for (int64_t r0 = begin; r0 < end; r0 += step) {
    const int64_t r1 = std::min(end, r0 + step);
    f(r0, r1);
    epilogue_range(ep, y, r0 * row, r1 * row);
  }
}

// The kernels' layout: NHWC when asked, and also for 1x1 images (N, C, 1, 1), where NCHW and
// NHWC memory are the same and the NHWC kernels make one GEMM of the whole batch.
bool rows_layout(const ConvShape& s, bool nhwc) { return nhwc || (s.H * s.W == 1 && s.OH * s.OW == 1); }

MemoryFormat format_of(bool nhwc) { return nhwc ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous; }
// A dense tensor in NCHW or NHWC memory (as an NCHW-shaped tensor).
Tensor in_layout(const Tensor& t, bool nhwc) { return contiguous(t, format_of(nhwc)); }
// A new (N, C, H, W) tensor with NCHW or NHWC memory.
Tensor new_4d(int64_t n, int64_t c, int64_t h, int64_t w, DType dt, bool nhwc) {
  return empty_with_format({n, c, h, w}, dt, format_of(nhwc), "conv");
}
// Like PyTorch: a channels-last input or weight gives a channels-last convolution.
bool channels_last(const Tensor& a, const Tensor& b) {
  return suggest_memory_format(a) == MemoryFormat::ChannelsLast || suggest_memory_format(b) == MemoryFormat::ChannelsLast;
}

template <typename F> void for_float(DType dt, const F& f) {
  if (dt == DType::Float64) f(double{});
  else f(float{});
}

// Weight (O, Cg, KH, KW) as the GEMM wants it: NCHW (O, Cg*KH*KW), NHWC (O, KH*KW*Cg).
Tensor gemm_weight(const Tensor& w, bool nhwc) {
  return nhwc ? contiguous(permute(w, {0, 2, 3, 1})) : contiguous(w);
}
// Whether a 1x1 weight (O, C, 1, 1) has (C, O) memory, as the inference compiler stores it:
// the NHWC GEMM's B as BLAS reads it fastest (its (O, C) rows would be read transposed).
bool pointwise_weight_is_input_major(const Tensor& w, const ConvShape& s) {
  return s.groups == 1 && w.stride(0) == 1 && w.stride(1) == s.O;
}
// src (C * mult, KK) as dst (mult, KK, C), in blocks of 32 channels: the stores run along rows
// of C and a block's source rows stay in L1 across its taps. Not inlined: inside the caller GCC
// kept the loop's pointers on the stack (a store-forwarding chain per element), which made the
// transpose a quarter of a 960-channel 7x7 depthwise conv.
template <typename T>
__attribute__((noinline)) void transpose_dw_weight(const T* __restrict src, T* __restrict dst, int64_t C, int64_t mult, int64_t KK) {
  constexpr int64_t kBlock = 32;
  for (int64_t c0 = 0; c0 < C; c0 += kBlock) {
    const int64_t c1 = c0 + kBlock < C ? c0 + kBlock : C;
    for (int64_t m = 0; m < mult; ++m)
      for (int64_t k = 0; k < KK; ++k)
        for (int64_t c = c0; c < c1; ++c) dst[(m * KK + k) * C + c] = src[(c * mult + m) * KK + k];
  }
}

}  // namespace

Tensor dw_weight_nhwc(const Tensor& w_, int64_t C) {
  const int64_t mult = w_.size(0) / C, KK = w_.size(2) * w_.size(3);
  // stored (KH, KW, C) already (the inference compiler's layout): a view, not a copy per call
  const Tensor taps_major = permute(w_, {1, 2, 3, 0});
  if (mult == 1 && taps_major.is_contiguous()) return taps_major;
  Tensor w = contiguous(w_);
  Tensor out = Tensor::empty({mult, w_.size(2), w_.size(3), C}, w.dtype());
  for_float(w.dtype(), [&](auto tag) {
    using T = decltype(tag);
    transpose_dw_weight(w.data<T>(), out.data<T>(), C, mult, KK);
  });
  return out;
}

namespace {

// Fills each (n, pixel) with the bias: NCHW planes or NHWC rows.
template <typename T> void fill_bias(T* y, const T* bias, const ConvShape& s, int64_t n0, int64_t n1, bool nhwc) {
  const int64_t L = s.OH * s.OW;
  for (int64_t n = n0; n < n1; ++n) {
    T* yn = y + n * s.O * L;
    if (nhwc) for (int64_t p = 0; p < L; ++p) std::memcpy(yn + p * s.O, bias, s.O * sizeof(T));
    else for (int64_t o = 0; o < s.O; ++o) std::fill(yn + o * L, yn + (o + 1) * L, bias[o]);
  }
}

// NCHW convolutions of small outputs (and their gradients) go through GEMMs over several images
// at once: a product with one small image's L columns runs far below the BLAS's speed (the
// DCGAN generator's transposed convolutions of 1x1 and 4x4 inputs: 3.5x and 1.5x slower than
// oneDNN). Images per product: what fits kImagesColumnBudget values of columns.
constexpr int64_t kSmallImageMaxL = 256;
constexpr int64_t kImagesColumnBudget = int64_t(1) << 21;

bool batch_small_images(const ConvShape& s, bool nhwc) {
  return !nhwc && !is_pointwise(s) && s.N > 1 && s.OH * s.OW < kSmallImageMaxL;
}

// Images per product and how many products: the budget, and at least one product per thread.
std::pair<int64_t, int64_t> image_batches(const ConvShape& s) {
  const int64_t per_image = s.cg() * s.KH * s.KW * s.OH * s.OW;
  const int64_t threads = can_split() ? get_num_threads() : 1;
  const int64_t per = std::clamp<int64_t>(kImagesColumnBudget / per_image, 1, (s.N + threads - 1) / threads);
  return {per, (s.N + per - 1) / per};
}

// Group g's rows of gy (O x L per image) for images n0 .. n0 + nb - 1, side by side: Og x nb*L.
template <typename T> void gather_images(const T* gy, const ConvShape& s, int64_t g, int64_t n0, int64_t nb, T* out) {
  const int64_t L = s.OH * s.OW, Og = s.og(), cols = nb * L;
  for (int64_t i = 0; i < nb; ++i)
    for (int64_t o = 0; o < Og; ++o) std::copy_n(gy + ((n0 + i) * s.O + g * Og + o) * L, L, out + o * cols + i * L);
}

// The same images transposed, one under another: nb*L x Og.
template <typename T> void gather_images_t(const T* gy, const ConvShape& s, int64_t g, int64_t n0, int64_t nb, T* out) {
  const int64_t L = s.OH * s.OW, Og = s.og();
  for (int64_t i = 0; i < nb; ++i)
    for (int64_t o = 0; o < Og; ++o) {
      const T* src = gy + ((n0 + i) * s.O + g * Og + o) * L;
      for (int64_t l = 0; l < L; ++l) out[(i * L + l) * Og + o] = src[l];
    }
}

// y = w x (+ bias) for images side by side: their columns, then the product's rows back into
// each image's planes.
template <typename T>
void batched_forward_nchw(const T* x, const T* w, const T* bias, T* y, const ConvShape& s, const Epilogue& ep) {
  const int64_t L = s.OH * s.OW, HW = s.H * s.W, Cg = s.cg(), Og = s.og(), ckk = Cg * s.KH * s.KW;
  const auto [per, batches] = image_batches(s);
  parallel_for(0, batches, 1, [&](int64_t b0, int64_t b1) {
    std::vector<T> col(ckk * per * L), prod(Og * per * L);
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t n0 = b * per, nb = std::min(per, s.N - n0), cols = nb * L;
      for (int64_t g = 0; g < s.groups; ++g) {
        for (int64_t i = 0; i < nb; ++i) im2col_nchw(x + ((n0 + i) * s.C + g * Cg) * HW, Cg, s, col.data() + i * L, cols);
        mm(Og, cols, ckk, w + g * Og * ckk, ckk, 1, col.data(), cols, 1, prod.data(), cols, 1, false);
        for (int64_t i = 0; i < nb; ++i)
          for (int64_t o = 0; o < Og; ++o) {
            const T* src = prod.data() + o * cols + i * L;
            T* dst = y + ((n0 + i) * s.O + g * Og + o) * L;
            const T add = bias ? bias[g * Og + o] : T(0);
            for (int64_t l = 0; l < L; ++l) dst[l] = src[l] + add;
          }
      }
      epilogue_range(ep, y, n0 * s.O * L, (n0 + nb) * s.O * L);
    }
  });
}

// ---------------------------------------------------------------- the three GEMM kernels

// Pixel rows per block of a blocked pointwise NHWC convolution: each block's GEMM output
// (about 256 KiB) is still in cache when its epilogue runs, and each block is tall enough
// that BLAS's packing of the whole weight per call stays a small share of it.
template <typename T> int64_t pointwise_block_rows(int64_t channels) {
  return std::max<int64_t>(256, (int64_t(256) << 10) / (channels * int64_t(sizeof(T))));
}

// w: the weight as gemm_weight lays it out; for NHWC pointwise convolutions, the GEMM's B
// (C x O per group) with strides wrs, wcs (see pointwise_weight_is_input_major).
template <typename T>
void gemm_forward(const T* x, const T* w, int64_t wrs, int64_t wcs, const T* bias, T* y, const ConvShape& s, bool nhwc,
                  const Epilogue& ep = Epilogue()) {
  const int64_t L = s.OH * s.OW, HW = s.H * s.W, KK = s.KH * s.KW, Cg = s.cg(), Og = s.og(), ckk = Cg * KK;
  const bool pw = is_pointwise(s), acc = bias != nullptr;
  if (batch_small_images(s, nhwc)) return batched_forward_nchw(x, w, bias, y, s, ep);
  if (nhwc && pw) {
    const int64_t M = s.N * HW;
    const auto gemm_rows = [&](int64_t r0, int64_t r1, bool accumulate) {
      for (int64_t g = 0; g < s.groups; ++g)
        mm(r1 - r0, Og, Cg, x + r0 * s.C + g * Cg, s.C, 1, w + g * Og * wcs, wrs, wcs, y + r0 * s.O + g * Og, s.O, 1,
           accumulate);
    };
    if (!ep.active()) {  // the bias as GEMM's initial C: cheaper than a pass of its own
      if (bias) fill_bias(y, bias, s, 0, s.N, true);
      return gemm_rows(0, M, acc);
    }
    // With an epilogue, the bias joins it, and blocks of rows run whole (GEMM, then epilogue
    // while the block is in cache): on one thread one after another; on several, when there
    // are rows enough for every thread (otherwise one GEMM splits over the pool and the
    // epilogue follows).
    const auto finish_rows = [&](int64_t r0, int64_t r1) { epilogue_range(ep, y, r0 * s.O, r1 * s.O, bias, s.O); };
    const int64_t block = pointwise_block_rows<T>(s.O);
    if (M > block && (!can_split() || M >= 2 * get_num_threads() * block)) {
      parallel_for(0, (M + block - 1) / block, 1, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          const int64_t r0 = i * block, r1 = std::min(M, r0 + block);
          gemm_rows(r0, r1, false);
          finish_rows(r0, r1);
        }
      });
      return;
    }
    gemm_rows(0, M, false);
    parallel_for(0, M, grain_for(s.O), finish_rows);
    return;
  }
  over_images(s.N, [&](int64_t n0, int64_t n1) {
    std::vector<T> col(pw ? 0 : ckk * L);
    for (int64_t n = n0; n < n1; ++n) {
      if (bias) fill_bias(y, bias, s, n, n + 1, nhwc);
      for (int64_t g = 0; g < s.groups; ++g) {
        const T* wg = w + g * Og * ckk;
        if (nhwc) {
          im2col_nhwc(x + n * HW * s.C + g * Cg, Cg, s, col.data());
          mm(L, Og, ckk, col.data(), ckk, 1, wg, 1, ckk, y + n * L * s.O + g * Og, s.O, 1, acc);
        } else {
          const T* xg = x + (n * s.C + g * Cg) * HW;
          if (!pw) im2col_nchw(xg, Cg, s, col.data());
          mm(Og, L, ckk, wg, ckk, 1, pw ? xg : col.data(), L, 1, y + (n * s.O + g * Og) * L, L, 1, acc);
        }
      }
      epilogue_range(ep, y, n * s.O * L, (n + 1) * s.O * L);  // this image, still in cache
    }
  });
}

// The columns come out transposed (nb*L x Cg*KH*KW, each image's block contiguous): col2im
// then reads one image's block, not a strided slice of all of them, and the GEMM reads the
// weight as stored.
template <typename T> void batched_backward_data_nchw(const T* gy, const T* w, T* gx, const ConvShape& s) {
  const int64_t L = s.OH * s.OW, HW = s.H * s.W, Cg = s.cg(), Og = s.og(), ckk = Cg * s.KH * s.KW;
  const auto [per, batches] = image_batches(s);
  parallel_for(0, batches, 1, [&](int64_t b0, int64_t b1) {
    std::vector<T> gyt(Og * per * L), col(ckk * per * L);
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t n0 = b * per, nb = std::min(per, s.N - n0);
      std::fill(gx + n0 * s.C * HW, gx + (n0 + nb) * s.C * HW, T(0));
      for (int64_t g = 0; g < s.groups; ++g) {
        gather_images_t(gy, s, g, n0, nb, gyt.data());
        mm(nb * L, ckk, Og, gyt.data(), Og, 1, w + g * Og * ckk, ckk, 1, col.data(), ckk, 1, false);
        for (int64_t i = 0; i < nb; ++i)
          col2im_nchw(col.data() + i * L * ckk, Cg, s, gx + ((n0 + i) * s.C + g * Cg) * HW, 1, ckk);
      }
    }
  });
}

// gw (O x Cg*KH*KW) = the sum over images of gy x col^T, several images per product.
template <typename T> void batched_backward_weight_nchw(const T* x, const T* gy, T* gw, const ConvShape& s) {
  const int64_t L = s.OH * s.OW, HW = s.H * s.W, Cg = s.cg(), Og = s.og(), ckk = Cg * s.KH * s.KW;
  const auto [per, batches] = image_batches(s);
  reduce_chunks(batches, s.O * ckk, gw, [&](int64_t b0, int64_t b1, T* acc) {
    std::vector<T> gyt(Og * per * L), col(ckk * per * L);
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t n0 = b * per, nb = std::min(per, s.N - n0), cols = nb * L;
      for (int64_t g = 0; g < s.groups; ++g) {
        for (int64_t i = 0; i < nb; ++i) im2col_nchw(x + ((n0 + i) * s.C + g * Cg) * HW, Cg, s, col.data() + i * L, cols);
        gather_images(gy, s, g, n0, nb, gyt.data());
        mm(Og, ckk, cols, gyt.data(), cols, 1, col.data(), 1, cols, acc + g * Og * ckk, ckk, 1, true);
      }
    }
  });
}

template <typename T>
void gemm_backward_data(const T* gy, const T* w, T* gx, const ConvShape& s, bool nhwc) {
  const int64_t L = s.OH * s.OW, HW = s.H * s.W, KK = s.KH * s.KW, Cg = s.cg(), Og = s.og(), ckk = Cg * KK;
  const bool pw = is_pointwise(s);
  if (batch_small_images(s, nhwc)) return batched_backward_data_nchw(gy, w, gx, s);
  if (nhwc && pw) {
    for (int64_t g = 0; g < s.groups; ++g)
      mm(s.N * HW, Cg, Og, gy + g * Og, s.O, 1, w + g * Og * Cg, Cg, 1, gx + g * Cg, s.C, 1, false);
    return;
  }
  over_images(s.N, [&](int64_t n0, int64_t n1) {
    std::vector<T> col(pw ? 0 : ckk * L);
    for (int64_t n = n0; n < n1; ++n) {
      if (nhwc) std::fill(gx + n * HW * s.C, gx + (n + 1) * HW * s.C, T(0));
      for (int64_t g = 0; g < s.groups; ++g) {
        const T* wg = w + g * Og * ckk;
        if (nhwc) {
          mm(L, ckk, Og, gy + n * L * s.O + g * Og, s.O, 1, wg, ckk, 1, col.data(), ckk, 1, false);
          col2im_nhwc(col.data(), Cg, s, gx + n * HW * s.C + g * Cg);
        } else {
          const T* gyg = gy + (n * s.O + g * Og) * L;
          T* gxg = gx + (n * s.C + g * Cg) * HW;
          if (pw) {
            mm(Cg, HW, Og, wg, 1, Cg, gyg, L, 1, gxg, HW, 1, false);
          } else {
            mm(ckk, L, Og, wg, 1, ckk, gyg, L, 1, col.data(), L, 1, false);
            std::fill(gxg, gxg + Cg * HW, T(0));
            col2im_nchw(col.data(), Cg, s, gxg);
          }
        }
      }
    }
  });
}

// gw: NCHW (O, Cg*KH*KW); NHWC (O, KH*KW*Cg).
template <typename T>
void gemm_backward_weight(const T* x, const T* gy, T* gw, const ConvShape& s, bool nhwc) {
  const int64_t L = s.OH * s.OW, HW = s.H * s.W, KK = s.KH * s.KW, Cg = s.cg(), Og = s.og(), ckk = Cg * KK;
  const bool pw = is_pointwise(s);
  if (batch_small_images(s, nhwc)) return batched_backward_weight_nchw(x, gy, gw, s);
  if (nhwc && pw) {
    for (int64_t g = 0; g < s.groups; ++g)
      mm(Og, Cg, s.N * HW, gy + g * Og, 1, s.O, x + g * Cg, s.C, 1, gw + g * Og * Cg, Cg, 1, false);
    return;
  }
  reduce_chunks(s.N, s.O * ckk, gw, [&](int64_t n0, int64_t n1, T* acc) {
    std::vector<T> col(pw ? 0 : ckk * L);
    for (int64_t n = n0; n < n1; ++n)
      for (int64_t g = 0; g < s.groups; ++g) {
        T* ag = acc + g * Og * ckk;
        if (nhwc) {
          im2col_nhwc(x + n * HW * s.C + g * Cg, Cg, s, col.data());
          mm(Og, ckk, L, gy + n * L * s.O + g * Og, 1, s.O, col.data(), ckk, 1, ag, ckk, 1, true);
        } else {
          const T* xg = x + (n * s.C + g * Cg) * HW;
          if (!pw) im2col_nchw(xg, Cg, s, col.data());
          mm(Og, ckk, L, gy + (n * s.O + g * Og) * L, L, 1, pw ? xg : col.data(), 1, L, ag, ckk, 1, true);
        }
      }
  });
}

// Whether every element of a float weight is finite: the exponent bits of its dense memory
// (either layout: the order does not matter) tested in one pass over threads, with no bool
// tensor (isfinite + all cost a ResNet-50 at batch 1 about 2% of its time, every call).
bool all_finite(const Tensor& w_) {
  const bool dense = w_.is_contiguous() || is_contiguous_as(w_, MemoryFormat::ChannelsLast);
  const Tensor w = dense ? w_ : contiguous(w_);
  std::atomic<bool> finite{true};
  for_float(w.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    constexpr Bits kExponent = sizeof(T) == 4 ? Bits(0x7f800000u) : Bits(0x7ff0000000000000ull);
    const Bits* bits = static_cast<const Bits*>(w.raw_data());
    parallel_for(0, w.numel(), int64_t(1) << 16, [&](int64_t b, int64_t e) {
      Bits all_ones = 0;  // any element with every exponent bit set: inf or nan
      for (int64_t i = b; i < e; ++i) all_ones |= Bits((bits[i] & kExponent) == kExponent);
      if (all_ones) finite.store(false, std::memory_order_relaxed);
    });
  });
  return finite.load();
}

// ---------------------------------------------------------------- depthwise drivers


// NCHW input gradients of planes narrower than this go through the NHWC kernels: the
// direct kernel scatters a row tap by tap, and on short rows two transposes cost less.
constexpr int64_t kDwGradDirectMinWidth = 16;
bool dw_grad_via_rows(const ConvShape& s, bool nhwc) { return !nhwc && s.OW < kDwGradDirectMinWidth; }

// y (allocated, in the kernels' layout) = depthwise conv of x (same layout) + bias.
void depthwise_forward(const Tensor& x, const Tensor& w_, const Tensor& bias, const Tensor& y, const ConvShape& s,
                       bool nhwc, const Epilogue& ep) {
  const DType dt = x.dtype();
  DepthwiseArgs a{s, x.raw_data(), nullptr, nullptr, y.raw_data()};
  Tensor w, b;
  if (nhwc) {
    w = dw_weight_nhwc(w_, s.C);
    if (bias.defined()) b = contiguous(transpose(reshape(bias, {s.C, s.O / s.C}), 0, 1));
    a.w = w.raw_data(), a.bias = b.defined() ? b.raw_data() : nullptr;
    const Epilogue rest = ep.after_kernel_act(a.act);
    const int64_t row = s.OW * s.O;  // task (n, oh): one output row of every channel
    parallel_for(0, s.N * s.OH, grain_for(s.OW * s.O * s.KH * s.KW), [&](int64_t b0, int64_t e0) {
      rows_then_epilogue(rest, y, row, b0, e0, [&](int64_t r0, int64_t r1) { dw_fwd_nhwc_stub(dt, a, r0, r1); });
    });
  } else {
    w = contiguous(w_);
    a.w = w.raw_data(), a.bias = bias.defined() ? bias.raw_data() : nullptr;
    const int64_t plane = s.OH * s.OW;  // task (n, o): one output plane
    parallel_for(0, s.N * s.O, grain_for(s.OH * s.OW * s.KH * s.KW), [&](int64_t b0, int64_t e0) {
      dw_fwd_nchw_stub(dt, a, b0, e0);
      epilogue_range(ep, y, b0 * plane, e0 * plane);
    });
  }
}

void depthwise_backward_data(const Tensor& gy, const Tensor& w_, const Tensor& gx, const ConvShape& s, bool nhwc) {
  const DType dt = gy.dtype();
  Tensor w = nhwc ? dw_weight_nhwc(w_, s.C) : contiguous(w_);
  DepthwiseArgs a{s, gy.raw_data(), w.raw_data(), nullptr, gx.raw_data()};
  if (nhwc)
    parallel_for(0, s.N * s.H, grain_for(s.W * s.O * s.KH * s.KW / (s.sh * s.sw)),
                 [&](int64_t b, int64_t e) { dw_bwd_input_nhwc_stub(dt, a, b, e); });
  else
    parallel_for(0, s.N * s.C, grain_for(s.OH * s.OW * s.O / s.C * s.KH * s.KW),
                 [&](int64_t b, int64_t e) { dw_bwd_input_nchw_stub(dt, a, b, e); });
}

// The weight gradient (O, 1, KH, KW) from x and gy in NHWC memory.
Tensor depthwise_backward_weight(const Tensor& x, const Tensor& gy, const ConvShape& s) {
  const DType dt = x.dtype();
  Tensor gwt = Tensor::empty({s.O / s.C, s.KH, s.KW, s.C}, dt);
  DepthwiseArgs a{s, x.raw_data(), gy.raw_data(), nullptr, nullptr};
  for_float(dt, [&](auto tag) {
    using T = decltype(tag);
    reduce_chunks(s.N * s.OH, gwt.numel(), gwt.data<T>(), [&](int64_t b, int64_t e, T* acc) {
      DepthwiseArgs part = a;
      part.out = acc;
      dw_bwd_weight_nhwc_stub(dt, part, b, e);
    });
  });
  // (mult, KH, KW, C) -> (C, mult, KH, KW) -> (O, 1, KH, KW)
  return reshape(permute(gwt, {3, 0, 1, 2}), {s.O, 1, s.KH, s.KW});
}

// ---------------------------------------------------------------- few input channels

// Image stems (3 channels in): an im2col of a few channels is all bookkeeping, so the
// direct kernel reads the input where it is, and writes NCHW outputs a row at a time through
// an NHWC buffer. Against im2col + GEMM on the AVX2 EPYC (1 thread, NCHW): a 7x7 stride-2 stem
// to 112x112 6.5 -> 4.5 ms, 8 x 3 -> 32 3x3 stride 2 to 64x64 3.4 -> 2.5 ms; 64 x 3 -> 64 4x4
// stride 2 to 32x32 12.5 -> 14.7 ms (PyTorch 38).
constexpr int64_t kSmallInputMaxChannels = 4;
bool uses_small_input_kernel(const ConvShape& s) { return s.groups == 1 && s.C <= kSmallInputMaxChannels; }

// x is read in its own layout (NCHW or NHWC memory), y is written in the output's (nhwc).
void small_input_forward(const Tensor& x, const Tensor& w_, const Tensor& bias, const Tensor& y, const ConvShape& s,
                         bool nhwc, const Epilogue& ep) {
  const DType dt = x.dtype();
  const int64_t per_64_bytes = 64 / itemsize(dt), opad = (s.O + per_64_bytes - 1) / per_64_bytes * per_64_bytes;
  // (O, C, KH, KW) -> (KH, KW, C, Opad), zeros past O
  Tensor w = zeros({s.KH, s.KW, s.C, opad}, dt);
  copy_(narrow(w, 3, 0, s.O), permute(w_, {2, 3, 1, 0}));
  SmallInputConvArgs a{s, x.raw_data(), w.raw_data(), bias.defined() ? bias.raw_data() : nullptr, y.raw_data(), opad,
                       0, 0, 0, 0, 0};
  if (is_contiguous_as(x, MemoryFormat::ChannelsLast) && !x.is_contiguous()) a.x_c = 1, a.x_h = s.W * s.C, a.x_w = s.C;
  else a.x_c = s.H * s.W, a.x_h = s.W, a.x_w = 1;
  if (nhwc) a.y_o = 1, a.y_w = s.O;
  else a.y_o = s.OH * s.OW, a.y_w = 1;
  const Epilogue rest = ep.after_kernel_act(a.act);
  const int64_t row = s.OW * s.O;  // task (n, oh): in NHWC one contiguous output row
  parallel_for(0, s.N * s.OH, grain_for(s.OW * s.O * s.C * s.KH * s.KW), [&](int64_t b, int64_t e) {
    if (nhwc) rows_then_epilogue(rest, y, row, b, e, [&](int64_t r0, int64_t r1) { conv_small_input_stub(dt, a, r0, r1); });
    else conv_small_input_stub(dt, a, b, e);
  });
  if (!nhwc) epilogue_all(rest, y);
}

// ---------------------------------------------------------------- strided 1x1

// A 1x1 convolution with a stride and no padding (ResNet's downsampling shortcuts) reads every
// stride-th pixel and is pointwise on those: gathered densely, they take the pointwise GEMM path
// instead of the general ones (256 -> 512 at 56x56, stride 2, 8 images: NHWC 71 -> 27 ms, NCHW 80 -> 35 ms).
bool is_strided_pointwise(const ConvShape& s) {
  return s.KH == 1 && s.KW == 1 && s.ph == 0 && s.pw == 0 && (s.sh > 1 || s.sw > 1) && s.OH * s.OW > 0;
}

// The pointwise convolution of the pixels a strided 1x1 one reads.
ConvShape on_strided_pixels(const ConvShape& s) {
  ConvShape p = s;
  p.H = s.OH, p.W = s.OW, p.sh = p.sw = p.dh = p.dw = 1;
  return p;
}

// The pixels (every stride-th row and column) of t, a view.
Tensor strided_pixels(const Tensor& t, const ConvShape& s) {
  return slice(slice(t, 2, 0, (s.OH - 1) * s.sh + 1, s.sh), 3, 0, (s.OW - 1) * s.sw + 1, s.sw);
}

// ---------------------------------------------------------------- 4-d drivers

// y (N, O, OH, OW; NCHW or NHWC memory) += bias[o], in place.
void add_bias(const Tensor& y, const Tensor& bias, bool nhwc) {
  const int64_t N = y.size(0), O = y.size(1), L = y.size(2) * y.size(3);
  for_float(y.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* p = y.data<T>();
    const T* b = bias.data<T>();
    for (int64_t n = 0; n < N; ++n, p += O * L) {
      if (nhwc) for (int64_t i = 0; i < L; ++i) for (int64_t o = 0; o < O; ++o) p[i * O + o] += b[o];
      else for (int64_t o = 0; o < O; ++o) for (int64_t i = 0; i < L; ++i) p[o * L + i] += b[o];
    }
  });
}

// y = conv(x, w) + bias on 4-d tensors of one float dtype, then the epilogue (fused into the
// kernels' blocks where they allow it).
Tensor forward_4d(const Tensor& x_, const Tensor& w_, const Tensor& bias_, const ConvShape& s, bool nhwc_out,
                  const ConvInference* inference = nullptr) {
  if (is_strided_pointwise(s))
    return forward_4d(in_layout(strided_pixels(x_, s), nhwc_out), w_, bias_, on_strided_pixels(s), nhwc_out, inference);
  const DType dt = x_.dtype();
  const bool nhwc = rows_layout(s, nhwc_out);
  Tensor y = new_4d(s.N, s.O, s.OH, s.OW, dt, nhwc_out);
  Tensor bias = bias_.defined() ? contiguous(bias_) : Tensor();
  if (y.numel() == 0) return y;
  Epilogue ep;
  if (inference) {
    ep.act = inference->act;
    if (inference->residual.defined()) {
      TZ_CHECK(inference->residual.sizes() == y.sizes(), Runtime, "_conv2d_fused(): residual of shape ",
               shape_str(inference->residual.sizes()), " does not match the output's ", shape_str(y.sizes()));
      ep.residual = to_dtype(in_layout(inference->residual, nhwc_out), dt);
    }
  }
  if (s.cg() == 0) {  // no input channels: every output is its bias (the paths below would divide by empty sums)
    fill_(y, Scalar(0.0));
    if (bias.defined()) add_bias(y, bias, nhwc_out);
    epilogue_all(ep, y);
    return y;
  }
  // Paths that write the whole output first: the epilogue follows over it, in the output's layout.
  auto with_epilogue = [&](Tensor out) {
    if (ep.residual.defined())
      ep.residual = to_dtype(in_layout(ep.residual, suggest_memory_format(out) == MemoryFormat::ChannelsLast), dt);
    epilogue_all(ep, out);
    return out;
  };
  if (inference && inference->winograd_weight.defined())  // reads x_ in either layout
    return with_epilogue(conv_winograd_forward_packed(x_, inference->winograd_weight, bias, s, nhwc_out));
  if (uses_small_input_kernel(s)) {  // reads a dense input in either layout where it is: no conversion
    const bool dense = x_.is_contiguous() || is_contiguous_as(x_, MemoryFormat::ChannelsLast);
    small_input_forward(dense ? x_ : in_layout(x_, nhwc_out), w_, bias, y, s, nhwc, ep);
    return y;
  }
  Tensor x = in_layout(x_, nhwc_out);
  if (is_depthwise(s)) {
    depthwise_forward(x, w_, bias, y, s, nhwc, ep);
    return y;
  }
  if (uses_dilated_gemm(s) && conv_algorithm() == ConvAlgorithm::Auto)
    return with_epilogue(dilated_conv_forward(x, w_, bias, s, nhwc_out));
  if (conv_winograd_forward_applies(s, dt)) return with_epilogue(conv_winograd_forward(x, w_, bias, s, nhwc_out));
  // (1x1 NCHW convolutions stay on BLAS, which reads their planes as they are.)
  if (is_pointwise(s) ? nhwc_out && conv_tile_pointwise_applies(s, dt) : conv_tile_forward_applies(s, dt)) {
    if (!nhwc_out) return with_epilogue(conv_tile_forward(x, w_, bias, s, nhwc_out));
    return conv_tile_forward(x, w_, bias, s, nhwc_out, ep.act, ep.residual);  // the epilogue in registers
  }
  const bool input_major = nhwc && is_pointwise(s) && pointwise_weight_is_input_major(w_, s);
  Tensor w = input_major ? w_ : gemm_weight(w_, nhwc);
  const int64_t wrs = input_major ? s.O : 1, wcs = input_major ? 1 : s.cg();
  for_float(dt, [&](auto tag) {
    using T = decltype(tag);
    gemm_forward<T>(x.data<T>(), w.data<T>(), wrs, wcs, bias.defined() ? bias.data<T>() : nullptr, y.data<T>(), s, nhwc,
                    ep);
  });
  return y;
}

// The input gradient (N, C, H, W) of conv(x, w) from gy (N, O, OH, OW).
Tensor backward_data_4d(const Tensor& gy_, const Tensor& w_, const ConvShape& s, bool nhwc_out) {
  if (is_strided_pointwise(s)) {  // the pixels it read get the gradient, the others none
    Tensor gx = fill_(new_4d(s.N, s.C, s.H, s.W, gy_.dtype(), nhwc_out), Scalar(0.0));
    copy_(strided_pixels(gx, s), backward_data_4d(gy_, w_, on_strided_pixels(s), nhwc_out));
    return gx;
  }
  const DType dt = gy_.dtype();
  const bool nhwc = rows_layout(s, nhwc_out);
  Tensor gy = in_layout(gy_, nhwc_out);
  Tensor gx = new_4d(s.N, s.C, s.H, s.W, dt, nhwc_out);
  if (gx.numel() == 0) return gx;
  if (gy.numel() == 0) return fill_(gx, Scalar(0.0));
  if (is_depthwise(s)) {
    if (dw_grad_via_rows(s, nhwc)) {
      Tensor gxr = new_4d(s.N, s.C, s.H, s.W, dt, true);
      depthwise_backward_data(in_layout(gy_, true), w_, gxr, s, true);
      return contiguous(gxr);
    }
    depthwise_backward_data(gy, w_, gx, s, nhwc);
    return gx;
  }
  if (dilated_gemm_has_data_grad(s) && conv_algorithm() == ConvAlgorithm::Auto)
    return dilated_conv_backward_data(gy, w_, s, nhwc_out);
  if (conv_winograd_backward_data_applies(s, dt)) return conv_winograd_backward_data(gy, w_, s, nhwc_out);
  if (!is_pointwise(s) && conv_tile_backward_data_applies(s, dt)) return conv_tile_backward_data(gy, w_, s, nhwc_out);
  Tensor w = gemm_weight(w_, nhwc);
  for_float(dt, [&](auto tag) {
    using T = decltype(tag);
    gemm_backward_data<T>(gy.data<T>(), w.data<T>(), gx.data<T>(), s, nhwc);
  });
  return gx;
}

// The weight gradient (O, Cg, KH, KW) of conv(x, w) from gy.
Tensor backward_weight_4d(const Tensor& x_, const Tensor& gy_, const ConvShape& s, bool nhwc_in) {
  if (is_strided_pointwise(s))
    return backward_weight_4d(in_layout(strided_pixels(x_, s), nhwc_in), gy_, on_strided_pixels(s), nhwc_in);
  const DType dt = x_.dtype();
  const int64_t Cg = s.cg(), KK = s.KH * s.KW;
  if (s.O * Cg * KK == 0) return Tensor::empty({s.O, Cg, s.KH, s.KW}, dt);
  const bool nhwc = rows_layout(s, nhwc_in);
  Tensor x = in_layout(x_, nhwc_in), gy = in_layout(gy_, nhwc_in);
  if (is_depthwise(s))  // always through the NHWC kernel: channels in lanes beat per-plane dot products
    return depthwise_backward_weight(nhwc ? x : in_layout(x_, true), nhwc ? gy : in_layout(gy_, true), s);
  if (uses_dilated_gemm(s)) return dilated_conv_backward_weight(x, gy, s, nhwc_in);
  if (conv_winograd_backward_weight_applies(s, dt)) return conv_winograd_backward_weight(x, gy, s, nhwc_in);
  Tensor gw = nhwc ? Tensor::empty({s.O, s.KH, s.KW, Cg}, dt) : Tensor::empty({s.O, Cg, s.KH, s.KW}, dt);
  for_float(dt, [&](auto tag) {
    using T = decltype(tag);
    gemm_backward_weight<T>(x.data<T>(), gy.data<T>(), gw.data<T>(), s, nhwc);
  });
  if (!nhwc) return gw;
  return nhwc_in ? permute(gw, {0, 3, 1, 2}) : contiguous(permute(gw, {0, 3, 1, 2}));
}

// ---------------------------------------------------------------- shared front-end pieces

// How many spatial dims an op name implies ("conv2d" -> 2; 0 when the weight decides).
int64_t spatial_dims_of(const std::string& op) {
  if (op.size() >= 2 && op.compare(op.size() - 2, 2, "1d") == 0) return 1;
  if (op.size() >= 2 && op.compare(op.size() - 2, 2, "2d") == 0) return 2;
  return 0;
}

// The compute dtype (half types run in float32) after checking the operands' dtypes.
DType compute_dtype(const Tensor& input, const Tensor& weight, const Tensor& bias, const char* op) {
  const DType dt = input.dtype();
  TZ_CHECK(weight.dtype() == dt, Runtime, "Input type (", dtype_name(dt), ") and weight type (",
           dtype_name(weight.dtype()), ") should be the same");
  TZ_CHECK(!bias.defined() || bias.dtype() == dt, Runtime, "Input type (", dtype_name(dt), ") and bias type (",
           dtype_name(bias.dtype()), ") should be the same");
  if (!is_floating(dt)) fail(ErrorKind::NotImplemented, op, "(): not implemented for '", scalar_type_name(dt), "'");
  return dt == DType::Float64 ? DType::Float64 : DType::Float32;
}

// 1-d problems as 2-d with H = 1: (N, C, L) -> (N, C, 1, L), params gain a leading (1 or 0).
Tensor as_2d(const Tensor& t, int64_t k) { return k == 1 ? unsqueeze(t, -2) : t; }
IntList as_2d(const IntList& l, int64_t k, int64_t lead) {
  if (k != 1) return l;
  return {lead, l[0]};
}

ConvShape regular_shape(const Shape& x, const Shape& w, const IntList& out, const IntList& st, const IntList& pad,
                        const IntList& dil, int64_t groups) {
  return ConvShape{x[0], x[1], x[2], x[3], w[0], w[2], w[3], out[0], out[1],
                   st[0], st[1], pad[0], pad[1], dil[0], dil[1], groups};
}

}  // namespace

ConvExtents conv_extents(const IntList& in, const IntList& kernel, const IntList& stride, const IntList& padding,
                         const IntList& dilation, const char* op) {
  const size_t k = in.size();
  ConvExtents e{IntList(k), IntList(k), IntList(k)};
  for (size_t i = 0; i < k; ++i) {
    e.padded[i] = checked_add(in[i], checked_mul(2, padding[i], op, "padding"), op, "the padded input");
    e.extent[i] = checked_add(checked_mul(dilation[i], kernel[i] - 1, op, "dilation"), 1, op, "the kernel extent");
    e.fits = e.fits && e.padded[i] >= e.extent[i];
    e.out[i] = e.fits ? (e.padded[i] - e.extent[i]) / stride[i] + 1 : 0;
  }
  return e;
}

ConvAct conv_act_from_name(const std::string& name, const char* op) {
  if (name == "none") return ConvAct::None;
  if (name == "relu") return ConvAct::Relu;
  if (name == "relu6") return ConvAct::Relu6;
  if (name == "hardswish") return ConvAct::Hardswish;
  if (name == "hardsigmoid") return ConvAct::Hardsigmoid;
  fail(ErrorKind::Value, op, "(): unknown activation '", name,
       "' (expected none, relu, relu6, hardswish or hardsigmoid)");
}

Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, const IntList& stride,
                   const IntList& padding, const IntList& dilation, bool transposed,
                   const IntList& output_padding, int64_t groups, const char* op, const ConvInference* inference) {
  TZ_CHECK(!inference || (!transposed && weight.dim() == 4 && input.dim() == 4), Runtime, op,
           "(): a fused epilogue needs a regular 2-d convolution of a batched input");
  const int64_t want = spatial_dims_of(op);
  if (want > 0) {
    TZ_CHECK(input.dim() == want + 1 || input.dim() == want + 2, Runtime, "Expected ", want + 1, "D (unbatched) or ",
             want + 2, "D (batched) input to ", op, ", but got input of size: ", shape_str(input.sizes()));
    TZ_CHECK(weight.dim() == want + 2, Runtime, "expected weight to be ", want + 2, "-dimensional, but got weight of size ",
             shape_str(weight.sizes()));
  }
  const int64_t k = weight.dim() - 2;
  if (k != 1 && k != 2)
    fail(ErrorKind::NotImplemented, op, "(): only 1-d and 2-d convolutions are supported, got weight of size ",
         shape_str(weight.sizes()));
  TZ_CHECK(input.dim() == k + 1 || input.dim() == k + 2, Runtime, "Expected ", k + 1, "D (unbatched) or ", k + 2,
           "D (batched) input to ", op, ", but got input of size: ", shape_str(input.sizes()));
  check_len(stride, k, "stride");
  check_len(padding, k, "padding");
  check_len(dilation, k, "dilation");
  if (transposed) check_len(output_padding, k, "output_padding");
  for (int64_t i = 0; i < k; ++i) {
    TZ_CHECK(stride[i] > 0, Runtime, "non-positive stride is not supported");
    TZ_CHECK(padding[i] >= 0, Runtime, "negative padding is not supported");
    TZ_CHECK(dilation[i] > 0, Runtime, "non-positive dilation is not supported");
    if (transposed) {
      TZ_CHECK(output_padding[i] >= 0, Runtime, "negative output_padding is not supported");
      TZ_CHECK(output_padding[i] < stride[i] || output_padding[i] < dilation[i], Runtime,
               "output padding must be smaller than either stride or dilation, but got output_padding=",
               shape_str(output_padding), ", stride=", shape_str(stride), ", dilation=", shape_str(dilation));
    }
  }
  TZ_CHECK(groups > 0, Runtime, "non-positive groups is not supported");
  const DType ct = compute_dtype(input, weight, bias, op);
  const bool batched = input.dim() == k + 2;
  Tensor x = batched ? input : unsqueeze(input, 0);
  const int64_t w0 = weight.size(0);
  TZ_CHECK(w0 >= groups, Runtime, "Given groups=", groups, ", expected weight to be at least ", groups,
           " at dimension 0, but got weight of size ", shape_str(weight.sizes()), " instead");
  TZ_CHECK(w0 % groups == 0, Runtime, "Given groups=", groups, ", expected weight to be divisible by ", groups,
           " at dimension 0, but got weight of size [", shape_str(weight.sizes()), "] instead");
  const int64_t in_ch = transposed ? w0 : weight.size(1) * groups;
  if (x.size(1) != in_ch) {
    if (transposed)
      fail(ErrorKind::Runtime, "Given transposed=1, weight of size ", shape_str(weight.sizes()), ", expected input",
           shape_str(x.sizes()), " to have ", in_ch, " channels, but got ", x.size(1), " channels instead");
    fail(ErrorKind::Runtime, "Given groups=", groups, ", weight of size ", shape_str(weight.sizes()), ", expected input",
         shape_str(x.sizes()), " to have ", in_ch, " channels, but got ", x.size(1), " channels instead");
  }
  const int64_t out_ch = transposed ? weight.size(1) * groups : w0;
  TZ_CHECK(!bias.defined() || (bias.dim() == 1 && bias.numel() == out_ch), Runtime, "Given weight of size ",
           shape_str(weight.sizes()), ", expected bias to be 1-dimensional with ", out_ch,
           " elements, but got bias of size ", shape_str(bias.defined() ? bias.sizes() : Shape{}), " instead");
  IntList in_sz(x.sizes().begin() + 2, x.sizes().end()), out_sz(k);
  if (!transposed) {
    const ConvExtents e = conv_extents(in_sz, IntList(weight.sizes().begin() + 2, weight.sizes().end()), stride,
                                       padding, dilation, op);
    TZ_CHECK(e.fits, Runtime, "Calculated padded input size per channel: (", join(e.padded, " x "),
             "). Kernel size: (", join(e.extent, " x "), "). Kernel size can't be greater than actual input size");
    out_sz = e.out;
  } else {
    bool ok = true;
    for (int64_t i = 0; i < k; ++i) {
      const int64_t span = checked_mul(in_sz[i] - 1, stride[i], op, "the output size");
      const int64_t extent = checked_mul(dilation[i], weight.size(i + 2) - 1, op, "dilation");
      out_sz[i] = checked_add(checked_add(span - checked_mul(2, padding[i], op, "padding"), extent, op, "the output size"),
                              output_padding[i] + 1, op, "the output size");
      ok = ok && out_sz[i] > 0;
    }
    TZ_CHECK(ok, Runtime, "Given input size per channel: (", join(in_sz, " x "), "). Calculated output size per channel: (",
             join(out_sz, " x "), "). Output size is too small");
  }

  // The 2-d float problem.
  Tensor x4 = to_dtype(as_2d(x, k), ct), w4 = to_dtype(as_2d(weight, k), ct);
  Tensor b = bias.defined() ? to_dtype(bias, ct) : Tensor();
  const IntList st = as_2d(stride, k, 1), pad = as_2d(padding, k, 0), dil = as_2d(dilation, k, 1);
  const IntList out2 = as_2d(out_sz, k, 1);
  const bool nhwc = k == 2 && channels_last(x4, w4);
  Tensor y;
  if (!transposed) {
    IntList used_pad = pad;
    // The kernels skip zero padding rather than multiply by it: with a nan or inf weight the
    // border outputs must still see 0 * w, so pad explicitly. (Winograd multiplies its padding.)
    const bool winograd_weight = inference && inference->winograd_weight.defined();
    if ((pad[0] > 0 || pad[1] > 0) && !winograd_weight && !all_finite(w4)) {
      x4 = contiguous(tz::pad(x4, {pad[1], pad[1], pad[0], pad[0]}), format_of(nhwc));
      used_pad = {0, 0};
    }
    y = forward_4d(x4, w4, b, regular_shape(x4.sizes(), w4.sizes(), out2, st, used_pad, dil, groups), nhwc, inference);
  } else {
    // The regular convolution whose input gradient this is: input (N, out_ch, out2), output x4.
    const Shape reg_in{x4.size(0), out_ch, out2[0], out2[1]};
    const ConvShape s = regular_shape(reg_in, w4.sizes(), {x4.size(2), x4.size(3)}, st, pad, dil, groups);
    y = backward_data_4d(x4, w4, s, nhwc);
    if (b.defined() && y.numel() > 0) add_bias(y, contiguous(b), nhwc);
  }
  if (k == 1) y = squeeze(y, -2);
  if (!batched) y = squeeze(y, 0);
  return to_dtype(y, input.dtype());
}

Tensor conv_backward_weight(const Tensor& input, const Tensor& grad_output, const IntList& weight_size,
                            const IntList& stride, const IntList& padding, const IntList& dilation, int64_t groups) {
  const int64_t k = int64_t(weight_size.size()) - 2;
  TZ_CHECK(k == 1 || k == 2, Runtime, "_conv_backward_weight(): expected a 3 or 4 element weight_size, got ",
           shape_str(weight_size));
  TZ_CHECK(input.dim() == grad_output.dim() && (input.dim() == k + 1 || input.dim() == k + 2), Runtime,
           "_conv_backward_weight(): input ", shape_str(input.sizes()), " and grad_output ",
           shape_str(grad_output.sizes()), " do not match weight_size ", shape_str(weight_size));
  const DType ct = compute_dtype(input, grad_output, Tensor(), "_conv_backward_weight");
  const bool batched = input.dim() == k + 2;
  Tensor x = to_dtype(as_2d(batched ? input : unsqueeze(input, 0), k), ct);
  Tensor gy = to_dtype(as_2d(batched ? grad_output : unsqueeze(grad_output, 0), k), ct);
  const Shape w4 = k == 1 ? Shape{weight_size[0], weight_size[1], 1, weight_size[2]} : Shape(weight_size);
  const ConvShape s = regular_shape(x.sizes(), w4, {gy.size(2), gy.size(3)}, as_2d(stride, k, 1),
                                    as_2d(padding, k, 0), as_2d(dilation, k, 1), groups);
  TZ_CHECK(s.N == gy.size(0) && s.O == gy.size(1) && s.C == s.groups * w4[1], Runtime,
           "_conv_backward_weight(): input ", shape_str(input.sizes()), " and grad_output ",
           shape_str(grad_output.sizes()), " do not match weight_size ", shape_str(weight_size));
  const bool nhwc = k == 2 && channels_last(x, gy);
  Tensor gw = backward_weight_4d(x, gy, s, nhwc);
  if (k == 1) gw = squeeze(gw, 2);
  return to_dtype(gw, input.dtype());
}

// ---------------------------------------------------------------- F.unfold / F.fold

namespace {

std::string pair_str(const IntList& l) { return "(" + join(l, ", ") + ")"; }

void check_fold_params(const char* op, const IntList& kernel, const IntList& dil, const IntList& pad,
                       const IntList& st) {
  const char* names[] = {"kernel_size", "dilation", "padding", "stride"};
  const IntList* lists[] = {&kernel, &dil, &pad, &st};
  for (int i = 0; i < 4; ++i) {
    TZ_CHECK(lists[i]->size() == 2, Runtime, op, "(): expected ", names[i], " to have 2 elements, but got ",
             shape_str(*lists[i]));
    for (int64_t v : *lists[i])
      TZ_CHECK(i == 2 ? v >= 0 : v > 0, Runtime, op, "(): ", names[i], " should be ",
               i == 2 ? "non-negative" : "greater than zero", ", but got ", names[i], "=", pair_str(*lists[i]));
  }
}

// Number of sliding blocks along each spatial dim.
IntList blocks_of(const IntList& size, const IntList& kernel, const IntList& dil, const IntList& pad, const IntList& st) {
  IntList b(2);
  for (int i = 0; i < 2; ++i) {
    const int64_t span = size[i] + 2 * pad[i] - (dil[i] * (kernel[i] - 1) + 1);
    b[i] = span < 0 ? 0 : span / st[i] + 1;
  }
  return b;
}

DType fold_dtype(const Tensor& t, const char* op) {
  if (!is_floating(t.dtype())) fail(ErrorKind::NotImplemented, op, "(): not implemented for '", scalar_type_name(t.dtype()), "'");
  return t.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
}

}  // namespace

Tensor im2col(const Tensor& input, const IntList& kernel_size, const IntList& dilation, const IntList& padding,
              const IntList& stride) {
  check_fold_params("im2col", kernel_size, dilation, padding, stride);
  const bool dims_ok = (input.dim() == 3 || input.dim() == 4) && input.size(-1) > 0 && input.size(-2) > 0 &&
                       input.size(-3) > 0;
  TZ_CHECK(dims_ok, Runtime, "im2col(): Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and "
           "non-zero dimensions for input, but got: ", shape_str(input.sizes()));
  const DType ct = fold_dtype(input, "im2col");
  const bool batched = input.dim() == 4;
  Tensor x = contiguous(to_dtype(batched ? input : unsqueeze(input, 0), ct));
  const IntList size{x.size(2), x.size(3)};
  const IntList blocks = blocks_of(size, kernel_size, dilation, padding, stride);
  TZ_CHECK(blocks[0] > 0 && blocks[1] > 0, Runtime, "Given input with spatial size ", pair_str(size), ", kernel_size=",
           pair_str(kernel_size), ", dilation=", pair_str(dilation), ", padding=", pair_str(padding),
           ", calculated shape of the array of sliding blocks as ", pair_str(blocks),
           ", but its components must be at least one.");
  const ConvShape s = regular_shape(x.sizes(), {1, x.size(1), kernel_size[0], kernel_size[1]}, blocks, stride,
                                    padding, dilation, 1);
  const int64_t rows = s.C * s.KH * s.KW, L = s.OH * s.OW;
  Tensor out = Tensor::empty({s.N, rows, L}, ct);
  for_float(ct, [&](auto tag) {
    using T = decltype(tag);
    const T* xp = x.data<T>();
    T* op = out.data<T>();
    parallel_for(0, s.N, 1, [&](int64_t b, int64_t e) {
      for (int64_t n = b; n < e; ++n) im2col_nchw(xp + n * s.C * s.H * s.W, s.C, s, op + n * rows * L);
    });
  });
  if (!batched) out = squeeze(out, 0);
  return to_dtype(out, input.dtype());
}

Tensor col2im(const Tensor& input, const IntList& output_size, const IntList& kernel_size, const IntList& dilation,
              const IntList& padding, const IntList& stride) {
  TZ_CHECK(output_size.size() == 2, Runtime, "col2im(): expected output_size to have 2 elements, but got ",
           shape_str(output_size));
  check_fold_params("col2im", kernel_size, dilation, padding, stride);
  TZ_CHECK((input.dim() == 2 || input.dim() == 3) && input.size(-1) > 0 && input.size(-2) > 0, Runtime,
           "col2im(): Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
           "dimensions for input, but got: ", shape_str(input.sizes()));
  const DType ct = fold_dtype(input, "col2im");
  const bool batched = input.dim() == 3;
  Tensor x = contiguous(to_dtype(batched ? input : unsqueeze(input, 0), ct));
  const int64_t KK = kernel_size[0] * kernel_size[1];
  TZ_CHECK(x.size(1) % KK == 0, Runtime, "Expected size of input's dimension 1 to be divisible by the product of "
           "kernel_size, but got input.size(1)=", x.size(1), " and kernel_size=", pair_str(kernel_size), ".");
  const IntList blocks = blocks_of(output_size, kernel_size, dilation, padding, stride);
  TZ_CHECK(blocks[0] > 0 && blocks[1] > 0 && x.size(2) == blocks[0] * blocks[1], Runtime, "Given output_size=",
           pair_str(output_size), ", kernel_size=", pair_str(kernel_size), ", dilation=", pair_str(dilation),
           ", padding=", pair_str(padding), ", stride=", pair_str(stride),
           ", expected size of input's dimension 2 to match the calculated number of sliding blocks ", blocks[0],
           " * ", blocks[1], " = ", blocks[0] * blocks[1], ", but got input.size(2)=", x.size(2), ".");
  const int64_t C = x.size(1) / KK;
  const ConvShape s = regular_shape({x.size(0), C, output_size[0], output_size[1]},
                                    {1, C, kernel_size[0], kernel_size[1]}, blocks, stride, padding, dilation, 1);
  Tensor out = zeros({s.N, C, s.H, s.W}, ct);
  for_float(ct, [&](auto tag) {
    using T = decltype(tag);
    const T* xp = x.data<T>();
    T* op = out.data<T>();
    parallel_for(0, s.N, 1, [&](int64_t b, int64_t e) {
      for (int64_t n = b; n < e; ++n) col2im_nchw(xp + n * x.size(1) * x.size(2), C, s, op + n * C * s.H * s.W);
    });
  });
  if (!batched) out = squeeze(out, 0);
  return to_dtype(out, input.dtype());
}

}  // namespace tz
