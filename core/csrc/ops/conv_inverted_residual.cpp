#include "ops/conv_inverted_residual.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "iter/thread_pool.h"
#include "kernels/nn_pool.h"
#include "ops/conv.h"
#include "ops/conv_tile.h"
#include "ops/conversion.h"
#include "ops/elementwise.h"
#include "ops/nn_pool.h"
#include "ops/views.h"
#include "tensor/memory_format.h"

namespace tz {

namespace {

constexpr const char* kOp = "_conv2d_inverted_residual";

// A band's expanded rows and depthwise output rows, about: with the band's input and output,
// inside a 512 KiB L2.
constexpr int64_t kScratchBytes = 192 << 10;

void check_1x1(const Tensor& packed, const char* which) {
  TZ_CHECK(packed.size(1) == 1 && packed.size(2) == 1, Runtime, kOp, "(): the ", which,
           " must be a 1x1 convolution, its packed weight is ", packed.size(1), "x", packed.size(2));
}

// The arguments' consistency (x a 4-d float tensor); returns the depthwise output's (OH, OW).
IntList check_arguments(const Tensor& x, const InvertedResidual& b) {
  TZ_CHECK(x.dim() == 4, Runtime, kOp, "(): expected a 4-d (N, C, H, W) input, got shape ", shape_str(x.sizes()));
  const DType dt = x.dtype();
  const int64_t E = b.expanded_channels;
  if (b.expand_weight.defined()) {
    check_prepacked(b.expand_weight, x.size(1), dt, E, kOp);
    check_1x1(b.expand_weight, "expansion");
    TZ_CHECK(x.size(2) > 0 && x.size(3) > 0, Runtime, kOp,  // as _conv2d_prepacked refuses it
             "(): the 1x1 expansion needs an input of at least one row and column, got shape ", shape_str(x.sizes()));
  } else {
    TZ_CHECK(dt == DType::Float32 || dt == DType::Float64, Type, kOp, "(): float32 or float64 input, got ",
             dtype_name(dt));
    TZ_CHECK(E == x.size(1), Runtime, kOp, "(): without an expansion the depthwise convolution reads the input's ",
             x.size(1), " channels, but expanded_channels is ", E);
    TZ_CHECK(!b.expand_bias.defined(), Runtime, kOp, "(): an expansion bias without an expansion weight");
  }
  check_channel_vector(b.expand_bias, E, dt, "an expansion bias", kOp);
  const Tensor& w = b.dw_weight;
  TZ_CHECK(w.dim() == 4 && w.size(0) == E && w.size(1) == 1 && w.dtype() == dt, Runtime, kOp,
           "(): expected a depthwise weight (", E, ", 1, KH, KW) of ", dtype_name(dt), ", got ", dtype_name(w.dtype()),
           " of shape ", shape_str(w.sizes()));
  check_channel_vector(b.dw_bias, E, dt, "a depthwise bias", kOp);
  check_conv_pair(b.stride, "stride", 1, kOp);
  check_conv_pair(b.padding, "padding", 0, kOp);
  check_conv_pair(b.dilation, "dilation", 1, kOp);
  const ConvExtents e = conv_extents({x.size(2), x.size(3)}, {w.size(2), w.size(3)}, b.stride, b.padding,
                                     b.dilation, kOp);
  TZ_CHECK(e.fits, Runtime, kOp, "(): the depthwise kernel (", w.size(2), "x", w.size(3),
           ", dilated) is larger than the padded input ", shape_str(x.sizes()));
  const int64_t P = b.out_channels;
  if (b.project_weight.defined()) {
    check_prepacked(b.project_weight, E, dt, P, kOp, "the depthwise output");
    check_1x1(b.project_weight, "projection");
  } else {
    TZ_CHECK(P == E, Runtime, kOp, "(): without a projection the output has the ", E,
             " depthwise channels, but out_channels is ", P);
    TZ_CHECK(!b.project_bias.defined() && !b.residual.defined(), Runtime, kOp,
             "(): a projection bias or residual without a projection weight");
  }
  check_channel_vector(b.project_bias, P, dt, "a projection bias", kOp);
  check_residual(b.residual, Shape{x.size(0), P, e.out[0], e.out[1]}, dt, kOp);
  const SqueezeExcitation& se = b.excitation;
  if (se.defined()) {
    TZ_CHECK(b.project_weight.defined(), Runtime, kOp, "(): a squeeze-excitation without a projection weight");
    check_prepacked(se.fc1_weight, E, dt, se.squeeze_channels, kOp, "the pooled depthwise output");
    check_1x1(se.fc1_weight, "excitation's first layer");
    check_channel_vector(se.fc1_bias, se.squeeze_channels, dt, "an excitation fc1 bias", kOp);
    TZ_CHECK(se.fc2_weight.defined(), Runtime, kOp, "(): a squeeze-excitation without its second layer's weight");
    check_prepacked(se.fc2_weight, se.squeeze_channels, dt, E, kOp, "the excitation's first layer");
    check_1x1(se.fc2_weight, "excitation's second layer");
    check_channel_vector(se.fc2_bias, E, dt, "an excitation fc2 bias", kOp);
  } else {
    TZ_CHECK(!se.fc1_bias.defined() && !se.fc2_weight.defined() && !se.fc2_bias.defined(), Runtime, kOp,
             "(): an excitation's second layer or bias without its first layer's weight");
  }
  return e.out;
}

// Channels [c0, c0 + channels) of the expanded tensor: whole blocks of the packed expansion
// weight from `block0` (the depthwise kernel reads their weights in place, E apart per tap).
struct ChannelGroup {
  int64_t c0, channels, block0;
};

// How the work is cut for the threads: channel groups x images x row parts per image. Every
// part runs its bands in order with one scratch, which keeps the rows two bands share.
struct Split {
  int64_t groups, parts;
};

// Images spread over the threads where they divide evenly or are many; otherwise channel groups
// (nothing is made twice: an expanded channel feeds only its own depthwise channel) where whole
// blocks share out evenly and nothing needs every channel at once (a projection does; the
// depthwise kernel reads the input's own rows where there is no expansion); and else row parts
// (each makes the rows its first band reads, which the part before it made too).
Split choose_split(int64_t N, int64_t OH, int64_t E, int64_t block, int64_t threads, bool groups_allowed) {
  if (threads == 1 || N % threads == 0 || N >= 4 * threads) return {1, 1};
  const int64_t blocks = (E + block - 1) / block, groups = std::min(threads, blocks);
  const int64_t widest = std::min(E, (blocks + groups - 1) / groups * block);
  if (groups_allowed && groups > 1 && 4 * widest * groups <= 5 * E) return {groups, 1};  // within 1.25x of even
  return {1, std::min(threads, OH)};
}

// The channel groups of a split of E channels, whole blocks of `block` channels each out of
// `blocks` packed blocks of the expansion (1: none).
std::vector<ChannelGroup> channel_groups(const Split& split, int64_t blocks, int64_t E, int64_t block) {
  std::vector<ChannelGroup> groups;
  for (int64_t g = 0; g < split.groups; ++g) {
    const int64_t block0 = blocks * g / split.groups, block1 = blocks * (g + 1) / split.groups;
    const int64_t c0 = split.groups == 1 ? 0 : block0 * block;
    const int64_t channels = split.groups == 1 ? E : std::min(E, block1 * block) - c0;
    groups.push_back({c0, channels, block0});
  }
  return groups;
}

// What every part needs: the geometry, the pointers, and the kernels' arguments, filled in per
// band: the tile kernel's for the expansion and the projection, the depthwise kernel's.
struct Bands {
  ConvShape dw;          // the whole depthwise convolution (its input: the expanded tensor)
  int64_t in_channels;   // the block input's
  int64_t out_channels;  // the output's: the projection's, or the depthwise convolution's
  Split split;
  std::vector<ChannelGroup> groups;
  const char* x;         // NHWC input
  char* y;               // NHWC output
  const char* residual;  // NHWC, like y, or null
  const char* expand_bias;
  const char* dw_weight;  // (KH, KW, E), as the NHWC depthwise kernel reads it
  const char* dw_bias;
  TileConvArgs expand{};   // packed weight (null: no expansion), activation and task order set
  TileConvArgs project{};  // packed weight (null: no projection), bias and task order set
  // The excitation's two layers over one pixel, the channel means (null weight: none).
  TileConvArgs fc1{}, fc2{};
  // Without a projection, where parts hold all of an image's rows: each image's channel means
  // (E apart), the part's channels pooled as it ends, while its output is in cache; null: none.
  char* means = nullptr;
  ConvAct act;
  DType dtype;
  int64_t itemsize, expand_block_bytes = 0;
  // Expanded rows in planes of `lanes` channels with zero columns either side (the depthwise
  // kernel then takes the blocked form, see DepthwiseBlockedArgs); 0: rows of W * g.channels.
  int64_t lanes = 0;

