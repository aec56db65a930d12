"""``np.tensordot(a, b, axes)`` for every form of ``axes`` (an int ``N``, a pair of ints, a
pair of sequences, negative axes).

With ``y = tensordot(a, b, (axes_a, axes_b))``, the output's axes are the free axes of
``a`` followed by the free axes of ``b``. The adjoint contracts the output cotangent with
the conjugate of the other operand over that operand's free axes:

* ``da = tensordot(dy, conj(b), (b's part of dy, free axes of b))``, whose axes are
  ``a``'s free axes followed by ``a``'s contracted axes in the order of ``b``'s sorted
  contracted axes; one transpose (a view) puts them back in ``a``'s order;
* ``db = tensordot(conj(a), dy, (free axes of a, a's part of dy))``, likewise.

Each cotangent is therefore a single ``tensordot`` (one BLAS call), never a Jacobian.
:func:`tensordot_cotangent_a` and :func:`tensordot_cotangent_b` are reused by the rules
of ``np.dot`` and ``np.inner`` (:mod:`~chainrules.rulesets.contractions.matrix_vector_products`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.contractions._multilinear import lazy_cotangent, sum_tangents
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NUMERIC,
    NoTangent,
    ProjectTo,
    Sample,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)
from chainrules_core.scalar_rules import conj_if_complex


def normalize_axes(axes: Any, ndim_a: int, ndim_b: int) -> tuple[list[int], list[int]]:
    """The contracted axes of ``a`` and ``b`` as lists of non-negative ints, as NumPy reads ``axes``.

    Examples
    --------
    >>> normalize_axes(2, 3, 3)
    ([1, 2], [0, 1])
    >>> normalize_axes((0, -1), 2, 2), normalize_axes(([1, 0], [0, 1]), 2, 2)
    (([0], [1]), ([1, 0], [0, 1]))
    """
    try:
        iter(axes)
    except TypeError:
        n = int(axes)
        axes_a, axes_b = list(range(ndim_a - n, ndim_a)), list(range(n))
    else:
        first, second = axes
        axes_a = list(first) if np.ndim(first) else [first]
        axes_b = list(second) if np.ndim(second) else [second]
    return ([int(i) % ndim_a if ndim_a else int(i) for i in axes_a],
            [int(i) % ndim_b if ndim_b else int(i) for i in axes_b])


def tensordot_cotangent_a(a: np.ndarray, b: np.ndarray, axes_a: list[int], axes_b: list[int],
                          dy: np.ndarray) -> np.ndarray:
    """The cotangent of ``a`` in ``tensordot(a, b, (axes_a, axes_b))`` (not projected).

    ``axes_a`` and ``axes_b`` are non-negative (see :func:`normalize_axes`).

    Examples
    --------
    >>> a, b = np.ones((2, 3)), np.arange(12.0).reshape(3, 4)
    >>> tensordot_cotangent_a(a, b, [1], [0], np.ones((2, 4)))      # dy @ b.T
    array([[ 6., 22., 38.],
           [ 6., 22., 38.]])
    """
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    n_free_a = a.ndim - len(axes_a)
    da = np.tensordot(dy, conj_if_complex(b), axes=(list(range(n_free_a, np.ndim(dy))), free_b))
    order = [i for i in range(a.ndim) if i not in axes_a] + [axes_a[axes_b.index(j)] for j in sorted(axes_b)]
    return np.transpose(da, np.argsort(order))


def tensordot_cotangent_b(a: np.ndarray, b: np.ndarray, axes_a: list[int], axes_b: list[int],
                          dy: np.ndarray) -> np.ndarray:
    """The cotangent of ``b`` in ``tensordot(a, b, (axes_a, axes_b))`` (not projected).

    Examples
    --------
    >>> a, b = np.arange(6.0).reshape(2, 3), np.ones((3, 4))
    >>> tensordot_cotangent_b(a, b, [1], [0], np.ones((2, 4)))      # a.T @ dy
    array([[3., 3., 3., 3.],
           [5., 5., 5., 5.],
           [7., 7., 7., 7.]])
    """
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    db = np.tensordot(conj_if_complex(a), dy, axes=(free_a, list(range(len(free_a)))))
    order = [axes_b[axes_a.index(i)] for i in sorted(axes_a)] + [i for i in range(b.ndim) if i not in axes_b]
    return np.transpose(db, np.argsort(order))


@rrule.register(np.tensordot, NUMERIC, NUMERIC)
def tensordot_rrule(a: Any, b: Any, axes: Any = 2) -> Any:
    """Reverse rule of ``np.tensordot(a, b, axes)``: each cotangent is one tensordot.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.tensordot, np.ones((2, 3)), np.ones((3, 4)), 1)
    >>> unthunk(pullback(np.ones((2, 4)))[1])
    array([[4., 4., 4.],
           [4., 4., 4.]])
    """
    y = np.tensordot(a, b, axes)
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)
    a_arr, b_arr = np.asarray(a), np.asarray(b)
    axes_a, axes_b = normalize_axes(axes, a_arr.ndim, b_arr.ndim)

    def tensordot_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.tensordot)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a(zero), project_b(zero), NoTangent()
        dy = np.asarray(dy)
        da = lazy_cotangent(project_a, lambda: tensordot_cotangent_a(a_arr, b_arr, axes_a, axes_b, dy))
        db = lazy_cotangent(project_b, lambda: tensordot_cotangent_b(a_arr, b_arr, axes_a, axes_b, dy))
        return NoTangent(), da, db, NoTangent()

    return y, tensordot_pullback


@frule.register(np.tensordot, NUMERIC, NUMERIC)
def tensordot_frule(tangents: Any, a: Any, b: Any, axes: Any = 2) -> Any:
    """Forward rule of ``np.tensordot``: ``tensordot(da, b, axes) + tensordot(a, db, axes)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), np.zeros(2), NoTangent()), np.tensordot, np.ones(2), np.ones(2), 1)[1]
    array(2.)
    """
    y = np.tensordot(a, b, axes)
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    terms = (None if da is None else np.tensordot(da, b, axes), None if db is None else np.tensordot(a, db, axes))
    return y, sum_tangents(terms, ProjectTo(y))


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.tensordot)
def _tensordot_samples(rng: np.random.Generator) -> list[Sample]:
    def r(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    a, b = r(2, 3, 4), r(3, 4, 2)
    return [Sample(a, b, label="axes=2 (the default)"), Sample(a, r(4, 2), 1, label="axes=1 by position"),
            Sample(a, r(4, 3), fkwargs={"axes": ([1, 2], [1, 0])}, label="axis lists by keyword, reordered"),
            Sample(a, r(2, 4), ((0, -1), (0, 1)), label="negative axes"),
            Sample(r(3), r(2), 0, label="axes=0: an outer product"), Sample(2.5, r(3), 0, label="a scalar operand"),
            Sample(a.astype(np.float32), b.astype(np.float32), label="float32"),
            Sample(a + 1j * r(2, 3, 4), b, label="complex and real")]
