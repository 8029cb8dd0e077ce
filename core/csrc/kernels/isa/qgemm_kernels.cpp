// The int8 GEMM (kernels/qgemm.h) of the baseline, AVX2 and AVX-512 builds.
#include "kernels/qgemm_body.h"
