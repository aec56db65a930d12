"""Inverses: ``np.linalg.inv``, ``np.linalg.pinv`` (with ``hermitian=``), ``np.linalg.tensorinv``,
``scipy.linalg.inv`` (every ``assume_a``), ``scipy.linalg.pinv`` and ``scipy.linalg.pinvh``.

The maths:

* ``Y = inv(A)`` (Giles 2008, "An extended collection of matrix derivative results for
  forward and reverse mode algorithmic differentiation", section 2.2.3): ``dY = -Y dA Y``
  and ``dA = -Y^H dY Y^H``. The pullback needs the output only: two matrix products.
* ``X = pinv(A)`` (Golub & Pereyra 1973, "The differentiation of pseudo-inverses and
  nonlinear least squares problems whose variables separate", SIAM J. Numer. Anal. 10,
  eq. 4.12)::

      dX = -X dA X + X X^H dA^H (I - A X) + (I - X A) dA^H X^H X
      dA = -X^H dX X^H + (I - A X) dX^H X X^H + X^H X dX^H (I - X A)

  valid where the rank of ``A`` is locally constant. With a cutoff (``rcond``, ``rtol``,
  ``atol``), the singular values it discards are treated as exact zeros: the formula is
  the derivative of the pseudo-inverse of ``A`` with them set to zero, which is exact
  when they are zero (a rank-deficient ``A``) and off by ``O(s_discarded / s_kept)``
  otherwise. The products are ordered so that no ``m x m`` or ``n x n`` projector is formed.
* ``pinv(a, hermitian=True)``, ``pinvh`` and ``scipy.linalg.inv`` with
  ``assume_a='sym'/'her'/'pos'`` read one triangle of ``a`` (NumPy's ``hermitian=True``
  the lower one, SciPy's the one ``lower=`` names) and treat the matrix as symmetric or
  Hermitian: their cotangent is that of the full matrix folded onto the triangle read (an
  off-diagonal entry collects both of its mirror images; Hermitian diagonals are real).
  Triangular ``assume_a`` values read one triangle and get a triangular cotangent.

The primals are NumPy's and SciPy's own calls (their errors, such as ``LinAlgError`` for a
singular matrix, pass through unchanged). ``a`` is never overwritten, whatever
``overwrite_a`` says.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import spd, well_conditioned
from chainrules.rulesets.linalg._utils import (
    NO,
    assumed_structure,
    conj,
    from_triangle,
    mH,
    structure_cotangent,
    structured_matrix,
    tangent_value,
    triangle_cotangent,
)
from chainrules_core import (
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
)


# ---- the maths ---------------------------------------------------------------------------------------------
def inv_pullback_of(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """``-Y^H dY Y^H`` (the cotangent of ``A`` for ``Y = inv(A)``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.inverses import inv_pullback_of
    >>> inv_pullback_of(np.array([[0.5, 0.0], [0.0, 0.25]]), np.eye(2))
    array([[-0.25  , -0.    ],
           [-0.    , -0.0625]])
    """
    yh = mH(y)
    return -(yh @ dy @ yh)


def inv_pushforward_of(y: np.ndarray, da: np.ndarray) -> np.ndarray:
    """``-Y dA Y`` (the tangent of ``Y = inv(A)``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.inverses import inv_pushforward_of
    >>> inv_pushforward_of(np.array([[0.5, 0.0], [0.0, 0.25]]), np.eye(2))
    array([[-0.25  , -0.    ],
           [-0.    , -0.0625]])
    """
    return -(y @ da @ y)


def pinv_pullback_of(a: np.ndarray, x: np.ndarray, dx: np.ndarray) -> np.ndarray:
    """Golub-Pereyra: ``-X^H dX X^H + (I - A X) dX^H X X^H + X^H X dX^H (I - X A)`` for ``X = pinv(A)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.inverses import pinv_pullback_of
    >>> a = np.array([[2.0], [0.0]])
    >>> pinv_pullback_of(a, np.linalg.pinv(a), np.array([[1.0, 1.0]]))
    array([[-0.25],
           [ 0.25]])
    """
    xh, dxh = mH(x), mH(dx)
    first = -(xh @ dx) @ xh
    second = dxh @ (x @ xh)
    second = second - a @ (x @ second)
    third = (xh @ x) @ dxh
    third = third - (third @ x) @ a
    return first + second + third


def pinv_pushforward_of(a: np.ndarray, x: np.ndarray, da: np.ndarray) -> np.ndarray:
    """Golub-Pereyra: ``-X dA X + X X^H dA^H (I - A X) + (I - X A) dA^H X^H X`` for ``X = pinv(A)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.inverses import pinv_pushforward_of
    >>> a = np.array([[2.0], [0.0]])
    >>> pinv_pushforward_of(a, np.linalg.pinv(a), np.array([[0.0], [1.0]]))
    array([[0.  , 0.25]])
    """
    xh, dah = mH(x), mH(da)
    first = -(x @ da) @ x
    second = x @ (xh @ dah)
    second = second - (second @ a) @ x
    third = dah @ (xh @ x)
    third = third - x @ (a @ third)
    return first + second + third


# ---- np.linalg.inv ---------------------------------------------------------------------------------------------
@rrule.register(np.linalg.inv, np.ndarray)
def inv_rrule(a: np.ndarray) -> Any:
    """Reverse rule of ``np.linalg.inv(A)``: ``dA = -Y^H dY Y^H`` with ``Y = inv(A)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.inv, np.array([[2.0, 0.0], [0.0, 4.0]]))
    >>> pullback(np.eye(2))[1]
    array([[-0.25  , -0.    ],
           [-0.    , -0.0625]])
    """
    y = np.linalg.inv(a)
    project_a = cotangent_projector(a)

    def inv_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, np.linalg.inv)
        if passes_through(dy):
            return NO, project_a(dy)
        return NO, project_a(inv_pullback_of(y, dy))

    return y, inv_pullback


@frule.register(np.linalg.inv, np.ndarray)
def inv_frule(tangents: Any, a: np.ndarray) -> Any:
    """Forward rule of ``np.linalg.inv(A)``: ``dY = -Y dA Y``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), np.linalg.inv, np.array([[2.0, 0.0], [0.0, 4.0]]))[1]
    array([[-0.25  , -0.    ],
           [-0.    , -0.0625]])
    """
    y = np.linalg.inv(a)
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return y, ZeroTangent() if da is None else da
    return y, ProjectTo(y)(inv_pushforward_of(y, da))


def _diagonal_inverse_map(y: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The derivative of SciPy's ``assume_a='diagonal'`` inverse (``1/a_ii`` on the diagonal, ``a_ij`` off it).

    It is self-adjoint up to conjugation: called with ``Y`` it is the pushforward, with
    ``conj(Y)`` the pullback.
    """
    out = np.array(d, dtype=np.result_type(y, d), copy=True)
    idx = np.arange(y.shape[-1])
    out[..., idx, idx] = -(y[..., idx, idx] ** 2) * d[..., idx, idx]
    return out


