#include "kernels/dropout.h"

namespace tz {
DispatchStub<DropoutKernel> dropout_stub("dropout");
}  // namespace tz