  bool expands() const { return expand.w != nullptr; }
  bool blocked() const { return lanes > 0; }
  int64_t planes(const ChannelGroup& g) const { return (g.channels + lanes - 1) / lanes; }
  int64_t padded_width() const { return dw.W + 2 * dw.pw; }
  // The values of one expanded row in the scratch, and of one plane (`rows` rows).
  int64_t row_values(const ChannelGroup& g) const {
    return blocked() ? padded_width() * planes(g) * lanes : dw.W * g.channels;
  }
  int64_t plane_values(int64_t rows) const { return rows * padded_width() * lanes; }
  bool projects() const { return project.w != nullptr; }
  bool excites() const { return fc1.w != nullptr; }
  // Each band's depthwise rows projected at once; with an excitation, the whole image at the end.
  bool projects_bands() const { return projects() && !excites(); }
  int64_t reach() const { return (dw.KH - 1) * dw.dh + 1; }  // input rows one output row reads
  // The input rows [lo, hi) that output rows [oh0, oh1) read (clipped to the image).
  int64_t first_row(int64_t oh0) const { return std::max<int64_t>(0, oh0 * dw.sh - dw.ph); }
  int64_t end_row(int64_t oh1) const { return std::min(dw.H, (oh1 - 1) * dw.sh - dw.ph + reach()); }
  int64_t expanded_rows(int64_t band) const { return std::min(dw.H, (band - 1) * dw.sh + reach()); }

