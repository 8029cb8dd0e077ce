// The recurrent cells' pointwise part (see kernels/rnn.h), one row of a step at a time, as a few
// simple loops per row that the compiler vectorises: float32 through kernels/vec_math.h's
// polynomial exp and tanh, float64 through the branch-free exp and tanh below (vec_math's
// float64 lanes call libm, which does not vectorise and dominated small cells' steps).
#include <cstdint>
#include <cstring>
#include <utility>

#include "kernels/rnn.h"
#include "kernels/vec_math.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

template <typename T> using Ptr = T* __restrict;
template <typename T> using CPtr = const T* __restrict;

// ---------------------------------------------------------------- float64 exp, tanh, sigmoid

// Horner's rule from the highest coefficient c[N-1] down to c[0], unrolled so that the callers'
// loops vectorise.
template <size_t N, size_t... K>
inline double horner_steps(double z, const double (&c)[N], std::index_sequence<K...>) {
  double p = c[N - 1];
  ((p = p * z + c[N - 2 - K]), ...);
  return p;
}
template <size_t N> inline double horner(double z, const double (&c)[N]) {
  return horner_steps(z, c, std::make_index_sequence<N - 1>());
}

// Taylor coefficients of e^r (1/k!, k = 0..13) and of (e^y - 1) / y (1/(k+1)!, k = 0..19).
constexpr double kExpSeries[] = {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
                                 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600,
                                 1.0 / 6227020800.0};
constexpr double kExpm1Series[] = {1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320,
                                   1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0,
                                   1.0 / 87178291200.0, 1.0 / 1307674368000.0, 1.0 / 20922789888000.0,
                                   1.0 / 355687428096000.0, 1.0 / 6402373705728000.0, 1.0 / 121645100408832000.0,
                                   1.0 / 2432902008176640000.0};

// e^x: x = n ln2 + r (ln2 split so n * ln2_hi is exact), e^r by 14 terms of its series (error
// below 1e-17 for |r| <= ln2/2), times 2^n built in the exponent bits. x is clamped to
// [-708, 709], where e^x is still normal: sigmoid and tanh need nothing beyond.
inline double exp_f64(double x) {
  const double kShift = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  const double xc = x < -708.0 ? -708.0 : (x > 709.0 ? 709.0 : x);
  const double t = xc * 1.4426950408889634 + kShift;
  const double n = t - kShift;
  const double r = (xc - n * 0.6931471803691238) - n * 1.9082149292705877e-10;
  uint64_t tb;
  std::memcpy(&tb, &t, sizeof(tb));
  const int64_t ni = static_cast<int64_t>(tb - 0x4338000000000000ull);  // t's bits minus kShift's: n
  const uint64_t scale_bits = static_cast<uint64_t>(ni + 1023) << 52;
  double scale;
  std::memcpy(&scale, &scale_bits, sizeof(scale));
  return horner(r, kExpSeries) * scale;
}

// tanh(|x|) = m / (m + 2) with m = e^{2|x|} - 1: by its series below 2|x| = 1.25 (full relative
// precision near 0), as e^{2|x|} - 1 above; |x| clamped at 20, where tanh is 1 in float64. One
// division per element (the branches are computed for every lane).
inline double tanh_f64(double x) {
  const double ax = x < 0 ? -x : x;
  const double y = 2.0 * (ax > 20.0 ? 20.0 : ax);  // NaN passes
  const double m = y < 1.25 ? y * horner(y, kExpm1Series) : exp_f64(y) - 1.0;
  const double t = m / (m + 2.0);
  return x < 0 ? -t : t;
}

// 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below (tiny results keep their precision), with
// one division.
inline double sigmoid_f64(double x) {
  const double e = exp_f64(x < 0 ? x : -x);
  const double inv = 1.0 / (1.0 + e);
  return x < 0 ? e * inv : inv;
}

inline float sigmoid_of(float x) { return vm::sigmoid(x); }
inline double sigmoid_of(double x) { return sigmoid_f64(x); }
inline float tanh_of(float x) { return vm::tanh(x); }
inline double tanh_of(double x) { return tanh_f64(x); }

