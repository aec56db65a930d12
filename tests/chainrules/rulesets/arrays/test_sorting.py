"""Rules of chainrules/rulesets/arrays/sorting.py, checked against finite differences (at distinct values)."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.testing import check_approx, test_frule, test_rrule


@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort(axis, dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(np.sort, x, axis)
    test_frule(np.sort, x, axis)
    test_rrule(np.sort, x, axis, "stable")
    test_rrule(np.sort, x, axis, fkwargs={"stable": True})


def test_sort_spellings(rand):
    test_rrule(np.sort, rand(3, 4))
    test_rrule(np.sort, rand(3, 4), fkwargs={"axis": 0, "kind": "heapsort"})
    test_rrule(np.sort, [3.0, 1.0, 2])


@pytest.mark.parametrize(("kth", "axis"), [(1, -1), ((0, 2), -1), (2, 0), (5, None)])
def test_partition(kth, axis, dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(np.partition, x, kth, axis)
    test_frule(np.partition, x, kth, axis)
    test_rrule(np.partition, x, kth, fkwargs={"axis": axis})


def test_partition_output_is_numpys(rand):
    for seed in range(20):
        x = np.random.default_rng(seed).integers(0, 4, size=(3, 7)).astype(float)  # many ties
        y, _ = rrule(np.partition, x, 3)
        check_approx(y, np.partition(x, 3))


def test_sort_complex(dtype, rand):
    test_rrule(np.sort_complex, rand(5, dtype=dtype))
    test_frule(np.sort_complex, rand(5, dtype=dtype))


@pytest.mark.parametrize("flags", [(), (True,), (True, True, True)])
def test_unique(flags, dtype):
    x = np.array([2.0, 1.0, 2.5, 3.0, 1.5]).astype(dtype)  # distinct values: unique is a sort there
    test_rrule(np.unique, x, *flags)
    test_frule(np.unique, x, *flags)


def test_unique_axis_and_keywords(rand):
    rows = np.array([[1.0, 2.0], [1.5, 3.0], [0.0, 5.0]])
    test_rrule(np.unique, rows, False, False, False, 0)
    test_rrule(np.unique, rand(3, 4), fkwargs={"return_counts": True})
    test_rrule(np.unique, rand(5), fkwargs={"sorted": False})  # values in NumPy's order, whatever it is


def test_order_keyword_is_passed_on(rand):
    with pytest.raises(ValueError, match="no fields"):  # NumPy's own error, not silently ignored
        rrule(np.sort, rand(3), order="x")


def test_unique_sends_cotangents_to_first_occurrences():
    x = np.array([2.0, 1.0, 2.0, 1.0, 3.0])
    _, pullback = rrule(np.unique, x)
    d = unthunk(pullback(np.array([10.0, 20.0, 30.0]))[1])
    check_approx(d, np.array([20.0, 10.0, 0.0, 0.0, 30.0]))


# np.unique_values returns complex values in hash order, which any perturbation may change: its
# output is not a continuous function of complex input, so only real dtypes are tested for it.
UNIQUE_VARIANTS = [(f, d) for f in (np.unique_values, np.unique_all, np.unique_counts, np.unique_inverse)
                   for d in (np.float64, np.float32, np.complex128)
                   if not (f is np.unique_values and d == np.complex128)]


@pytest.mark.parametrize(("f", "dtype"), UNIQUE_VARIANTS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_unique_variants(f, dtype, rand):
    x = np.array([2.0, 1.0, 2.5, 3.0, 1.5]).astype(dtype)
    test_rrule(f, x)
    test_frule(f, x)
    test_rrule(f, rand(2, 3, dtype=dtype))


@pytest.mark.parametrize("f", [np.union1d, np.setdiff1d, np.setxor1d])
def test_set_operations(f, rand):
    a, b = np.array([3.0, 1.5, 2.25, 7.0]), np.array([2.0, 3.5, 9.5])
    test_rrule(f, a, b)
    test_frule(f, a, b)


def test_intersect1d_values_go_to_the_first_array():
    a, b = np.array([3.0, 1.5, 2.0]), np.array([2.0, 3.0])
    y, pullback = rrule(np.intersect1d, a, b)
    _, da, db = (unthunk(c) for c in pullback(np.array([10.0, 20.0])))
    check_approx(y, np.array([2.0, 3.0]))
    check_approx(da, np.array([20.0, 0.0, 10.0]))
    check_approx(db, np.zeros(2))
