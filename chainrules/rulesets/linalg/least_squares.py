"""Least squares: ``np.linalg.lstsq`` and ``scipy.linalg.lstsq``, all four outputs.

Both return ``(x, residuals, rank, s)``: the minimum-norm least-squares solution, the squared
residual norms of the columns (only when ``A`` has full column rank and more rows than
columns, else an empty array; SciPy's ``'gelsy'`` driver returns none), the effective rank
and the singular values of ``A`` (``None`` for ``'gelsy'``).

The maths:

* ``x = X b`` with ``X = pinv(A)`` at the rank the primal found. By Golub & Pereyra (1973,
  "The differentiation of pseudo-inverses and nonlinear least squares problems whose
  variables separate", SIAM J. Numer. Anal. 10) for the derivative of ``X``::

      dx = X (db - dA x) + X X^H dA^H r + (I - X A) dA^H X^H x,     r = b - A x
      db = X^H dx,    dA = -db x^H + r (X db)^H + (X^H x) ((I - X A) dx)^H

  valid where the rank is locally constant. The last terms vanish for a full-column-rank
  ``A`` (``X A = I``) and the middle ones for a consistent system (``r = 0``). They are
  computed from a thin SVD ``A = U S V^H`` taken in the pullback (``X = V S^+ U^H`` is
  applied, never formed).
* ``residuals = |b - A x|^2`` (per column): since ``A^H r = 0`` at the solution,
  ``d residuals = 2 Re(r^H (db - dA x))``: ``db = 2 r dres`` and ``dA = -2 r (dres x)^H``.
* ``s``: ``ds_i = Re(u_i^H dA v_i)``, so ``dA = U diag(ds) V^H`` (for repeated singular values
  this differentiates their symmetric functions, which is what is defined there). A singular
  value at rounding level (``<= max(m, n) eps s_max``) sits at the kink of ``|.|``: it gets the
  zero subgradient (what central differences see), not an arbitrary ``u_i v_i^H``.
* ``rank`` is an integer: ``NoTangent()``.

The primals are NumPy's and SciPy's own calls (``rcond``/``cond`` and ``lapack_driver`` are
honoured; their rank decides the pseudo-inverse). SciPy's ``'gelsy'`` driver truncates a
pivoted QR factorization instead of the SVD: for a rank-deficient matrix the derivative with
respect to ``a`` is then ``not_implemented`` (the one with respect to ``b`` is the same).
Stacks follow each function (NumPy: one matrix; SciPy: stacks of matrices).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._samples import rank_two
from chainrules.rulesets.linalg._utils import NO, cotangent_parts, mH, not_implemented_in, tangent_value
from chainrules_core import (
    ProjectTo,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    rrule,
    sample_inputs,
)


class _PseudoInverse:
    """``X = pinv(A)`` at a given rank, applied through a thin SVD ``A = U S V^H`` (stacks too)."""

    def __init__(self, a: np.ndarray, rank: Any) -> None:
        self.u, self.s, self.vh = np.linalg.svd(a, full_matrices=False)
        self.keep = np.arange(self.s.shape[-1]) < np.asarray(rank)[..., None]
        inverse = 1 / np.where(self.keep, self.s, 1)
        self.s_inv = np.where(self.keep, inverse, 0)[..., :, None]

    def numerically_zero(self) -> np.ndarray:
        """Singular values at rounding level (``<= max(m, n) eps s_max``): ``|.|`` has a kink there."""
        m, n = self.u.shape[-2], self.vh.shape[-1]
        scale = max(m, n) * np.finfo(self.s.dtype).eps * self.s.max(axis=-1, keepdims=True, initial=0)
        return self.s <= scale

    def apply(self, y: np.ndarray) -> np.ndarray:
        """``X y = V S^+ U^H y``."""
        return mH(self.vh) @ (self.s_inv * (mH(self.u) @ y))

    def apply_adjoint(self, z: np.ndarray) -> np.ndarray:
        """``X^H z = U S^+ V^H z``."""
        return self.u @ (self.s_inv * (self.vh @ z))

    def gram(self, z: np.ndarray) -> np.ndarray:
        """``X X^H z = V S^{+2} V^H z``."""
        return mH(self.vh) @ (self.s_inv ** 2 * (self.vh @ z))

    def null_part(self, z: np.ndarray) -> np.ndarray:
        """``(I - X A) z``: ``z`` minus its projection onto the row space of ``A``."""
        return z - mH(self.vh) @ (self.keep[..., :, None] * (self.vh @ z))


def _columns(x: Any) -> np.ndarray:
    """A 1-d right-hand side or solution as one column."""
    x = np.asarray(x)
    return x[..., None] if x.ndim == 1 else x


def _residual_cotangent(dres: Any, residuals: Any, k: int) -> np.ndarray | None:
    """The residuals' cotangent as a real row ``(..., 1, k)``, or ``None`` if there are no residuals."""
    if dres is None or np.size(residuals) == 0:
        return None
    return np.real(np.reshape(np.asarray(dres), np.shape(residuals)))[..., None, :] if np.ndim(residuals) else \
        np.reshape(np.real(np.asarray(dres)), (1, k))


