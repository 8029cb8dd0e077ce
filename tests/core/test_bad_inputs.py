"""Bad input never crashes: every case raises the right Python exception with a message that
names the op and the problem."""
import numpy as np
import pytest

import core

x23 = core.ones([2, 3])
x4 = core.arange(4)

# (callable, exception type, regex that the message must match)
CASES = [
    # shapes and broadcasting
    (lambda: x23 + core.ones([4]), RuntimeError, r"add\(\): the size of tensor a \(3\) must match the size of tensor b \(4\)"),
    (lambda: x23.view(4), RuntimeError, r"view\(\): shape '\[4\]' is invalid for input of size 6"),
    (lambda: x23.view(-1, -1), RuntimeError, r"view\(\): only one dimension can be inferred"),
    (lambda: x23.t().view(6), RuntimeError, r"view\(\): view size is not compatible"),
    (lambda: x23.reshape(5, -1), RuntimeError, r"reshape\(\): shape '\[5, -1\]' is invalid for input of size 6"),
    (lambda: x23.expand(4, 3), RuntimeError, r"expand\(\): the expanded size of the tensor \(4\) must match"),
    (lambda: x23.permute(0), RuntimeError, r"permute\(\): number of dims don't match"),
    (lambda: x23.permute(0, 0), RuntimeError, r"permute\(\): repeated dim"),
    (lambda: x23.add_(core.ones([2, 2, 3])), RuntimeError, r"add_\(\): output with shape \[2, 3\] doesn't match the broadcast shape"),
    (lambda: core.ones([2, 3]) @ core.ones([2, 3]), RuntimeError, r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)"),
    (lambda: core.cat([x23, core.ones([2, 4])]), RuntimeError, r"Sizes of tensors must match except in dimension 0"),
    (lambda: core.stack([x23, core.ones([3, 2])]), RuntimeError, r"stack\(\): stack expects each tensor to be equal size"),
    # invalid dims
    (lambda: x23.transpose(0, 2), IndexError, r"transpose\(\): dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"),
    (lambda: x23.size(5), IndexError, r"dimension out of range"),
    (lambda: x23.squeeze(3), IndexError, r"squeeze\(\): dimension out of range"),
    (lambda: x23.unsqueeze(4), IndexError, r"unsqueeze\(\): dimension out of range"),
    (lambda: core.cat([x23, x23], dim=2), IndexError, r"cat\(\): dimension out of range"),
    (lambda: x23.flip(3), IndexError, r"flip\(\): dimension out of range"),
    # indexing
    (lambda: x4[4], IndexError, r"index 4 is out of bounds for dimension 0 with size 4"),
    (lambda: x4[-5], IndexError, r"index -5 is out of bounds for dimension 0 with size 4"),
    (lambda: x23[0, 0, 0], IndexError, r"too many indices for tensor of dimension 2"),
    (lambda: x4[::-1], ValueError, r"step must be greater than zero"),
    (lambda: x4[core.tensor([0, 7])], IndexError, r"index 7 is out of bounds for dimension 0 with size 4"),
    (lambda: x4[core.tensor([True, False])], IndexError, r"shape of the mask \[2\] at index 0 does not match the shape of the indexed tensor \[4\]"),
    (lambda: x4.index_select(0, core.tensor([9])), IndexError, r"index_select\(\): index out of range in self"),
    (lambda: x23.gather(1, core.tensor([[0, 5]])), RuntimeError, r"gather\(\): index 5 is out of bounds for dimension 1 with size 3"),
    (lambda: x4[1.5], IndexError, r"only integers, slices"),
    (lambda: x4["a"], IndexError, r"only integers, slices"),
    # dtypes
    (lambda: core.ones([2], dtype=core.bool) - core.ones([2], dtype=core.bool), RuntimeError, r"sub\(\): Subtraction, the `-` operator, with two bool tensors is not supported"),
    (lambda: core.ones([2], dtype=core.int64).add_(1.5), RuntimeError, r"add_\(\): result type Float can't be cast to the desired output type Long"),
    (lambda: core.ones([2, 2]).mm(core.ones([2, 2], dtype=core.float64)), RuntimeError, r"expected m1 and m2 to have the same dtype"),
    (lambda: core.zeros([2], dtype="float32"), TypeError, r"zeros\(\): argument 'dtype' must be dtype, not str"),
    (lambda: core.from_numpy(np.zeros(2, dtype=np.uint16)), TypeError, r"can't convert np.ndarray of type numpy.uint16"),
    (lambda: core.from_numpy([1, 2]), TypeError, r"expected np.ndarray"),
    (lambda: core.ones([2], dtype=core.bfloat16).numpy(), TypeError, r"Got unsupported ScalarType BFloat16"),
    (lambda: core.tensor([[1, 2], [3]]), (ValueError, TypeError), r"tensor\(\)"),
    (lambda: core.tensor("abc"), TypeError, r"tensor\(\)"),
    (lambda: core.ones([1], dtype=core.int64).requires_grad_(), RuntimeError, r"only Tensors of floating point and complex dtype can require gradients"),
    # argument parsing
    (lambda: core.add(x23, "a"), TypeError, r"add\(\): argument 'other' \(position 2\) must be Tensor, not str"),
    (lambda: core.add(x23, x23, beta=2), TypeError, r"add\(\): got an unexpected keyword argument 'beta'"),
    (lambda: core.add(x23), TypeError, r"add\(\): missing required argument 'other'"),
    (lambda: core.add(x23, x23, x23, x23), TypeError, r"add\(\): takes 2 positional arguments but 4 were given"),
    (lambda: x23.view("a"), TypeError, r"view\(\)"),
    (lambda: core.zeros(2, 2**70), RuntimeError, r"Overflow when unpacking long"),
    (lambda: core.empty([2**40, 2**40]), RuntimeError, r"too many elements \(size overflow\)|too large"),
    (lambda: core.empty([-1]), RuntimeError, r"negative dimension -1"),
    (lambda: core.arange(0, 10, 0), RuntimeError, r"arange\(\): step must be nonzero"),
    (lambda: core.arange(10, 0, 1), RuntimeError, r"arange\(\): upper bound and larger bound inconsistent with step sign"),
    # conversions
    (lambda: x23.item(), RuntimeError, r"a Tensor with 6 elements cannot be converted to Scalar"),
    (lambda: bool(x23), RuntimeError, r"Boolean value of Tensor with more than one value is ambiguous"),
    (lambda: float(x23), (ValueError, TypeError), r"only one element tensors can be converted to Python scalars"),
    (lambda: len(core.tensor(1.0)), TypeError, r"len\(\) of a 0-d tensor"),
    (lambda: x23.to("cuda"), RuntimeError, r"cuda"),
    (lambda: core.as_strided(x4, [10], [1]), RuntimeError, r"as_strided\(\): .*require a storage of at least 10 elements, but it has 4"),
    (lambda: x4.expand(2, 2), RuntimeError, r"expand\(\): the expanded size of the tensor \(2\) must match the existing size \(4\)"),
    (lambda: core.ones([3]).copy_(core.ones([4])), RuntimeError, r"copy_\(\)"),
    (lambda: core.set_num_threads(0), ValueError, r"set_num_threads\(\): expected a positive number of threads"),
    (lambda: core.Generator("cuda"), RuntimeError, r"Generator\(\): only the 'cpu' device is supported"),
    # joining and linear algebra
    (lambda: core.pad(x23, (5, 5), mode="reflect"), RuntimeError, r"pad\(\).*(Padding size should be less than|reflect)"),
    (lambda: core.einsum("ij,jk->ik", x23, x23), RuntimeError, r"einsum\(\)"),
    (lambda: core.matmul(core.tensor(1.0), x23), RuntimeError, r"matmul\(\): both arguments to matmul need to be at least 1D"),
    (lambda: core.ones([3]).tril(), RuntimeError, r"tril\(\): .*at least 2"),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_bad_input_raises_clearly(case):
    fn, exc, pattern = CASES[case]
    with pytest.raises(exc, match=pattern):
        fn()
