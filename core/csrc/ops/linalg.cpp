#include "ops/linalg.h"

#include <algorithm>

#include "kernels/gemm.h"
#include "ops/conversion.h"
#include "ops/elementwise.h"
#include "ops/promotion.h"
#include "ops/views.h"

namespace tz {

namespace {

// The C++ type names PyTorch prints in its matmul dtype messages ("float != double").
const char* cpp_type_name(DType t) {
  static constexpr const char* names[kNumDTypes] = {
      "bool", "unsigned char", "signed char", "short int", "int", "long int", "c10::Half",
      "c10::BFloat16", "float", "double", "c10::complex<float>", "c10::complex<double>", "c10::quint8", "c10::qint8",
      "c10::qint32"};
  return names[static_cast<int>(t)];
}

void check_supported(DType t, const char* op) {
  TZ_CHECK(t != DType::Bool && !is_quantized(t), NotImplemented, "\"", op,
           "\" not implemented for '", scalar_type_name(t), "'");
}

bool is_zero(const Scalar& s) { return s.to_complex128() == complex128(0); }

// For BLAS dtypes, a copy when the trailing matrix has no unit stride BLAS can use.
Tensor blas_ready(const Tensor& t) {
  if (!is_blas_dtype(t.dtype()) || t.dim() < 2) return t;
  if (blas_layout_ok(t.size(-2), t.size(-1), t.stride(-2), t.stride(-1))) return t;
  return contiguous(t);
}

Shape shape_cat(Shape a, const Shape& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

IntList to_list(const Shape& s) { return IntList(s.begin(), s.end()); }

void check_mm_shapes(const Tensor& m1, const Tensor& m2) {
  TZ_CHECK(m1.size(1) == m2.size(0), Runtime, "mat1 and mat2 shapes cannot be multiplied (",
           m1.size(0), "x", m1.size(1), " and ", m2.size(0), "x", m2.size(1), ")");
}

void check_mm_dtypes(const Tensor& m1, const Tensor& m2) {
  TZ_CHECK(m1.dtype() == m2.dtype(), Runtime, "expected m1 and m2 to have the same dtype, but got: ",
           cpp_type_name(m1.dtype()), " != ", cpp_type_name(m2.dtype()));
}

void check_bmm_shapes(const Tensor& b1, const Tensor& b2) {
  TZ_CHECK(b2.size(0) == b1.size(0) && b2.size(1) == b1.size(2), Runtime,
           "Expected size for first two dimensions of batch2 tensor to be: [", b1.size(0), ", ",
           b1.size(2), "] but got: [", b2.size(0), ", ", b2.size(1), "].");
}

void check_3d(const Tensor& t, const char* name) {
  TZ_CHECK(t.dim() == 3, Runtime, name, " must be a 3D tensor");
}

void check_batch_dtypes(const Tensor& self, const Tensor& b1, const Tensor& b2) {
  TZ_CHECK(self.dtype() == b1.dtype() && b1.dtype() == b2.dtype(), Runtime,
           "Input dtypes must be the same, got: input ", cpp_type_name(self.dtype()), ", batch1: ",
           cpp_type_name(b1.dtype()), ", batch2: ", cpp_type_name(b2.dtype()));
}

void check_vectors(const Tensor& a, const Tensor& b) {
  TZ_CHECK(a.dim() == 1 && b.dim() == 1, Runtime, "1D tensors expected, but got ", a.dim(), "D and ",
           b.dim(), "D tensors");
  TZ_CHECK(a.size(0) == b.size(0), Runtime, "inconsistent tensor size, expected tensor [", a.size(0),
           "] and src [", b.size(0), "] to have the same number of elements, but got ", a.size(0),
           " and ", b.size(0), " elements respectively");
  TZ_CHECK(a.dtype() == b.dtype(), Runtime, "dot : expected both vectors to have same dtype, but found ",
           scalar_type_name(a.dtype()), " and ", scalar_type_name(b.dtype()));
}

void check_inplace_shape(const Tensor& self, const Shape& out) {
  TZ_CHECK(self.sizes() == out, Runtime, "Bad in-place call: input tensor size ", shape_str(self.sizes()),
           " and output tensor size ", shape_str(out), " should match");
}

// self <- result, for the in-place variants (copy_ bumps the version).
const Tensor& assign(const Tensor& self, const Tensor& result) {
  check_inplace_shape(self, result.sizes());
  copy_(self, result);
  return self;
}

Tensor dot_impl(const Tensor& a, const Tensor& b, bool conj, const char* op) {
  check_vectors(a, b);
  check_supported(a.dtype(), op);
  const DType ct = compute_dtype(a.dtype());
  Tensor ca = to_dtype(a, ct), cb = to_dtype(b, ct);
  Tensor out = Tensor::empty({}, ct);
  dot_kernel(ct, a.size(0), ca.raw_data(), ca.stride(0), cb.raw_data(), cb.stride(0), conj,
             out.raw_data());
  return to_dtype(out, a.dtype());
}

}  // namespace

void check_scalar_type(const Tensor& expected, const Tensor& found) {
  TZ_CHECK(expected.dtype() == found.dtype(), Runtime, "expected scalar type ",
           scalar_type_name(expected.dtype()), " but found ", scalar_type_name(found.dtype()));
}

Tensor gemm_op(const Tensor& input, const Tensor& a, const Tensor& b, const Scalar& alpha,
               const Scalar& beta, const char* op) {
  const DType dt = a.dtype();
  check_supported(dt, op);
  const DType ct = compute_dtype(dt);
  const int64_t nd = a.dim();
  const Shape batch(a.sizes().begin(), a.sizes().end() - 2);
  const int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
  const Shape out_shape = shape_cat(batch, {m, n});
  Tensor ca = blas_ready(to_dtype(a, ct)), cb = blas_ready(to_dtype(b, ct));
  Tensor out = Tensor::empty(out_shape, ct);
  const bool use_input = input.defined() && !is_zero(beta);
  if (input.defined()) {
    // Checked even when beta == 0, where input's values (NaN included) are ignored.
    Tensor in = expand(input, to_list(out_shape));
    if (use_input) copy_(out, in);
  }
  GemmProblem p;
  p.dtype = ct;
  p.m = m, p.n = n, p.k = k;
  p.batch = batch;
  p.a = {ca.raw_data(), ca.stride(-2), ca.stride(-1), Shape(ca.strides().begin(), ca.strides().begin() + nd - 2)};
  p.b = {cb.raw_data(), cb.stride(-2), cb.stride(-1), Shape(cb.strides().begin(), cb.strides().begin() + nd - 2)};
  p.c = {out.raw_data(), out.stride(-2), out.stride(-1), Shape(out.strides().begin(), out.strides().end() - 2)};
  p.alpha = alpha;
  p.beta = use_input ? beta : Scalar(int64_t(0));
  gemm(p);
  return ct == dt ? out : to_dtype(out, dt);
}

Tensor mm(const Tensor& self, const Tensor& mat2) {
  TZ_CHECK(self.dim() == 2, Runtime, "self must be a matrix");
  TZ_CHECK(mat2.dim() == 2, Runtime, "mat2 must be a matrix");
  check_mm_shapes(self, mat2);
  check_mm_dtypes(self, mat2);
  return gemm_op(Tensor(), self, mat2, Scalar(int64_t(1)), Scalar(int64_t(0)), "mm");
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  check_3d(self, "batch1");
  check_3d(mat2, "batch2");
  check_bmm_shapes(self, mat2);
  check_scalar_type(self, mat2);
  return gemm_op(Tensor(), self, mat2, Scalar(int64_t(1)), Scalar(int64_t(0)), "bmm");
}

Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
             const Scalar& alpha) {
  TZ_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1, Runtime,
           "vector + matrix @ vector expected, got ", self.dim(), ", ", mat.dim(), ", ", vec.dim());
  const int64_t in_size = self.dim() == 1 ? self.size(0) : 1;
  TZ_CHECK(mat.size(1) == vec.size(0) && (in_size == mat.size(0) || in_size == 1), Runtime,
           "size mismatch, got input (", in_size, "), mat (", mat.size(0), "x", mat.size(1),
           "), vec (", vec.size(0), ")");
  TZ_CHECK(self.dtype() == mat.dtype() && mat.dtype() == vec.dtype(), Runtime,
           "addmv input tensors must have the same dtype, but got ", scalar_type_name(self.dtype()),
           ", ", scalar_type_name(mat.dtype()), ", and ", scalar_type_name(vec.dtype()));
  Tensor in = self.dim() == 1 ? reshape(self, {in_size, 1}) : self;
  Tensor col = reshape(vec, {vec.size(0), 1});
  return reshape(gemm_op(in, mat, col, alpha, beta, "addmv"), {mat.size(0)});
}