_GELSY_RANK_DEFICIENT = ("scipy.linalg.lstsq with lapack_driver='gelsy' on a rank-deficient matrix: gelsy truncates "
                         "a pivoted QR factorization, whose derivative with respect to a differs from that of the "
                         "SVD truncation (use lapack_driver='gelsd' or 'gelss')")


def _qr_truncated(a: np.ndarray, rank: Any, driver: Any) -> bool:
    """Whether ``gelsy`` dropped part of a pivoted QR factorization (its derivative in ``a`` is not the SVD one)."""
    return driver == "gelsy" and bool(np.any(np.asarray(rank) < min(a.shape[-2:])))


def _lstsq_cotangents(a: np.ndarray, b: np.ndarray, out: tuple[Any, ...], dy: Any,
                      where: str, driver: Any = None) -> tuple[Any, Any]:
    """Thunked cotangents ``(da, db)`` of every differentiable output of ``lstsq``."""
    x, residuals, rank, s = out
    dx, dres, _, ds = cotangent_parts(dy, out, where)       # the rank is an integer
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)
    if dx is None and dres is None and ds is None:
        return project_a(ZeroTangent()), project_b(ZeroTangent())
    missing = not_implemented_in(dx, dres, ds)
    if missing is not None:
        return missing, missing
    b2, x2 = _columns(b), _columns(x)
    k = b2.shape[-1]
    res_bar = _residual_cotangent(dres, residuals, k)

    @functools.cache
    def pieces() -> tuple[_PseudoInverse, Any, np.ndarray]:
        pinv = _PseudoInverse(a, rank)
        r = b2 - a @ x2
        db = None
        if dx is not None:
            db = pinv.apply_adjoint(_columns(dx))
        if res_bar is not None:
            db = 2 * r * res_bar if db is None else db + 2 * r * res_bar
        return pinv, db, r

    def cotangent_a() -> Any:
        if _qr_truncated(a, rank, driver):
            return not_implemented(_GELSY_RANK_DEFICIENT)
        pinv, _, r = pieces()
        da = 0
        if dx is not None:
            dx2 = _columns(dx)
            adjoint = pinv.apply_adjoint(dx2)
            da = (-adjoint @ mH(x2) + r @ mH(pinv.apply(adjoint))
                  + pinv.apply_adjoint(x2) @ mH(pinv.null_part(dx2)))
        if res_bar is not None:
            da = da - (2 * r * res_bar) @ mH(x2)
        if ds is not None and s is not None:
            weights = np.where(pinv.numerically_zero(), 0, np.real(np.asarray(ds)))
            da = da + pinv.u @ (weights[..., :, None] * pinv.vh)
        return project_a(np.broadcast_to(da, a.shape) if np.ndim(da) == 0 else da)

    def cotangent_b() -> Any:
        db = pieces()[1]
        if db is None:
            return project_b(ZeroTangent())
        return project_b(db.reshape(b.shape))

    return Thunk(cotangent_a), Thunk(cotangent_b)