# ---- scipy.linalg.inv ---------------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.inv, np.ndarray)
def scipy_inv_rrule(a: np.ndarray, overwrite_a: bool = False, check_finite: bool = True, *,
                    assume_a: str | None = None, lower: bool = False) -> Any:
    """Reverse rule of ``scipy.linalg.inv(a)``: ``-Y^H dY Y^H`` folded onto the entries ``assume_a`` reads.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> a = np.array([[2.0, 1.0], [99.0, 2.0]])          # the lower triangle is not read
    >>> y, pullback = rrule(scipy.linalg.inv, a, assume_a="sym")
    >>> np.round(pullback(np.eye(2))[1], 4)
    array([[-0.5556,  0.8889],
           [ 0.    , -0.5556]])
    """
    y = scipy.linalg.inv(a, check_finite=check_finite, assume_a=assume_a, lower=lower)
    structure = assumed_structure(assume_a)
    project_a = cotangent_projector(a)

    def scipy_inv_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        dy = read_cotangent(dy, y, "scipy.linalg.inv")
        if passes_through(dy):
            return NO, project_a(dy), NO, NO
        if assume_a == "diagonal":
            return NO, project_a(_diagonal_inverse_map(conj(y), dy)), NO, NO
        return NO, project_a(structure_cotangent(inv_pullback_of(y, dy), structure, lower)), NO, NO

    return y, scipy_inv_pullback


