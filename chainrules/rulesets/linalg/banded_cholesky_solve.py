"""Solves with a banded Cholesky factor: ``scipy.linalg.cho_solve_banded((cb, lower), b)``.

``cb`` holds, in LAPACK band storage, a triangular factor with ``k`` off-diagonals: the
upper factor ``U`` (``lower=False``, ``cb[k + i - j, j] = U[i, j]``, ``A = U^H U``) or the lower
factor ``L`` (``lower=True``, ``cb[i - j, j] = L[i, j]``, ``A = L L^H``), as
``scipy.linalg.cholesky_banded`` returns it; ``x = A^{-1} b`` (LAPACK ``?pbtrs``).

The maths
---------
Write the factor as the lower ``L`` (``L = U^H`` for the upper form). Then
``dx = A^{-1} (db - dA x)`` with ``dA = dL L^H + L dL^H``, and in reverse (the solve is with a
Hermitian matrix) ``b_bar = A^{-1} x_bar``, ``A_bar = -b_bar x^H`` and
``L_bar = (A_bar + A_bar^H) L = -(b_bar (L^H x)^H + x (L^H b_bar)^H)`` on the band of ``L``
(Giles 2008, "An extended collection of matrix derivative results for forward and reverse
mode algorithmic differentiation", sections 2.2-2.3, with the factorization's product
rule). The upper form's cotangent is ``U_bar = L_bar^H``. Only the ``k + 1`` diagonals are
formed (``O(n k m)`` for ``m`` right-hand sides, products done along the diagonals); the
unused corner of ``cb`` gets a zero cotangent. The factor is read as it is, complex
diagonal included (``?pbtrs`` does not assume it real), so the rules are exact for any
band ``cb`` that ``?pbtrs`` accepts, not only for outputs of ``cholesky_banded``.

Leading batch axes of ``cb`` and ``b`` broadcast as in SciPy; cotangents are summed back
to each input's shape. ``lower`` gets ``NoTangent()``; the cotangent of the tuple
``(cb, lower)`` is a ``Tangent`` of that tuple.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import spd
from chainrules.rulesets.linalg._utils import NO, conj, not_implemented_in, tangent_parts, tangent_value
from chainrules_core import (
    ProjectTo,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
)

__all__ = ["band_diagonals", "band_from_diagonals"]


def band_diagonals(cb: np.ndarray, lower: bool) -> list[np.ndarray]:
    """The diagonals of the lower factor ``L`` a band stands for: entry ``d`` holds ``L[i + d, i]``, ``i < n - d``.

    For the upper form ``L = U^H``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.banded_cholesky_solve import band_diagonals
    >>> band_diagonals(np.array([[0.0, 5.0], [1.0, 2.0]]), lower=False)     # U = [[1, 5], [0, 2]]
    [array([1., 2.]), array([5.])]
    """
    k, n = cb.shape[-2] - 1, cb.shape[-1]
    if lower:
        return [cb[..., d, : n - d] for d in range(k + 1)]
    return [conj(cb[..., k - d, d:]) for d in range(k + 1)]


def band_from_diagonals(diagonals: list[np.ndarray], shape: tuple[int, ...], lower: bool) -> np.ndarray:
    """The adjoint placement of :func:`band_diagonals`: band storage (of ``shape``) from the diagonals of ``L``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.banded_cholesky_solve import band_from_diagonals
    >>> band_from_diagonals([np.array([1.0, 2.0]), np.array([5.0])], (2, 2), lower=True)
    array([[1., 2.],
           [5., 0.]])
    """
    k, n = shape[-2] - 1, shape[-1]
    batch = np.broadcast_shapes(*(d.shape[:-1] for d in diagonals))
    out = np.zeros(batch + (k + 1, n), dtype=np.result_type(*diagonals))
    for d, values in enumerate(diagonals):
        if lower:
            out[..., d, : n - d] = values
        else:
            out[..., k - d, d:] = conj(values)
    return out


def _times_l(diagonals: list[np.ndarray], v: np.ndarray) -> np.ndarray:
    """``L v`` for columns ``v`` (``(..., n, m)``)."""
    n = v.shape[-2]
    out = np.zeros(np.broadcast_shapes(diagonals[0].shape[:-1] + v.shape[-2:], v.shape),
                   dtype=np.result_type(v, *diagonals))
    for d, values in enumerate(diagonals):
        out[..., d:, :] += values[..., :, None] * v[..., : n - d, :]
    return out


def _times_lh(diagonals: list[np.ndarray], v: np.ndarray) -> np.ndarray:
    """``L^H v`` for columns ``v`` (``(..., n, m)``)."""
    n = v.shape[-2]
    out = np.zeros(np.broadcast_shapes(diagonals[0].shape[:-1] + v.shape[-2:], v.shape),
                   dtype=np.result_type(v, *diagonals))
    for d, values in enumerate(diagonals):
        out[..., : n - d, :] += conj(values)[..., :, None] * v[..., d:, :]
    return out


def _solve(cb: np.ndarray, lower: bool, rhs: np.ndarray, vector: bool) -> np.ndarray:
    """``A^{-1} rhs`` with the same factor (vectors as columns, so that stacks of vectors stay vectors)."""
    if vector:
        return scipy.linalg.cho_solve_banded((cb, lower), rhs[..., None], False, False)[..., 0]
    return scipy.linalg.cho_solve_banded((cb, lower), rhs, False, False)


def _band_of_products(p: np.ndarray, q: np.ndarray, k: int) -> list[np.ndarray]:
    """The diagonals ``d = 0..k`` of ``p q^H`` on and below the main one: ``sum_l p[i + d, l] conj(q[i, l])``."""
    n = p.shape[-2]
    return [np.sum(p[..., d:, :] * conj(q[..., : n - d, :]), axis=-1) for d in range(k + 1)]


@rrule.register(scipy.linalg.cho_solve_banded, (tuple, list), np.ndarray)
def cho_solve_banded_rrule(cb_and_lower: Any, b: np.ndarray, overwrite_b: Any = False,
                           check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.cho_solve_banded``: ``b_bar = A^{-1} x_bar`` and ``L_bar`` on the band.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> cb = np.array([[0.0, 0.0], [2.0, 3.0]])             # U = diag(2, 3): A = diag(4, 9)
    >>> x, pullback = rrule(scipy.linalg.cho_solve_banded, (cb, False), np.array([4.0, 9.0]))
    >>> x
    array([1., 1.])
    >>> d_cb, db = map(unthunk, pullback(np.array([1.0, 0.0]))[1:3])
    >>> d_cb[0], db                     # x_0 = b_0 / u_00^2, and u_01 couples x_0 to x_1
    (array([[ 0. , -0.5],
           [-1. , -0. ]]), array([0.25, 0.  ]))
    """
    cb, lower = np.asarray(cb_and_lower[0]), bool(cb_and_lower[1])
    x = scipy.linalg.cho_solve_banded(cb_and_lower, b, False, check_finite)
    project_cb, project_b = cotangent_projector(cb), cotangent_projector(b)
    vector = np.ndim(b) == 1

    def cb_cotangent(value: Any) -> Any:
        return Tangent(type(cb_and_lower), project_cb(value), NO)

    def cho_solve_banded_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_cotangent(dy, x, "scipy.linalg.cho_solve_banded")
        if passes_through(dx):
            return NO, cb_cotangent(dx), project_b(dx), NO, NO
        db = _solve(cb, lower, dx, vector)   # A is Hermitian

        def d_cb() -> Any:
            diagonals = band_diagonals(cb, lower)
            X, DB = (x[..., None], db[..., None]) if vector else (x, db)
            p, q = _times_lh(diagonals, X), _times_lh(diagonals, DB)
            first, second = _band_of_products(DB, p, len(diagonals) - 1), _band_of_products(X, q, len(diagonals) - 1)
            l_bar = [-(f + s) for f, s in zip(first, second)]
            return cb_cotangent(unbroadcast(band_from_diagonals(l_bar, cb.shape, lower), cb.shape))

        return NO, Thunk(d_cb), Thunk(lambda: project_b(unbroadcast(db, np.shape(b)))), NO, NO

    return x, cho_solve_banded_pullback


