#include "ops/conv_expand_depthwise.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "iter/thread_pool.h"
#include "ops/conv.h"
#include "ops/conv_tile.h"
#include "ops/conversion.h"
#include "ops/views.h"
#include "tensor/memory_format.h"

namespace tz {

namespace {

// The expanded rows a band reads, about: with the band's input and output, inside a 512 KiB L2.
constexpr int64_t kScratchBytes = 192 << 10;

void check_pair(const IntList& v, const char* what, int64_t least, const char* op) {
  TZ_CHECK(v.size() == 2, Runtime, op, "(): ", what, " takes two values, got ", v.size());
  TZ_CHECK(v[0] >= least && v[1] >= least, Runtime, op, "(): ", what, " must be at least ", least, ", got [", v[0],
           ", ", v[1], "]");
}

void check_channel_vector(const Tensor& b, int64_t channels, DType dt, const char* what, const char* op) {
  if (!b.defined()) return;
  TZ_CHECK(b.dim() == 1 && b.size(0) == channels && b.dtype() == dt, Runtime, op, "(): expected ", what, " of ",
           channels, " ", dtype_name(dt), " values, got ", dtype_name(b.dtype()), " of shape ", shape_str(b.sizes()));
}

// Channels [c0, c0 + channels) of the expanded tensor: whole blocks of the packed expansion
// weight from `block0`, and their depthwise weight as the NHWC kernel reads it.
struct ChannelGroup {
  int64_t c0, channels, block0;
  Tensor dw_weight;
};

// How the work is cut for the threads: channel groups x images x row parts per image. Every
// part runs its bands in order with one scratch, which keeps the rows two bands share.
struct Split {
  int64_t groups, parts;
};

// Images spread over the threads where they divide evenly or are many; otherwise channel groups
// (nothing is made twice: an expanded channel feeds only its own depthwise channel) where whole
// blocks share out evenly, and else row parts (each makes the rows its first band reads, which
// the part before it made too).
Split choose_split(int64_t N, int64_t OH, int64_t E, int64_t block, int64_t threads) {
  if (threads == 1 || N % threads == 0 || N >= 4 * threads) return {1, 1};
  const int64_t blocks = (E + block - 1) / block, groups = std::min(threads, blocks);
  const int64_t widest = std::min(E, (blocks + groups - 1) / groups * block);
  if (groups > 1 && 4 * widest * groups <= 5 * E) return {groups, 1};  // the widest within 1.25x of an even share
  return {1, std::min(threads, OH)};
}

// What every part needs: the geometry, the pointers, and the kernels' arguments (the tile
// kernel's for the expansion, the depthwise kernel's), filled in per band.
struct Bands {
  ConvShape dw;          // the whole depthwise convolution (its input: the expanded tensor)
  int64_t in_channels;   // the expansion's input channels
  Split split;
  std::vector<ChannelGroup> groups;
  const char* x;         // NHWC input
  char* y;               // NHWC output
  const char* expand_bias;
  const char* dw_bias;
  TileConvArgs expand;   // packed weight, activation and task order set
  ConvAct act;
  DType dtype;
  int64_t itemsize, block_bytes;

  int64_t reach() const { return (dw.KH - 1) * dw.dh + 1; }  // input rows one output row reads
  // The input rows [lo, hi) that output rows [oh0, oh1) read (clipped to the image).
  int64_t first_row(int64_t oh0) const { return std::max<int64_t>(0, oh0 * dw.sh - dw.ph); }
  int64_t end_row(int64_t oh1) const { return std::min(dw.H, (oh1 - 1) * dw.sh - dw.ph + reach()); }

