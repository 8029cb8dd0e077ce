#include "ops/name_inference.h"

#include <algorithm>
#include <numeric>

#include "ops/linalg.h"
#include "tensor/errors.h"
#include "tensor/names.h"

namespace tz {

namespace {

const std::string& base_name(const Op& op) { return op.schema.name; }

bool is_inplace(const Op& op) {
  const std::string& n = base_name(op);
  return !n.empty() && n.back() == '_' && n.front() != '_';
}

[[noreturn]] void unsupported(const Op& op) {
  fail(ErrorKind::Runtime, "aten::", base_name(op), " is not yet supported with named tensors. Please drop names via "
       "`tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set names on the result of the operation.");
}

// The tensor arguments, Tensor[] elements included, in order.
TensorList tensor_args(const Stack& args) {
  TensorList out;
  for (const Value& v : args) {
    if (v.is_tensor()) out.push_back(v.tensor());
    else if (v.holds<TensorList>())
      for (const Tensor& t : v.tensor_list())
        if (t.defined()) out.push_back(t);
  }
  return out;
}

// The result's tensors (one, a Tensor[] or the tensors of a tuple).
TensorList result_tensors(const Value& result) {
  if (result.is_tensor()) return {result.tensor()};
  if (result.holds<TensorList>()) return result.tensor_list();
  TensorList out;
  if (result.is_tuple())
    for (const Value& v : result.tuple())
      if (v.is_tensor()) out.push_back(v.tensor());
  return out;
}

const Value* arg_named(const Op& op, const Stack& args, const char* name) {
  for (size_t i = 0; i < op.schema.args.size(); ++i)
    if (op.schema.args[i].name == name) return &args[i];
  return nullptr;
}

DimNames unify_all(const TensorList& tensors) {
  DimNames out;
  for (const Tensor& t : tensors) out = unify_from_right(out, names_of(t));
  return out;
}

// Reductions, select, unbind: the dims named by `dim` go unless keepdim.
DimNames reduce_names(const Op& op, const Stack& args, const Tensor& self) {
  DimNames names = names_of(self);
  const Value* keepdim = arg_named(op, args, "keepdim");
  if (keepdim && keepdim->holds<bool>() && keepdim->to_bool()) return names;
  const Value* dim = arg_named(op, args, "dim");
  if (!dim || dim->is_none()) return {};  // a full reduction
  IntList dims = dim->holds<IntList>() ? dim->int_list() : IntList{dim->to_int()};
  if (dims.empty()) return {};            // sum(dim=[]) reduces every dim
  std::vector<bool> drop(names.size(), false);
  for (int64_t d : dims) drop[wrap_dim(d, self.dim(), base_name(op).c_str())] = true;
  DimNames out;
  for (size_t i = 0; i < names.size(); ++i)
    if (!drop[i]) out.push_back(names[i]);
  return out;
}

// Permutations: out dim i is input dim perm[i].
std::vector<int64_t> permutation(const Op& op, const Stack& args, int64_t ndim) {
  std::vector<int64_t> perm(ndim);
  std::iota(perm.begin(), perm.end(), 0);
  const char* op_name = base_name(op).c_str();
  if (const Value* dims = arg_named(op, args, "dims")) {
    perm = dims->int_list();
    for (auto& d : perm) d = wrap_dim(d, ndim, op_name);
  } else if (const Value* source = arg_named(op, args, "source")) {
    IntList src = source->int_list(), dst = arg_named(op, args, "destination")->int_list();
    std::vector<int64_t> out(ndim, -1);
    std::vector<bool> used(ndim, false);
    for (size_t k = 0; k < src.size() && k < dst.size(); ++k) {
      int64_t s = wrap_dim(src[k], ndim, op_name), d = wrap_dim(dst[k], ndim, op_name);
      out[d] = s, used[s] = true;
    }
    int64_t next = 0;
    for (auto& o : out) {
      if (o >= 0) continue;
      while (used[next]) ++next;
      o = next++;
    }
    perm = out;
  } else if (op.schema.args.size() >= 3) {  // transpose / swapaxes / swapdims
    int64_t a = wrap_dim(args[1].to_int(), ndim, op_name), b = wrap_dim(args[2].to_int(), ndim, op_name);
    std::swap(perm[a], perm[b]);
  } else {  // t()
    std::reverse(perm.begin(), perm.end());
  }
  return perm;
}

void check_contracted(const Op& op, const Tensor& a, int64_t da, const Tensor& b, int64_t db) {
  auto x = names_of(a)[da], y = names_of(b)[db];
  TZ_CHECK(!x || !y || x == y, Runtime, base_name(op), ": contracted dims do not match: dim ", a.dim() ? "'" : "",
           x.value_or(""), "' of ", tensor_names_repr(a), " and dim '", y.value_or(""), "' of ", tensor_names_repr(b),
           ". Rename one with `Tensor.rename` if they are meant to be contracted together.");
}

// The names of a @ b (matmul's broadcasting rules), checking the contracted pair.
DimNames matmul_names(const Op& op, const Tensor& a, const Tensor& b) {
  DimNames na = names_of(a), nb = names_of(b);
  check_contracted(op, a, a.dim() - 1, b, b.dim() >= 2 ? b.dim() - 2 : 0);
  DimNames batch_a(na.begin(), na.end() - std::min<int64_t>(a.dim(), 2));
  DimNames batch_b(nb.begin(), nb.end() - std::min<int64_t>(b.dim(), 2));
  DimNames out = unify_from_right(batch_a, batch_b);
  if (a.dim() >= 2) out.push_back(na[a.dim() - 2]);
  if (b.dim() >= 2) out.push_back(nb[b.dim() - 1]);
  return out;
}

DimNames contract_names(const Op& op, const Stack& args) {
  std::string name = base_name(op);
  if (name.back() == '_') name.pop_back();
  const TensorList t = tensor_args(args);
  if (name == "matmul" || name == "mm" || name == "bmm" || name == "mv" || name == "dot" || name == "vdot")
    return matmul_names(op, t.at(0), t.at(1));
  if (name == "addmm" || name == "addmv" || name == "baddbmm")
    return unify_from_right(names_of(t.at(0)), matmul_names(op, t.at(1), t.at(2)));
  if (name == "tensordot") {  // every contracted pair checked; the free dims keep their names
    const Tensor &a = t.at(0), &b = t.at(1);
    IntList da = args[2].int_list(), db = args[3].int_list();
    std::vector<bool> gone_a(a.dim(), false), gone_b(b.dim(), false);
    for (size_t k = 0; k < da.size() && k < db.size(); ++k) {
      int64_t x = wrap_dim(da[k], a.dim(), "tensordot"), y = wrap_dim(db[k], b.dim(), "tensordot");
      check_contracted(op, a, x, b, y);
      gone_a[x] = gone_b[y] = true;
    }
    DimNames out, na = names_of(a), nb = names_of(b);
    for (int64_t d = 0; d < a.dim(); ++d)
      if (!gone_a[d]) out.push_back(na[d]);
    for (int64_t d = 0; d < b.dim(); ++d)
      if (!gone_b[d]) out.push_back(nb[d]);
    return out;
  }
  if (name == "addbmm") {
    DimNames batched = matmul_names(op, t.at(1), t.at(2));
    return unify_from_right(names_of(t.at(0)), DimNames(batched.begin() + 1, batched.end()));
  }
  unsupported(op);
}

// Layers on (N, C, spatial...) inputs: convolutions, pooling, upsampling and the channel norms.
bool is_layer(const std::string& name) {
  for (const char* prefix : {"conv", "_conv", "max_pool", "avg_pool", "adaptive_", "upsample_", "_upsample", "native_batch_norm",
                             "native_group_norm"})
    if (name.rfind(prefix, 0) == 0 && name.find("backward") == std::string::npos) return true;
  return false;
}

// A layer's input may name its batch dim 'N' and its channel dim 'C', but not put them elsewhere.
void check_layer_input(const Op& op, const Tensor& input) {
  const std::string& name = base_name(op);
  const int64_t ndim = input.dim();
  const int64_t channel = name.find("1d") != std::string::npos ? ndim - 2
                          : name.find("2d") != std::string::npos ? ndim - 3 : 1;
  const DimNames names = names_of(input);
  for (int64_t d = 0; d < ndim; ++d) {
    const bool bad_c = names[d] == "C" && d != channel, bad_n = names[d] == "N" && (channel != 1 || d != 0);
    TZ_CHECK(!bad_c && !bad_n, Runtime, name, ": expected the ", bad_c ? "channel dim 'C' at dim " : "batch dim 'N' at dim ",
             bad_c ? channel : 0, " of the input (N, C, spatial dims...), but ", tensor_names_repr(input), " has it at dim ",
             d, ". Reorder the input with align_to(...) or rename its dims.");
  }
}

// numpy's atleast_{1,2,3}d: a 0-d tensor gets unnamed dims; atleast_2d puts a 1-d tensor's dim
// last, atleast_3d puts a 1-d tensor's dim in the middle and a 2-d tensor's first two dims first.
DimNames atleast_names(const Tensor& t, int64_t ndim) {
  DimNames in = names_of(t);
  if (t.dim() >= ndim) return in;
  if (t.dim() == 0) return DimNames(ndim);
  if (ndim == 2) return {std::nullopt, in[0]};
  if (t.dim() == 1) return {std::nullopt, in[0], std::nullopt};
  return {in[0], in[1], std::nullopt};
}

// hstack, vstack, dstack, column_stack: cat of the inputs brought to a common rank.
DimNames stack_np_names(const std::string& name, const TensorList& inputs) {
  DimNames out;
  for (const Tensor& t : inputs) {
    DimNames n = name == "hstack"   ? atleast_names(t, 1)
                 : name == "vstack" ? atleast_names(t, 2)
                 : name == "dstack" ? atleast_names(t, 3)
                 : t.dim() >= 2     ? names_of(t)  // column_stack: 0-d and 1-d inputs become columns
                                    : DimNames{t.dim() ? names_of(t)[0] : std::nullopt, std::nullopt};
    out = unify_from_right(out, n);
  }
  return out;
}

// einsum: the operand dims sharing a label must agree where named (as contracted dims do);
// each output dim takes its label's name.
DimNames einsum_names(const Op& op, const std::string& equation, const TensorList& operands) {
  std::vector<int64_t> dims;
  for (const Tensor& t : operands) dims.push_back(t.dim());
  const EinsumLabels spec = einsum_labels(equation, dims);
  std::vector<std::optional<std::pair<size_t, int64_t>>> first(spec.num_labels);  // operand, dim
  std::vector<std::optional<std::string>> label_name(spec.num_labels);
  for (size_t i = 0; i < operands.size(); ++i) {
    const DimNames names = names_of(operands[i]);
    for (int64_t d = 0; d < operands[i].dim(); ++d) {
      const int label = spec.operands[i][d];
      if (!names[d]) continue;
      if (first[label]) check_contracted(op, operands[first[label]->first], first[label]->second, operands[i], d);
      else first[label] = std::make_pair(i, d), label_name[label] = names[d];
    }
  }
  DimNames out;
  for (int label : spec.output) out.push_back(label_name[label]);
  return out;
}

// Entries whose rule is Custom: the ops with a rule of their own.
DimNames custom_names(const Op& op, const Stack& args, const Tensor& result, size_t index) {
  const std::string& name = base_name(op);
  const TensorList inputs = tensor_args(args);
  const Tensor& self = inputs.at(0);
  DimNames in = names_of(self);
  if (name == "cat" || name == "concat") return unify_all(inputs);
  if (name == "stack") {  // the new dim is unnamed
    DimNames out = unify_all(inputs);
    out.insert(out.begin() + wrap_dim(args[1].to_int(), self.dim() + 1, "stack"), std::nullopt);
    return out;
  }
  if (name == "outer" || name == "ger") return {in.at(0), names_of(inputs.at(1)).at(0)};
  if (name == "squeeze") {
    const Value* dim = arg_named(op, args, "dim");
    DimNames out;
    for (int64_t i = 0; i < self.dim(); ++i) {
      bool squeezed = self.size(i) == 1 && (!dim || wrap_dim(dim->to_int(), self.dim(), "squeeze") == i);
      if (!squeezed) out.push_back(in[i]);
    }
    return out;
  }
  if (name == "unsqueeze") {
    int64_t d = wrap_dim(args[1].to_int(), self.dim() + 1, "unsqueeze");
    in.insert(in.begin() + d, std::nullopt);
    return in;
  }
  if (name == "flatten" || name == "unflatten") {
    // The positional forms: untouched dims keep their names, new dims are unnamed.
    int64_t first = wrap_dim(args[1].to_int(), std::max<int64_t>(self.dim(), 1), name.c_str());
    int64_t last = name == "flatten" ? wrap_dim(args[2].to_int(), std::max<int64_t>(self.dim(), 1), "flatten") : first;
    if (self.dim() == 0) return {};
    DimNames out(in.begin(), in.begin() + first);
    out.resize(out.size() + (name == "flatten" ? 1 : args[2].int_list().size()));
    out.insert(out.end(), in.begin() + last + 1, in.end());
    return out;
  }
  if (name == "hstack" || name == "vstack" || name == "dstack" || name == "column_stack")
    return stack_np_names(name, inputs);
  if (name == "atleast_1d" || name == "atleast_2d" || name == "atleast_3d")
    return atleast_names(inputs.at(index), name[8] - '0');  // the Sequence forms: one result per input
  if (name == "broadcast_tensors") {  // names checked to unify; each result is its input expanded (PyTorch)
    unify_all(inputs);
    DimNames out(result.dim() - inputs.at(index).dim());
    const DimNames own = names_of(inputs.at(index));
    out.insert(out.end(), own.begin(), own.end());
    return out;
  }
  if (name == "meshgrid") {  // result dim i is input i's dim ('xy' swaps the first two)
    DimNames out;
    for (const Tensor& t : inputs) out.push_back(t.dim() ? names_of(t)[0] : std::nullopt);
    if (args[1].str() == "xy" && out.size() >= 2) std::swap(out[0], out[1]);
    return out;
  }
  if (name == "embedding") {  // the indices' dims, then an unnamed embedding dim
    DimNames out = names_of(inputs.at(1));
    out.push_back(std::nullopt);
    return out;
  }
  if (name == "one_hot" || name == "unfold" || name == "view_as_real") {  // an appended unnamed dim (classes; window; re/im)
    in.push_back(std::nullopt);
    return in;
  }
  if (name == "diag_embed") {
    // The embedded last dim becomes the pair (dim1, dim2): the first keeps its name.
    const int64_t n = self.dim() + 1;
    int64_t d1 = wrap_dim(args[2].to_int(), n, "diag_embed"), d2 = wrap_dim(args[3].to_int(), n, "diag_embed");
    auto last = in.empty() ? std::nullopt : in.back();
    if (!in.empty()) in.pop_back();
    in.insert(in.begin() + std::min(d1, d2), std::min(d1, d2) == d1 ? last : std::nullopt);
    in.insert(in.begin() + std::max(d1, d2), std::min(d1, d2) == d1 ? std::nullopt : last);
    return in;
  }
  if (name == "diagonal") {  // dim1 and dim2 go; the diagonal is a new unnamed last dim
    int64_t d1 = wrap_dim(args[2].to_int(), self.dim(), "diagonal"), d2 = wrap_dim(args[3].to_int(), self.dim(), "diagonal");
    DimNames out;
    for (int64_t d = 0; d < self.dim(); ++d)
      if (d != d1 && d != d2) out.push_back(in[d]);
    out.push_back(std::nullopt);
    return out;
  }
  if (name == "view_as_complex") {  // the (re, im) pair goes
    in.pop_back();
    return in;
  }
  if (name == "diag") return DimNames(result.dim());  // vector <-> matrix: no dim keeps its meaning
  if (name == "rot90") {  // an odd number of quarter turns swaps the two dims
    IntList dims = args[2].int_list();
    if (((args[1].to_int() % 4) + 4) % 2 == 1 && dims.size() == 2)
      std::swap(in[wrap_dim(dims[0], self.dim(), "rot90")], in[wrap_dim(dims[1], self.dim(), "rot90")]);
    return in;
  }
  if (name == "repeat_interleave") {  // along a dim: names kept; flattened (dim=None): unnamed
    return arg_named(op, args, "dim")->is_none() ? DimNames(result.dim()) : in;
  }
  if (name == "take") return names_of(inputs.at(1));  // the result has the index's shape
  if (name == "masked_select") {  // self and mask broadcast (names checked); a flat unnamed result
    unify_all(inputs);
    return DimNames(result.dim());
  }
  if (name == "multinomial") {  // the batch dim keeps its name; the samples dim is unnamed
    DimNames out(result.dim());
    if (self.dim() == 2) out[0] = in[0];
    return out;
  }
  if (name == "grid_sampler" || name == "grid_sampler_2d") {  // (N, C) of the input, (H, W) of the grid
    DimNames grid = names_of(inputs.at(1));
    return {in.at(0), in.at(1), grid.at(1), grid.at(2)};
  }
  if (name == "affine_grid_generator") return {in.at(0), std::nullopt, std::nullopt, std::nullopt};
  if (name == "_im2col" || name == "_col2im") {  // F.unfold / F.fold: the batch dim keeps its name
    DimNames out(result.dim());
    if (self.dim() == result.dim() + (name == "_im2col" ? 1 : -1) && !out.empty()) out[0] = in.at(0);
    return out;
  }
  if (name == "_ctc_loss_backward") return names_of(inputs.at(1));  // the gradient of log_probs
  if (name == "grid_sampler_2d_backward") return names_of(inputs.at(1 + index));  // of input, of grid
  if (name == "_split_backward") {  // the pieces' names; an unbind's gradient gets its dim back unnamed
    DimNames out = unify_all(inputs);
    if (!args[4].to_bool()) out.insert(out.begin() + wrap_dim(args[2].to_int(), result.dim(), "split"), std::nullopt);
    return out;
  }
  if (name == "_viterbi_quadratic") {  // (frames, states) backpointers; the last frame's (states) cost
    if (index == 0) return in;
    return unify_from_right(DimNames(in.end() - std::min<int64_t>(self.dim(), 1), in.end()), names_of(inputs.at(1)));
  }
  if (name == "einsum") return einsum_names(op, args[0].str(), inputs);
  if (name == "_ctc_loss") {  // (T, N, C) log-probs: the losses keep N; log_alpha is (N, T, S)
    DimNames out(result.dim());
    if (self.dim() == 3 && result.dim() >= 1) out[0] = in[1];
    return out;
  }
  if (is_layer(name)) return in;  // convolutions: the output's dims mean what the input's do
  const bool loss = (name.size() > 5 && name.compare(name.size() - 5, 5, "_loss") == 0) ||
                    name.rfind("binary_cross_entropy", 0) == 0 || name == "_nll_loss_forward";
  if (loss) {
    // Losses: a reduced loss (and nll's total weight) is 0-dim; reduction='none' keeps the
    // elementwise names (nll drops the class dim of its input).
    if (result.dim() == 0) return {};
    if (name != "_nll_loss_forward") return unify_all(inputs);
    in.erase(in.begin() + (self.dim() == 1 ? 0 : 1));
    return unify_from_right(in, names_of(inputs.at(1)));
  }
  if (name == "expand" || name == "expand_as" || name == "broadcast_to" || name == "repeat" || name == "tile") {
    // New leading dims are unnamed; repeat/tile keep the names of the dims they repeat.
    DimNames out(result.dim() - self.dim());
    out.insert(out.end(), in.begin(), in.end());
    return out;
  }
  unsupported(op);
}

DimNames inferred_names(const Op& op, const Stack& args, const Tensor& result, size_t index) {
  const TensorList inputs = tensor_args(args);
  switch (op.def.names) {
    case NameRule::Keep: return names_of(inputs.at(0));
    case NameRule::Unify: return unify_all(inputs);
    case NameRule::Reduce: return reduce_names(op, args, inputs.at(0));
    case NameRule::Permute: {
      DimNames in = names_of(inputs.at(0)), out;
      for (int64_t d : permutation(op, args, inputs.at(0).dim())) out.push_back(in.at(d));
      return out;
    }
    case NameRule::Contract: return contract_names(op, args);
    case NameRule::Custom: return custom_names(op, args, result, index);
    case NameRule::Factory:
    case NameRule::None: return {};
    case NameRule::Unsupported: unsupported(op);
  }
  return {};
}

}  // namespace

bool any_named(const Stack& args) {
  for (const Value& v : args) {
    if (v.is_tensor()) {
      if (v.tensor().has_names()) return true;
    } else if (v.holds<TensorList>()) {
      for (const Tensor& t : v.tensor_list())
        if (t.defined() && t.has_names()) return true;
    }
  }
  return false;
}

void check_names_before(const Op& op, const Stack& args) {
  if (op.def.names == NameRule::Unsupported) unsupported(op);
  if (is_layer(base_name(op)) && args.at(0).is_tensor()) check_layer_input(op, args[0].tensor());
  if (op.def.names != NameRule::Unify && op.def.names != NameRule::Contract) return;
  DimNames names = op.def.names == NameRule::Unify ? unify_all(tensor_args(args)) : contract_names(op, args);
  if (!is_inplace(op)) return;
  const Tensor& self = args.at(0).tensor();
  TZ_CHECK(!self.has_names() || names_of(self) == names, Runtime, "Name mismatch: specified out tensor with names ",
           names_repr(names_of(self)), " are not the same as the computed output names ", names_repr(names),
           ". Please rename the out tensor's dims with `Tensor.rename`.");
}

TensorList propagate_names(const Op& op, const Stack& args, const Value& result) {
  if (op.def.names == NameRule::None || op.def.names == NameRule::Factory) return {};
  TensorList outputs = result_tensors(result);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    // Keep: auxiliary outputs of another rank (batch-norm statistics...) stay unnamed.
    if (op.def.names == NameRule::Keep && &out != &outputs.front() && out.dim() != tensor_args(args).at(0).dim()) continue;
    DimNames names = inferred_names(op, args, out, i);
    if (names.empty() && out.dim() == 0) continue;
    TZ_CHECK(static_cast<int64_t>(names.size()) == out.dim(), Runtime, "aten::", base_name(op),
             ": name inference gave ", names_repr(names), " for a result of ", out.dim(),
             " dims; it is not yet supported with named tensors");
    set_names(out, &names);
  }
  return outputs;
}

}  // namespace tz
