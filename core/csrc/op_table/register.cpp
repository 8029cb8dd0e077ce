// Registers the core op table when libtensorzoo loads: every family, in one fixed order. The
// order decides which overload the bindings try first and the names of backward nodes
// (MaxBackward0, MaxBackward1...), so it is spelled out here rather than left to link order.
// Extension modules (audio._C, vision._C) add their tables afterwards with OpTableRegistrar.
#include "op_table/util.h"

namespace tz::op_table {
namespace {

struct RegisterCoreTables {
  RegisterCoreTables() {
    for (OpTableRef table : {creation_ops(), views_ops(), elementwise_ops(), random_ops(), indexing_ops(),
                             joining_ops(), reduction_ops(), sorting_ops(), linalg_ops(), conversion_ops(),
                             activation_ops(), conv_ops(), dropout_ops(), fft_ops(), loss_ops(), nn_pool_ops(),
                             norm_ops(), optim_ops(), quantized_ops(), viterbi_ops(), rnn_ops()})
      OpRegistry::get().add(table.defs, table.size);
  }
} register_core_tables;

}  // namespace
}  // namespace tz::op_table
