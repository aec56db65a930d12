"""ProjectTo: map a cotangent into the tangent space of its primal."""

import dataclasses
from collections import namedtuple

import numpy as np
import pytest

from chainrules_core import (
    InplaceableThunk,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    Projector,
    ProjectTo,
    Tangent,
    Thunk,
    ZeroTangent,
    check_cotangent_shape,
    not_implemented,
    unthunk,
)

Pair = namedtuple("Pair", "x n")


@dataclasses.dataclass
class Foo:
    A: np.ndarray
    c: float


# ---- numbers -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_float_precision_is_kept(dtype):
    p = ProjectTo(dtype(1.5))
    for dx in (2.0, np.float64(2.0), np.array(2.0), 2 + 3j):
        out = p(dx)
        assert np.asarray(out).dtype == dtype
        assert out == 2.0
    arr = ProjectTo(np.ones(3, dtype=dtype))(np.array([1.0, 2.0, 3.0]))
    assert arr.dtype == dtype


def test_python_float_gives_python_float():
    out = ProjectTo(1.0)(np.float64(2.0))
    assert type(out) is float and out == 2.0
    assert ProjectTo(1.0)(2 + 3j) == 2.0


def test_complex_cotangent_of_a_real_primal_keeps_the_real_part():
    assert ProjectTo(1.0)(1.0 + 5.0j) == 1.0
    out = ProjectTo(np.ones(2, np.float32))(np.array([1 + 1j, 2 - 1j]))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [1.0, 2.0])


def test_real_cotangent_of_a_complex_primal_is_widened():
    assert ProjectTo(1j)(2.0) == 2 + 0j and isinstance(ProjectTo(1j)(2.0), complex)
    out = ProjectTo(np.ones(2, np.complex64))(np.array([1.0, 2.0]))
    assert out.dtype == np.complex64
    assert ProjectTo(np.complex64(1j))(2.0).dtype == np.complex64


@pytest.mark.parametrize("primal", [3, np.int32(3), np.uint8(3), np.arange(3), np.arange(3, dtype=np.int16)],
                         ids=["int", "int32", "uint8", "int array", "int16 array"])
def test_integer_primals_get_float_cotangents(primal):
    dx = np.ones(np.shape(primal), dtype=np.float32) if np.ndim(primal) else 2
    out = ProjectTo(primal)(dx)
    assert np.asarray(out).dtype == np.float64
    np.testing.assert_array_equal(out, np.asarray(dx, dtype=float))


@pytest.mark.parametrize("primal", [True, np.bool_(False), np.array([True, False]), "name", b"bytes", None,
                                    np.sin, len, range(3), slice(1), Ellipsis, np.float64, np.dtype("f8"),
                                    np.array(["2020-01-01"], dtype="datetime64[D]"), (True, "a")],
                         ids=repr)
def test_non_differentiable_primals_give_no_tangent(primal):
    assert ProjectTo(primal)(1.0) is NoTangent()
    assert ProjectTo(primal)(np.ones(2)) is NoTangent()


# ---- ndarrays ------------------------------------------------------------------------------------
def test_array_of_the_right_kind_passes_without_copy():
    dx = np.ones((2, 3))
    assert ProjectTo(np.zeros((2, 3)))(dx) is dx


@pytest.mark.parametrize("primal_shape, dx_shape", [((1, 3), (3,)), ((3,), (3, 1)), ((2, 1, 3), (2, 3)),
                                                    ((), (1, 1)), ((1,), ())])
def test_size_one_axes_may_be_added_or_dropped(primal_shape, dx_shape):
    dx = np.arange(np.prod(dx_shape, dtype=int), dtype=float).reshape(dx_shape) + 1
    out = ProjectTo(np.zeros(primal_shape))(dx)
    assert out.shape == primal_shape
    np.testing.assert_array_equal(out.ravel(), dx.ravel())


def test_zero_dimensional_array_accepts_a_scalar():
    out = ProjectTo(np.array(2.0))(3.0)
    assert type(out) is np.ndarray and out.shape == () and out == 3.0
    out32 = ProjectTo(np.array(2.0, dtype=np.float32))(3.0)
    assert out32.dtype == np.float32


