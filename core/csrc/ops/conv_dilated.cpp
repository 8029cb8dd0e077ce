// Dense dilated convolutions as GEMMs over the output regions of constant valid taps
// (see conv_dilated.h).
#include "ops/conv_dilated.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "iter/thread_pool.h"
#include "kernels/gemm.h"
#include "ops/conversion.h"
#include "ops/joining.h"
#include "ops/views.h"
#include "tensor/memory_format.h"

namespace tz {

namespace {

// Gathered input of one block: about this many elements (a few MB), at least this many pixels.
constexpr int64_t kColElements = int64_t(1) << 19;
constexpr int64_t kMinBlockPixels = 128;

// Outputs [lo, hi) of one dim whose in-image taps are exactly [k_lo, k_hi).
struct Segment { int64_t lo, hi, k_lo, k_hi; };

// The segments of [0, out_len): cut wherever a tap starts or stops reading inside the input.
std::vector<Segment> segments_of(int64_t out_len, int64_t in_len, int64_t K, int64_t stride, int64_t pad,
                                 int64_t dil) {
  std::vector<ConvRange> valid(K);
  std::vector<int64_t> cuts{0, out_len};
  for (int64_t k = 0; k < K; ++k) {
    valid[k] = conv_valid_range(out_len, in_len, stride, k * dil - pad);
    cuts.push_back(valid[k].lo);
    cuts.push_back(valid[k].hi);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<Segment> out;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const int64_t a = cuts[i], b = cuts[i + 1];
    int64_t k_lo = K, k_hi = 0;  // the taps valid at a are valid throughout [a, b)
    for (int64_t k = 0; k < K; ++k)
      if (valid[k].lo <= a && a < valid[k].hi) k_lo = std::min(k_lo, k), k_hi = k + 1;
    out.push_back({a, b, k_lo, std::max(k_lo, k_hi)});
  }
  return out;
}

// A block of output rows [oh0, oh1) of one region of image n.
struct Block {
  int64_t n, oh0, oh1;
  const Segment* rows;
  const Segment* cols;
  int64_t pixels() const { return (oh1 - oh0) * (cols->hi - cols->lo); }
};

std::vector<Block> blocks_of(const ConvShape& s, const std::vector<Segment>& hs, const std::vector<Segment>& ws) {
  std::vector<Block> blocks;
  const int64_t taps_row = s.KW * s.C;  // the most a kernel row gathers per pixel
  const int64_t target = std::max(kMinBlockPixels, kColElements / std::max<int64_t>(1, taps_row));
  for (int64_t n = 0; n < s.N; ++n)
    for (const Segment& h : hs)
      for (const Segment& w : ws) {
        const int64_t step = std::max<int64_t>(1, target / (w.hi - w.lo));
        for (int64_t oh = h.lo; oh < h.hi; oh += step) blocks.push_back({n, oh, std::min(h.hi, oh + step), &h, &w});
      }
  return blocks;
}

// The largest block of [begin, end): the size of a task's buffers.
int64_t most_pixels(const std::vector<Block>& blocks, int64_t begin, int64_t end) {
  int64_t most = 0;
  for (int64_t i = begin; i < end; ++i) most = std::max(most, blocks[i].pixels());
  return most;
}


// The block's in-image taps (kh, kw_lo .. kw_hi) of image x gathered for one GEMM:
//   NHWC x: col (pixels x nkw*C), for each pixel the C channels of each tap;
//   NCHW x: col (nkw*C x pixels), for each (tap, channel) a run of input row per output row
//           (stride 1: the runs are contiguous).
template <typename T> void gather(const T* x, const ConvShape& s, const Block& b, int64_t kh, bool nhwc, T* col) {
  const int64_t kw_lo = b.cols->k_lo, nkw = b.cols->k_hi - kw_lo, C = s.C, rw = b.cols->hi - b.cols->lo;
  const int64_t iw0 = b.cols->lo * s.sw + kw_lo * s.dw - s.pw;  // first input column of tap kw_lo
  T* dst = col;
  if (nhwc) {
    for (int64_t oh = b.oh0; oh < b.oh1; ++oh) {
      const T* row = x + ((b.n * s.H + oh * s.sh + kh * s.dh - s.ph) * s.W + iw0) * C;
      for (int64_t p = 0; p < rw; ++p)
        for (int64_t j = 0; j < nkw; ++j, dst += C) std::memcpy(dst, row + (p * s.sw + j * s.dw) * C, C * sizeof(T));
    }
    return;
  }
  for (int64_t j = 0; j < nkw; ++j)
    for (int64_t c = 0; c < C; ++c) {
      const T* plane = x + (b.n * C + c) * s.H * s.W + iw0 + j * s.dw;
      for (int64_t oh = b.oh0; oh < b.oh1; ++oh, dst += rw)
        std::memcpy(dst, plane + (oh * s.sh + kh * s.dh - s.ph) * s.W, rw * sizeof(T));
    }
}

// Runs f(blocks [b, e)) over the pool (or here when nested or single-threaded).
template <typename F> void over_blocks(int64_t count, const F& f) {
  if (count > 1 && get_num_threads() > 1 && !in_parallel_region()) parallel_for(0, count, 1, f);
  else f(0, count);
}

// y = conv(x, wp (O, KH, KW, C)) + bias, x and y both NHWC or both NCHW. A block's sums
// collect in acc: NHWC (pixels x O), NCHW (O x pixels).
template <typename T>
void region_forward(const T* x, const T* wp, const T* bias, T* y, const ConvShape& s, bool nhwc) {
  const auto hs = segments_of(s.OH, s.H, s.KH, s.sh, s.ph, s.dh), ws = segments_of(s.OW, s.W, s.KW, s.sw, s.pw, s.dw);
  const auto blocks = blocks_of(s, hs, ws);
  const int64_t O = s.O, wrow = s.KH * s.KW * s.C;
  over_blocks(int64_t(blocks.size()), [&](int64_t begin, int64_t end) {
    const int64_t most = most_pixels(blocks, begin, end);
    std::unique_ptr<T[]> col(new T[most * s.KW * s.C]), acc(new T[most * O]);
    for (int64_t i = begin; i < end; ++i) {
      const Block& b = blocks[i];
      const int64_t P = b.pixels(), rw = b.cols->hi - b.cols->lo, kc = (b.cols->k_hi - b.cols->k_lo) * s.C;
      if (kc == 0 || b.rows->k_hi == b.rows->k_lo) std::fill(acc.get(), acc.get() + P * O, T(0));
      else
        for (int64_t kh = b.rows->k_lo; kh < b.rows->k_hi; ++kh) {
          gather(x, s, b, kh, nhwc, col.get());
          const T* wk = wp + (kh * s.KW + b.cols->k_lo) * s.C;  // (O x kc), rows wrow apart
          const bool more = kh > b.rows->k_lo;
          if (nhwc) mm<T>(P, O, kc, col.get(), kc, 1, wk, 1, wrow, acc.get(), O, 1, more);
          else mm<T>(O, P, kc, wk, wrow, 1, col.get(), P, 1, acc.get(), P, 1, more);
        }
      for (int64_t r = 0; r < b.oh1 - b.oh0; ++r) {
        const int64_t pixel = (b.n * s.OH + b.oh0 + r) * s.OW + b.cols->lo;  // NHWC index of the row's first output
        if (nhwc) {
          T* dst = y + pixel * O;
          const T* src = acc.get() + r * rw * O;
          if (!bias) std::memcpy(dst, src, rw * O * sizeof(T));
          else
            for (int64_t p = 0; p < rw; ++p)
              for (int64_t o = 0; o < O; ++o) dst[p * O + o] = src[p * O + o] + bias[o];
          continue;
        }
        for (int64_t o = 0; o < O; ++o) {
          T* dst = y + ((b.n * O + o) * s.OH + b.oh0 + r) * s.OW + b.cols->lo;
          const T* src = acc.get() + o * P + r * rw;
          const T add = bias ? bias[o] : T(0);
          for (int64_t p = 0; p < rw; ++p) dst[p] = src[p] + add;
        }
      }
    }
  });
}

// gw (O, KH, KW, C) = the weight gradient from x and gy (both NHWC or both NCHW), summed
// over fixed chunks of blocks (one per thread) in chunk order.
template <typename T> void region_backward_weight(const T* x, const T* gy, T* gw, const ConvShape& s, bool nhwc) {
  const auto hs = segments_of(s.OH, s.H, s.KH, s.sh, s.ph, s.dh), ws = segments_of(s.OW, s.W, s.KW, s.sw, s.pw, s.dw);
  const auto blocks = blocks_of(s, hs, ws);
  const int64_t O = s.O, wrow = s.KH * s.KW * s.C, len = O * wrow, count = int64_t(blocks.size());
  const int64_t chunks = get_num_threads() > 1 && !in_parallel_region() ? std::min<int64_t>(get_num_threads(), count) : 1;
  std::fill(gw, gw + len, T(0));
  std::vector<T> partial(std::max<int64_t>(0, chunks - 1) * len, T(0));
  auto run_chunk = [&](int64_t c) {
    T* out = c == 0 ? gw : partial.data() + (c - 1) * len;
    const int64_t begin = c * count / chunks, end = (c + 1) * count / chunks;
    const int64_t most = most_pixels(blocks, begin, end);
    std::unique_ptr<T[]> col(new T[most * s.KW * s.C]), g(new T[most * O]);
    for (int64_t i = begin; i < end; ++i) {
      const Block& b = blocks[i];
      const int64_t P = b.pixels(), rw = b.cols->hi - b.cols->lo, kc = (b.cols->k_hi - b.cols->k_lo) * s.C;
      if (kc == 0) continue;
      // the block's output gradient as one matrix: NHWC (P x O), NCHW (O x P)
      for (int64_t r = 0; r < b.oh1 - b.oh0; ++r) {
        const int64_t pixel = (b.n * s.OH + b.oh0 + r) * s.OW + b.cols->lo;
        if (nhwc) std::memcpy(g.get() + r * rw * O, gy + pixel * O, rw * O * sizeof(T));
        else
          for (int64_t o = 0; o < O; ++o)
            std::memcpy(g.get() + o * P + r * rw, gy + ((b.n * O + o) * s.OH + b.oh0 + r) * s.OW + b.cols->lo,
                        rw * sizeof(T));
      }
      for (int64_t kh = b.rows->k_lo; kh < b.rows->k_hi; ++kh) {
        gather(x, s, b, kh, nhwc, col.get());
        T* gk = out + (kh * s.KW + b.cols->k_lo) * s.C;  // (O x kc), rows wrow apart
        if (nhwc) mm<T>(O, kc, P, g.get(), 1, O, col.get(), kc, 1, gk, wrow, 1, true);
        else mm<T>(O, kc, P, g.get(), P, 1, col.get(), 1, P, gk, wrow, 1, true);
      }
    }
  };
  if (chunks == 1) run_chunk(0);
  else parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) { for (int64_t c = b; c < e; ++c) run_chunk(c); });
  for (int64_t c = 1; c < chunks; ++c) {
    const T* src = partial.data() + (c - 1) * len;
    for (int64_t i = 0; i < len; ++i) gw[i] += src[i];
  }
}