template <typename T> void sigmoid_into(Ptr<T> y, CPtr<T> x, int64_t n) {
  for (int64_t j = 0; j < n; ++j) y[j] = sigmoid_of(x[j]);
}
template <typename T> void tanh_into(Ptr<T> y, CPtr<T> x, int64_t n) {
  for (int64_t j = 0; j < n; ++j) y[j] = tanh_of(x[j]);
}
template <typename T> void sigmoid_in_place(Ptr<T> x, int64_t n) {
  for (int64_t j = 0; j < n; ++j) x[j] = sigmoid_of(x[j]);
}
template <typename T> void tanh_in_place(Ptr<T> x, int64_t n) {
  for (int64_t j = 0; j < n; ++j) x[j] = tanh_of(x[j]);
}

// ---------------------------------------------------------------- forward rows

// The gates are read back through `w` itself: restrict pointers may not alias what they write.
template <typename T> void lstm_row(const RnnLayout& l, CPtr<T> g, Ptr<T> c, Ptr<T> w, Ptr<T> h) {
  const int64_t H = l.hidden;
  sigmoid_into<T>(w, g, 2 * H);  // i, f
  tanh_into<T>(w + 2 * H, g + 2 * H, H);
  sigmoid_into<T>(w + 3 * H, g + 3 * H, H);
  Ptr<T> c_prev = w + l.c_prev;
  Ptr<T> tanh_c = w + l.tanh_c;
  for (int64_t j = 0; j < H; ++j) {
    c_prev[j] = c[j];
    c[j] = w[H + j] * c[j] + w[j] * w[2 * H + j];
  }
  tanh_into<T>(tanh_c, c, H);
  for (int64_t j = 0; j < H; ++j) h[j] = w[3 * H + j] * tanh_c[j];
}

template <typename T> void gru_row(const RnnLayout& l, CPtr<T> gi, CPtr<T> gh, Ptr<T> w, Ptr<T> h) {
  const int64_t H = l.hidden;
  for (int64_t j = 0; j < 2 * H; ++j) w[j] = gi[j] + gh[j];
  sigmoid_in_place<T>(w, 2 * H);  // r, z
  Ptr<T> gh_n = w + l.gh_n;
  for (int64_t j = 0; j < H; ++j) {
    gh_n[j] = gh[2 * H + j];
    w[2 * H + j] = gi[2 * H + j] + w[j] * gh_n[j];
  }
  tanh_in_place<T>(w + 2 * H, H);  // n
  CPtr<T> h_prev = w + l.h_prev;
  for (int64_t j = 0; j < H; ++j) h[j] = w[2 * H + j] + w[H + j] * (h_prev[j] - w[2 * H + j]);
}

template <typename T> void forward_rows(const RnnLayout& l, const RnnStepForward& s, int64_t begin, int64_t end) {
  const int64_t H = l.hidden, G = l.gates, P = l.state, W = l.width;
  const T* pre = static_cast<const T*>(s.pre);
  T* out = static_cast<T*>(s.out);
  T* ws = static_cast<T*>(s.ws);
  for (int64_t r = begin; r < end; ++r) {
    const T* g = pre + r * G;
    T* w = ws + r * W;
    switch (l.mode) {
      case RnnMode::Tanh: tanh_into<T>(out + r * P, g, H); break;
      case RnnMode::Relu: {
        T* h = out + r * P;
        for (int64_t j = 0; j < H; ++j) h[j] = g[j] > T(0) ? g[j] : T(0);
        break;
      }
      case RnnMode::Lstm:
        lstm_row<T>(l, g, static_cast<T*>(s.c) + r * H, w, l.projected ? w + l.unprojected : out + r * P);
        break;
      case RnnMode::Gru: gru_row<T>(l, g, static_cast<const T*>(s.gh) + r * G, w, out + r * P); break;
    }
  }
}

// ---------------------------------------------------------------- backward rows