  // Output rows per band (at most `most`) whose scratch rows fit kScratchBytes, the blocked
  // rows' zero columns not counted: at 7x7 and 5x5 they make a row 11/7 as large, and the bands
  // of one output row that this left cost the expansion a third more (a tile of one pixel in
  // every row) and moved four rows per row made.
  int64_t band_rows(const ChannelGroup& g, int64_t most) const {
    auto bytes = [&](int64_t band) {
      return ((expands() ? expanded_rows(band) * dw.W : 0) + (projects_bands() ? band * dw.OW : 0)) * g.channels *
             itemsize;
    };
    int64_t band = 1;
    while (band < most && bytes(band + 1) <= kScratchBytes) ++band;
    return band;
  }

  // Rows [r0, r1) of image n expanded into dst: rows of W * g.channels values, or blocked, the
  // first row of planes `plane` values apart.
  void expand_rows(const ChannelGroup& g, int64_t n, int64_t r0, int64_t r1, char* dst, int64_t plane) const {
    const int64_t rows = r1 - r0, block = conv_tile_block_stub(dtype);
    TileConvArgs a = expand;
    a.s = ConvShape{1, in_channels, rows, dw.W, g.channels, 1, 1, rows, dw.W, 1, 1, 0, 0, 1, 1, 1};
    a.Hp = rows, a.Wp = dw.W;
    a.x = x + (n * dw.H + r0) * dw.W * in_channels * itemsize;
    a.w = static_cast<const char*>(expand.w) + g.block0 * expand_block_bytes;
    a.bias = expand_bias ? expand_bias + g.c0 * itemsize : nullptr;
    a.y = dst;
    if (blocked()) {  // pixel (oh, ow) at (oh * padded_width + pw + ow) * lanes
      a.y = dst + dw.pw * lanes * itemsize;
      a.y_h = rows, a.y_w = padded_width(), a.y_pixel = lanes, a.y_vector = plane;
    }
    a.group_blocks = std::min(a.group_blocks, (g.channels + block - 1) / block);
    conv_tile_stub(dtype, a, 0, conv_tile_tasks(a.s, block, a.group_blocks));
  }