def _lstsq_tangent(a: np.ndarray, b: np.ndarray, out: tuple[Any, ...], da: Any, db: Any, driver: Any = None) -> Any:
    """The tangent ``(dx, dresiduals, NoTangent(), ds)`` of ``lstsq``'s output."""
    x, residuals, rank, s = out
    missing = not_implemented_in(da, db)
    if missing is not None:
        return missing
    if da is not None and _qr_truncated(a, rank, driver):
        return not_implemented(_GELSY_RANK_DEFICIENT)
    if da is None and db is None:
        return ZeroTangent()
    pinv = _PseudoInverse(a, rank)
    b2, x2 = _columns(b), _columns(x)
    r = b2 - a @ x2
    change: Any = 0 if db is None else _columns(db)      # db - dA x
    dx: Any = 0 if db is None else pinv.apply(change)
    if da is not None:
        dax = da @ x2
        change = change - dax
        dah = mH(da)
        dx = dx - pinv.apply(dax) + pinv.gram(dah @ r) + pinv.null_part(dah @ pinv.apply_adjoint(x2))
    dx = np.broadcast_to(dx, x2.shape).reshape(np.shape(x))
    dres: Any = NO
    if residuals is not None and np.size(residuals):
        dres = np.reshape(2 * np.real(np.sum(np.conj(r) * change, axis=-2)), np.shape(residuals))
    elif residuals is not None:
        dres = np.zeros_like(residuals)
    ds: Any = NO if s is None else np.zeros_like(s)
    if s is not None and da is not None:
        ds = np.real(np.sum(np.conj(pinv.u) * (da @ mH(pinv.vh)), axis=-2))
        ds = np.where(pinv.numerically_zero(), 0, ds).astype(ds.dtype)
    return ProjectTo(out)(Tangent(type(out), dx, dres, NO, ds))


# ---- np.linalg.lstsq ------------------------------------------------------------------------------------------
@rrule.register(np.linalg.lstsq, np.ndarray, np.ndarray)
def lstsq_rrule(a: np.ndarray, b: np.ndarray, rcond: Any = None) -> Any:
    """Reverse rule of ``np.linalg.lstsq(a, b, rcond)``: cotangents of the solution, residuals and singular values.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk, ZeroTangent, NoTangent
    >>> a, b = np.array([[1.0], [1.0]]), np.array([1.0, 3.0])
    >>> (x, residuals, rank, s), pullback = rrule(np.linalg.lstsq, a, b)
    >>> x, residuals
    (array([2.]), array([2.]))
    >>> _, da, db = pullback((np.ones(1), ZeroTangent(), NoTangent(), ZeroTangent()))
    >>> unthunk(db)
    array([0.5, 0.5])
    """
    out = np.linalg.lstsq(a, b, rcond)

    def lstsq_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        da, db = _lstsq_cotangents(a, b, out, dy, "numpy.linalg.lstsq")
        return NO, da, db, NO

    return out, lstsq_pullback


@frule.register(np.linalg.lstsq, np.ndarray, np.ndarray)
def lstsq_frule(tangents: Any, a: np.ndarray, b: np.ndarray, rcond: Any = None) -> Any:
    """Forward rule of ``np.linalg.lstsq``: the tangents of ``x``, the residuals and ``s``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> a, b = np.array([[1.0], [1.0]]), np.array([1.0, 3.0])
    >>> dy = frule((NoTangent(), ZeroTangent(), np.array([1.0, -1.0])), np.linalg.lstsq, a, b)[1]
    >>> np.round(dy[0], 12) + 0.0, dy[1]                  # x = mean(b) does not move; residuals do
    (array([0.]), array([-4.]))
    """
    out = np.linalg.lstsq(a, b, rcond)
    return out, _lstsq_tangent(a, b, out, tangent_value(tangents[1]), tangent_value(tangents[2]))