@frule.register(scipy.linalg.inv, np.ndarray)
def scipy_inv_frule(tangents: Any, a: np.ndarray, overwrite_a: bool = False, check_finite: bool = True, *,
                    assume_a: str | None = None, lower: bool = False) -> Any:
    """Forward rule of ``scipy.linalg.inv(a)``: ``-Y dS Y`` with ``dS`` the structured part of ``da``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), scipy.linalg.inv, np.array([[2.0, 0.0], [0.0, 4.0]]))[1]
    array([[-0.25  , -0.    ],
           [-0.    , -0.0625]])
    """
    y = scipy.linalg.inv(a, check_finite=check_finite, assume_a=assume_a, lower=lower)
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return y, ZeroTangent() if da is None else da
    if assume_a == "diagonal":
        return y, ProjectTo(y)(_diagonal_inverse_map(y, da))
    ds = structured_matrix(da, assumed_structure(assume_a), lower)
    return y, ProjectTo(y)(inv_pushforward_of(y, ds))


# ---- np.linalg.tensorinv ---------------------------------------------------------------------------------------
@rrule.register(np.linalg.tensorinv, np.ndarray)
def tensorinv_rrule(a: np.ndarray, ind: int = 2) -> Any:
    """Reverse rule of ``np.linalg.tensorinv(a, ind)``: the ``inv`` rule on ``a`` as a square matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.tensorinv, 2 * np.eye(4).reshape(4, 2, 2), 1)
    >>> pullback(np.ones((2, 2, 4)))[1].shape
    (4, 2, 2)
    """
    y = np.linalg.tensorinv(a, ind)
    n = math.prod(a.shape[ind:])
    y_matrix = y.reshape(n, -1)
    project_a = cotangent_projector(a)

    def tensorinv_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dy = read_cotangent(dy, y, np.linalg.tensorinv)
        if passes_through(dy):
            return NO, project_a(dy), NO
        return NO, project_a(inv_pullback_of(y_matrix, dy.reshape(y_matrix.shape)).reshape(a.shape)), NO

    return y, tensorinv_pullback


@frule.register(np.linalg.tensorinv, np.ndarray)
def tensorinv_frule(tangents: Any, a: np.ndarray, ind: int = 2) -> Any:
    """Forward rule of ``np.linalg.tensorinv(a, ind)``: ``-Y dA Y`` on the matrix forms.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> a = 2 * np.eye(4).reshape(4, 2, 2)
    >>> frule((NoTangent(), a, NoTangent()), np.linalg.tensorinv, a, 1)[1].shape
    (2, 2, 4)
    """
    y = np.linalg.tensorinv(a, ind)
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return y, ZeroTangent() if da is None else da
    y_matrix = y.reshape(math.prod(a.shape[ind:]), -1)
    dy = inv_pushforward_of(y_matrix, da.reshape(y_matrix.shape[::-1]))
    return y, ProjectTo(y)(dy.reshape(y.shape))


# ---- np.linalg.pinv ------------------------------------------------------------------------------------------------
def _pinv_cotangent(a: np.ndarray, x: np.ndarray, dx: np.ndarray, hermitian: bool) -> np.ndarray:
    """The Golub-Pereyra cotangent; for a Hermitian input read from its lower triangle, folded onto it."""
    if not hermitian:
        return pinv_pullback_of(a, x, dx)
    h = from_triangle(a, lower=True, hermitian=True)
    return triangle_cotangent(pinv_pullback_of(h, x, dx), lower=True, hermitian=True)