  // Output rows [oh0, oh1) of the depthwise convolution from its input rows [lo, hi) at `in`
  // (rows of W * g.channels values, or the block input's rows; blocked: planes `plane` values
  // apart), into `out`, pixels E apart.
  void depthwise_rows(const ChannelGroup& g, int64_t oh0, int64_t oh1, int64_t lo, int64_t hi, const char* in,
                      char* out, int64_t plane) const {
    ConvShape s = dw;
    s.N = 1, s.C = s.O = s.groups = g.channels;
    s.H = std::max<int64_t>(0, hi - lo), s.OH = oh1 - oh0;
    s.ph = dw.ph + lo - oh0 * dw.sh;  // >= 0: lo is the first row oh0 reads, or 0
    const char* w = dw_weight + g.c0 * itemsize;
    const char* bias = dw_bias ? dw_bias + g.c0 * itemsize : nullptr;
    if (blocked()) {
      const DepthwiseBlockedArgs a{s, in, plane, w, dw.C, bias, out, dw.O, act};
      dw_fwd_blocked_stub(dtype, a, 0, planes(g));
      return;
    }
    DepthwiseArgs a{s, in, w, bias, out, act};
    a.w_step = dw.C, a.y_step = dw.O;
    dw_fwd_nhwc_stub(dtype, a, 0, s.OH);
  }

  // Output rows [oh0, oh1) of image n: the projection of the depthwise rows at `rows`.
  void project_rows(int64_t n, int64_t oh0, int64_t oh1, const char* rows) const {
    const int64_t count = oh1 - oh0, block = conv_tile_block_stub(dtype);
    const int64_t at = (n * dw.OH + oh0) * dw.OW * out_channels * itemsize;
    TileConvArgs a = project;
    a.s = ConvShape{1, dw.O, count, dw.OW, out_channels, 1, 1, count, dw.OW, 1, 1, 0, 0, 1, 1, 1};
    a.Hp = count, a.Wp = dw.OW;
    a.x = rows, a.y = y + at;
    a.residual = residual ? residual + at : nullptr;
    conv_tile_stub(dtype, a, 0, conv_tile_tasks(a.s, block, a.group_blocks));
  }

  // The image's channel means, its excitation's hidden layer and scale (at `values`, 2E + S of
  // them), and the image's depthwise output times that scale.
  void excite(char* image, char* values) const {
    char* means = values;
    char* hidden = means + dw.O * itemsize;
    char* scale = hidden + fc1.s.O * itemsize;
    channel_means(image, means, 1);
    fully_connected(fc1, means, hidden);
    fully_connected(fc2, hidden, scale);
    conv_channel_scale_stub(dtype, image, scale, dw.OH * dw.OW, dw.O);
  }

  // The means of channels [c0, c0 + channels) of `images` whole depthwise outputs from `image`
  // (every channel: the default) into `means` (E per image).
  void channel_means(const char* image, char* means, int64_t images, int64_t c0 = 0, int64_t channels = -1) const {
    const int64_t zero = 0, rows = dw.OH, columns = dw.OW;
    const double row_div = static_cast<double>(rows), column_div = static_cast<double>(columns);
    const int64_t count = channels < 0 ? dw.O : channels;
    avg_pool_stub(dtype, image + c0 * itemsize, means + c0 * itemsize, PoolGeom{images, dw.OH, dw.OW, count, 1, 1, dw.O},
                  PoolWindows{&zero, &rows, 1, &row_div}, PoolWindows{&zero, &columns, 1, &column_div});
  }

  // One excitation layer (a 1x1 convolution of one pixel) from x into y.
  void fully_connected(TileConvArgs a, const char* x, char* y) const {
    a.x = x, a.y = y;
    conv_tile_stub(dtype, a, 0, conv_tile_tasks(a.s, conv_tile_block_stub(dtype), a.group_blocks));
  }

  // A thread's buffers, kept from part to part: the expanded rows (blocked: zero columns laid
  // out for one group and plane size, which the next part of that layout keeps), the
  // depthwise output rows, and with an excitation the image's and the excitation's values.
  struct Scratch {
    Tensor rows, depthwise, image, excitation;
    const ChannelGroup* zeroed_for = nullptr;
    int64_t zeroed_plane = 0;
  };

  // At least `values` elements in t.
  void reserve(Tensor& t, int64_t values) const {
    if (!t.defined() || t.numel() < values) t = Tensor::empty({values}, dtype);
  }

