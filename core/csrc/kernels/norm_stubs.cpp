#include "kernels/norm.h"

namespace tz {
DispatchStub<PlaneMomentsFn> plane_moments_stub("plane_moments");
DispatchStub<PlaneGradSumsFn> plane_grad_sums_stub("plane_grad_sums");
DispatchStub<PlaneAffineFn> plane_affine_stub("plane_affine");
DispatchStub<RowsNormalizeFn> rows_normalize_stub("rows_normalize");
DispatchStub<RowsColumnSumsFn> rows_column_sums_stub("rows_column_sums");
DispatchStub<ClMomentsFn> cl_moments_stub("cl_moments");
DispatchStub<ClGradSumsFn> cl_grad_sums_stub("cl_grad_sums");
DispatchStub<ClAffineFn> cl_affine_stub("cl_affine");
}  // namespace tz
