"""The quadratic assignment problem: ``scipy.optimize.quadratic_assignment``.

The maths
---------
``quadratic_assignment(A, B)`` returns a permutation ``p`` (``res.col_ind``) of the nodes of ``B``
and the objective at it, ``fun = sum_ij A_ij B_{p_i p_j}``. The permutation is an integer answer,
piecewise constant in ``A`` and ``B`` (the FAQ and 2-opt heuristics, run from the same start or
``rng``, make the same discrete choices for small changes of the data), so ``col_ind`` has no
tangent and ``fun`` moves as the objective at the fixed permutation: ``A_bar = fun_bar B[p][:, p]``
and ``B_bar[p][:, p] = fun_bar A`` (the envelope argument of Milgrom & Segal 2002 for the exact
optimum; for a heuristic it is the derivative of the function SciPy computes, wherever its
choices do not switch). At data where two permutations tie there is no derivative, and nothing
tells the rule. ``method`` and ``options`` are constants.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.optimize

from chainrules.rulesets.optimize._implicit import is_zero, read_result_cotangent
from chainrules.rulesets.optimize.roots import result_tangent
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    frule,
    rrule,
    sample_inputs,
    unthunk,
)

__all__: list[str] = []

NO = NoTangent()
ZERO = ZeroTangent()


@rrule.register(scipy.optimize.quadratic_assignment, object, object)
def quadratic_assignment_rrule(a: Any, b: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.quadratic_assignment``: ``fun``'s cotangent at the returned permutation.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, Tangent
    >>> a = np.array([[0.0, 2.0], [1.0, 0.0]])
    >>> b = np.array([[0.0, 5.0], [3.0, 0.0]])
    >>> res, pullback = rrule(scipy.optimize.quadratic_assignment, a, b)
    >>> res.col_ind, float(res.fun)                   # swapping the nodes gives 2 * 3 + 1 * 5
    (array([1, 0]), 11.0)
    >>> pullback(Tangent(type(res), {"fun": 1.0}))[1]   # d fun / d A = B[p][:, p]
    array([[0., 3.],
           [5., 0.]])
    """
    res = scipy.optimize.quadratic_assignment(a, b, *rest, **kwargs)
    p = np.asarray(res.col_ind)
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    npos = 2 + len(rest)

    def quadratic_assignment_pullback(dy: Any) -> tuple[Any, ...]:
        cts = read_result_cotangent(dy, res, ("fun",), scipy.optimize.quadratic_assignment)
        tail = (NO,) * (npos - 2)
        if isinstance(cts, NotImplementedTangent):
            return (NO, cts, cts, *tail)
        if isinstance(cts, AbstractZero) or cts["fun"] is None:
            return (NO, ZERO, ZERO, *tail)
        fbar = float(np.asarray(unthunk(cts["fun"])))
        am, bm = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        bbar = np.zeros_like(bm)
        bbar[np.ix_(p, p)] = fbar * am
        return (NO, project_a(fbar * bm[np.ix_(p, p)]), project_b(bbar), *tail)

    return res, quadratic_assignment_pullback


@frule.register(scipy.optimize.quadratic_assignment, object, object)
def quadratic_assignment_frule(tangents: Any, a: Any, b: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.quadratic_assignment``: ``dfun = sum(dA * B[p][:, p] + A * dB[p][:, p])``."""
    res = scipy.optimize.quadratic_assignment(a, b, *rest, **kwargs)
    da = unthunk(tangents[1]) if len(tangents) > 1 else ZERO
    db = unthunk(tangents[2]) if len(tangents) > 2 else ZERO
    for t in (da, db):
        if isinstance(t, NotImplementedTangent):
            return res, t
    if is_zero(da) and is_zero(db):
        return res, ZERO
    p = np.asarray(res.col_ind)
    dfun = 0.0
    if not is_zero(da):
        dfun += float(np.sum(np.asarray(da) * np.asarray(b, dtype=np.float64)[np.ix_(p, p)]))
    if not is_zero(db):
        dfun += float(np.sum(np.asarray(a, dtype=np.float64) * np.asarray(db)[np.ix_(p, p)]))
    return res, result_tangent(res, {"fun": dfun})


@sample_inputs(scipy.optimize.quadratic_assignment)
def _quadratic_assignment_samples(rng: np.random.Generator) -> Iterator[Sample]:
    a, b = rng.random((5, 5)), rng.random((5, 5))
    gauge: dict[str, Any] = {"gauge_invariant": lambda res: (res.col_ind, res.fun)}
    yield Sample(a, b, label="FAQ from the barycentre", **gauge)
    yield Sample(a, b, "faq", {"maximize": True}, label="maximize, method and options by position", **gauge)