def _pinv_tangent(a: np.ndarray, x: np.ndarray, da: np.ndarray, hermitian: bool) -> np.ndarray:
    if not hermitian:
        return pinv_pushforward_of(a, x, da)
    h = from_triangle(a, lower=True, hermitian=True)
    return pinv_pushforward_of(h, x, from_triangle(da, lower=True, hermitian=True))


@rrule.register(np.linalg.pinv, np.ndarray)
def pinv_rrule(a: np.ndarray, rcond: Any = None, hermitian: bool = False, **kwargs: Any) -> Any:
    """Reverse rule of ``np.linalg.pinv(a, rcond, hermitian, rtol=...)``: the Golub-Pereyra formula.

    With ``hermitian=True`` NumPy reads the lower triangle of ``a`` only, and the cotangent
    is folded onto it.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.pinv, np.array([[2.0, 0.0]]))
    >>> y, pullback(np.array([[1.0], [0.0]]))[1]
    (array([[0.5],
           [0. ]]), array([[-0.25,  0.  ]]))
    """
    x = np.linalg.pinv(a, rcond, hermitian, **kwargs)
    project_a = cotangent_projector(a)

    def pinv_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        dy = read_cotangent(dy, x, np.linalg.pinv)
        if passes_through(dy):
            return NO, project_a(dy), NO, NO
        return NO, project_a(_pinv_cotangent(a, x, dy, hermitian)), NO, NO

    return x, pinv_pullback


@frule.register(np.linalg.pinv, np.ndarray)
def pinv_frule(tangents: Any, a: np.ndarray, rcond: Any = None, hermitian: bool = False, **kwargs: Any) -> Any:
    """Forward rule of ``np.linalg.pinv``: ``-X dA X + X X^H dA^H (I - A X) + (I - X A) dA^H X^H X``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([[1.0, 0.0]])), np.linalg.pinv, np.array([[2.0, 0.0]]))[1]
    array([[-0.25],
           [ 0.  ]])
    """
    x = np.linalg.pinv(a, rcond, hermitian, **kwargs)
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return x, ZeroTangent() if da is None else da
    return x, ProjectTo(x)(_pinv_tangent(a, x, da, hermitian))


# ---- scipy.linalg.pinv, pinvh ------------------------------------------------------------------------------------
def _pinv_output(dy: Any, out: Any, return_rank: bool, where: str) -> Any:
    """The cotangent of ``X`` from that of the output, ``X`` or ``(X, rank)`` (the rank is an integer)."""
    if not return_rank:
        return read_cotangent(dy, out, where)
    parts = read_cotangents(dy, out, where)
    if passes_through(parts):
        return parts
    return ZeroTangent() if parts[0] is None else parts[0]


