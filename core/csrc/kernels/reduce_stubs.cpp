// The reduction dispatch stubs; kernels/isa/reduce_kernels.cpp fills them in.
#include "kernels/reduce.h"

namespace tz {
DispatchStub<ReduceOutputsFn> reduce_outputs_stub("reduce_outputs");
DispatchStub<ReduceChunksFn> reduce_chunks_stub("reduce_chunks");
DispatchStub<ReduceFinishFn> reduce_finish_stub("reduce_finish");
DispatchStub<ReduceColumnsFn> reduce_columns_stub("reduce_columns");
DispatchStub<ArgReduceOutputsFn> arg_reduce_outputs_stub("arg_reduce_outputs");
DispatchStub<ArgReduceChunksFn> arg_reduce_chunks_stub("arg_reduce_chunks");
DispatchStub<ArgReduceFinishFn> arg_reduce_finish_stub("arg_reduce_finish");
DispatchStub<ArgReduceColumnsFn> arg_reduce_columns_stub("arg_reduce_columns");
}  // namespace tz
