"""jvp, vjp and jacobian by finite differences on nested inputs and outputs.

These test the finite differences themselves, so their reference values are the exact
derivatives of elementary functions; the adjoint identity ``<dy, J dx> = <J^T dy, dx>``
ties jvp and vjp together on every structure.
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from typing import Any

import numpy as np
import pytest

from chainrules.testing import central_fdm, check_approx, jacobian, jvp, rand_tangent, vjp
from chainrules.testing.tree import leaves_to_vec, tree_flatten
from chainrules_core import NoTangent, Tangent, ZeroTangent

Point = namedtuple("Point", "x y")


@dataclasses.dataclass
class Params:
    w: np.ndarray
    name: str
    n: int
    b: float


def real_inner(primal: Any, a: Any, b: Any) -> float:
    _, treedef = tree_flatten(primal)
    specs = treedef.leaf_specs()
    return float(leaves_to_vec(treedef.flatten_tangent(a), specs) @ leaves_to_vec(treedef.flatten_tangent(b), specs))


class Counter:
    def __init__(self, f: Any) -> None:
        self.f, self.calls, self.dtypes = f, 0, set()

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        for leaf in tree_flatten(args)[0]:
            self.dtypes.add(np.asarray(leaf).dtype)
        return self.f(*args)


# ---- scalars and arrays ---------------------------------------------------------------------------
def test_scalar_in_scalar_out():
    d = jvp(None, np.sin, (1.0, 2.0))
    assert isinstance(d, float) and abs(d - 2 * np.cos(1.0)) < 1e-10
    (g,) = vjp(None, np.sin, 3.0, 1.0)
    assert isinstance(g, float) and abs(g - 3 * np.cos(1.0)) < 1e-10


def test_real_arrays():
    x, dx, dy = np.array([1.0, -2.0, 0.5]), np.array([0.3, 0.1, -1.0]), np.array([1.0, 2.0, 3.0])
    check_approx(jvp(None, np.square, (x, dx)), 2 * x * dx, rtol=1e-9)
    check_approx(vjp(None, np.square, dy, x)[0], 2 * x * dy, rtol=1e-9)
    (J,) = jacobian(None, lambda v: np.array([v[0] * v[1], np.sin(v[2])]), x)
    check_approx(J, np.array([[-2.0, 1.0, 0.0], [0.0, 0.0, np.cos(0.5)]]), rtol=1e-9)


def test_several_arguments_and_a_held_argument():
    x, y = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    f = lambda a, b: a * b  # noqa: E731
    check_approx(jvp(None, f, (x, np.ones(2)), (y, np.zeros(2))), y, rtol=1e-9)
    check_approx(jvp(None, f, (x, ZeroTangent()), (y, np.ones(2))), x, rtol=1e-9)
    check_approx(jvp(None, f, (x, NoTangent()), (y, np.ones(2))), x, rtol=1e-9)
    dx, dy = vjp(None, f, np.array([1.0, 1.0]), x, y)
    check_approx(dx, y, rtol=1e-9)
    check_approx(dy, x, rtol=1e-9)


# ---- complex values follow the library's convention ----------------------------------------------
def test_complex_holomorphic():
    z, dz, dy = np.array([1 + 2j, -0.5j]), np.array([0.3 - 1j, 2.0]), np.array([1 - 1j, 0.5 + 2j])
    check_approx(jvp(None, np.square, (z, dz)), 2 * z * dz, rtol=1e-9)
    check_approx(vjp(None, np.square, dy, z)[0], np.conj(2 * z) * dy, rtol=1e-9)


def test_complex_non_holomorphic():
    z = np.array([1 + 2j, -0.5j])
    # |z|^2 is real: its cotangent is d/dRe + 1j d/dIm = 2 z dy.
    check_approx(vjp(None, lambda v: np.abs(v) ** 2, np.array([1.0, 3.0]), z)[0],
                 2 * z * np.array([1.0, 3.0]), rtol=1e-9)
    # conj: <dy, conj(z)> = Re(dy z), whose cotangent is conj(dy).
    dy = np.array([1 - 1j, 0.5 + 2j])
    check_approx(vjp(None, np.conj, dy, z)[0], np.conj(dy), rtol=1e-9)
    check_approx(jvp(None, np.conj, (z, dy)), np.conj(dy), rtol=1e-9)


def test_real_input_complex_output():
    x, dy = np.array([0.3, 1.2]), np.array([1 + 2j, -1j])
    (dx,) = vjp(None, lambda t: np.exp(1j * t), dy, x)
    assert dx.dtype == np.float64
    check_approx(dx, np.real(np.conj(1j * np.exp(1j * x)) * dy), rtol=1e-9)


def test_complex_jacobian_is_real_of_twice_the_size():
    (J,) = jacobian(None, lambda z: 1j * z, np.array([1 + 1j, 2.0 + 0j]))
    assert J.shape == (4, 4)
    check_approx(J, np.array([[0, 0, -1, 0], [0, 0, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0]], dtype=float), atol=1e-9)


# ---- nested structures ----------------------------------------------------------------------------
def tuple_function(pair):
    a, b = pair
    return (a * b, np.sin(a))


def namedtuple_function(p):
    return Point(p.x * p.y, p.x + 2 * p.y)


def dict_function(d):
    return {"sum": d["a"] + d["b"], "scaled": d["a"] * d["b"], "label": "out"}


def dataclass_function(p):
    return Params(w=p.w * p.b ** p.n, name=p.name.upper(), n=p.n, b=np.cos(p.b))


def mixed_function(x):
    vec, label, count, inner = x
    return {"y": vec * count, "label": label, "inner": (inner[0] ** 2, inner[1])}


NESTED = {
    "tuple": (tuple_function, (np.array([1.0, 2.0]), 0.5)),
    "namedtuple": (namedtuple_function, Point(np.array([1.0, -1.0]), np.array([0.5 + 1j, 2.0]))),
    "dict": (dict_function, {"a": np.array([1.0, 2.0, 3.0]), "b": 1.5}),
    "dataclass": (dataclass_function, Params(np.array([1.0, 2.0]), "w", 3, 0.7)),
    "mixed": (mixed_function, (np.array([1.0, 2.0], dtype=np.float32), "label", 3, (np.float64(2.0), "x"))),
}


@pytest.mark.parametrize("case", sorted(NESTED))
def test_nested_jvp_and_vjp_satisfy_the_adjoint_identity(case):
    f, x = NESTED[case]
    rng = np.random.default_rng(1)
    dx, dy = rand_tangent(x, rng), rand_tangent(f(x), rng)
    ydot = jvp(None, f, (x, dx))
    (xbar,) = vjp(None, f, dy, x)
    lhs, rhs = real_inner(f(x), dy, ydot), real_inner(x, xbar, dx)
    assert abs(lhs - rhs) <= 1e-8 * (abs(lhs) + abs(rhs))


@pytest.mark.parametrize("case", sorted(NESTED))
def test_nested_jvp_matches_a_small_step(case):
    """jvp agrees with a plain forward difference (a loose check, independent of the method)."""
    f, x = NESTED[case]
    dx = rand_tangent(x, np.random.default_rng(2))
    _, treedef = tree_flatten(x)
    specs = treedef.leaf_specs()
    v0, dv = leaves_to_vec(tree_flatten(x)[0], specs), leaves_to_vec(treedef.flatten_tangent(dx), specs)
    from chainrules.testing.tree import vec_to_leaves

    y0 = f(x)
    _, ytree = tree_flatten(y0)
    yspecs = ytree.leaf_specs()
    h = 1e-6
    moved = f(treedef.unflatten(vec_to_leaves(v0 + h * dv, specs, promote=True)))
    approx = (leaves_to_vec(tree_flatten(moved)[0], yspecs) - leaves_to_vec(tree_flatten(y0)[0], yspecs)) / h
    ydot = jvp(None, f, (x, dx))
    np.testing.assert_allclose(leaves_to_vec(ytree.flatten_tangent(ydot), yspecs), approx, rtol=1e-4, atol=1e-5)


def test_structured_outputs_come_back_as_tangents_of_their_type():
    f, x = NESTED["namedtuple"]
    ydot = jvp(None, f, (x, rand_tangent(x)))
    assert isinstance(ydot, Tangent) and ydot.primal_type is Point
    (xbar,) = vjp(None, f, rand_tangent(f(x)), x)
    assert isinstance(xbar, Tangent) and xbar.primal_type is Point
    assert xbar.y.dtype == np.complex128 and xbar.x.dtype == np.float64

    f, x = NESTED["dataclass"]
    (xbar,) = vjp(None, f, rand_tangent(f(x)), x)
    assert xbar.primal_type is Params and isinstance(xbar.name, NoTangent) and isinstance(xbar.n, NoTangent)

    f, x = NESTED["dict"]
    ydot = jvp(None, f, (x, rand_tangent(x)))
    assert isinstance(ydot, dict) and set(ydot) == {"sum", "scaled", "label"} and isinstance(ydot["label"], NoTangent)


def test_tangents_given_in_natural_form():
    f, x = NESTED["tuple"]
    natural = (np.array([1.0, 0.0]), 1.0)
    structural = Tangent(tuple, np.array([1.0, 0.0]), 1.0)
    check_approx(jvp(None, f, (x, natural)), jvp(None, f, (x, structural)), rtol=1e-12)
    dy = (np.ones(2), np.array([1.0, -1.0]))
    check_approx(vjp(None, f, dy, x), vjp(None, f, Tangent(tuple, *dy), x), rtol=1e-12)


def test_static_parts_are_passed_unchanged():
    seen = []

    def f(x):
        vec, label, count, inner = x
        seen.append((label, count, inner[1], type(count)))
        return vec * count

    _, x = NESTED["mixed"]
    jvp(None, f, (x, rand_tangent(x)))
    vjp(None, f, np.ones(2, dtype=np.float32), x)
    assert set(seen) == {("label", 3, "x", int)}


# ---- precision --------------------------------------------------------------------------------------
def test_float32_inputs_are_evaluated_at_float64():
    f = Counter(np.sin)
    x = np.array([0.5, 1.0], dtype=np.float32)
    d = jvp(None, f, (x, np.ones(2, dtype=np.float32)))
    assert f.dtypes == {np.dtype(np.float32), np.dtype(np.float64)}  # the primal call, then the steps
    check_approx(d, np.cos(x.astype(np.float64)), rtol=1e-10)


def test_promotion_can_be_switched_off():
    f = Counter(np.sin)
    x = np.array([0.5, 1.0], dtype=np.float32)
    jvp(central_fdm(5, 1), f, (x, np.ones(2, dtype=np.float32)), promote=False)
    assert f.dtypes == {np.dtype(np.float32)}


# ---- cost ---------------------------------------------------------------------------------------------
def test_jvp_cost_does_not_depend_on_the_input_size():
    calls = []
    for n in (3, 300):
        f = Counter(lambda v: np.sum(np.sin(v)))
        jvp(None, f, (np.linspace(0.1, 1.0, n), np.ones(n)))
        calls.append(f.calls)
    assert calls[0] == calls[1] <= 13


def test_vjp_cost_grows_with_the_input_size():
    calls = []
    for n in (3, 6):
        f = Counter(lambda v: np.sin(v))
        vjp(None, f, np.ones(n), np.linspace(0.1, 1.0, n))
        calls.append(f.calls)
    assert calls[1] - 1 == 2 * (calls[0] - 1)  # one column per input entry, plus one primal call


def test_zero_cotangent_costs_nothing():
    f = Counter(np.sin)
    (dx,) = vjp(None, f, ZeroTangent(), np.ones(3))
    assert f.calls == 1 and np.all(dx == 0)


# ---- max_range -----------------------------------------------------------------------------------
def test_jvp_moves_no_entry_further_than_max_range():
    x = np.array([1.0, 2.0, 3.0])
    moved = []

    def f(v):
        moved.append(np.max(np.abs(v - x)))
        return np.exp(v)

    dx = np.array([100.0, -50.0, 0.1])  # a large tangent: the step is taken along dx / max|dx|
    d = jvp(central_fdm(5, 1, max_range=1e-3), f, (x, dx))
    assert max(moved) <= 1e-3 + 1e-15
    check_approx(d, np.exp(x) * dx, rtol=1e-8)


def test_zero_tangents_cost_nothing():
    f = Counter(np.sin)
    assert np.all(jvp(None, f, (np.ones(3), np.zeros(3))) == 0)
    assert f.calls == 1


def test_output_changing_structure_is_an_error():
    flip = iter([np.ones(2)] + [(np.ones(2), np.ones(2))] * 40)
    with pytest.raises(ValueError, match="changed structure"):
        jvp(None, lambda v: next(flip), (np.ones(2), np.ones(2)))