  // Rows [r0, r1) of image n expanded into dst (rows of W * g.channels values).
  void expand_rows(const ChannelGroup& g, int64_t n, int64_t r0, int64_t r1, char* dst) const {
    const int64_t rows = r1 - r0, block = conv_tile_block_stub(dtype);
    TileConvArgs a = expand;
    a.s = ConvShape{1, in_channels, rows, dw.W, g.channels, 1, 1, rows, dw.W, 1, 1, 0, 0, 1, 1, 1};
    a.Hp = rows, a.Wp = dw.W;
    a.x = x + (n * dw.H + r0) * dw.W * in_channels * itemsize;
    a.w = static_cast<const char*>(expand.w) + g.block0 * block_bytes;
    a.bias = expand_bias ? expand_bias + g.c0 * itemsize : nullptr;
    a.y = dst;
    a.group_blocks = std::min(a.group_blocks, (g.channels + block - 1) / block);
    conv_tile_stub(dtype, a, 0, conv_tile_tasks(a.s, block, a.group_blocks));
  }

  // Output rows [oh0, oh1) of image n from the expanded rows [lo, hi) at scratch.
  void depthwise_rows(const ChannelGroup& g, int64_t n, int64_t oh0, int64_t oh1, int64_t lo, int64_t hi,
                      const char* scratch) const {
    DepthwiseArgs a{dw, scratch, g.dw_weight.raw_data(), dw_bias ? dw_bias + g.c0 * itemsize : nullptr,
                    y + ((n * dw.OH + oh0) * dw.OW * dw.O + g.c0) * itemsize, act};
    a.s.N = 1, a.s.C = a.s.O = a.s.groups = g.channels;
    a.s.H = std::max<int64_t>(0, hi - lo), a.s.OH = oh1 - oh0;
    a.s.ph = dw.ph + lo - oh0 * dw.sh;  // >= 0: lo is the first row oh0 reads, or 0
    a.y_step = dw.O;
    dw_fwd_nhwc_stub(dtype, a, 0, oh1 - oh0);
  }

