"""Distribution helpers built on the incomplete gamma function: gdtr, gdtrc, gdtria, gdtrib, gdtrix, chdtr, chdtrc,
chdtri, chdtriv, pdtr, pdtrc, pdtri, pdtrik, in every continuous argument.

The maths
---------
Every function is ``P(s, z)`` or ``Q(s, z) = 1 - P(s, z)`` with ``s``, ``z`` simple functions
of the arguments, or an inverse of one in some argument; the partials of ``P`` are those
of :mod:`chainrules.rulesets.special.incomplete_gamma` (``dP/ds`` by its series and continued
fraction, ``dP/dz = z^(s-1) e^-z / Gamma(s)``), with the chain rule:

* ``gdtr(a, b, x) = P(b, a x)`` (rate ``a``, shape ``b``), ``gdtrc = Q(b, a x)``;
* ``chdtr(v, x) = P(v/2, x/2)``, ``chdtrc = Q(v/2, x/2)``;
* ``pdtr(k, m) = Q(floor(k) + 1, m)``, ``pdtrc = P(floor(k) + 1, m)``.

The inverses (``gdtria``, ``gdtrib``, ``gdtrix`` solve ``gdtr = p`` for ``a``, ``b``, ``x``;
``chdtri`` solves ``chdtrc(v, x) = p`` for ``x``, ``chdtriv`` solves ``chdtr(v, x) = p``
for ``v``; ``pdtri`` solves ``pdtr(k, m) = y`` for ``m`` and ``pdtrik`` solves
``Q(k + 1, m) = p`` for a real ``k``) follow from the implicit function theorem at their
output: ``d(solved)/dp = 1 / dF/d(solved)`` and ``d(solved)/d(other) = -dF/d(other) / dF/d(solved)``.

Counts: SciPy floors ``k`` in ``pdtr``, ``pdtrc`` and ``pdtri``, so those functions are
piecewise constant in ``k``. An integer ``k`` gets ``NoTangent()``; a float ``k`` gets 0,
the derivative everywhere but at the integers, where the function jumps and 0 is the
right derivative. ``pdtrik`` returns a real ``k`` (it solves the continuous ``Q(k+1, m)``).

Where a shape derivative is ``not_implemented`` (beyond the series' term budget, see
:mod:`~chainrules.rulesets.special.incomplete_gamma`), so is every cotangent that needs it.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.chdtr, 3.0, 2.0)
>>> [round(float(unthunk(c)), 10) for c in pullback(1.0)[1:]]  # mpmath: -0.18734500127, 0.20755374871
[-0.1873450013, 0.2075537487]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules.rulesets.special.incomplete_gamma import gammainc_da, gammainc_dx
from chainrules_core import Sample, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import ZERO
from chainrules_core.tangents.not_implemented import NotImplementedTangent

__all__ = ["SOLVED_TOLERANCE", "inverse_partial", "where_solved"]


def _f64(*args: Any) -> list[np.ndarray]:
    return [np.array(v, dtype=np.float64) for v in np.broadcast_arrays(*(upcast(a) for a in args))]


def inverse_partial(d_solved: Any, d_other: Any = None, sign: float = 1.0) -> Any:
    """One partial of an inverse by the implicit function theorem.

    For ``F(..., v, ...) = p`` solved for ``v``: with ``d_other=None`` the partial in ``p``,
    ``sign / dF/dv``; else the partial in another argument, ``-dF/d(other) / dF/dv``. A
    ``NotImplementedTangent`` among the inputs is returned as it is.

    Examples
    --------
    >>> from chainrules.rulesets.special.gamma_distributions import inverse_partial
    >>> inverse_partial(2.0), inverse_partial(2.0, 3.0)  # v = (p - 3 w) / 2: dv/dp, dv/dw
    (0.5, -1.5)
    """
    for value in (d_solved, d_other):
        if isinstance(value, NotImplementedTangent):
            return value
    with np.errstate(divide="ignore", invalid="ignore"):
        if d_other is None:
            return sign / d_solved
        return -d_other / d_solved


SOLVED_TOLERANCE = 1e-7
"""How far ``F(output)`` may be from the target for an inverse to count as solved. SciPy's
root finders (cdflib) return a bound of their search interval (0, or 1e10 for ``stdtridf``)
when no solution exists; the output is then constant in the inputs and its partials are 0."""


def where_solved(partial: Any, value: Any, target: Any) -> Any:
    """``partial`` where ``|value - target| <= SOLVED_TOLERANCE``, else 0 (the output sits on a search bound).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special.gamma_distributions import where_solved
    >>> where_solved(np.array([2.0, 3.0]), np.array([0.5, 0.9]), 0.5)
    array([2., 0.])
    """
    with np.errstate(invalid="ignore"):
        solved = ~(np.abs(np.asarray(value) - target) > SOLVED_TOLERANCE)
    if isinstance(partial, NotImplementedTangent):  # not available somewhere: fine if only where nothing was solved
        return np.zeros(solved.shape)[()] if not np.any(solved) else partial
    return np.where(solved, partial, 0.0)[()]


def _neg(value: Any) -> Any:
    return value if isinstance(value, NotImplementedTangent) else -value


# ---- forward functions -------------------------------------------------------------------------------------
class _Gdtr:
    """The partials of ``gdtr(a, b, x) = P(b, a x)`` (``sign = -1``: of ``gdtrc``)."""

    @staticmethod
    def da(a: Any, b: Any, x: Any) -> Any:
        a, b, x = _f64(a, b, x)
        return gammainc_dx(b, a * x) * x

    @staticmethod
    def db(a: Any, b: Any, x: Any) -> Any:
        a, b, x = _f64(a, b, x)
        return gammainc_da(b, a * x)

    @staticmethod
    def dx(a: Any, b: Any, x: Any) -> Any:
        a, b, x = _f64(a, b, x)
        return gammainc_dx(b, a * x) * a


class _Gdtrc:
    """The partials of ``gdtrc(a, b, x) = Q(b, a x)``: those of ``gdtr``, negated."""

    @staticmethod
    def da(a: Any, b: Any, x: Any) -> Any:
        return _neg(_Gdtr.da(a, b, x))

    @staticmethod
    def db(a: Any, b: Any, x: Any) -> Any:
        return _neg(_Gdtr.db(a, b, x))

    @staticmethod
    def dx(a: Any, b: Any, x: Any) -> Any:
        return _neg(_Gdtr.dx(a, b, x))


scalar_rule(sc.gdtr, _Gdtr.da, _Gdtr.db, _Gdtr.dx)
scalar_rule(sc.gdtrc, _Gdtrc.da, _Gdtrc.db, _Gdtrc.dx)


def _chdtr_v(v: Any, x: Any) -> Any:
    v, x = _f64(v, x)
    d = gammainc_da(v / 2, x / 2)
    return d if isinstance(d, NotImplementedTangent) else d / 2


def _chdtr_x(v: Any, x: Any) -> Any:
    v, x = _f64(v, x)
    return gammainc_dx(v / 2, x / 2) / 2


def _chdtrc_v(v: Any, x: Any) -> Any:
    return _neg(_chdtr_v(v, x))


def _chdtrc_x(v: Any, x: Any) -> Any:
    return _neg(_chdtr_x(v, x))


scalar_rule(sc.chdtr, _chdtr_v, _chdtr_x)
scalar_rule(sc.chdtrc, _chdtrc_v, _chdtrc_x)


def _poisson_shape(k: Any) -> np.ndarray:
    return np.floor(upcast(k)) + 1


def _pdtr_m(k: Any, m: Any) -> Any:
    s, m = _f64(_poisson_shape(k), m)
    return -gammainc_dx(s, m)


def _pdtrc_m(k: Any, m: Any) -> Any:
    s, m = _f64(_poisson_shape(k), m)
    return gammainc_dx(s, m)


scalar_rule(sc.pdtr, ZERO, _pdtr_m)
scalar_rule(sc.pdtrc, ZERO, _pdtrc_m)


# ---- inverses ---------------------------------------------------------------------------------------------
# gdtria(p, b, x) = a
def _gdtria_p(p: Any, b: Any, x: Any, a: Any) -> Any:
    return inverse_partial(_Gdtr.da(a, b, x))


def _gdtria_b(p: Any, b: Any, x: Any, a: Any) -> Any:
    return inverse_partial(_Gdtr.da(a, b, x), _Gdtr.db(a, b, x))


def _gdtria_x(p: Any, b: Any, x: Any, a: Any) -> Any:
    return inverse_partial(_Gdtr.da(a, b, x), _Gdtr.dx(a, b, x))


# gdtrib(a, p, x) = b (cdflib: b = 0 or the search bound where gdtr(a, b, x) = p has no solution)
def _gdtrib_a(a: Any, p: Any, x: Any, b: Any) -> Any:
    return where_solved(inverse_partial(_Gdtr.db(a, b, x), _Gdtr.da(a, b, x)), sc.gdtr(a, b, x), p)


def _gdtrib_p(a: Any, p: Any, x: Any, b: Any) -> Any:
    return where_solved(inverse_partial(_Gdtr.db(a, b, x)), sc.gdtr(a, b, x), p)


def _gdtrib_x(a: Any, p: Any, x: Any, b: Any) -> Any:
    return where_solved(inverse_partial(_Gdtr.db(a, b, x), _Gdtr.dx(a, b, x)), sc.gdtr(a, b, x), p)


# gdtrix(a, b, p) = x
def _gdtrix_a(a: Any, b: Any, p: Any, x: Any) -> Any:
    return inverse_partial(_Gdtr.dx(a, b, x), _Gdtr.da(a, b, x))


def _gdtrix_b(a: Any, b: Any, p: Any, x: Any) -> Any:
    return inverse_partial(_Gdtr.dx(a, b, x), _Gdtr.db(a, b, x))


def _gdtrix_p(a: Any, b: Any, p: Any, x: Any) -> Any:
    return inverse_partial(_Gdtr.dx(a, b, x))


scalar_rule(sc.gdtria, _gdtria_p, _gdtria_b, _gdtria_x)
scalar_rule(sc.gdtrib, _gdtrib_a, _gdtrib_p, _gdtrib_x)
scalar_rule(sc.gdtrix, _gdtrix_a, _gdtrix_b, _gdtrix_p)


# chdtri(v, p) = x with chdtrc(v, x) = p
def _chdtri_v(v: Any, p: Any, x: Any) -> Any:
    return inverse_partial(_chdtrc_x(v, x), _chdtrc_v(v, x))


def _chdtri_p(v: Any, p: Any, x: Any) -> Any:
    return inverse_partial(_chdtrc_x(v, x))


# chdtriv(p, x) = v with chdtr(v, x) = p (cdflib, a search bound where there is no solution)
def _chdtriv_p(p: Any, x: Any, v: Any) -> Any:
    return where_solved(inverse_partial(_chdtr_v(v, x)), sc.chdtr(v, x), p)


def _chdtriv_x(p: Any, x: Any, v: Any) -> Any:
    return where_solved(inverse_partial(_chdtr_v(v, x), _chdtr_x(v, x)), sc.chdtr(v, x), p)


scalar_rule(sc.chdtri, _chdtri_v, _chdtri_p)
scalar_rule(sc.chdtriv, _chdtriv_p, _chdtriv_x)


# pdtri(k, y) = m with pdtr(k, m) = y
def _pdtri_y(k: Any, y: Any, m: Any) -> Any:
    return inverse_partial(_pdtr_m(k, m))


# pdtrik(p, m) = k with Q(k + 1, m) = p (k real)
def _pdtrik_dk(k: Any, m: Any) -> Any:
    k, m = _f64(k, m)
    return _neg(gammainc_da(k + 1, m))


def _pdtrik_p(p: Any, m: Any, k: Any) -> Any:
    return where_solved(inverse_partial(_pdtrik_dk(k, m)), sc.gammaincc(np.add(k, 1), m), p)


def _pdtrik_m(p: Any, m: Any, k: Any) -> Any:
    k, m = _f64(k, m)
    return where_solved(inverse_partial(_pdtrik_dk(k, m), -gammainc_dx(k + 1, m)), sc.gammaincc(k + 1, m), p)


scalar_rule(sc.pdtri, ZERO, _pdtri_y)
scalar_rule(sc.pdtrik, _pdtrik_p, _pdtrik_m)


# ---- samples ----------------------------------------------------------------------------------------------
@sample_inputs(sc.gdtr, sc.gdtrc)
def _gdtr_samples() -> Any:
    yield Sample(1.5, 2.5, 3.0, label="scalars")
    yield Sample(np.array([0.5, 2.0, 1.0, 0.1]), np.array([0.3, 4.0, 60.0, 2.0]), np.array([0.2, 1.5, 55.0, 80.0]),
                 label="small shape, series, large shape, far tail (fraction)")
    yield Sample(np.float32(1.5), np.array([2.5, 4.0], dtype=np.float32), np.float32(3.0), label="float32")


@sample_inputs(sc.chdtr, sc.chdtrc)
def _chdtr_samples() -> Any:
    yield Sample(3.0, 2.0, label="scalars")
    yield Sample(np.array([0.5, 3.0, 3.0, 120.0]), np.array([0.01, 2.0, 15.0, 118.0]), label="regimes")
    yield Sample(np.array([3.0, 6.0], dtype=np.float32), np.float32(2.0), label="float32")


@sample_inputs(sc.pdtr, sc.pdtrc)
def _pdtr_samples() -> Any:
    yield Sample(3, 2.5, label="integer k")
    yield Sample(np.array([0, 3, 20]), np.array([0.4, 2.5, 18.0]), label="integer counts")
    yield Sample(np.array([2.5, 7.5]), np.array([1.5, 9.0]), label="float k (floored: zero derivative)")
    yield Sample(4, np.array([1.5, 9.0], dtype=np.float32), label="float32")


@sample_inputs(sc.gdtria)
def _gdtria_samples() -> Any:
    yield Sample(0.3, 2.5, 3.0, label="scalars")
    yield Sample(np.array([0.2, 0.9]), np.array([1.5, 4.0]), np.array([0.8, 5.0]), label="arrays")


@sample_inputs(sc.gdtrib)
def _gdtrib_samples() -> Any:
    yield Sample(1.5, 0.3, 3.0, label="scalars")
    yield Sample(np.array([0.5, 2.0]), np.array([0.2, 0.9]), np.array([0.8, 5.0]), label="arrays")


@sample_inputs(sc.gdtrix)
def _gdtrix_samples() -> Any:
    yield Sample(1.5, 2.5, 0.3, label="scalars")
    yield Sample(np.array([0.5, 2.0]), np.array([1.5, 4.0]), np.array([0.2, 0.9]), label="arrays")
    yield Sample(np.float32(1.5), np.float32(2.5), np.array([0.3, 0.7], dtype=np.float32), label="float32", rtol=1e-3)


@sample_inputs(sc.chdtri)
def _chdtri_samples() -> Any:
    yield Sample(3.5, 0.3, label="scalars")
    yield Sample(np.array([0.7, 3.5, 40.0]), np.array([0.9, 0.3, 0.02]), label="arrays")
    yield Sample(np.float32(3.5), np.array([0.3, 0.7], dtype=np.float32), label="float32", rtol=1e-3)


@sample_inputs(sc.chdtriv)
def _chdtriv_samples() -> Any:
    yield Sample(0.3, 2.0, label="scalars")
    yield Sample(np.array([0.1, 0.5, 0.9]), np.array([1.0, 4.0, 30.0]), label="arrays")


@sample_inputs(sc.pdtri)
def _pdtri_samples() -> Any:
    yield Sample(2, 0.4, label="integer k")
    yield Sample(np.array([0, 2, 15]), np.array([0.3, 0.4, 0.8]), label="arrays")
    yield Sample(np.array([2.5, 6.5]), np.array([0.3, 0.6]), label="float k (floored)")


@sample_inputs(sc.pdtrik)
def _pdtrik_samples() -> Any:
    yield Sample(0.4, 2.5, label="scalars")
    yield Sample(np.array([0.6, 0.5, 0.9]), np.array([0.7, 4.0, 30.0]), label="arrays")
    yield Sample(np.array([0.1, 0.6]), np.array([0.7, 0.7]), label="no solution (k = 0 returned): zero derivative")
