"""The cosine-sine decomposition ``scipy.linalg.cossin``: a rule whose derivative is ``not_implemented``.

``cossin(X, p, q)`` factors a unitary ``X`` (given whole, or as its four blocks) into
``U diag-blocks(C, S) V^H`` with ``U = diag(U1, U2)``, ``V = diag(V1, V2)`` unitary and the
cosines and sines of the principal angles ``theta`` (LAPACK ``?orcsd``/``?uncsd``, after
Sutton 2009, "Computing the complete CS decomposition").

Why no derivative is written
----------------------------
* The decomposition is defined on the unitary group: LAPACK assumes the blocks come from
  a unitary matrix and computes them by a simultaneous bidiagonalization of all four
  (``?orbdb``, whose angles are ``atan2`` of norms of columns of *both* block rows). Off the
  group the outputs are a property of that algorithm, not of a decomposition: at a random
  orthogonal ``5 x 5`` ``X`` (``p = 2, q = 3``, and ``4 x 4``, ``p = q = 2``), central
  differences of the angles along a normal direction ``dX = X S`` (``S`` symmetric) are of
  order one (``1.4`` and ``2.2``), where ``cossin(polar(X))`` would give zero. A rule built from
  the mathematics (the derivative along the group, ``dX = X K`` with ``K`` skew-Hermitian)
  would therefore be silently wrong for every generic direction of the function SciPy
  computes, and no finite-difference check of an ``ndarray`` argument could tell the two
  apart (the testers perturb all entries).
* Along the group the angles are smooth where they are distinct and in ``(0, pi/2)``:
  ``cos theta`` are the singular values of ``X11``, so
  ``d theta_i = -Re(u_i^H dX11 v_i) / sin theta_i`` (after Sutton 2009; Paige & Wei 1994,
  "History and generality of the CS decomposition"). The factors ``U1, U2, V1, V2`` carry the
  gauge of an SVD coupled across the four blocks (a sign or phase per column, rotations
  within repeated angles and within the ``|p - q|``-dimensional parts without angles), and
  LAPACK's choice of it is not even continuous: with ``p = 2, q = 3`` above, central
  differences of the factors along ``X K`` are ``~1e6`` at a step of ``1e-6`` (a jump).

The rules therefore return the primal output and ``not_implemented`` (with this reason) as
the tangent of ``X`` and the cotangent of every output; the integer and flag arguments get
``NoTangent()``. A zero tangent or cotangent gives zeros. For the principal angles between
two subspaces, differentiate ``scipy.linalg.subspace_angles`` (or ``svdvals`` of ``X11``)
instead: those have rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._samples import unitary
from chainrules.rulesets.linalg._utils import NO, cotangent_parts
from chainrules_core import AbstractZero, Sample, ZeroTangent, frule, not_implemented, rrule, sample_inputs, unthunk

REASON = ("cossin: the cosine-sine decomposition is defined on the unitary group (LAPACK's ?orcsd/?uncsd assume a "
          "unitary X, so generic perturbations give algorithm-dependent outputs), and the derivative of its angles "
          "and of its factors (which carry an SVD-like gauge across the four blocks) along the group is not "
          "implemented")
"""The reason given with ``not_implemented``."""

X_TYPES = (np.ndarray, list, tuple)
"""``X`` whole, or its four blocks."""


def _is_zero(d: Any) -> bool:
    d = unthunk(d)
    if isinstance(d, AbstractZero):
        return True
    if isinstance(d, (list, tuple)):
        return all(_is_zero(part) for part in d)
    return False


@rrule.register(scipy.linalg.cossin, X_TYPES)
def cossin_rrule(X: Any, p: Any = None, q: Any = None, separate: Any = False, swap_sign: Any = False,
                 compute_u: Any = True, compute_vh: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.cossin``: the cotangent of ``X`` is ``not_implemented`` (module docstring).

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.cossin, np.eye(2), 1, 1)
    >>> pullback((np.ones((2, 2)), np.zeros((2, 2)), np.zeros((2, 2))))[1]
    NotImplementedTangent("cossin: the cosine-sine decomposition is defined on the unitary group ...", at ...)
    """
    y = scipy.linalg.cossin(X, p, q, separate, swap_sign, compute_u, compute_vh)

    def cossin_pullback(dy: Any) -> tuple[Any, ...]:
        parts = cotangent_parts(dy, y, "scipy.linalg.cossin")
        dx = ZeroTangent() if all(part is None for part in parts) else not_implemented(REASON)
        return (NO, dx, NO, NO, NO, NO, NO, NO)

    return y, cossin_pullback


@frule.register(scipy.linalg.cossin, X_TYPES)
def cossin_frule(tangents: Any, X: Any, p: Any = None, q: Any = None, separate: Any = False, swap_sign: Any = False,
                 compute_u: Any = True, compute_vh: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.cossin``: the output tangent is ``not_implemented`` (module docstring).

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> tangents = (NoTangent(), ZeroTangent(), NoTangent(), NoTangent())
    >>> frule(tangents, scipy.linalg.cossin, np.eye(2), 1, 1)[1]
    ZeroTangent()
    """
    y = scipy.linalg.cossin(X, p, q, separate, swap_sign, compute_u, compute_vh)
    return y, ZeroTangent() if _is_zero(tangents[1]) else not_implemented(REASON)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.cossin)
def _cossin_samples(rng: np.random.Generator) -> list[Sample]:
    x = unitary(4, rng)
    return [
        Sample(x, 2, 2, label="4x4 orthogonal, p = q = 2 (not implemented: see the module docstring)"),
        Sample(unitary(4, rng, np.complex128), fkwargs={"p": 1, "q": 2, "separate": True}, label="complex, separate"),
    ]