template <typename F> void for_float(DType dt, const F& f) {
  if (dt == DType::Float64) f(double{});
  else f(float{});
}

MemoryFormat format_of(bool nhwc) { return nhwc ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous; }

// The forward problem with the weight already packed (O, KH, KW, C).
Tensor forward_packed(const Tensor& x_, const Tensor& wp, const Tensor& bias, const ConvShape& s, bool nhwc) {
  Tensor x = contiguous(x_, format_of(nhwc));
  Tensor y = empty_with_format({s.N, s.O, s.OH, s.OW}, x.dtype(), format_of(nhwc), "conv");
  for_float(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    region_forward<T>(x.data<T>(), wp.data<T>(), bias.defined() ? bias.data<T>() : nullptr, y.data<T>(), s, nhwc);
  });
  return y;
}

}  // namespace

bool uses_dilated_gemm(const ConvShape& s) {
  return s.groups == 1 && (s.dh > 1 || s.dw > 1) && s.sh == 1 && s.sw == 1;
}

bool dilated_gemm_has_data_grad(const ConvShape& s) {
  return uses_dilated_gemm(s) && s.ph <= s.dh * (s.KH - 1) && s.pw <= s.dw * (s.KW - 1);
}

Tensor dilated_conv_forward(const Tensor& x, const Tensor& w, const Tensor& bias, const ConvShape& s, bool nhwc) {
  Tensor wp = contiguous(permute(w, {0, 2, 3, 1}));
  return forward_packed(x, wp, bias.defined() ? contiguous(bias) : Tensor(), s, nhwc);
}