@rrule.register(scipy.linalg.pinv, np.ndarray)
def scipy_pinv_rrule(a: np.ndarray, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.linalg.pinv(a, *, atol, rtol, return_rank, check_finite)`` (Golub-Pereyra).

    With ``return_rank=True`` the output is ``(X, rank)``; the rank is an integer.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, Tangent, NoTangent
    >>> (x, rank), pullback = rrule(scipy.linalg.pinv, np.array([[2.0, 0.0]]), return_rank=True)
    >>> rank, pullback(Tangent(tuple, np.array([[1.0], [0.0]]), NoTangent()))[1]
    (np.int64(1), array([[-0.25,  0.  ]]))
    """
    out = scipy.linalg.pinv(a, **kwargs)
    return_rank = bool(kwargs.get("return_rank", False))
    x = out[0] if return_rank else out
    project_a = cotangent_projector(a)

    def scipy_pinv_pullback(dy: Any) -> tuple[Any, Any]:
        dx = _pinv_output(dy, out, return_rank, "scipy.linalg.pinv")
        if passes_through(dx):
            return NO, project_a(dx)
        return NO, project_a(pinv_pullback_of(a, x, dx))

    return out, scipy_pinv_pullback


@frule.register(scipy.linalg.pinv, np.ndarray)
def scipy_pinv_frule(tangents: Any, a: np.ndarray, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.linalg.pinv`` (Golub-Pereyra); the rank's tangent is ``NoTangent()``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([[1.0, 0.0]])), scipy.linalg.pinv, np.array([[2.0, 0.0]]))[1]
    array([[-0.25],
           [ 0.  ]])
    """
    out = scipy.linalg.pinv(a, **kwargs)
    return_rank = bool(kwargs.get("return_rank", False))
    x = out[0] if return_rank else out
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        dx = ZeroTangent() if da is None else da
    else:
        dx = ProjectTo(x)(pinv_pushforward_of(a, x, da))
    return out, (ProjectTo(out)((dx, NO)) if return_rank else dx)


@rrule.register(scipy.linalg.pinvh, np.ndarray)
def pinvh_rrule(a: np.ndarray, atol: Any = None, rtol: Any = None, lower: bool = True, return_rank: bool = False,
                check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.pinvh``: Golub-Pereyra for the Hermitian matrix read from one triangle.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.pinvh, np.array([[2.0, 7.0], [0.0, 4.0]]))   # reads the lower triangle
    >>> pullback(np.eye(2))[1]
    array([[-0.25  ,  0.    ],
           [ 0.    , -0.0625]])
    """
    out = scipy.linalg.pinvh(a, atol, rtol, lower, return_rank, check_finite)
    x = out[0] if return_rank else out
    project_a = cotangent_projector(a)

    def pinvh_pullback(dy: Any) -> tuple[Any, ...]:
        dx = _pinv_output(dy, out, return_rank, "scipy.linalg.pinvh")
        if passes_through(dx):
            return (NO, project_a(dx)) + (NO,) * 5
        h = from_triangle(a, lower, hermitian=True)
        da = triangle_cotangent(pinv_pullback_of(h, x, dx), lower, hermitian=True)
        return (NO, project_a(da)) + (NO,) * 5

    return out, pinvh_pullback


@frule.register(scipy.linalg.pinvh, np.ndarray)
def pinvh_frule(tangents: Any, a: np.ndarray, atol: Any = None, rtol: Any = None, lower: bool = True,
                return_rank: bool = False, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.pinvh`` (Golub-Pereyra on the Hermitian matrix read from one triangle).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), scipy.linalg.pinvh, np.diag([2.0, 4.0]))[1]
    array([[-0.25  ,  0.    ],
           [ 0.    , -0.0625]])
    """
    out = scipy.linalg.pinvh(a, atol, rtol, lower, return_rank, check_finite)
    x = out[0] if return_rank else out
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        dx = ZeroTangent() if da is None else da
    else:
        h = from_triangle(a, lower, hermitian=True)
        dx = ProjectTo(x)(pinv_pushforward_of(h, x, from_triangle(da, lower, hermitian=True)))
    return out, (ProjectTo(out)((dx, NO)) if return_rank else dx)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.linalg.inv, scipy.linalg.inv)
def _inverse_samples(rng: np.random.Generator) -> list[Sample]:
    a = well_conditioned(3, rng)
    return [
        Sample(a, label="3x3"),
        Sample(a.astype(np.float32), label="3x3 float32"),
        Sample(well_conditioned(3, rng, np.complex128), label="3x3 complex"),
        Sample(np.stack([well_conditioned(2, rng), well_conditioned(2, rng)]), label="stack of 2x2"),
    ]