@pytest.mark.parametrize("primal_shape, dx_shape", [((2, 3), (3, 2)), ((3,), (4,)), ((3,), ()), ((2, 2), (4,))])
def test_any_other_shape_mismatch_names_both_shapes(primal_shape, dx_shape):
    with pytest.raises(ProjectionError, match=rf"cotangent has shape {dx_shape!r}, expected shape "
                                              rf"{primal_shape!r}".replace("(", r"\(").replace(")", r"\)")):
        ProjectTo(np.zeros(primal_shape))(np.ones(dx_shape))
    assert issubclass(ProjectionError, ValueError)


def test_wrong_kind_of_cotangent_for_an_array():
    with pytest.raises(ProjectionError, match="cotangent of type Tangent"):
        ProjectTo(np.ones(2))(Tangent(tuple, 1.0, 2.0))
    with pytest.raises(ProjectionError, match="cotangent of dtype <U1"):
        ProjectTo(np.ones(2))(np.array(["a", "b"]))
    with pytest.raises(ProjectionError, match="a scalar primal got a cotangent of shape \\(2,\\)"):
        ProjectTo(1.0)(np.ones(2))
    with pytest.raises(ProjectionError, match="a scalar primal got a cotangent of type str"):
        ProjectTo(1.0)("s")


def test_errors_name_the_pullback_and_the_argument():
    def scale_pullback(dy):
        project_x = ProjectTo(np.ones(3))
        return project_x(dy)

    with pytest.raises(ProjectionError, match=r"expected shape \(3,\) \(in .*scale_pullback, argument 'x'\)"):
        scale_pullback(np.ones(2))

    def other_pullback(dy):
        project_y = ProjectTo(np.ones(3))
        return project_y(dy)

    with pytest.raises(ProjectionError, match=r"\(in .*other_pullback, the output cotangent\)"):
        other_pullback(np.ones(4))


def test_check_cotangent_shape():
    check_cotangent_shape(np.ones(3), (3,), "f pullback: output cotangent")
    check_cotangent_shape(np.ones((1, 1)), (), "f pullback: output cotangent")  # one element either way
    with pytest.raises(ProjectionError, match=r"^f pullback: output cotangent has shape \(2,\), expected shape "
                                              r"\(3,\)$"):
        check_cotangent_shape(np.ones(2), (3,), "f pullback: output cotangent")
    for dy in (ZeroTangent(), Thunk(lambda: np.ones(2)), Tangent(Foo, c=1.0), not_implemented("x"), 2.0):
        check_cotangent_shape(dy, (3,), "f pullback: output cotangent")  # not arrays: not checked


# ---- object arrays and structures ------------------------------------------------------------------
def test_object_arrays_project_element_by_element():
    x = np.array([1.0, "label", np.float32(2.0)], dtype=object)
    out = ProjectTo(x)(np.array([1 + 1j, 5.0, 3.0], dtype=object))
    assert out.dtype == object
    assert out[0] == 1.0 and out[1] is NoTangent() and out[2] == 3.0 and isinstance(out[2], np.float32)
    with pytest.raises(ProjectionError, match=r"cotangent has shape \(2,\), expected shape \(3,\)"):
        ProjectTo(x)(np.ones(2, dtype=object))


def test_tuples_give_tangents_with_each_element_projected():
    p = ProjectTo((1.0, np.float32(2.0), "label", np.ones(2)))
    out = p((1 + 1j, 3.0, 4.0, np.array([1.0, 2.0])))
    assert isinstance(out, Tangent) and out.primal_type is tuple
    assert out[0] == 1.0 and out[1].dtype == np.float32 and out[2] is NoTangent()
    assert p(Tangent(tuple, 1.0, 2.0, 3.0, np.ones(2)))[3].dtype == np.float64
    with pytest.raises(ProjectionError, match="cotangent has 2 elements, expected 4"):
        p((1.0, 2.0))


def test_namedtuples_and_dicts_give_tangents():
    out = ProjectTo(Pair(1.0, 2))(Tangent(Pair, x=1 + 1j, n=3.0))
    assert out == Tangent(Pair, x=1.0, n=3.0) and isinstance(out.n, float)
    assert ProjectTo(Pair(1.0, 2))(Pair(2.0, 3.0)) == Tangent(Pair, x=2.0, n=3.0)
    d = ProjectTo({"a": 1.0, "b": "s"})({"a": 1j})
    assert d == Tangent(dict, a=0.0)
    with pytest.raises(ProjectionError, match="field 'z', which dict does not have"):
        ProjectTo({"a": 1.0})({"z": 1.0})


