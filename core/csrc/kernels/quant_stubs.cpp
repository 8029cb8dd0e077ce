// The dispatch stubs of the quantized kernels (kernels/quant.h, kernels/qgemm.h), and the
// packing of int8 GEMM weights (plain C++: it runs once per weight).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "kernels/qgemm.h"
#include "kernels/quant.h"

namespace tz {

DispatchStub<QuantizeFn> quantize_stub("quantize");
DispatchStub<DequantizeFn> dequantize_stub("dequantize");
DispatchStub<FakeQuantFn> fake_quant_stub("fake_quantize");
DispatchStub<QBinaryFn> qbinary_stub("quantized binary op");
DispatchStub<QMaxByteFn> qmax_byte_stub("quantized max byte");
DispatchStub<QLookupFn> qlookup_stub("quantized lookup");
DispatchStub<QClampFn> qclamp_stub("quantized clamp");
DispatchStub<QAvgPoolFn> qadaptive_avg_pool_stub("quantized adaptive_avg_pool2d");
DispatchStub<QDepthwiseFn> qconv_depthwise_stub("quantized depthwise conv2d");
DispatchStub<QGemmFn> qgemm_stub("quantized gemm");

void qgemm_pack(const int8_t* b, int64_t ldb, int64_t N, int64_t K, int8_t* packed, int32_t* colsum,
                int32_t* pair_max) {
  const int64_t K4 = round_up4(K), blocks = (N + kQGemmBlock - 1) / kQGemmBlock;
  std::memset(packed, 0, static_cast<size_t>(blocks * K4 * kQGemmBlock));
  int32_t pmax = 0;
  for (int64_t n = 0; n < N; ++n) {
    int8_t* block = packed + (n / kQGemmBlock) * K4 * kQGemmBlock + (n % kQGemmBlock) * 4;
    int32_t sum = 0;
    for (int64_t k = 0; k < K; ++k) {
      const int8_t v = b[n * ldb + k];
      block[(k / 4) * 4 * kQGemmBlock + k % 4] = v;
      sum += v;
    }
    for (int64_t k = 0; k < K; k += 2) {  // vpmaddubsw's pairs (k, k + 1): their same-sign magnitudes
      const int32_t v0 = b[n * ldb + k], v1 = k + 1 < K ? b[n * ldb + k + 1] : 0;
      pmax = std::max({pmax, std::max(v0, 0) + std::max(v1, 0), std::max(-v0, 0) + std::max(-v1, 0)});
    }
    colsum[n] = sum;
  }
  *pair_max = pmax;
}

}  // namespace tz
