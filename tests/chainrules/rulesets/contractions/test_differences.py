"""Rules of chainrules/rulesets/contractions/differences.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, Tangent, ZeroTangent, rrule, unthunk
from chainrules.testing import test_frule, test_rrule

DIFF_CASES = [
    ((5,), (), {}),
    ((5,), (2,), {}),                                   # n by position
    ((3, 4), (1, 0), {}),                               # axis by position
    ((3, 4), (), {"n": 3, "axis": -1}),                 # by keyword
    ((4,), (0,), {}),                                   # n = 0 returns the input
    ((3, 5), (), {"n": 4}),                             # n = length - 1
]


@pytest.mark.parametrize(("shape", "args", "kwargs"), DIFF_CASES)
def test_diff(shape, args, kwargs, dtype, rand):
    a = rand(shape, dtype)
    test_rrule(np.diff, a, *args, fkwargs=kwargs)
    test_frule(np.diff, a, *args, fkwargs=kwargs)


def test_diff_prepend_append(dtype, rand):
    a = rand((3, 4), dtype)
    test_rrule(np.diff, a, 1, 1, rand((3, 2), dtype))                      # prepend by position
    test_rrule(np.diff, a, fkwargs={"prepend": 1.5, "append": rand((3, 1), dtype)})   # a scalar prepend
    test_rrule(np.diff, a, 2, 0, 0.5, rand((2, 4), dtype))
    test_frule(np.diff, a, fkwargs={"prepend": 1.5, "append": rand((3, 1), dtype)})
    test_frule(np.diff, a, 2, 0, 0.5, rand((2, 4), dtype))


def test_diff_integer_arguments(rand):
    test_rrule(np.diff, rand(4), 1, -1, 2, 3)          # integer prepend/append: no tangent
    test_rrule(np.diff, np.arange(4.0), np.int64(2))    # NumPy integers for n
    assert rrule(np.diff, np.arange(4))[1](np.ones(3))[1] == NoTangent()


def test_diff_empty_output(rand):
    # (the testers cannot take an empty output: its cotangent is empty and every input's is zero)
    _, pullback = rrule(np.diff, rand((3, 4)), 4)
    da = unthunk(pullback(np.zeros((3, 0)))[1])
    assert da.shape == (3, 4) and not da.any()


def test_diff_with_n_zero_ignores_prepend(rand):
    _, pullback = rrule(np.diff, rand(3), 0, -1, 2.0)
    assert pullback(np.ones(3))[4] == ZeroTangent()


def test_diff_wrong_cotangent_and_bad_n(rand):
    _, pullback = rrule(np.diff, rand(4))
    with pytest.raises(ProjectionError, match=r"numpy\.diff pullback: output cotangent"):
        pullback(np.ones(4))
    with pytest.raises(ValueError, match="order must be non-negative"):
        rrule(np.diff, rand(4), -1)


@pytest.mark.parametrize(("shape", "to_end", "to_begin"), [
    ((5,), None, None),
    ((2, 3), None, None),                  # flattened
    ((4,), (2,), 1.5),
    ((4,), 2.0, (2, 2)),
    ((4,), None, (1,)),
])
def test_ediff1d(shape, to_end, to_begin, dtype, rand):
    def make(spec):
        if spec is None or isinstance(spec, float):
            return spec
        return rand(spec, dtype)

    args = (rand(shape, dtype), make(to_end), make(to_begin))
    test_rrule(np.ediff1d, *args)
    test_frule(np.ediff1d, *args)


def test_ediff1d_keywords(rand):
    test_rrule(np.ediff1d, rand(4), fkwargs={"to_begin": 2.0})
    test_rrule(np.ediff1d, rand(4), fkwargs={"to_end": rand(2), "to_begin": rand(1)})
    assert len(rrule(np.ediff1d, rand(3))[1](np.ones(2))) == 2     # trimmed to the arguments given


def _coordinates(rng_values):
    return np.cumsum(0.5 + np.abs(rng_values))


GRADIENT_CASES = [
    ((5,), (), {}),
    ((5,), (0.5,), {}),                                 # a scalar spacing
    ((5,), (), {"edge_order": 2}),
    ((5,), (0.7,), {"edge_order": 2}),
    ((2,), (), {}),                                     # the shortest axis for edge_order=1
    ((3, 4), (), {}),                                   # a tuple of outputs
    ((3, 4), (0.3,), {}),                               # one spacing for every axis
    ((3, 4), (0.3, 2.0), {}),                           # one per axis
    ((3, 4), ("x3", 0.5), {}),                          # coordinates and a scalar
    ((3, 4), ("x3", "x4"), {"edge_order": 2}),          # coordinates on both axes
    ((3, 4), (), {"axis": 1}),
    ((3, 4), ("x4",), {"axis": -1, "edge_order": 2}),
    ((3,), ("x3",), {"edge_order": 2}),                 # the shortest axis for edge_order=2
    ((3, 4, 5), (0.5,), {"axis": (0, 2)}),
]


@pytest.mark.parametrize(("shape", "spacing", "kwargs"), GRADIENT_CASES)
def test_gradient(shape, spacing, kwargs, dtype, rand):
    real = np.float32 if dtype == np.float32 else np.float64
    f = rand(shape, dtype)
    varargs = [_coordinates(rand(int(s[1:]), real)) if isinstance(s, str) else s for s in spacing]
    test_rrule(np.gradient, f, *varargs, fkwargs=kwargs)
    test_frule(np.gradient, f, *varargs, fkwargs=kwargs)


def test_gradient_evenly_spaced_coordinates(rand):
    # NumPy takes its uniform-spacing path here; the derivative is that of the general formula
    test_rrule(np.gradient, rand(5), np.arange(5.0) * 0.5)
    test_rrule(np.gradient, rand(5), np.arange(5.0), fkwargs={"edge_order": 2})


def test_gradient_integer_inputs(rand):
    test_rrule(np.gradient, np.arange(5) ** 2, 0.5)     # an integer f: no tangent, float output
    test_rrule(np.gradient, rand(5), 2)                 # an integer spacing: no tangent
    test_rrule(np.gradient, rand(5), np.arange(5))      # integer coordinates: no tangent


def test_gradient_tuple_cotangents(rand):
    f = rand((3, 4))
    _, pullback = rrule(np.gradient, f, 0.5)
    full = pullback((np.ones((3, 4)), np.ones((3, 4))))
    as_tangent = pullback(Tangent(tuple, np.ones((3, 4)), np.ones((3, 4))))
    np.testing.assert_allclose(unthunk(full[1]), unthunk(as_tangent[1]))
    partial = pullback((ZeroTangent(), np.ones((3, 4))))          # one output unused
    test_rrule(lambda x: np.gradient(x, 0.5)[1], f, rrule_f=lambda g, x: _second_output(x), check_inplace_add=False,
               check_frule_consistency=False)
    np.testing.assert_allclose(unthunk(partial[1]), unthunk(_second_output(f)[1](np.ones((3, 4)))[1]))
    with pytest.raises(ProjectionError, match=r"numpy\.gradient pullback: output cotangent is a ndarray, expected "
                                              r"a Tangent, tuple or list of 2 parts"):
        pullback(np.ones((3, 4)))
    with pytest.raises(ProjectionError, match="cotangent of output 1"):
        pullback((np.ones((3, 4)), np.ones(3)))


def _second_output(x):
    """The rrule of ``x -> np.gradient(x, 0.5)[1]`` built from the tuple rule (for the test above)."""
    _, pullback = rrule(np.gradient, x, 0.5)

    def second_pullback(dy):
        cotangents = pullback((ZeroTangent(), dy))
        return NoTangent(), cotangents[1]

    return np.gradient(x, 0.5)[1], second_pullback
