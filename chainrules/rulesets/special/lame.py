"""Rules of the ellipsoidal harmonics (Lamé functions): ``ellip_harm``, ``ellip_harm_2``, ``ellip_normal``.

``E^p_n(s)`` (``ellip_harm``), ``F^p_n(s)`` (``ellip_harm_2``) and the normalisation
``gamma^p_n`` (``ellip_normal``) depend smoothly on the real parameters ``h2``, ``k2`` (the
squares of the ellipsoid's semi-focal distances, ``0 < h2 < k2``) and on ``s``; the degree
``n`` and the index ``p`` are integers (SciPy truncates a float): ``NoTangent()``, as are
the sign flags ``signm``, ``signn``.

The maths
---------
SciPy builds ``E^p_n`` from the eigenvector of a tridiagonal matrix (the coefficients of the
Lamé polynomial, Dobner and Ritter 1998) and ``F^p_n``, ``gamma^p_n`` from quadratures of
it, so no closed form exists for their derivatives in ``h2`` and ``k2``:

* ``h2``, ``k2``, and ``s`` in ``E``: Richardson-extrapolated central differences of
  SciPy's function (:func:`~chainrules.rulesets.special._numerical.parameter_derivative`),
  with the first step a quarter of the distance to the nearest edge of the domain
  (``h2 -> 0``, ``h2 -> k2``, and the branch points ``s^2 = h2``, ``s^2 = k2`` where the
  factors ``sqrt|s^2 - h^2|``, ``sqrt|s^2 - k^2|`` of some types have infinite slopes).
  The error estimate must be at most ``1e-9`` of the derivative (or of the value), else
  the cotangent is ``not_implemented`` with the point. ``E`` is a polynomial times those
  square roots, evaluated by SciPy to a few ulps, so the estimate is typically ``1e-13``.
* ``s`` in ``F``: from ``F = (2n + 1) E(s) int_s^inf dt / (E(t)^2 sqrt((t^2 - k^2)(t^2 - h^2)))``
  (DLMF 29.?; SciPy's definition), ``dF/ds = F E'(s) / E(s) - (2n + 1) / (E(s)
  sqrt((s^2 - k^2)(s^2 - h^2)))``, with ``E'`` as above.

Each parameter costs twelve evaluations of the function (``ellip_harm_2`` and
``ellip_normal`` integrate numerically: they are slow, and so are their derivatives).

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> y, dy = frule((None, 0.0, 0.0, None, None, 1.0), sc.ellip_harm, 5.0, 8.0, 2, 2, 3.0)
>>> round(float(dy), 10)                       # E = s^2 - const for n = 2, p = 2: dE/ds = 2 s
6.0
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._parameter_rules import ParameterPartials, float64, parameter, shared_partials
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Thunk,
    Varargs,
    ZeroTangent,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    reject_keywords,
    rrule,
    sample_inputs,
    scalar_rule,
    unthunk,
)
from chainrules_core.scalar_rules import NUMERIC, fit_tangent, project_argument

_WHY = ("the extrapolated differences of SciPy's function do not converge there (near an edge of the domain, "
        "0 < h2 < k2, or a branch point s = h or s = k)")


def _harm_steps(h2: Any, k2: Any, n: Any, p: Any, s: Any, *flags: Any) -> list[Any]:
    h, k = np.sqrt(np.abs(h2)), np.sqrt(np.abs(k2))
    gap = k2 - h2
    edge_s = np.min(np.abs(np.stack([s - h, s + h, s - k, s + k])), axis=0)
    # h2 and k2 must also stay away from s^2 (the branch points move with them)
    s2 = s * s
    return [0.25 * np.minimum(np.minimum(np.abs(h2), gap), np.abs(s2 - h2)),
            0.25 * np.minimum(gap, np.abs(s2 - k2)),
            0.25 * np.minimum(edge_s, 0.4 * np.maximum(1.0, np.abs(s)))]


def _harm2_steps(h2: Any, k2: Any, n: Any, p: Any, s: Any) -> list[Any]:
    gap = k2 - h2
    room = s * s - k2  # F lives on s > k: k2 may grow by less than this
    return [0.25 * np.minimum(np.abs(h2), gap), 0.25 * np.minimum(gap, room)]


def _normal_steps(h2: Any, k2: Any, n: Any, p: Any) -> list[Any]:
    gap = k2 - h2
    return [0.25 * np.minimum(np.abs(h2), gap), 0.25 * gap]


def _harm_partials(h2: Any, k2: Any, n: Any, p: Any, s: Any, signm: Any, signn: Any, y: Any) -> ParameterPartials:
    return ParameterPartials(sc.ellip_harm, None, (h2, k2, n, p, s, signm, signn), (0, 1, 4), ("h2", "k2", "s"), y,
                             steps=_harm_steps, why=_WHY)


def ellip_harm_2_s(h2: Any, k2: Any, n: Any, p: Any, s: Any, y: Any, shared: Any) -> Any:
    """``dF/ds = F E'/E - (2n + 1) / (E sqrt((s^2 - k^2)(s^2 - h^2)))``."""
    h2, k2, s = float64(h2), float64(k2), float64(s)
    e = sc.ellip_harm(h2, k2, n, p, s)
    de = _harm_partials(h2, k2, n, p, s, 1, 1, e).partial(2)
    if isinstance(de, NotImplementedTangent):
        return de
    with np.errstate(all="ignore"):
        root = np.sqrt((s * s - k2) * (s * s - h2))
        return float64(y) * de / e - (2 * np.asarray(n) + 1) / (e * root)