Tensor mv(const Tensor& self, const Tensor& vec) {
  // The product of addmv with no input; dtype messages name the (promoted) result first.
  TZ_CHECK(self.dim() == 2 && vec.dim() == 1, Runtime, "vector + matrix @ vector expected, got 1, ",
           self.dim(), ", ", vec.dim());
  TZ_CHECK(self.size(1) == vec.size(0), Runtime, "size mismatch, got input (", self.size(0),
           "), mat (", self.size(0), "x", self.size(1), "), vec (", vec.size(0), ")");
  TZ_CHECK(self.dtype() == vec.dtype(), Runtime, "addmv input tensors must have the same dtype, but got ",
           scalar_type_name(promote_types(self.dtype(), vec.dtype())), ", ",
           scalar_type_name(self.dtype()), ", and ", scalar_type_name(vec.dtype()));
  Tensor col = reshape(vec, {vec.size(0), 1});
  return reshape(gemm_op(Tensor(), self, col, Scalar(int64_t(1)), Scalar(int64_t(0)), "mv"),
                 {self.size(0)});
}

Tensor dot(const Tensor& self, const Tensor& other) { return dot_impl(self, other, false, "dot"); }

Tensor vdot(const Tensor& self, const Tensor& other) {
  return dot_impl(self, other, is_complex(self.dtype()), "vdot");
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  const int64_t da = a.dim(), db = b.dim();
  TZ_CHECK(da >= 1 && db >= 1, Runtime, "both arguments to matmul need to be at least 1D, but they are ",
           da, "D and ", db, "D");
  if (da == 1 && db == 1) return dot(a, b);
  if (da == 2 && db == 1) return mv(a, b);
  if (da == 1 && db == 2) return reshape(mm(reshape(a, {1, a.size(0)}), b), {b.size(1)});
  if (da == 2 && db == 2) return mm(a, b);
  if (da >= 3 && db <= 2) {
    // Fold a's batch dims into its rows: one large GEMM instead of many small ones.
    Shape out_shape(a.sizes().begin(), a.sizes().end() - 1);
    Tensor rows = reshape(a, {numel_of(out_shape), a.size(-1)});
    if (db == 1) return reshape(mv(rows, b), to_list(out_shape));
    out_shape.push_back(b.size(1));
    return reshape(mm(rows, b), to_list(out_shape));
  }
  // Broadcast batch dims; a 1-D operand gets a unit dim prepended (a) or appended (b).
  Tensor a2 = blas_ready(da == 1 ? reshape(a, {1, a.size(0)}) : a);
  Tensor b2 = blas_ready(db == 1 ? reshape(b, {b.size(0), 1}) : b);
  const int64_t n = a2.size(-2), k1 = a2.size(-1), k2 = b2.size(-2), p = b2.size(-1);
  const Shape batch = broadcast_shapes(Shape(a2.sizes().begin(), a2.sizes().end() - 2),
                                       Shape(b2.sizes().begin(), b2.sizes().end() - 2), "matmul");
  const int64_t nbatch = numel_of(batch);
  TZ_CHECK(k1 == k2, Runtime, "Expected size for first two dimensions of batch2 tensor to be: [",
           nbatch, ", ", k1, "] but got: [", nbatch, ", ", k2, "].");
  check_scalar_type(a, b);
  Tensor out = gemm_op(Tensor(), expand(a2, to_list(shape_cat(batch, {n, k1}))),
                       expand(b2, to_list(shape_cat(batch, {k2, p}))), Scalar(int64_t(1)),
                       Scalar(int64_t(0)), "matmul");
  Shape out_shape = batch;
  if (da > 1) out_shape.push_back(n);
  if (db > 1) out_shape.push_back(p);
  return reshape(out, to_list(out_shape));
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  TZ_CHECK(self.dim() == 1, Runtime, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  TZ_CHECK(vec2.dim() == 1, Runtime, "outer: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  return mul(reshape(self, {self.size(0), 1}), vec2);
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  TZ_CHECK(mat1.dim() == 2, Runtime, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  TZ_CHECK(mat2.dim() == 2, Runtime, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  TZ_CHECK(self.dtype() == mat2.dtype(), Runtime, "self and mat2 must have the same dtype, but got ",
           scalar_type_name(self.dtype()), " and ", scalar_type_name(mat2.dtype()));
  check_mm_dtypes(mat1, mat2);
  check_mm_shapes(mat1, mat2);
  return gemm_op(self, mat1, mat2, alpha, beta, "addmm");
}

Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  check_3d(batch1, "batch1");
  check_3d(batch2, "batch2");
  check_batch_dtypes(self, batch1, batch2);
  check_bmm_shapes(batch1, batch2);
  return gemm_op(self, batch1, batch2, alpha, beta, "baddbmm");
}

Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
              const Scalar& alpha) {
  check_3d(batch1, "batch1");
  check_3d(batch2, "batch2");
  TZ_CHECK(batch1.size(0) == batch2.size(0), Runtime,
           "batch1 and batch2 must have same number of batches, got ", batch1.size(0), " and ",
           batch2.size(0));
  TZ_CHECK(batch1.size(2) == batch2.size(1), Runtime, "Incompatible matrix sizes for bmm (",
           batch1.size(1), "x", batch1.size(2), " and ", batch2.size(1), "x", batch2.size(2), ")");
  check_batch_dtypes(self, batch1, batch2);
  // sum_b batch1[b] @ batch2[b] is one GEMM over the joint (batch, k) axis.
  const int64_t nb = batch1.size(0), n = batch1.size(1), k = batch1.size(2), p = batch2.size(2);
  Tensor lhs = reshape(permute(batch1, {1, 0, 2}), {n, nb * k});
  Tensor rhs = reshape(batch2, {nb * k, p});
  return gemm_op(self, lhs, rhs, alpha, beta, "addbmm");
}

const Tensor& addmm_(const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                     const Scalar& beta, const Scalar& alpha) {
  return assign(self, addmm(self, mat1, mat2, beta, alpha));
}

const Tensor& addmv_(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                     const Scalar& alpha) {
  return assign(self, addmv(self, mat, vec, beta, alpha));
}

const Tensor& baddbmm_(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                       const Scalar& beta, const Scalar& alpha) {
  return assign(self, baddbmm(self, batch1, batch2, beta, alpha));
}

const Tensor& addbmm_(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                      const Scalar& beta, const Scalar& alpha) {
  return assign(self, addbmm(self, batch1, batch2, beta, alpha));
}

Tensor tensordot(const Tensor& a, const Tensor& b, const IntList& dims_a, const IntList& dims_b) {
  TZ_CHECK(dims_a.size() == dims_b.size(), Runtime, "both dimension lists should have same length");
  TZ_CHECK(a.dtype() == b.dtype(), Runtime, "both inputs should have same dtype");
  std::vector<bool> contracted_a(a.dim(), false), contracted_b(b.dim(), false);
  Shape sizes_a = a.sizes(), strides_a = a.strides(), sizes_b = b.sizes(), strides_b = b.strides();
  int64_t csize = 1;
  for (size_t i = 0; i < dims_a.size(); ++i) {
    const int64_t da = wrap_dim(dims_a[i], a.dim(), "tensordot");
    const int64_t db = wrap_dim(dims_b[i], b.dim(), "tensordot");
    TZ_CHECK(!contracted_a[da], Runtime, "dim ", da, " appears multiple times in the list of dims");
    TZ_CHECK(!contracted_b[db], Runtime, "dim ", db, " appears multiple times in the list of dims");
    contracted_a[da] = contracted_b[db] = true;
    const int64_t sa = sizes_a[da], sb = sizes_b[db];
    TZ_CHECK(sa == sb || sa == 1 || sb == 1, Runtime,
             "contracted dimensions need to match, but first has size ", sa, " in dim ", dims_a[i],
             " and second has size ", sb, " in dim ", dims_b[i]);
    // A size-1 side broadcasts along the other (a zero-stride view).
    if (sa != sb) {
      if (sa == 1) sizes_a[da] = sb, strides_a[da] = 0;
      else sizes_b[db] = sa, strides_b[db] = 0;
    }
    csize *= std::max(sa, sb);
  }
  // a -> [free_a..., contracted...], b -> [contracted..., free_b...] (contracted in list order).
  IntList perm_a, perm_b, out_shape;
  int64_t free_a = 1, free_b = 1;
  for (int64_t d = 0; d < a.dim(); ++d)
    if (!contracted_a[d]) perm_a.push_back(d), out_shape.push_back(sizes_a[d]), free_a *= sizes_a[d];
  for (int64_t v : dims_a) perm_a.push_back(wrap_dim(v, a.dim(), "tensordot"));
  for (int64_t v : dims_b) perm_b.push_back(wrap_dim(v, b.dim(), "tensordot"));
  for (int64_t d = 0; d < b.dim(); ++d)
    if (!contracted_b[d]) perm_b.push_back(d), out_shape.push_back(sizes_b[d]), free_b *= sizes_b[d];
  Tensor va = Tensor::view_of(a, sizes_a, strides_a, a.offset());
  Tensor vb = Tensor::view_of(b, sizes_b, strides_b, b.offset());
  Tensor lhs = reshape(permute(va, perm_a), {free_a, csize});
  Tensor rhs = reshape(permute(vb, perm_b), {csize, free_b});
  return reshape(gemm_op(Tensor(), lhs, rhs, Scalar(int64_t(1)), Scalar(int64_t(0)), "tensordot"),
                 out_shape);
}

}  // namespace tz