  // One part: its bands in order. Expanded rows the previous band made and this one reads move
  // to the scratch's start instead of being made again.
  void run(int64_t part, Scratch& scratch) const {
    const ChannelGroup& g = groups[part % split.groups];
    const int64_t n = part / split.groups / split.parts, r = part / split.groups % split.parts;
    const int64_t begin = part_begin(r), end = part_end(r);
    const int64_t band = band_rows(g, std::max<int64_t>(1, end - begin));
    // blocked: every plane holds the band's rows; otherwise the rows hold every channel
    const int64_t plane = blocked() ? plane_values(expanded_rows(band)) : 0, slices = blocked() ? planes(g) : 1;
    const int64_t row_bytes = (blocked() ? padded_width() * lanes : dw.W * g.channels) * itemsize;
    if (projects_bands()) reserve(scratch.depthwise, band * dw.OW * dw.O);
    if (excites()) {
      reserve(scratch.image, dw.OH * dw.OW * dw.O);
      reserve(scratch.excitation, 2 * dw.O + fc1.s.O);
    }
    char* image = excites() ? static_cast<char*>(scratch.image.raw_data()) : nullptr;
    char* s = nullptr;
    if (expands()) {
      const void* before = scratch.rows.defined() ? scratch.rows.raw_data() : nullptr;
      reserve(scratch.rows, expanded_rows(band) * row_values(g));
      s = static_cast<char*>(scratch.rows.raw_data());
      if (blocked() && (s != before || scratch.zeroed_for != &g || scratch.zeroed_plane != plane)) {
        zero_columns(s, slices * expanded_rows(band));
        scratch.zeroed_for = &g, scratch.zeroed_plane = plane;
      }
    }
    int64_t have_lo = 0, have_hi = 0;  // the expanded rows in the scratch
    for (int64_t oh0 = begin; oh0 < end; oh0 += band) {
      const int64_t oh1 = std::min(end, oh0 + band), lo = first_row(oh0), hi = end_row(oh1);
      const char* in = x + (n * dw.H + lo) * dw.W * g.channels * itemsize;  // no expansion: the input's rows
      if (expands()) {
        int64_t from = lo;
        if (lo >= have_lo && lo < have_hi && hi > lo) {
          from = std::min(have_hi, hi);
          for (int64_t i = 0; i < slices; ++i) {
            char* slice = s + i * plane * itemsize;
            std::memmove(slice, slice + (lo - have_lo) * row_bytes, (from - lo) * row_bytes);
          }
        }
        if (hi > from) expand_rows(g, n, from, hi, s + (from - lo) * row_bytes, plane);
        have_lo = lo, have_hi = std::max(lo, hi);
        in = s;
      }
      char* out = excites()          ? image + oh0 * dw.OW * dw.O * itemsize
                  : projects_bands() ? static_cast<char*>(scratch.depthwise.raw_data())
                                     : y + ((n * dw.OH + oh0) * dw.OW * dw.O + g.c0) * itemsize;
      depthwise_rows(g, oh0, oh1, lo, hi, in, out, plane);
      if (projects_bands()) project_rows(n, oh0, oh1, out);
    }
    if (excites()) {  // (a part is a whole image then)
      excite(image, static_cast<char*>(scratch.excitation.raw_data()));
      project_rows(n, 0, dw.OH, image);
    } else if (means) {  // (all the image's rows, and no projection: y holds them)
      channel_means(y + n * dw.OH * dw.OW * dw.O * itemsize, means + n * dw.O * itemsize, 1, g.c0, g.channels);
    }
  }

  // The part's rows [begin, end) of image n (split.parts per image).
  int64_t part_begin(int64_t r) const { return dw.OH * r / split.parts; }
  int64_t part_end(int64_t r) const { return dw.OH * (r + 1) / split.parts; }

  // Every part on the pool, each thread with its scratch.
  void run_parts() const {
    parallel_for(0, split.groups * dw.N * split.parts, 1, [&](int64_t p0, int64_t p1) {
      Scratch scratch;
      for (int64_t p = p0; p < p1; ++p) run(p, scratch);
    });
  }