scalar_rule(sc.ellip_harm_2, parameter(0), parameter(1), NoTangent(), NoTangent(), ellip_harm_2_s,
            shared=shared_partials(sc.ellip_harm_2, None, (0, 1), ("h2", "k2"), steps=_harm2_steps, why=_WHY),
            keywords=reject_keywords)
scalar_rule(sc.ellip_normal, parameter(0), parameter(1), NoTangent(), NoTangent(),
            shared=shared_partials(sc.ellip_normal, None, (0, 1), ("h2", "k2"), steps=_normal_steps, why=_WHY),
            keywords=reject_keywords)


# ellip_harm takes the sign flags signm, signn (by position or keyword), which the partials
# need: its rules are written out (scalar_rule's partials do not see keywords).
_HARM_DIFFERENTIATED = {0: 0, 1: 1, 4: 2}  # argument position -> index among the partials


def _harm_call(h2: Any, k2: Any, n: Any, p: Any, s: Any, signm: Any, signn: Any) -> tuple[Any, ParameterPartials]:
    y = sc.ellip_harm(h2, k2, n, p, s, signm, signn)
    return y, _harm_partials(h2, k2, n, p, s, signm, signn, y)


def _signs(flags: tuple[Any, ...], keywords: dict[str, Any]) -> tuple[Any, Any]:
    signs = dict(zip(("signm", "signn"), flags))
    for name in keywords:
        if name not in ("signm", "signn"):
            raise TypeError(f"scipy.special.ellip_harm: unexpected keyword argument {name!r}")
    signs.update(keywords)
    return signs.get("signm", 1), signs.get("signn", 1)


@rrule.register(sc.ellip_harm, NUMERIC, NUMERIC, NUMERIC, NUMERIC, NUMERIC, Varargs(object))
def ellip_harm_rrule(h2: Any, k2: Any, n: Any, p: Any, s: Any, *flags: Any, **keywords: Any) -> Any:
    """``E^p_n(s)``: partials in ``h2``, ``k2``, ``s`` by extrapolated differences; indices and flags not."""
    args = (h2, k2, n, p, s)
    y, partials = _harm_call(*args, *_signs(flags, keywords))
    live = {pos: differentiable(args[pos]) and differentiable(y) for pos in _HARM_DIFFERENTIATED}

    def cotangent(pos: int, dy: Any) -> Any:
        partial = partials.partial(_HARM_DIFFERENTIATED[pos])
        if isinstance(partial, NotImplementedTangent):
            return partial
        return project_argument(args[pos], partial * dy)

    def ellip_harm_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, sc.ellip_harm)
        out: list[Any] = [NoTangent()] * (6 + len(flags))
        for pos in _HARM_DIFFERENTIATED:
            if live[pos]:
                out[pos + 1] = dy if passes_through(dy) else Thunk(functools.partial(cotangent, pos, dy))
        return tuple(out)

    return y, ellip_harm_pullback


@frule.register(sc.ellip_harm, NUMERIC, NUMERIC, NUMERIC, NUMERIC, NUMERIC, Varargs(object))
def ellip_harm_frule(tangents: Any, h2: Any, k2: Any, n: Any, p: Any, s: Any, *flags: Any, **keywords: Any) -> Any:
    """Pushforward of ``E^p_n(s)`` (see :func:`ellip_harm_rrule`)."""
    args = (h2, k2, n, p, s)
    y, partials = _harm_call(*args, *_signs(flags, keywords))
    if not differentiable(y):
        return y, NoTangent()
    total: Any = None
    for pos, i in _HARM_DIFFERENTIATED.items():
        dx = unthunk(tangents[pos + 1])
        if dx is None or isinstance(dx, AbstractZero) or not differentiable(args[pos]):
            continue
        partial = partials.partial(i)
        if isinstance(partial, NotImplementedTangent):
            return y, partial
        term = partial * dx
        total = term if total is None else total + term
    return y, ZeroTangent() if total is None else fit_tangent(total, y)


# ---- samples ----------------------------------------------------------------------------------------
@sample_inputs(sc.ellip_harm)
def _ellip_harm_samples(rng: np.random.Generator) -> Any:
    yield Sample(5.0, 8.0, 2, 1, np.array([0.5, 1.5, 3.5]), label="n = 2, p = 1 (s between and beyond h, k)")
    yield Sample(np.array([4.0, 5.0]), 8.0, 3, 2, np.array([1.2, 3.5]), label="n = 3, p = 2")
    yield Sample(5.0, 8.0, 4, 5, 3.5, fkwargs={"signm": -1}, label="n = 4, p = 5, signm = -1")
    yield Sample(5.0, 8.0, 3, 4, 3.5, -1, 1, label="the sign flags by position")
    yield Sample(np.float32(5.0), np.float32(8.0), 2, 2, np.array([1.0, 3.0], np.float32), label="float32")


@sample_inputs(sc.ellip_harm_2)
def _ellip_harm_2_samples(rng: np.random.Generator) -> Any:
    yield Sample(5.0, 8.0, 2, 1, np.array([3.0, 5.0]), label="n = 2, p = 1")
    yield Sample(4.0, 6.5, 3, 2, 4.0, label="n = 3, p = 2")


@sample_inputs(sc.ellip_normal)
def _ellip_normal_samples(rng: np.random.Generator) -> Any:
    yield Sample(5.0, 8.0, 2, 1, label="n = 2, p = 1")
    yield Sample(np.array([4.0, 5.0]), 8.0, 3, 2, label="n = 3, p = 2")
