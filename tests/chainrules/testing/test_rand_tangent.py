"""rand_tangent: random tangents in the primal's tangent space (dtype, real/complex, structure, ProjectTo)."""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules.testing import rand_tangent, register_tree_node
from chainrules_core import NoTangent, Projector, ProjectTo, Tangent

Pair = namedtuple("Pair", "a b")


@dataclasses.dataclass
class Model:
    w: np.ndarray
    name: str
    layers: int


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
def test_arrays_keep_dtype_and_shape(dtype):
    x = np.zeros((2, 3), dtype=dtype)
    t = rand_tangent(x, 0)
    assert type(t) is np.ndarray and t.dtype == dtype and t.shape == (2, 3)
    assert np.all(t.real != 0)
    if np.dtype(dtype).kind == "c":
        assert np.all(t.imag != 0)


@pytest.mark.parametrize(("x", "kind"), [
    (1.0, float), (1j, complex), (np.float32(1.0), np.float32), (np.complex64(1j), np.complex64),
    (np.float64(2.0), float),  # ProjectTo gives a float64 primal a Python float (np.float64 is one)
])
def test_scalars_keep_their_kind(x, kind):
    t = rand_tangent(x, 0)
    assert type(t) is kind
    assert (np.imag(t) != 0) == (np.iscomplexobj(x))


@pytest.mark.parametrize("x", [3, True, np.int64(2), "label", None, np.arange(3), np.array([True, False]),
                               (1, "a"), {"n": 2}, b"bytes"])
def test_non_differentiable_values_get_no_tangent(x):
    assert isinstance(rand_tangent(x), NoTangent)


def test_containers_give_tangents_of_their_type():
    t = rand_tangent((1.0, "label", np.ones(2, dtype=np.float32)), 0)
    assert isinstance(t, Tangent) and t.primal_type is tuple
    assert isinstance(t[0], float) and isinstance(t[1], NoTangent) and t[2].dtype == np.float32

    t = rand_tangent(Pair(np.ones(2), 3), 0)
    assert t.primal_type is Pair and t.a.shape == (2,) and isinstance(t.b, NoTangent)

    t = rand_tangent({"x": 1j, "k": 1}, 0)
    assert t.primal_type is dict and isinstance(t["x"], complex) and isinstance(t["k"], NoTangent)

    t = rand_tangent(Model(np.ones(3), "m", 2), 0)
    assert t.primal_type is Model and t.w.shape == (3,) and isinstance(t.name, NoTangent)

    t = rand_tangent([1.0, [2.0, 3]], 0)
    assert t.primal_type is list and t[1].primal_type is list and isinstance(t[1][1], NoTangent)


def test_reproducible_with_a_seed():
    x = np.zeros(4)
    np.testing.assert_array_equal(rand_tangent(x, 7), rand_tangent(x, 7))
    np.testing.assert_array_equal(rand_tangent(x, np.random.default_rng(7)), rand_tangent(x, 7))
    assert not np.array_equal(rand_tangent(x, 7), rand_tangent(x, 8))


class Symmetric:
    """A symmetric matrix stored in full: its tangents are symmetric (ProjectTo symmetrizes)."""

    def __init__(self, data: np.ndarray) -> None:
        self.data = np.asarray(data)


class SymmetricProjector(Projector):
    def project(self, dx: Any) -> Any:
        dense = dx.data if isinstance(dx, Symmetric) else np.asarray(dx)
        return Symmetric((dense + dense.T) / 2)


ProjectTo.register(Symmetric)(lambda x: SymmetricProjector())
register_tree_node(Symmetric, lambda s: ([s.data], None), lambda aux, children: Symmetric(children[0]))


def test_registered_structure_and_projection_are_respected():
    t = rand_tangent(Symmetric(np.eye(3)), 0)
    assert isinstance(t, Symmetric)
    np.testing.assert_array_equal(t.data, t.data.T)
    assert not np.allclose(t.data, 0)


def test_projection_makes_real_tangents_for_real_primals_inside_containers():
    t = rand_tangent((np.ones(2), np.ones(2, dtype=np.complex64)), 0)
    assert t[0].dtype == np.float64 and t[1].dtype == np.complex64


def test_sparse_tangents_keep_the_pattern():
    x = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]))
    t = rand_tangent(x, 0)
    assert sp.issparse(t) and t.nnz == x.nnz
    np.testing.assert_array_equal(t.toarray() != 0, x.toarray() != 0)


class Opaque:
    pass


def test_user_types_can_register_a_generator():
    assert isinstance(rand_tangent(Opaque()), NoTangent)

    class Temperature:
        def __init__(self, kelvin: float) -> None:
            self.kelvin = kelvin

    @rand_tangent.register(Temperature)
    def _rand_temperature(x: Temperature, rng: np.random.Generator) -> Tangent:
        return Tangent(Temperature, kelvin=float(rng.standard_normal()))

    t = rand_tangent(Temperature(300.0), 0)
    assert isinstance(t, Tangent) and isinstance(t.kelvin, float)