@sample_inputs(scipy.linalg.inv)
def _scipy_inverse_samples(rng: np.random.Generator) -> list[Sample]:
    a, s = well_conditioned(3, rng), spd(3, rng)
    h = spd(3, rng, np.complex128)
    return [
        Sample(a, False, False, label="overwrite_a, check_finite by position"),
        *(Sample(a, fkwargs={"assume_a": kind}, label=f"assume_a={kind!r}")
          for kind in ("general", "diagonal", "upper triangular", "lower triangular")),
        Sample(s, fkwargs={"assume_a": "sym"}, label="assume_a='sym' (upper triangle)"),
        Sample(s, fkwargs={"assume_a": "sym", "lower": True}, label="assume_a='sym', lower=True"),
        Sample(h, fkwargs={"assume_a": "her", "lower": True}, label="assume_a='her', complex, lower=True"),
        Sample(s, fkwargs={"assume_a": "pos"}, label="assume_a='pos'"),
        Sample(h, fkwargs={"assume_a": "pos", "lower": True}, label="assume_a='pos', complex, lower=True"),
    ]


@sample_inputs(np.linalg.tensorinv)
def _tensorinv_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(well_conditioned(4, rng).reshape(4, 2, 2), 1, label="(4, 2, 2), ind=1 by position"),
        Sample(well_conditioned(4, rng).reshape(2, 2, 2, 2), label="(2, 2, 2, 2), default ind"),
        Sample(well_conditioned(4, rng, np.complex128).reshape(2, 2, 4), fkwargs={"ind": 2},
               label="complex, ind by keyword"),
    ]


def _rank_two(rng: np.random.Generator, hermitian: bool = False) -> np.ndarray:
    """A 3x3 matrix with singular values ``(3, 1.5, 0)``: a cutoff of ``0.2 * 3`` (or an ``atol`` of ``0.3``)
    discards the zero one, and the finite differences' steps (below ``1e-2``) keep it below that."""
    u = np.linalg.qr(rng.standard_normal((3, 3)))[0]
    v = u if hermitian else np.linalg.qr(rng.standard_normal((3, 3)))[0]
    return (u * np.array([3.0, 1.5, 0.0])) @ v.T


@sample_inputs(np.linalg.pinv)
def _pinv_samples(rng: np.random.Generator) -> list[Sample]:
    tall = rng.standard_normal((4, 2))
    return [
        Sample(tall, label="4x2, full rank"),
        Sample(tall.T.astype(np.float32), label="2x4 float32"),
        Sample(tall + 1j * rng.standard_normal((4, 2)), label="4x2 complex"),
        Sample(_rank_two(rng), 0.2, label="3x3 of rank 2, rcond by position"),
        Sample(_rank_two(rng), fkwargs={"rtol": 0.2}, label="3x3 of rank 2, rtol by keyword"),
        Sample(spd(3, rng) - 2 * np.eye(3), fkwargs={"hermitian": True}, label="hermitian=True (lower triangle)"),
        Sample(spd(3, rng, np.complex128), None, True, label="complex, hermitian=True by position"),
        Sample(rng.standard_normal((2, 3, 2)), label="stack of 3x2"),
    ]


@sample_inputs(scipy.linalg.pinv)
def _scipy_pinv_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((4, 2)), label="4x2"),
        Sample(rng.standard_normal((2, 3)).astype(np.float32), label="2x3 float32"),
        Sample(rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3)), label="2x3 complex"),
        Sample(_rank_two(rng), fkwargs={"atol": 0.3, "return_rank": True},
               label="rank 2, atol and return_rank"),
        Sample(rng.standard_normal((3, 2)), fkwargs={"rtol": 1e-12, "check_finite": False}, label="rtol"),
    ]


@sample_inputs(scipy.linalg.pinvh)
def _pinvh_samples(rng: np.random.Generator) -> list[Sample]:
    s = spd(3, rng) - 2 * np.eye(3)  # symmetric, indefinite
    return [
        Sample(s, label="symmetric indefinite (lower triangle)"),
        Sample(s.astype(np.float32), label="float32"),
        Sample(spd(3, rng, np.complex128), label="complex Hermitian"),
        Sample(s, None, None, False, label="lower=False by position"),
        Sample(s, fkwargs={"lower": False, "return_rank": True}, label="lower=False, return_rank by keyword"),
        Sample(_rank_two(rng, hermitian=True), fkwargs={"atol": 0.3}, label="rank 2 of 3, atol"),
    ]
