// The int8 GEMM (kernels/qgemm.h) with AVX-512 VNNI's vpdpbusd: compiled once, with
// -mavx512vnni, and chosen only where the CPU reports avx512vnni (kernels/dispatch.cpp).
#include "kernels/qgemm_body.h"