# ---- scipy.linalg.lstsq ---------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.lstsq, np.ndarray, np.ndarray)
def scipy_lstsq_rrule(a: np.ndarray, b: np.ndarray, cond: Any = None, overwrite_a: bool = False,
                      overwrite_b: bool = False, check_finite: bool = True, lapack_driver: Any = None) -> Any:
    """Reverse rule of ``scipy.linalg.lstsq``: cotangents of the solution, residues and singular values.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk, ZeroTangent, NoTangent
    >>> a, b = np.array([[1.0], [1.0]]), np.array([1.0, 3.0])
    >>> out, pullback = rrule(scipy.linalg.lstsq, a, b)
    >>> _, da, db = pullback((ZeroTangent(), 1.0, NoTangent(), ZeroTangent()))[:3]
    >>> unthunk(da), unthunk(db)                # d |b - a x|^2 = 2 r^T (db - da x), r = [-1, 1]
    (array([[ 4.],
           [-4.]]), array([-2.,  2.]))
    """
    out = scipy.linalg.lstsq(a, b, cond, check_finite=check_finite, lapack_driver=lapack_driver)

    def scipy_lstsq_pullback(dy: Any) -> tuple[Any, ...]:
        da, db = _lstsq_cotangents(a, b, out, dy, "scipy.linalg.lstsq", lapack_driver)
        return NO, da, db, NO, NO, NO, NO, NO

    return out, scipy_lstsq_pullback


@frule.register(scipy.linalg.lstsq, np.ndarray, np.ndarray)
def scipy_lstsq_frule(tangents: Any, a: np.ndarray, b: np.ndarray, cond: Any = None, overwrite_a: bool = False,
                      overwrite_b: bool = False, check_finite: bool = True, lapack_driver: Any = None) -> Any:
    """Forward rule of ``scipy.linalg.lstsq``: the tangents of ``x``, the residues and ``s``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> a, b = np.array([[1.0], [1.0]]), np.array([1.0, 3.0])
    >>> dy = frule((NoTangent(), ZeroTangent(), np.array([1.0, -1.0])), scipy.linalg.lstsq, a, b)[1]
    >>> np.round(dy[0], 12) + 0.0, dy[1]                  # SciPy's residue of a 1-d b is a scalar
    (array([0.]), -4.0)
    """
    out = scipy.linalg.lstsq(a, b, cond, check_finite=check_finite, lapack_driver=lapack_driver)
    return out, _lstsq_tangent(a, b, out, tangent_value(tangents[1]), tangent_value(tangents[2]), lapack_driver)


# ---- sample inputs ----------------------------------------------------------------------------------------
def _without_zero_singular_value(out: Any) -> tuple[Any, ...]:
    """``(x, residuals, s[:2])``: the zero singular value of a rank-two ``3 x 3`` matrix sits at the kink of ``|.|``,
    where central differences see an ``O(step)`` slope and the rules the zero subgradient."""
    return out[0], out[1], out[3][:2]


@sample_inputs(np.linalg.lstsq)
def _lstsq_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((4, 2))
    return [
        Sample(a, rng.standard_normal(4), label="tall, full rank: x, residuals, s"),
        Sample(a, rng.standard_normal((4, 2)), label="two right-hand sides"),
        Sample(a.T, rng.standard_normal(2), label="wide: the minimum-norm solution, no residuals"),
        Sample(a.astype(np.float32), rng.standard_normal(4).astype(np.float32), label="float32"),
        Sample(a + 1j * rng.standard_normal((4, 2)), rng.standard_normal(4), label="complex"),
        Sample(rank_two(rng), rng.standard_normal(3), 0.2, gauge_invariant=_without_zero_singular_value,
               label="rank 2 of 3, rcond by position"),
        Sample(a, rng.standard_normal(4), fkwargs={"rcond": None}, label="rcond by keyword"),
    ]


@sample_inputs(scipy.linalg.lstsq)
def _scipy_lstsq_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((4, 2))
    b = rng.standard_normal(4)
    return [
        Sample(a, b, label="tall, full rank (gelsd)"),
        Sample(a, rng.standard_normal((4, 2)), label="two right-hand sides"),
        Sample(a.T, b[:2], label="wide"),
        Sample(a.astype(np.float32), b.astype(np.float32), label="float32"),
        Sample(a + 1j * rng.standard_normal((4, 2)), b, label="complex"),
        Sample(rank_two(rng), b[:3], 0.2, gauge_invariant=_without_zero_singular_value,
               label="rank 2 of 3, cond by position"),
        *(Sample(a, b, fkwargs={"lapack_driver": driver}, label=f"lapack_driver={driver!r}")
          for driver in ("gelsd", "gelss", "gelsy")),
        Sample(a, b, None, False, False, False, label="options by position"),
    ]
