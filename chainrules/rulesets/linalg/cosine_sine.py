"""The cosine-sine decomposition ``scipy.linalg.cossin``: a rule whose derivative is ``not_implemented``.

``cossin(X, p, q)`` factors a unitary ``X`` (given whole, or as its four blocks) into
``U diag-blocks(C, S) V^H`` with ``U = diag(U1, U2)``, ``V = diag(V1, V2)`` unitary and the
cosines and sines of the principal angles ``theta`` (LAPACK ``?orcsd``/``?uncsd``, after
Sutton 2009, "Computing the complete CS decomposition").

Why no derivative is written
----------------------------
* The decomposition is defined on the unitary group: LAPACK assumes the blocks come from
  a unitary matrix and computes them by a simultaneous bidiagonalization of all four. For
  a ``dX`` that leaves the group (any generic direction) the output is a property of the
  algorithm, not of a decomposition, so a rule could only be right along ``dX = X K``
  (``K`` skew-Hermitian) and would disagree with the function SciPy computes elsewhere.
* Along the group, ``cos theta`` are the singular values of ``X11``, so
  ``d theta_i = -Re(u_i^H dX11 v_i) / sin theta_i`` (singular at ``theta_i = 0``, where the
  angle has a kink); the factors ``U1, U2, V1, V2`` carry the gauge of an SVD (a sign or
  phase per column, coupled across the four blocks, and rotations within repeated angles
  and within the ``|p - q|``-dimensional parts without angles), whose derivative has not
  been worked out for LAPACK's conventions.

The rules therefore return the primal output and ``not_implemented`` (with this reason) as
the tangent of ``X`` and the cotangent of every output; the integer and flag arguments get
``NoTangent()``. A zero tangent or cotangent gives zeros.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._utils import NO
from chainrules_core import AbstractZero, ZeroTangent, frule, not_implemented, rrule, unthunk

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
        dx = ZeroTangent() if _is_zero(dy) else not_implemented(REASON)
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
