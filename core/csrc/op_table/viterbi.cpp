// Op-table entry of the quadratic-transition Viterbi pass (ops/viterbi.h): the dynamic
// programme of audio.functional.compute_kaldi_pitch, not differentiable.
#include "op_table/util.h"
#include "ops/viterbi.h"

namespace tz {
namespace {

using namespace op_table;

const OpDef kViterbiOps[] = {
    {"_viterbi_quadratic(Tensor local_cost, Tensor initial_cost, float transition_cost) -> (Tensor backpointers, Tensor final_cost)",
     kFunction, N::Custom,
     OP { auto r = viterbi_quadratic(a[0].tensor(), a[1].tensor(), a[2].to_double()); return Value::Tuple{r.first, r.second}; },
     "", "", not_differentiable},
};

}  // namespace

OpTableRef op_table::viterbi_ops() { return kViterbiOps; }

}  // namespace tz