def test_dataclasses_give_tangents_with_each_field_projected():
    p = ProjectTo(Foo(np.ones(2, np.float32), 1.0))
    out = p(Tangent(Foo, A=np.array([1.0, 2.0 + 1j])))
    assert out.primal_type is Foo and out.A.dtype == np.float32 and out.c is ZeroTangent()
    out = p(Foo(np.ones(2), 2j))  # the natural container: an instance
    assert out.c == 0.0
    with pytest.raises(ProjectionError, match=r"got a Tangent\(Pair\)"):
        p(Tangent(Pair, x=1.0))
    with pytest.raises(ProjectionError, match="field 'z', which Foo does not have"):
        p({"A": np.ones(2), "z": 1.0})
    with pytest.raises(ProjectionError, match="a Foo primal got a cotangent of type float"):
        p(1.0)


# ---- zeros, not-implemented, thunks ----------------------------------------------------------------
@pytest.mark.parametrize("primal", [1.0, np.ones(2), (1.0, 2.0), Foo(np.ones(1), 1.0)], ids=repr)
def test_zeros_and_not_implemented_pass_through(primal):
    p = ProjectTo(primal)
    assert p(ZeroTangent()) is ZeroTangent()
    assert p(NoTangent()) is NoTangent()
    ni = not_implemented("x")
    assert p(ni) is ni
    assert isinstance(p(ni), NotImplementedTangent)
    assert ProjectTo("s")(ZeroTangent()) is NoTangent()  # no tangent space: always NoTangent()


def test_thunks_are_projected_lazily():
    calls = []

    def value():
        calls.append(1)
        return np.array([1.0 + 2j, 3.0])

    out = ProjectTo(np.ones(2, np.float32))(Thunk(value))
    assert isinstance(out, Thunk) and calls == []
    result = unthunk(out)
    assert result.dtype == np.float32 and calls == [1]
    np.testing.assert_array_equal(result, [1.0, 3.0])


def test_inplaceable_thunk_keeps_add_fn():
    def add_fn(acc):
        acc += 1.0
        return acc

    out = ProjectTo(np.ones(2))(InplaceableThunk(add_fn, lambda: np.ones(2)))
    assert isinstance(out, InplaceableThunk) and out.add_fn is add_fn
    np.testing.assert_array_equal(unthunk(out), np.ones(2))


def test_random_generators_have_no_tangent():
    for generator in (np.random.default_rng(0), np.random.RandomState(0), np.random.SeedSequence(1)):
        assert ProjectTo(generator)(1.0) is NoTangent()


def test_unknown_objects_pass_through():
    class Opaque:
        pass

    dx = object()
    assert ProjectTo(Opaque())(dx) is dx


# ---- user projectors -----------------------------------------------------------------------------
class Positive:
    """A user type: a positive number stored as its logarithm."""

    def __init__(self, log_value):
        self.log_value = log_value


class PositiveProjector(Projector):
    def project(self, dx):
        value = dx.log_value if isinstance(dx, Tangent) else dx
        return Tangent(Positive, log_value=float(np.real(value)))


@ProjectTo.register(Positive)
def _project_positive(x):
    return PositiveProjector()


class MorePositive(Positive):
    pass


def test_user_registered_projector():
    p = ProjectTo(Positive(0.5))
    assert isinstance(p, PositiveProjector)
    assert p(Tangent(Positive, log_value=1 + 2j)) == Tangent(Positive, log_value=1.0)
    assert p(3.0) == Tangent(Positive, log_value=3.0)
    assert p(ZeroTangent()) is ZeroTangent()  # Projector.__call__ handles zeros and thunks
    assert unthunk(p(Thunk(lambda: 2.0))) == Tangent(Positive, log_value=2.0)
    assert isinstance(ProjectTo(MorePositive(1.0)), PositiveProjector)  # subclasses are served too
    assert isinstance(ProjectTo((Positive(1.0), 2.0))((3.0, 1.0))[0], Tangent)  # inside containers too