template <typename T> void lstm_row_grad(const RnnLayout& l, CPtr<T> dh, CPtr<T> w, Ptr<T> dc, Ptr<T> dg) {
  const int64_t H = l.hidden;
  CPtr<T> i = w, f = w + H, g = w + 2 * H, o = w + 3 * H, c_prev = w + l.c_prev, tanh_c = w + l.tanh_c;
  for (int64_t j = 0; j < H; ++j) {
    const T d_c = dc[j] + dh[j] * o[j] * (T(1) - tanh_c[j] * tanh_c[j]);
    dg[j] = d_c * g[j] * i[j] * (T(1) - i[j]);
    dg[H + j] = d_c * c_prev[j] * f[j] * (T(1) - f[j]);
    dg[2 * H + j] = d_c * i[j] * (T(1) - g[j] * g[j]);
    dg[3 * H + j] = dh[j] * tanh_c[j] * o[j] * (T(1) - o[j]);
    dc[j] = d_c * f[j];
  }
}

template <typename T>
void gru_row_grad(const RnnLayout& l, CPtr<T> dh, CPtr<T> w, Ptr<T> dg, Ptr<T> dgh, Ptr<T> dh_prev) {
  const int64_t H = l.hidden;
  CPtr<T> r = w, z = w + H, n = w + 2 * H, gh_n = w + l.gh_n, h_prev = w + l.h_prev;
  for (int64_t j = 0; j < H; ++j) {
    const T dn = dh[j] * (T(1) - z[j]) * (T(1) - n[j] * n[j]);
    const T dr = dn * gh_n[j] * r[j] * (T(1) - r[j]);
    const T dz = dh[j] * (h_prev[j] - n[j]) * z[j] * (T(1) - z[j]);
    dg[j] = dr, dgh[j] = dr;
    dg[H + j] = dz, dgh[H + j] = dz;
    dg[2 * H + j] = dn;
    dgh[2 * H + j] = dn * r[j];
    dh_prev[j] = dh[j] * z[j];
  }
}

template <typename T> void backward_rows(const RnnLayout& l, const RnnStepBackward& s, int64_t begin, int64_t end) {
  const int64_t H = l.hidden, G = l.gates, P = l.state, W = l.width;
  const T* dh_all = static_cast<const T*>(s.dh);
  const T* ws = static_cast<const T*>(s.ws);
  T* d_pre = static_cast<T*>(s.d_pre);
  for (int64_t r = begin; r < end; ++r) {
    const T* dh = dh_all + r * s.dh_rs;
    T* dg = d_pre + r * G;
    switch (l.mode) {
      case RnnMode::Tanh: {
        const T* h = static_cast<const T*>(s.out) + r * P;
        for (int64_t j = 0; j < H; ++j) dg[j] = dh[j] * (T(1) - h[j] * h[j]);
        break;
      }
      case RnnMode::Relu: {
        const T* h = static_cast<const T*>(s.out) + r * P;
        for (int64_t j = 0; j < H; ++j) dg[j] = h[j] > T(0) ? dh[j] : T(0);
        break;
      }
      case RnnMode::Lstm: lstm_row_grad<T>(l, dh, ws + r * W, static_cast<T*>(s.dc) + r * H, dg); break;
      case RnnMode::Gru:
        gru_row_grad<T>(l, dh, ws + r * W, dg, static_cast<T*>(s.d_pre_h) + r * G, static_cast<T*>(s.dh_prev) + r * P);
        break;
    }
  }
}

void cell_forward(DType dtype, const RnnLayout& l, const RnnStepForward& s, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) return forward_rows<double>(l, s, begin, end);
  forward_rows<float>(l, s, begin, end);
}

void cell_backward(DType dtype, const RnnLayout& l, const RnnStepBackward& s, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) return backward_rows<double>(l, s, begin, end);
  backward_rows<float>(l, s, begin, end);
}

}  // namespace

TZ_REGISTER_KERNEL(rnn_cell_forward_stub, &cell_forward);
TZ_REGISTER_KERNEL(rnn_cell_backward_stub, &cell_backward);

}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