Tensor dilated_conv_backward_data(const Tensor& gy, const Tensor& w, const ConvShape& s, bool nhwc) {
  // gx[c, i] = sum over taps k of w[o, c, k] gy[o, i + p - k d]: the convolution of gy by
  // w'[c, o, K-1-k] with padding d (K-1) - p, packed (C, KH, KW, O).
  Tensor wp = contiguous(permute(flip(w, {2, 3}), {1, 2, 3, 0}));
  const ConvShape t{s.N, s.O, s.OH, s.OW, s.C, s.KH, s.KW, s.H, s.W, 1, 1,
                    s.dh * (s.KH - 1) - s.ph, s.dw * (s.KW - 1) - s.pw, s.dh, s.dw, 1};
  return forward_packed(gy, wp, Tensor(), t, nhwc);
}

Tensor dilated_conv_backward_weight(const Tensor& x_, const Tensor& gy_, const ConvShape& s, bool nhwc) {
  Tensor x = contiguous(x_, format_of(nhwc)), gy = contiguous(gy_, format_of(nhwc));
  Tensor gw = Tensor::empty({s.O, s.KH, s.KW, s.C}, x.dtype());
  for_float(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    region_backward_weight<T>(x.data<T>(), gy.data<T>(), gw.data<T>(), s, nhwc);
  });
  Tensor out = permute(gw, {0, 3, 1, 2});  // (O, C, KH, KW) with channels-last memory
  return nhwc ? out : contiguous(out);
}

}  // namespace tz