  // The zero columns either side of `rows` blocked rows from s (the expansion writes only
  // between them).
  void zero_columns(char* s, int64_t rows) const {
    const int64_t edge = dw.pw * lanes * itemsize, row = padded_width() * lanes * itemsize;
    for (int64_t i = 0; i < rows; ++i, s += row) {
      std::memset(s, 0, edge);
      std::memset(s + row - edge, 0, edge);
    }
  }
};

// The tile kernel's arguments for a packed 1x1 weight over (N, H, W) pixels of C channels.
TileConvArgs pointwise_args(const Tensor& packed, int64_t N, int64_t C, int64_t H, int64_t W, int64_t O,
                            const Tensor& bias, ConvAct act) {
  const ConvShape s{N, C, H, W, O, 1, 1, H, W, 1, 1, 0, 0, 1, 1, 1};
  return with_packed_weight(TileConvArgs{s, H, W, nullptr, nullptr, bias.defined() ? bias.raw_data() : nullptr,
                                         nullptr, act},
                            packed);
}

// The block with its excitation where no thread holds a whole image, or an image has fewer
// pixels than the excitation's squeeze channels (its layers' weights, read once per image,
// would cost more than the image's pass through cache saves): every image's depthwise output
// first (each part pooling its channels where it holds all of an image's rows; otherwise the
// threads pool blocks of channels after), the two layers over all images' means at once, then
// each part's rows scaled and projected. The same arithmetic as the separate ops.
void excite_all_images(const Bands& b, const SqueezeExcitation& se, int64_t expand_blocks) {
  const ConvShape& s = b.dw;
  const Tensor depthwise = Tensor::empty({s.N, s.OH, s.OW, s.O}, b.dtype);
  const Tensor means = Tensor::empty({s.N, 1, 1, s.O}, b.dtype);
  Bands head = b;  // shared out as a block without a projection: by channels too
  head.project = head.fc1 = head.fc2 = TileConvArgs{};
  head.out_channels = s.O, head.residual = nullptr;
  const int64_t block = conv_tile_block_stub(b.dtype);
  head.split = choose_split(s.N, s.OH, s.O, block, get_num_threads(), head.expands());
  head.groups = channel_groups(head.split, expand_blocks, s.O, block);
  head.y = static_cast<char*>(depthwise.raw_data());
  char* const mean_values = static_cast<char*>(means.raw_data());
  const bool whole_rows = head.split.parts == 1;  // each part pools its channels of its image
  head.means = whole_rows ? mean_values : nullptr;
  head.run_parts();
  if (!whole_rows) {  // the threads pool blocks of channels (one thread alone: 10 us per 28x28 block)
    const int64_t blocks = (s.O + block - 1) / block;
    parallel_for(0, s.N * blocks, 1, [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t n = t / blocks, c0 = t % blocks * block;
        head.channel_means(head.y + n * s.OH * s.OW * s.O * b.itemsize, mean_values + n * s.O * b.itemsize, 1, c0,
                           std::min(block, s.O - c0));
      }
    });
  }
  const IntList one{1, 1}, none{0, 0};
  const Tensor hidden = conv2d_prepacked(permute(means, {0, 3, 1, 2}), se.fc1_weight, se.fc1_bias,
                                         se.squeeze_channels, one, none, one, se.fc1_act, Tensor());
  const Tensor scale = conv2d_prepacked(hidden, se.fc2_weight, se.fc2_bias, s.O, one, none, one, se.scale_act,
                                        Tensor());  // (N, E, 1, 1) channels-last: E values per image
  const char* scales = static_cast<const char*>(scale.raw_data());
  parallel_for(0, s.N * b.split.parts, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t n = p / b.split.parts, r = p % b.split.parts, begin = b.part_begin(r), end = b.part_end(r);
      char* rows = head.y + (n * s.OH + begin) * s.OW * s.O * b.itemsize;
      conv_channel_scale_stub(b.dtype, rows, scales + n * s.O * b.itemsize, (end - begin) * s.OW, s.O);
      b.project_rows(n, begin, end, rows);
    }
  });
}

}  // namespace

