// Discrete Fourier transforms of any length. A plan (cached per length and precision) picks
// the algorithm: a mixed-radix Stockham FFT (radices 8, 4, 2, 3, 5 and any other prime up to
// kMaxDirectRadix as a direct DFT), the four-step split n = n1 * n2 for long smooth lengths,
// and Bluestein's chirp-z convolution for lengths with a larger prime factor. The kernels
// (kernels/isa/fft_kernels.cpp) transform lines of a contiguous (outer, n, inner) layout,
// vectorised across lines (blocks of a vector's lanes) or, for long contiguous real lines,
// along each line (kernels/fft_within_line.h), and batched over the thread pool.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

constexpr int64_t kMaxDirectRadix = 61;     // larger prime factors go through Bluestein
constexpr int64_t kMaxStockhamLength = 4096; // longer smooth lengths use the four-step split
// The four-step twiddle w^(k1 j2) is computed as w^(k1 g) * w^(k1 (j2 - g)) with g = j2 rounded
// down to a multiple of this group (16 floats or 8 doubles: at least every build's vector
// lanes), so every ISA build forms each twiddle from the same two table entries.
template <typename T> constexpr int64_t kFftTwiddleGroup = 64 / sizeof(T);

// One Stockham pass: `radix`-point butterflies over `m` sub-sequences, with the twiddles
// exp(-2 pi i p k / (radix * m)) for p < m, 1 <= k < radix stored as [p][k - 1].
template <typename T> struct FftStage {
  int64_t radix = 0, m = 0;
  std::vector<T> tw_re, tw_im;
  std::vector<T> tw_row_re, tw_row_im;  // the same as [p][k] with 1 at k = 0 (the first stage only)
  std::vector<T> root_re, root_im;  // exp(-2 pi i j / radix) for the direct (odd prime) butterfly
};

// Plans live in a cache for the life of the process, so they refer to each other by pointer.
// Kernel code (kernels/isa) reads them through plain data only: no std:: calls compiled per ISA.
template <typename T> struct FftPlan {
  enum class Kind { Stockham, FourStep, Bluestein } kind = Kind::Stockham;
  int64_t n = 0;
  bool blocked = true;  // runs on blocks of lines held as [n][lanes]; else one line at a time
  // Stockham: the passes, in order.
  std::vector<FftStage<T>> stages;
  // FourStep: n = n1 * n2 with x[j1 n2 + j2]: n2 column transforms of length n1 (sub1, always
  // blocked), a twiddle w^(k1 j2) with w = exp(-2 pi i / n), then n1 row transforms of length n2
  // (sub2) into X[k1 + n1 k2]. Twiddle tables (G = kFftTwiddleGroup): base[(g / G) n1 + k1] =
  // w^(k1 g) for the multiples g of G below n2, fine[k1 G + l] = w^(k1 l) for l < G.
  int64_t n1 = 0, n2 = 0;
  const FftPlan<T>* sub1 = nullptr;
  const FftPlan<T>* sub2 = nullptr;
  std::vector<T> base_re, base_im, fine_re, fine_im;
  // Bluestein: convolution length m (a power of two >= 2n - 1), its plan, the chirp
  // exp(-i pi k^2 / n) for k < n, and the transform of the conjugate chirp divided by m.
  int64_t m = 0;
  const FftPlan<T>* inner = nullptr;
  std::vector<T> chirp_re, chirp_im, kernel_re, kernel_im;
  // exp(-i pi k / n) for k <= n: the twiddles that turn this plan into a real transform of 2n.
  std::vector<T> half_re, half_im;
};

// The cached plan of length n >= 1 (thread-safe; built once, never freed).
template <typename T> const FftPlan<T>& fft_plan(int64_t n);

// A per-thread scratch area of at least `bytes` (slots 0 .. kFftScratchSlots - 1: distinct
// areas), 64-byte aligned; reused across calls on the same thread.
constexpr int kFftScratchSlots = 8;
// The kernels' slots: blocks of lines (per thread), a staging copy of the lines a block
// writes, a long line copied out of a strided array, Bluestein's convolution line, then one
// per nesting depth of the four-step split.
enum FftScratchSlot : int { kFftBlockSlot, kFftStageSlot, kFftLineSlot, kFftBluesteinSlot, kFftFourStepSlot };
void* fft_scratch(int slot, size_t bytes);

// Lines of a contiguous (outer, length, inner) array: line b = o * inner + i starts at
// element o * length * inner + i and steps by inner. Every kernel below reads `in` fully
// for a set of lines before writing them, so in == out (same layout) is allowed for c2c.
// `scale` multiplies every output (the normalisation). dtype: Float32 or Float64, the
// precision of the parts (complex data is interleaved re, im).

// out <- DFT of complex lines of length n (inverse: exp(+2 pi i jk / n)).
using FftC2CFn = void (*)(DType dtype, const void* in, void* out, int64_t n, int64_t outer,
                          int64_t inner, bool inverse, double scale);
// out <- forward DFT of real lines of length n: the first n/2 + 1 bins (onesided) or all n.
using FftR2CFn = void (*)(DType dtype, const void* in, void* out, int64_t n, int64_t outer,
                          int64_t inner, bool onesided, double scale);
// out <- real inverse DFT of length n from the n/2 + 1 bins of a Hermitian spectrum (the
// imaginary parts of bin 0, and of bin n/2 for even n, are ignored).
using FftC2RFn = void (*)(DType dtype, const void* in, void* out, int64_t n, int64_t outer,
                          int64_t inner, double scale);

extern DispatchStub<FftC2CFn> fft_c2c_stub;
extern DispatchStub<FftR2CFn> fft_r2c_stub;
extern DispatchStub<FftC2RFn> fft_c2r_stub;

}  // namespace tz