@frule.register(scipy.linalg.cho_solve_banded, (tuple, list), np.ndarray)
def cho_solve_banded_frule(tangents: Any, cb_and_lower: Any, b: np.ndarray, overwrite_b: Any = False,
                           check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.cho_solve_banded``: ``dx = A^{-1} (db - dL (L^H x) - L (dL^H x))``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> cb = np.array([[0.0, 0.0], [2.0, 3.0]])
    >>> tangents = (NoTangent(), ZeroTangent(), np.array([4.0, 0.0]))
    >>> frule(tangents, scipy.linalg.cho_solve_banded, (cb, False), np.array([4.0, 9.0]))[1]
    array([1., 0.])
    """
    cb, lower = np.asarray(cb_and_lower[0]), bool(cb_and_lower[1])
    x = scipy.linalg.cho_solve_banded(cb_and_lower, b, False, check_finite)
    d_cb = tangent_parts(tangents[1], ("cb", "lower"), "scipy.linalg.cho_solve_banded frule: tangent of (cb, lower)")[0]
    d_cb = None if d_cb is None else tangent_value(d_cb)
    db = tangent_value(tangents[2])
    missing = not_implemented_in(d_cb, db)
    if missing is not None:
        return x, missing
    if d_cb is None and db is None:
        return x, ZeroTangent()
    vector = np.ndim(b) == 1
    rhs: Any = 0 if db is None else db
    if d_cb is not None:
        X = x[..., None] if vector else x
        diagonals, d_diagonals = band_diagonals(cb, lower), band_diagonals(d_cb, lower)
        da_x = _times_l(d_diagonals, _times_lh(diagonals, X)) + _times_l(diagonals, _times_lh(d_diagonals, X))
        rhs = rhs - (da_x[..., 0] if vector else da_x)
    rhs = np.broadcast_to(rhs, np.broadcast_shapes(np.shape(rhs), x.shape))
    return x, ProjectTo(x)(_solve(cb, lower, rhs, vector))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.cho_solve_banded)
def _cho_solve_banded_samples(rng: np.random.Generator) -> list[Sample]:
    a = np.triu(np.tril(spd(4, rng), 1), -1) + np.eye(4)     # tridiagonal, positive definite
    upper = scipy.linalg.cholesky_banded(np.stack([np.r_[0.0, np.diagonal(a, 1)], np.diagonal(a)]))
    lower = scipy.linalg.cholesky_banded(np.stack([np.diagonal(a), np.r_[np.diagonal(a, -1), 0.0]]), lower=True)
    b = rng.standard_normal(4)
    return [
        Sample((upper, False), b, label="upper factor, vector b"),
        Sample((lower, True), rng.standard_normal((4, 2)), label="lower factor, two columns"),
        Sample((upper.astype(np.float32), False), b.astype(np.float32), label="float32"),
        Sample((upper + 0.1j * rng.standard_normal(upper.shape), False), b, label="complex band"),
        Sample((upper, False), b, False, False, label="overwrite_b, check_finite by position"),
    ]