Tensor conv2d_inverted_residual(const Tensor& x_, const InvertedResidual& block) {
  const IntList out = check_arguments(x_, block);
  const DType dt = x_.dtype();
  const int64_t N = x_.size(0), H = x_.size(2), W = x_.size(3), OH = out[0], OW = out[1];
  const int64_t E = block.expanded_channels, P = block.out_channels;
  const int64_t tile_block = conv_tile_block_stub(dt);
  const bool expands = block.expand_weight.defined(), projects = block.project_weight.defined();
  const Split split = choose_split(N, OH, E, tile_block, get_num_threads(), expands && !projects);
  Tensor y = Tensor::empty({N, OH, OW, P}, dt);
  if (y.numel() == 0) return permute(y, {0, 3, 1, 2});  // (no channels: no blocks to share out either)
  const Tensor x = contiguous(x_, MemoryFormat::ChannelsLast);
  const Tensor eb = block.expand_bias.defined() ? contiguous(block.expand_bias) : Tensor();
  const Tensor db = block.dw_bias.defined() ? contiguous(block.dw_bias) : Tensor();
  const Tensor pb = block.project_bias.defined() ? contiguous(block.project_bias) : Tensor();
  const Tensor res = block.residual.defined() ? contiguous(block.residual, MemoryFormat::ChannelsLast) : Tensor();
  const Tensor wt = dw_weight_nhwc(block.dw_weight, E);

  Bands b{};
  b.dw = ConvShape{N, E, H, W, E, block.dw_weight.size(2), block.dw_weight.size(3), OH, OW, block.stride[0],
                   block.stride[1], block.padding[0], block.padding[1], block.dilation[0], block.dilation[1], E};
  b.in_channels = x.size(1), b.out_channels = P, b.dtype = dt, b.itemsize = x.itemsize(), b.act = block.act;
  b.x = static_cast<const char*>(x.raw_data()), b.y = static_cast<char*>(y.raw_data());
  b.residual = res.defined() ? static_cast<const char*>(res.raw_data()) : nullptr;
  b.expand_bias = eb.defined() ? static_cast<const char*>(eb.raw_data()) : nullptr;
  b.dw_weight = static_cast<const char*>(wt.raw_data());
  b.dw_bias = db.defined() ? static_cast<const char*>(db.raw_data()) : nullptr;
  if (expands) {
    b.expand = pointwise_args(block.expand_weight, N, b.in_channels, H, W, E, Tensor(), block.expand_act);
    b.expand_block_bytes = block.expand_weight.numel() / block.expand_weight.size(0) * b.itemsize;
  }
  if (projects)
    b.project = pointwise_args(block.project_weight, N, E, OH, OW, P, pb, ConvAct::None);
  const SqueezeExcitation& se = block.excitation;
  const Tensor fb1 = se.fc1_bias.defined() ? contiguous(se.fc1_bias) : Tensor();
  const Tensor fb2 = se.fc2_bias.defined() ? contiguous(se.fc2_bias) : Tensor();
  if (se.defined()) {
    b.fc1 = pointwise_args(se.fc1_weight, 1, E, 1, 1, se.squeeze_channels, fb1, se.fc1_act);
    b.fc2 = pointwise_args(se.fc2_weight, 1, se.squeeze_channels, 1, 1, E, fb2, se.scale_act);
  }
  // (without an expansion the depthwise kernel reads the block input's own NHWC rows; at 3x3
  // stride 2 the NHWC kernel, its rows unrolled, beats the blocked one: MobileNetV3's 16 -> 64
  // -> 24 block 0.86x, 40 -> 240 -> 80 0.94x with AVX-512, 0.92x and 1.0x with AVX2)
  const bool blocked_wins = !(b.dw.KW == 3 && b.dw.sw == 2);
  if (b.expands() && dw_fixed_form(b.dw) && blocked_wins) b.lanes = dw_blocked_lanes_stub(dt);

  b.split = split;
  const int64_t expand_blocks = expands ? block.expand_weight.size(0) : 1;
  b.groups = channel_groups(split, expand_blocks, E, tile_block);
  // (with an excitation, groups == 1: the projection needs every channel)
  const bool image_by_image = split.parts == 1 && OH * OW >= se.squeeze_channels;
  if (se.defined() && !image_by_image)
    excite_all_images(b, se, expand_blocks);
  else
    b.run_parts();
  return permute(y, {0, 3, 1, 2});
}

}  // namespace tz
