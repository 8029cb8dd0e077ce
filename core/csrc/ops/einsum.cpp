// einsum: parse the equation into labels, take diagonals of repeated labels as views, sum
// labels nobody needs, then contract operands left to right, each pair as one batched GEMM
// (shared labels still needed -> batch dims, shared labels no longer needed -> the GEMM's k).
#include <algorithm>
#include <string>
#include <vector>

#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/linalg.h"
#include "ops/views.h"

namespace tz {

namespace {

constexpr int kLetters = kEinsumLetters;  // 'A'-'Z' are labels 0-25, 'a'-'z' 26-51 (ASCII order)
constexpr int kEllipsis = -1;  // marks "..." in a parsed term

int letter_label(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -2;
}

// A parsed term: letter labels and at most one kEllipsis, in order.
std::vector<int> parse_term(const std::string& eq, size_t begin, size_t end, bool output) {
  std::vector<int> term;
  bool ellipsis = false;
  for (size_t i = begin; i < end; ++i) {
    const char c = eq[i];
    if (c == ' ') continue;
    if (c == '.') {
      TZ_CHECK(!ellipsis, Runtime, "einsum(): found more than one ellipsis (\"...\") in ",
               output ? "the output" : "an input operand");
      TZ_CHECK(i + 2 < end && eq[i + 1] == '.' && eq[i + 2] == '.', Runtime,
               "einsum(): found '.' for ", output ? "output" : "operand",
               " that is not part of any ellipsis (\"...\")");
      ellipsis = true;
      term.push_back(kEllipsis);
      i += 2;
      continue;
    }
    const int label = letter_label(c);
    TZ_CHECK(label >= 0, Runtime, "einsum(): invalid subscript given at index ", i,
             " in the equation string, subscripts must be in [a-zA-Z]");
    term.push_back(label);
  }
  return term;
}

// An operand mid-computation: a tensor whose dims carry distinct labels (ellipsis dims get
// labels kLetters + j, aligned to the right across operands).
struct Labeled {
  Tensor t;
  std::vector<int> labels;
};

// Sums out the dims whose label is not in `keep`, as a matrix-vector product with ones.
Labeled sum_unneeded(const Labeled& x, const std::vector<bool>& keep) {
  IntList perm, kept_shape;
  std::vector<int> kept_labels;
  int64_t kept = 1, summed = 1;
  for (size_t d = 0; d < x.labels.size(); ++d)
    if (keep[x.labels[d]]) {
      perm.push_back(int64_t(d));
      kept_shape.push_back(x.t.size(int64_t(d)));
      kept_labels.push_back(x.labels[d]);
      kept *= x.t.size(int64_t(d));
    }
  if (kept_labels.size() == x.labels.size()) return x;
  for (size_t d = 0; d < x.labels.size(); ++d)
    if (!keep[x.labels[d]]) perm.push_back(int64_t(d)), summed *= x.t.size(int64_t(d));
  Tensor mat = reshape(permute(x.t, perm), {kept, summed});
  Tensor ones_col = ones({summed, 1}, x.t.dtype());
  Tensor sum = gemm_op(Tensor(), mat, ones_col, Scalar(int64_t(1)), Scalar(int64_t(0)), "einsum");
  return {reshape(sum, kept_shape), kept_labels};
}

// Contracts two operands; `needed` marks labels used by the output or a later operand.
Labeled contract(Labeled l, Labeled r, std::vector<bool> needed, int num_labels) {
  std::vector<int> pos_l(num_labels, -1), pos_r(num_labels, -1);
  for (size_t d = 0; d < l.labels.size(); ++d) pos_l[l.labels[d]] = int(d);
  for (size_t d = 0; d < r.labels.size(); ++d) pos_r[r.labels[d]] = int(d);
  // A label only one side has and nobody needs is summed on that side first.
  std::vector<bool> keep_l(needed), keep_r(needed);
  for (int lab = 0; lab < num_labels; ++lab) {
    if (pos_r[lab] >= 0) keep_l[lab] = true;
    if (pos_l[lab] >= 0) keep_r[lab] = true;
  }
  l = sum_unneeded(l, keep_l);
  r = sum_unneeded(r, keep_r);
  std::fill(pos_l.begin(), pos_l.end(), -1);
  std::fill(pos_r.begin(), pos_r.end(), -1);
  for (size_t d = 0; d < l.labels.size(); ++d) pos_l[l.labels[d]] = int(d);
  for (size_t d = 0; d < r.labels.size(); ++d) pos_r[r.labels[d]] = int(d);

  // Shared labels of size 1 on one side broadcast (zero stride) to the other's size.
  Shape ls = l.t.sizes(), lst = l.t.strides(), rs = r.t.sizes(), rst = r.t.strides();
  std::vector<int> batch, sum, left_only, right_only;
  for (int lab = 0; lab < num_labels; ++lab) {
    const int pl = pos_l[lab], pr = pos_r[lab];
    if (pl >= 0 && pr >= 0) {
      if (ls[pl] != rs[pr]) {
        if (ls[pl] == 1) ls[pl] = rs[pr], lst[pl] = 0;
        else rs[pr] = ls[pl], rst[pr] = 0;
      }
      (needed[lab] ? batch : sum).push_back(lab);
    } else if (pl >= 0) {
      left_only.push_back(lab);
    } else if (pr >= 0) {
      right_only.push_back(lab);
    }
  }
  Tensor lt = Tensor::view_of(l.t, ls, lst, l.t.offset());
  Tensor rt = Tensor::view_of(r.t, rs, rst, r.t.offset());
  // l -> [batch..., left_only..., sum...], r -> [batch..., sum..., right_only...]
  IntList perm_l, perm_r, shape_l, shape_r, out_shape;
  int64_t m = 1, n = 1, k = 1;
  for (int lab : batch) {
    perm_l.push_back(pos_l[lab]), perm_r.push_back(pos_r[lab]);
    shape_l.push_back(ls[pos_l[lab]]), shape_r.push_back(ls[pos_l[lab]]);
    out_shape.push_back(ls[pos_l[lab]]);
  }
  for (int lab : left_only) perm_l.push_back(pos_l[lab]), m *= ls[pos_l[lab]], out_shape.push_back(ls[pos_l[lab]]);
  for (int lab : sum) perm_l.push_back(pos_l[lab]), perm_r.push_back(pos_r[lab]), k *= ls[pos_l[lab]];
  for (int lab : right_only) perm_r.push_back(pos_r[lab]), n *= rs[pos_r[lab]], out_shape.push_back(rs[pos_r[lab]]);
  shape_l.push_back(m), shape_l.push_back(k);
  shape_r.push_back(k), shape_r.push_back(n);
  Tensor a = reshape(permute(lt, perm_l), shape_l);
  Tensor b = reshape(permute(rt, perm_r), shape_r);
  Tensor prod = gemm_op(Tensor(), a, b, Scalar(int64_t(1)), Scalar(int64_t(0)), "einsum");
  std::vector<int> labels = batch;
  labels.insert(labels.end(), left_only.begin(), left_only.end());
  labels.insert(labels.end(), right_only.begin(), right_only.end());
  return {reshape(prod, out_shape), labels};
}

}  // namespace

EinsumLabels einsum_labels(const std::string& eq, const std::vector<int64_t>& dims) {
  const size_t arrow = eq.find("->");
  const size_t lhs_end = arrow == std::string::npos ? eq.size() : arrow;

  // Input terms, one per operand.
  std::vector<std::vector<int>> terms;
  for (size_t begin = 0;;) {
    size_t comma = eq.find(',', begin);
    const size_t end = comma == std::string::npos || comma > lhs_end ? lhs_end : comma;
    terms.push_back(parse_term(eq, begin, end, false));
    if (end == lhs_end) break;
    begin = end + 1;
  }
  TZ_CHECK(terms.size() <= dims.size(), Runtime,
           "einsum(): fewer operands were provided than specified in the equation");
  TZ_CHECK(terms.size() >= dims.size(), Runtime,
           "einsum(): more operands were provided than specified in the equation");

  // Ellipsis widths, then each operand's labels per dim.
  int64_t ell_max = 0;
  std::vector<int64_t> ell_dims(dims.size(), 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    const bool has_ell = std::count(terms[i].begin(), terms[i].end(), kEllipsis) > 0;
    const int64_t nsub = int64_t(terms[i].size()) - (has_ell ? 1 : 0);
    const int64_t ndim = dims[i];
    if (has_ell) {
      TZ_CHECK(nsub <= ndim, Runtime, "einsum(): the number of subscripts in the equation (", nsub,
               ") is more than the number of dimensions (", ndim, ") for operand ", i);
      ell_dims[i] = ndim - nsub;
      ell_max = std::max(ell_max, ell_dims[i]);
    } else {
      TZ_CHECK(nsub == ndim, Runtime, "einsum(): the number of subscripts in the equation (", nsub,
               ") does not match the number of dimensions (", ndim, ") for operand ", i,
               " and no ellipsis was given");
    }
  }
  EinsumLabels spec;
  spec.num_labels = kLetters + int(ell_max);
  std::vector<int> label_count(spec.num_labels, 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    std::vector<int> dim_labels;
    for (int lab : terms[i]) {
      if (lab != kEllipsis) {
        dim_labels.push_back(lab);
        continue;
      }
      for (int64_t j = 0; j < ell_dims[i]; ++j) dim_labels.push_back(int(kLetters + ell_max - ell_dims[i] + j));
    }
    for (int lab : dim_labels) label_count[lab]++;
    spec.operands.push_back(std::move(dim_labels));
  }

  // Output labels: explicit, or the ellipsis dims then every letter used once, in ASCII order.
  if (arrow != std::string::npos) {
    for (int lab : parse_term(eq, arrow + 2, eq.size(), true)) {
      if (lab == kEllipsis) {
        for (int j = 0; j < ell_max; ++j) spec.output.push_back(kLetters + j);
        continue;
      }
      TZ_CHECK(label_count[lab] > 0, Runtime, "einsum(): output subscript ", einsum_label_char(lab),
               " does not appear in the equation for any input operand");
      TZ_CHECK(std::find(spec.output.begin(), spec.output.end(), lab) == spec.output.end(), Runtime,
               "einsum(): output subscript ", einsum_label_char(lab), " appears more than once in the output");
      spec.output.push_back(lab);
    }
  } else {
    for (int j = 0; j < ell_max; ++j) spec.output.push_back(kLetters + j);
    // A letter repeated within one term (a trace, "ii") counts as used more than once.
    for (int lab = 0; lab < kLetters; ++lab)
      if (label_count[lab] == 1) spec.output.push_back(lab);
  }
  return spec;
}

Tensor einsum(const std::string& eq, const TensorList& operands) {
  TZ_CHECK(!operands.empty(), Runtime, "einsum(): must provide at least one operand");
  std::vector<int64_t> dims;
  for (const Tensor& t : operands) dims.push_back(t.dim());
  const EinsumLabels spec = einsum_labels(eq, dims);
  for (const Tensor& t : operands) check_scalar_type(operands[0], t);
  const int num_labels = spec.num_labels;
  const int64_t ell_max = num_labels - kLetters;

  std::vector<int64_t> label_size(num_labels, -1);
  std::vector<Labeled> ops;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Tensor& t = operands[i];
    const std::vector<int>& dim_labels = spec.operands[i];
    const int64_t ell_dims = std::count_if(dim_labels.begin(), dim_labels.end(), [](int l) { return l >= kLetters; });
    // Repeated labels take a diagonal: one dim whose stride is the sum of theirs.
    Shape sizes, strides;
    Labeled x;
    for (size_t d = 0; d < dim_labels.size(); ++d) {
      const int lab = dim_labels[d];
      const int64_t size = t.size(int64_t(d)), stride = t.stride(int64_t(d));
      auto seen = std::find(x.labels.begin(), x.labels.end(), lab);
      if (seen != x.labels.end()) {
        const size_t at = size_t(seen - x.labels.begin());
        TZ_CHECK(sizes[at] == size, Runtime, "einsum(): subscript ", einsum_label_char(lab),
                 " is repeated for operand ", i, " but the sizes don't match, ", sizes[at], " != ", size);
        strides[at] += stride;
        continue;
      }
      const int64_t prev = label_size[lab];
      if (lab < kLetters) {
        TZ_CHECK(prev < 0 || prev == size || prev == 1 || size == 1, Runtime, "einsum(): subscript ",
                 einsum_label_char(lab), " has size ", size, " for operand ", i,
                 " which does not broadcast with previously seen size ", prev);
      } else {
        TZ_CHECK(prev < 0 || prev == size || prev == 1 || size == 1, Runtime, "einsum(): dimension ",
                 lab - kLetters - (ell_max - ell_dims), " covered by ellipsis in operand ", i,
                 " has size ", size, " which does not broadcast with previously seen ellipsis with size ",
                 prev, " for the respective dimension");
      }
      if (prev < 0 || prev == 1) label_size[lab] = size;  // size 1 broadcasts to any other
      x.labels.push_back(lab);
      sizes.push_back(size);
      strides.push_back(stride);
    }
    x.t = Tensor::view_of(t, sizes, strides, t.offset());
    ops.push_back(std::move(x));
  }
  const std::vector<int>& out_labels = spec.output;
  std::vector<bool> in_output(num_labels, false);
  for (int lab : out_labels) in_output[lab] = true;

  // Left to right: a label is needed while the output or a later operand uses it.
  Labeled acc = ops[0];
  for (size_t i = 1; i < ops.size(); ++i) {
    std::vector<bool> needed = in_output;
    for (size_t j = i + 1; j < ops.size(); ++j)
      for (int lab : ops[j].labels) needed[lab] = true;
    acc = contract(std::move(acc), ops[i], needed, num_labels);
  }
  acc = sum_unneeded(acc, in_output);

  IntList perm;
  for (int lab : out_labels)
    perm.push_back(int64_t(std::find(acc.labels.begin(), acc.labels.end(), lab) - acc.labels.begin()));
  return permute(acc.t, perm);
}

}  // namespace tz
