"""core.autograd.functional: jacobian, hessian, vjp, jvp, vhp/hvp against closed forms."""
import numpy as np

import core
from core.autograd import functional as AF


def _t(values):
    return core.tensor(np.asarray(values, dtype=np.float64))


def cube_sum(x):
    return (x * x * x).sum()


def test_jacobian_of_elementwise_square_is_diagonal():
    x = _t([1.0, 2.0, 3.0])
    jac = AF.jacobian(lambda a: a * a, x)
    np.testing.assert_allclose(jac.numpy(), np.diag([2.0, 4.0, 6.0]))


def test_jacobian_with_two_inputs_and_matrix_output():
    a, b = _t([[1.0, 2.0], [3.0, 4.0]]), _t([5.0, 6.0])
    ja, jb = AF.jacobian(lambda m, v: m @ v, (a, b))
    assert tuple(ja.shape) == (2, 2, 2) and tuple(jb.shape) == (2, 2)
    np.testing.assert_allclose(jb.numpy(), a.numpy())
    expected = np.zeros((2, 2, 2))
    expected[0, 0, :] = b.numpy()
    expected[1, 1, :] = b.numpy()
    np.testing.assert_allclose(ja.numpy(), expected)


def test_hessian_of_cube_sum():
    x = _t([1.0, -2.0])
    np.testing.assert_allclose(AF.hessian(cube_sum, x).numpy(), np.diag([6.0, -12.0]))


def test_vjp_and_jvp():
    x = _t([1.0, 2.0])
    v = _t([0.5, -1.0])
    out, vjp = AF.vjp(lambda a: a * a * 3, x, v)
    np.testing.assert_allclose(out.numpy(), [3.0, 12.0])
    np.testing.assert_allclose(vjp.numpy(), 6 * x.numpy() * v.numpy())
    out, jvp = AF.jvp(lambda a: a * a * 3, x, v)
    np.testing.assert_allclose(jvp.numpy(), 6 * x.numpy() * v.numpy())


def test_vhp_matches_hessian_vector_product():
    x = _t([1.0, -2.0, 0.5])
    v = _t([1.0, 0.0, 2.0])
    _, vhp = AF.vhp(cube_sum, x, v)
    np.testing.assert_allclose(vhp.numpy(), (6 * x.numpy()) * v.numpy())
    _, hvp = AF.hvp(cube_sum, x, v)
    np.testing.assert_allclose(hvp.numpy(), vhp.numpy())


def test_results_do_not_require_grad_unless_create_graph():
    x = _t([1.0, 2.0])
    assert not AF.jacobian(lambda a: a * a, x).requires_grad
    x.requires_grad_()
    assert AF.jacobian(lambda a: a * a, x, create_graph=True).requires_grad