  // One part: its bands in order, one scratch. Rows the previous band made and this one reads
  // move to the scratch's start instead of being made again.
  void run(int64_t part) const {
    const ChannelGroup& g = groups[part % split.groups];
    const int64_t n = part / split.groups / split.parts, r = part / split.groups % split.parts;
    const int64_t begin = dw.OH * r / split.parts, end = dw.OH * (r + 1) / split.parts;
    const int64_t row_bytes = dw.W * g.channels * itemsize;
    const int64_t fit = (kScratchBytes / row_bytes - reach()) / dw.sh + 1;  // output rows per band
    const int64_t band = std::clamp<int64_t>(fit, 1, std::max<int64_t>(1, end - begin));
    const int64_t cap = std::min(dw.H, (band - 1) * dw.sh + reach());
    Tensor scratch = Tensor::empty({std::max<int64_t>(1, cap * dw.W * g.channels)}, dtype);
    char* s = static_cast<char*>(scratch.raw_data());
    int64_t have_lo = 0, have_hi = 0;  // the expanded rows in the scratch
    for (int64_t oh0 = begin; oh0 < end; oh0 += band) {
      const int64_t oh1 = std::min(end, oh0 + band), lo = first_row(oh0), hi = end_row(oh1);
      int64_t from = lo;
      if (lo >= have_lo && lo < have_hi && hi > lo) {
        from = std::min(have_hi, hi);
        std::memmove(s, s + (lo - have_lo) * row_bytes, (from - lo) * row_bytes);
      }
      if (hi > from) expand_rows(g, n, from, hi, s + (from - lo) * row_bytes);
      depthwise_rows(g, n, oh0, oh1, lo, hi, s);
      have_lo = lo, have_hi = std::max(lo, hi);
    }
  }
};

}  // namespace

Tensor conv2d_expand_depthwise(const Tensor& x_, const Tensor& expand_packed, const Tensor& expand_bias,
                               int64_t expanded_channels, ConvAct expand_act, const Tensor& dw_weight,
                               const Tensor& dw_bias, const IntList& stride, const IntList& padding,
                               const IntList& dilation, ConvAct act) {
  const char* op = "_conv2d_expand_depthwise";
  check_prepacked(x_, expand_packed, expanded_channels, op);
  TZ_CHECK(expand_packed.size(1) == 1 && expand_packed.size(2) == 1, Runtime, op,
           "(): the expansion must be a 1x1 convolution, its packed weight is ", expand_packed.size(1), "x",
           expand_packed.size(2));
  const DType dt = x_.dtype();
  const int64_t E = expanded_channels;
  check_channel_vector(expand_bias, E, dt, "an expansion bias", op);
  TZ_CHECK(dw_weight.dim() == 4 && dw_weight.size(0) == E && dw_weight.size(1) == 1 && dw_weight.dtype() == dt,
           Runtime, op, "(): expected a depthwise weight (", E, ", 1, KH, KW) of ", dtype_name(dt), ", got ",
           dtype_name(dw_weight.dtype()), " of shape ", shape_str(dw_weight.sizes()));
  check_channel_vector(dw_bias, E, dt, "a depthwise bias", op);
  check_pair(stride, "stride", 1, op);
  check_pair(padding, "padding", 0, op);
  check_pair(dilation, "dilation", 1, op);
  const int64_t N = x_.size(0), H = x_.size(2), W = x_.size(3), KH = dw_weight.size(2), KW = dw_weight.size(3);
  const ConvExtents e = conv_extents({H, W}, {KH, KW}, stride, padding, dilation, op);
  TZ_CHECK(e.fits, Runtime, op, "(): the depthwise kernel (", KH, "x", KW, ", dilated) is larger than the padded input ",
           shape_str(x_.sizes()));
  const int64_t OH = e.out[0], OW = e.out[1];
  Tensor y = Tensor::empty({N, OH, OW, E}, dt);
  if (N == 0 || OH == 0 || OW == 0) return permute(y, {0, 3, 1, 2});
  const Tensor x = contiguous(x_, MemoryFormat::ChannelsLast);
  const Tensor eb = expand_bias.defined() ? contiguous(expand_bias) : Tensor();
  const Tensor wt = dw_weight_nhwc(dw_weight, E), db = dw_bias.defined() ? contiguous(dw_bias) : Tensor();

  const int64_t block = conv_tile_block_stub(dt), threads = get_num_threads();
  Bands b;
  b.dw = ConvShape{N, E, H, W, E, KH, KW, OH, OW, stride[0], stride[1], padding[0], padding[1], dilation[0],
                   dilation[1], E};
  b.in_channels = x.size(1), b.dtype = dt, b.itemsize = x.itemsize(), b.act = act;
  b.block_bytes = expand_packed.numel() / expand_packed.size(0) * b.itemsize;
  b.x = static_cast<const char*>(x.raw_data()), b.y = static_cast<char*>(y.raw_data());
  b.expand_bias = eb.defined() ? static_cast<const char*>(eb.raw_data()) : nullptr;
  b.dw_bias = db.defined() ? static_cast<const char*>(db.raw_data()) : nullptr;
  const ConvShape pointwise{N, b.in_channels, H, W, E, 1, 1, H, W, 1, 1, 0, 0, 1, 1, 1};  // (the task order's)
  b.expand = with_packed_weight(TileConvArgs{pointwise, H, W, nullptr, nullptr, nullptr, nullptr, expand_act},
                                expand_packed);
  b.split = choose_split(N, OH, E, block, threads);
  const int64_t blocks = expand_packed.size(0);
  for (int64_t g = 0; g < b.split.groups; ++g) {
    const int64_t block0 = blocks * g / b.split.groups, block1 = blocks * (g + 1) / b.split.groups;
    const int64_t c0 = block0 * block, channels = std::min(E, block1 * block) - c0;
    b.groups.push_back({c0, channels, block0, b.split.groups == 1 ? wt : contiguous(narrow(wt, 3, c0, channels))});
  }
  parallel_for(0, b.split.groups * N * b.split.parts, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) b.run(p);
  });
  return permute(y, {0, 3, 1, 2});
}

}  // namespace tz
