// im2col / col2im for the GEMM-based convolutions and F.unfold / F.fold (see kernels/conv.h).
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/conv.h"

namespace tz {
namespace {

// The output rows (columns) whose input row (column) lies inside the image, per kernel row
// (column): worked out once per call, not once per channel (small images made the divisions
// the costliest part of col2im).
struct TapRanges {
  std::vector<ConvRange> rows, cols;
  explicit TapRanges(const ConvShape& s) : rows(s.KH), cols(s.KW) {
    for (int64_t kh = 0; kh < s.KH; ++kh) rows[kh] = conv_valid_range(s.OH, s.H, s.sh, kh * s.dh - s.ph);
    for (int64_t kw = 0; kw < s.KW; ++kw) cols[kw] = conv_valid_range(s.OW, s.W, s.sw, kw * s.dw - s.pw);
  }
};

// col2im_nchw for columns whose positions lie a whole row of them apart (pos_step; the
// transposed layout, rows `row` apart): position by position, reading the columns in memory
// order. Row by row, the gathers of a row's positions (a power of two apart, across pages)
// defeat the prefetchers and wait on memory: DCGAN's 256 -> 128 transposed convolution spent a
// third of its time there (1 thread, AVX2 EPYC: 93.6 -> 70.5 ms for the whole convolution).
template <typename T>
void col2im_by_position(const T* col, int64_t nc, const ConvShape& s, T* x, int64_t row, int64_t pos_step) {
  const int64_t plane = s.H * s.W;
  for (int64_t oh = 0; oh < s.OH; ++oh) {
    const ConvRange rh = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
    for (int64_t ow = 0; ow < s.OW; ++ow) {
      const ConvRange rw = conv_valid_range(s.KW, s.W, s.dw, ow * s.sw - s.pw);
      const T* src = col + (oh * s.OW + ow) * pos_step;
      const int64_t at = (oh * s.sh - s.ph) * s.W + ow * s.sw - s.pw;  // tap (0, 0)'s offset in a plane
      for (int64_t c = 0; c < nc; ++c)
        for (int64_t kh = rh.lo; kh < rh.hi; ++kh) {
          const T* sk = src + ((c * s.KH + kh) * s.KW) * row;
          T* dk = x + c * plane + at + kh * s.dh * s.W + rw.lo * s.dw;
          for (int64_t kw = rw.lo; kw < rw.hi; ++kw) dk[(kw - rw.lo) * s.dw] += sk[kw * row];
        }
    }
  }
}

}  // namespace

template <typename T>
void im2col_nchw(const T* x, int64_t nc, const ConvShape& s, T* col, int64_t row_step) {
  const int64_t plane = s.H * s.W, row = row_step ? row_step : s.OH * s.OW;
  const TapRanges taps(s);
  for (int64_t c = 0; c < nc; ++c)
    for (int64_t kh = 0; kh < s.KH; ++kh)
      for (int64_t kw = 0; kw < s.KW; ++kw) {
        T* dst = col + ((c * s.KH + kh) * s.KW + kw) * row;
        const ConvRange rh = taps.rows[kh], r = taps.cols[kw];
        const int64_t woff = kw * s.dw - s.pw;
        std::fill(dst, dst + rh.lo * s.OW, T(0));
        for (int64_t oh = rh.lo; oh < rh.hi; ++oh) {
          T* d = dst + oh * s.OW;
          const T* src = x + c * plane + (oh * s.sh - s.ph + kh * s.dh) * s.W + woff;
          std::fill(d, d + r.lo, T(0));
          if (s.sw == 1) std::memcpy(d + r.lo, src + r.lo, (r.hi - r.lo) * sizeof(T));
          else for (int64_t ow = r.lo; ow < r.hi; ++ow) d[ow] = src[ow * s.sw];
          std::fill(d + r.hi, d + s.OW, T(0));
        }
        std::fill(dst + rh.hi * s.OW, dst + s.OH * s.OW, T(0));
      }
}

template <typename T>
void col2im_nchw(const T* col, int64_t nc, const ConvShape& s, T* x, int64_t row_step, int64_t pos_step) {
  const int64_t plane = s.H * s.W, row = row_step ? row_step : s.OH * s.OW;
  if (pos_step != 1) return col2im_by_position(col, nc, s, x, row, pos_step);
  const TapRanges taps(s);
  for (int64_t c = 0; c < nc; ++c)
    for (int64_t kh = 0; kh < s.KH; ++kh)
      for (int64_t kw = 0; kw < s.KW; ++kw) {
        const T* src = col + ((c * s.KH + kh) * s.KW + kw) * row;
        const ConvRange rh = taps.rows[kh], r = taps.cols[kw];
        const int64_t woff = kw * s.dw - s.pw;
        for (int64_t oh = rh.lo; oh < rh.hi; ++oh) {
          const T* sr = src + oh * s.OW;
          T* dst = x + c * plane + (oh * s.sh - s.ph + kh * s.dh) * s.W + woff;
          for (int64_t ow = r.lo; ow < r.hi; ++ow) dst[ow * s.sw] += sr[ow];
        }
      }
}

template <typename T>
void im2col_nhwc(const T* x, int64_t nc, const ConvShape& s, T* col) {
  const int64_t row_len = s.KH * s.KW * nc;
  // Where a (pixel, kh) row of taps is one contiguous run of the input (undilated, all
  // channels), interior pixels copy it at once: few channels (the 3-channel stem) would
  // otherwise pay a call and a bounds check per tap.
  const bool runs = s.dw == 1 && nc == s.C;
  const ConvRange inner = conv_valid_range(s.OW, s.W - (s.KW - 1) * s.dw, s.sw, -s.pw);
  for (int64_t oh = 0; oh < s.OH; ++oh)
    for (int64_t ow = 0; ow < s.OW; ++ow) {
      T* dst = col + (oh * s.OW + ow) * row_len;
      const bool interior = runs && ow >= inner.lo && ow < inner.hi;
      for (int64_t kh = 0; kh < s.KH; ++kh) {
        const int64_t ih = oh * s.sh - s.ph + kh * s.dh;
        if (interior && ih >= 0 && ih < s.H) {
          const T* src = x + (ih * s.W + ow * s.sw - s.pw) * s.C;
          std::copy(src, src + s.KW * nc, dst);
          dst += s.KW * nc;
          continue;
        }
        for (int64_t kw = 0; kw < s.KW; ++kw, dst += nc) {
          const int64_t iw = ow * s.sw - s.pw + kw * s.dw;
          if (ih < 0 || ih >= s.H || iw < 0 || iw >= s.W) std::fill(dst, dst + nc, T(0));
          else std::copy(x + (ih * s.W + iw) * s.C, x + (ih * s.W + iw) * s.C + nc, dst);
        }
      }
    }
}

template <typename T>
void col2im_nhwc(const T* col, int64_t nc, const ConvShape& s, T* x) {
  const int64_t row_len = s.KH * s.KW * nc;
  for (int64_t oh = 0; oh < s.OH; ++oh)
    for (int64_t ow = 0; ow < s.OW; ++ow) {
      const T* src = col + (oh * s.OW + ow) * row_len;
      for (int64_t kh = 0; kh < s.KH; ++kh) {
        const int64_t ih = oh * s.sh - s.ph + kh * s.dh;
        for (int64_t kw = 0; kw < s.KW; ++kw, src += nc) {
          const int64_t iw = ow * s.sw - s.pw + kw * s.dw;
          if (ih < 0 || ih >= s.H || iw < 0 || iw >= s.W) continue;
          T* dst = x + (ih * s.W + iw) * s.C;
          for (int64_t c = 0; c < nc; ++c) dst[c] += src[c];
        }
      }
    }
}

#define TZ_INSTANTIATE_IM2COL(T)                                              \
  template void im2col_nchw<T>(const T*, int64_t, const ConvShape&, T*, int64_t); \
  template void col2im_nchw<T>(const T*, int64_t, const ConvShape&, T*, int64_t, int64_t); \
  template void im2col_nhwc<T>(const T*, int64_t, const ConvShape&, T*);     \
  template void col2im_nhwc<T>(const T*, int64_t, const ConvShape&, T*);
TZ_INSTANTIATE_IM2COL(float)
TZ_INSTANTIATE_IM2COL(double)
#undef TZ_INSTANTIATE_IM2COL

}  // namespace tz
