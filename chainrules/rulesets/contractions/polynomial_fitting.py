"""Polynomials from roots, roots of polynomials, division and fitting: ``np.poly``, ``np.roots``,
``np.polydiv`` and ``np.polyfit`` (coefficients highest power first, as in
:mod:`~chainrules.rulesets.contractions.polynomials`).

``np.poly(seq_of_zeros)``

For a vector of roots, ``c(z) = prod_i (z - r_i)``, so ``dc/dr_i = -prod_{j != i} (z - r_j)``:
the coefficients of the polynomial with root ``i`` removed (computed from prefix and suffix
products, so repeated roots are fine). For a square matrix ``A`` NumPy returns the
characteristic polynomial ``det(z I - A)``; Jacobi's formula gives
``dc(z) = -tr(adj(z I - A) dA)``, and ``adj(z I - A) = sum_k B_k z^(n-1-k)`` with
``B_0 = I``, ``B_k = A B_(k-1) + c_k I`` (Jacobi's formula: Magnus & Neudecker, *Matrix
Differential Calculus*, ch. 8; the adjugate by Faddeev's method: Gantmacher, *The Theory of
Matrices*, vol. 1, ch. IV), so ``dc_(k+1) = -tr(B_k dA)``. This is
smooth in ``A`` even where eigenvalues repeat (the coefficients are polynomials in the
entries); the ``B_k`` cost ``n`` matrix products and ``n^3`` numbers of memory. Where NumPy
returns real coefficients for complex roots or a complex matrix (the roots are closed under
conjugation), the rules differentiate the real part.

``np.roots(p)``

The roots are the eigenvalues of the companion matrix. At a simple root the implicit
function theorem on ``p(r_i) = 0`` gives ``dr_i = -(sum_k dp_k r_i^(N-1-k)) / p'(r_i)``
(e.g. Wilkinson, *Rounding Errors in Algebraic Processes*, 1963, ch. 2), with
``p'(r_i) = p_lead prod_{j != i} (r_i - r_j)``. At a repeated root the derivative is
infinite. The derivative of a computed root is only as accurate as the root is relative to its
distance ``gap_i`` to the nearest other root: a root whose first-order rounding error
``N eps sum_k |p_k| |r_i|^(N-1-k) / |p'(r_i)|`` exceeds ``1e-4 gap_i`` (``sqrt(eps) gap_i`` at
float32) is treated as repeated (an exact double root has a ratio near ``1/2``), and
the pullback (frule) raises :class:`RepeatedRootError` if that root gets a nonzero cotangent
(tangent); roots nobody differentiates do not matter. Leading zero coefficients, which NumPy
strips, get the same formula (the derivative of the roots that exist: a perturbation there
also adds a root near infinity, which the output does not have). Trailing zero coefficients
give roots at zero, differentiated like the others.

``np.polydiv(u, v)``

``u = q v + r`` with ``deg r < deg v``. Differentiating, ``du - q dv = dq v + dr``: the
tangents ``(dq, dr)`` are the quotient and remainder of ``e = du - q dv`` by ``v``, a
lower-triangular Toeplitz solve ``T dq = e[:K]`` (``K = len(q)``) and ``dr = e - dq v``.
The pullback is its adjoint. NumPy strips leading remainder coefficients within ``1e-8``
of zero; the kept ones are differentiated. When ``deg u < deg v`` the quotient is the
constant ``[0.]`` and the remainder is ``u``.

``np.polyfit(x, y, deg, rcond, full, w, cov)``

The weighted least-squares problem ``min |W (V(x) c - y)|`` with ``V`` the Vandermonde
matrix. With ``A = W V``, ``b = W y`` of full column rank, Golub & Pereyra (1973, "The
differentiation of pseudo-inverses and nonlinear least squares problems whose variables
separate", SIAM J. Numer. Anal. 10) give ``dc = A^+ (db - dA c) + (A^H A)^-1 dA^H r`` with
``r = b - A c``; reverse: ``b_bar = A z``, ``A_bar = -b_bar c^H + r z^H`` with
``z = (A^H A)^-1 c_bar``, all through a QR factorization of NumPy's column-scaled ``A``.
Then ``x`` enters through the Vandermonde entries, ``w`` through both ``A`` and ``b``. The
extra outputs: ``full=True`` gives ``(c, residuals, rank, s, rcond)``: ``d residuals =
2 Re(r^H (db - dA c))``, ``ds_i = Re(u_i^H dA_s v_i)`` for the singular values of NumPy's
column-scaled matrix ``A_s`` (the scaling differentiated too), ``rank`` is an integer and
``rcond`` is the input ``rcond`` (or NumPy's constant default). ``cov=True``/``"unscaled"``
gives ``(c, C)`` with ``C = (A^T A)^-1 * fac``, ``fac = residuals / (len(x) - deg - 1)``
(``1`` for ``"unscaled"``); ``d(A^T A)^-1 = -G (dA^T A + A^T dA) G``. A rank-deficient fit
(NumPy's ``RankWarning``) is linear in ``y`` (the truncated pseudo-inverse, which the rules
differentiate); its derivatives with respect to ``x`` and ``w`` depend on where the rank
drops and are ``not_implemented``. ``rcond`` is a tolerance: the fit is piecewise constant
in it (a zero cotangent, apart from its own output with ``full=True``).

Keyword arguments are never differentiated: ``np.polyfit(x, y, 2, w=w)`` gives ``w`` no
cotangent (pass it by position to differentiate it).
"""

from __future__ import annotations

import numbers
import operator
from typing import Any, SupportsIndex

import numpy as np
import scipy.linalg

from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NUMERIC,
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
)

__all__ = ["RepeatedRootError"]


class RepeatedRootError(np.linalg.LinAlgError):
    """A root of a polynomial that is repeated (to working precision) was differentiated.

    The derivative of a repeated root with respect to the coefficients is infinite;
    :func:`numpy.roots`'s rules raise this instead of returning a huge or ``nan`` value.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> r, pullback = rrule(np.roots, np.array([1.0, -2.0, 1.0]))     # (z - 1)^2
    >>> pullback(np.array([1.0, 0.0]))
    Traceback (most recent call last):
    ...
    chainrules.rulesets.contractions.polynomial_fitting.RepeatedRootError: np.roots: root 0 ...
    """


# ---- reading tuple (co)tangents ------------------------------------------------------------------------
def _read_parts(dy: Any, ys: tuple[Any, ...], f: Any) -> list[Any]:
    """The cotangent of each part of a tuple output: an array, ``None`` for a zero, or a not-implemented tangent.

    Examples
    --------
    >>> _read_parts(Tangent(tuple, np.ones(2), ZeroTangent()), (np.zeros(2), 1.0), np.polydiv)
    [array([1., 1.]), None]
    """
    parts = read_cotangents(dy, ys, f)
    if isinstance(parts, NotImplementedTangent):
        return [parts] * len(ys)
    if passes_through(parts):
        return [None] * len(ys)
    return [p if p is None or isinstance(p, NotImplementedTangent) else np.asarray(p) for p in parts]


def _first_not_implemented(*parts: Any) -> NotImplementedTangent | None:
    for part in parts:
        if isinstance(part, NotImplementedTangent):
            return part
    return None


def _tuple_tangent(parts: list[Any], ys: tuple[Any, ...]) -> Any:
    """An frule's tangent of a tuple output: ``Tangent(tuple, ...)``, each part projected."""
    out = []
    for part, y in zip(parts, ys):
        if isinstance(part, (AbstractZero, NotImplementedTangent)):
            out.append(part)
        elif part is None:
            out.append(ZeroTangent() if _has_tangent(y) else NoTangent())
        else:
            out.append(ProjectTo(y)(part))
    if all(isinstance(p, NoTangent) for p in out):
        return NoTangent()
    if all(isinstance(p, AbstractZero) for p in out):
        return ZeroTangent()
    return Tangent(tuple, *out)


def _has_tangent(y: Any) -> bool:
    if isinstance(y, (bool, int, np.bool_, np.integer)):
        return False
    dtype = getattr(y, "dtype", None)
    return dtype is None or np.dtype(dtype).kind in "fc"


# ---- np.poly -----------------------------------------------------------------------------------------------
def deflated_coefficients(r: np.ndarray) -> np.ndarray:
    """Row ``i``: the coefficients (highest power first) of ``prod_{j != i} (z - r_j)``.

    Built from prefix and suffix products (no division), so repeated roots are fine.

    Examples
    --------
    >>> deflated_coefficients(np.array([1.0, 2.0, 3.0]))      # (z-2)(z-3), (z-1)(z-3), (z-1)(z-2)
    array([[ 1., -5.,  6.],
           [ 1., -4.,  3.],
           [ 1., -3.,  2.]])
    """
    n = r.shape[0]
    dtype = np.result_type(r, np.float64) if r.dtype.kind not in "fc" else r.dtype
    prefix = [np.ones(1, dtype)]
    for i in range(n - 1):
        prefix.append(np.convolve(prefix[-1], np.array([1, -r[i]], dtype)))
    out = np.zeros((n, n), dtype)
    suffix = np.ones(1, dtype)
    for i in range(n - 1, -1, -1):
        out[i] = np.convolve(prefix[i], suffix)
        suffix = np.convolve(suffix, np.array([1, -r[i]], dtype))
    return out


def characteristic_adjugate_terms(a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``B_k`` (``k = 0..n-1``) with ``adj(z I - A) = sum_k B_k z^(n-1-k)``, given ``c = poly(A)``.

    ``B_0 = I`` and ``B_k = A B_(k-1) + c_k I`` (Faddeev-LeVerrier), stacked along the first axis.

    Examples
    --------
    >>> a = np.array([[2.0, 1.0], [0.0, 3.0]])
    >>> characteristic_adjugate_terms(a, np.poly(a))[1]        # B_1 = A - tr(A) I: adj(z I - A) = z I + B_1
    array([[-3.,  1.],
           [ 0., -2.]])
    """
    n = a.shape[0]
    eye = np.eye(n, dtype=np.result_type(a, c))
    out = np.zeros((n, n, n), dtype=eye.dtype)
    out[0] = eye
    for k in range(1, n):
        out[k] = a @ out[k - 1] + c[k] * eye
    return out


@rrule.register(np.poly, np.ndarray)
def poly_rrule(seq_of_zeros: Any) -> Any:
    """Reverse rule of ``np.poly``: roots (``r_bar_i = -sum conj(Q_i) c_bar[1:]``) or a square matrix.

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> c, pullback = rrule(np.poly, np.array([1.0, 2.0]))       # z^2 - 3z + 2
    >>> unthunk(pullback(np.array([0.0, 1.0, 0.0]))[1])          # d c_1 / d r = -1
    array([-1., -1.])
    """
    x = np.atleast_1d(seq_of_zeros)
    if x.dtype == object or x.ndim not in (1, 2):
        return None
    y = np.poly(seq_of_zeros)
    project_x = cotangent_projector(seq_of_zeros)
    shape = np.shape(seq_of_zeros)

    if x.ndim == 2:
        bs = characteristic_adjugate_terms(x, np.asarray(y))

        def poly_matrix_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, np.poly)
            if passes_through(dy):
                zero = passed_on(dy)
                return NoTangent(), project_x(zero)
            dc = np.asarray(dy)[1:]
            return NoTangent(), lazy_cotangent(project_x, lambda: -np.einsum("kji,k->ij", np.conj(bs), dc))

        return y, poly_matrix_pullback

    if x.shape[0] == 0:
        def poly_empty_pullback(dy: Any) -> tuple[Any, ...]:
            return NoTangent(), project_x(passed_on(read_cotangent(dy, y, np.poly)))

        return y, poly_empty_pullback
    roots = x.astype(np.mintypecode(x.dtype.char)) if x.dtype.kind in "fc" else x.astype(np.float64)
    q = deflated_coefficients(roots)

    def poly_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.poly)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_x(zero)
        dc = np.asarray(dy)[1:]
        return NoTangent(), lazy_cotangent(project_x, lambda: np.reshape(-(np.conj(q) @ dc), shape))

    return y, poly_pullback


@frule.register(np.poly, np.ndarray)
def poly_frule(tangents: Any, seq_of_zeros: Any) -> Any:
    """Forward rule of ``np.poly``: ``dc = -[0, dr @ Q]`` (roots) or ``dc_(k+1) = -tr(B_k dA)`` (matrix).

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 0.0])), np.poly, np.array([1.0, 2.0]))[1]
    array([ 0., -1.,  2.])
    """
    x = np.atleast_1d(seq_of_zeros)
    if x.dtype == object or x.ndim not in (1, 2):
        return None
    y = np.poly(seq_of_zeros)
    dx = tangent_value(tangents[1])
    if dx is None or x.size == 0:
        return y, ZeroTangent()
    dx = np.atleast_1d(dx)
    out = np.zeros(np.shape(y), dtype=np.result_type(y, dx, x, np.float64))
    if x.ndim == 2:
        bs = characteristic_adjugate_terms(x, np.asarray(y))
        out[1:] = -np.einsum("kji,ij->k", bs, dx)
    else:
        roots = x.astype(np.mintypecode(x.dtype.char)) if x.dtype.kind in "fc" else x.astype(np.float64)
        out[1:] = -(dx @ deflated_coefficients(roots))
    return y, ProjectTo(y)(out)


# ---- np.roots ----------------------------------------------------------------------------------------------
class _RootSensitivity:
    """``J[i, k] = d r_i / d p_k = -r_i^(N-1-k) / p'(r_i)`` and which roots are numerically repeated."""

    def __init__(self, p: np.ndarray, r: np.ndarray) -> None:
        n = p.shape[0]
        nonzero = np.flatnonzero(p)
        self.n_roots = r.shape[0]
        if self.n_roots == 0:
            self.jacobian = np.zeros((0, n))
            self.repeated = np.zeros(0, bool)
            return
        work = np.result_type(r, p, np.float64)
        rr = r.astype(work)
        lead = p[nonzero[0]].astype(work)
        diffs = rr[:, None] - rr[None, :]
        np.fill_diagonal(diffs, 1)
        derivative = lead * np.prod(diffs, axis=1)          # p'(r_i)
        powers = np.vander(rr, n)                            # r_i^(N-1-k)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            self.jacobian = -powers / derivative[:, None]
            eps = float(np.finfo(r.dtype).eps)
            spread = np.abs(powers) @ np.abs(p.astype(work))
            error = n * eps * spread / np.abs(derivative)
            np.fill_diagonal(diffs, np.inf)
            gap = np.min(np.abs(diffs), axis=1)
            self.repeated = ~(error <= max(1e-4, np.sqrt(eps)) * gap)
        # Rows of repeated roots are never used with a nonzero (co)tangent (``check`` raises
        # first); zeros there keep 0 * inf from turning the other entries into nan.
        self.jacobian[self.repeated] = 0
        self.roots = rr

    def check(self, used: np.ndarray, what: str) -> None:
        """Raise :class:`RepeatedRootError` if a repeated root is ``used`` (a nonzero (co)tangent)."""
        bad = np.flatnonzero(self.repeated & used)
        if bad.size:
            i = int(bad[0])
            raise RepeatedRootError(
                f"np.roots: root {i} ({self.roots[i]:.6g}) is repeated to working precision, so its derivative "
                f"with respect to the coefficients is infinite; the {what} gives it a nonzero value. "
                "(Symmetric functions of a cluster of roots, such as np.poly of them, are smooth: "
                "differentiate those instead.)")


@rrule.register(np.roots, np.ndarray)
def roots_rrule(p: np.ndarray) -> Any:
    """Reverse rule of ``np.roots`` by the implicit function theorem: ``p_bar = conj(J)^T r_bar``.

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> r, pullback = rrule(np.roots, np.array([1.0, -3.0, 2.0]))      # roots 2, 1
    >>> r
    array([2., 1.])
    >>> unthunk(pullback(np.array([1.0, 0.0]))[1])                     # -[4, 2, 1] / p'(2)
    array([-4., -2., -1.])
    """
    if p.ndim != 1:
        return None
    r = np.roots(p)
    project_p = cotangent_projector(p)
    sensitivity = _RootSensitivity(p, r)

    def roots_pullback(dr: Any) -> tuple[Any, ...]:
        dr = read_cotangent(dr, r, np.roots)
        if passes_through(dr):
            zero = passed_on(dr)
            return NoTangent(), project_p(zero)
        dr = np.asarray(dr).reshape(r.shape)
        sensitivity.check(dr != 0, "output cotangent")
        return NoTangent(), lazy_cotangent(project_p, lambda: np.conj(sensitivity.jacobian).T @ dr)

    return r, roots_pullback


@frule.register(np.roots, np.ndarray)
def roots_frule(tangents: Any, p: np.ndarray) -> Any:
    """Forward rule of ``np.roots``: ``dr_i = -(sum_k dp_k r_i^(N-1-k)) / p'(r_i)``.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([0.0, 0.0, 1.0])), np.roots, np.array([1.0, -3.0, 2.0]))[1]
    array([-1.,  1.])
    """
    if p.ndim != 1:
        return None
    r = np.roots(p)
    dp = tangent_value(tangents[1])
    if dp is None or r.size == 0:
        return r, ZeroTangent()
    sensitivity = _RootSensitivity(p, r)
    numerators = sensitivity.jacobian @ np.asarray(dp)
    sensitivity.check(np.asarray(dp) @ np.vander(sensitivity.roots, p.shape[0]).T != 0, "input tangent")
    return r, ProjectTo(r)(numerators)


# ---- np.polydiv --------------------------------------------------------------------------------------------
class _Division:
    """The linearised division ``e -> (dq, dr_full)`` by ``v``: ``T dq = e[:K]``, ``dr = e - dq * v``."""

    def __init__(self, u: Any, v: Any, q: np.ndarray, r: np.ndarray) -> None:
        self.u1 = np.atleast_1d(u) + 0.0
        self.v1 = np.atleast_1d(v) + 0.0
        self.q = q
        self.m, self.n = self.u1.shape[0] - 1, self.v1.shape[0] - 1
        self.k = self.m - self.n + 1
        self.length = r.shape[0]
        if self.k > 0:
            column = np.zeros(self.k, dtype=np.result_type(self.v1, q))
            top = min(self.k, self.n + 1)
            column[:top] = self.v1[:top]
            self.toeplitz = scipy.linalg.toeplitz(column, np.zeros(self.k, dtype=column.dtype))

    def forward(self, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(dq, dr)`` of ``e = du - q dv`` (``dr`` the kept trailing entries)."""
        if self.k <= 0:
            return np.zeros_like(self.q, dtype=np.result_type(self.q, e)), e[e.shape[0] - self.length:]
        dq = scipy.linalg.solve_triangular(self.toeplitz, e[:self.k], lower=True)
        dr_full = e - np.convolve(dq, self.v1)
        return dq, dr_full[dr_full.shape[0] - self.length:]

    def adjoint(self, dq_bar: Any, dr_bar: Any) -> np.ndarray:
        """``e_bar`` from the output cotangents (``None`` for a zero part)."""
        dtype = np.result_type(self.u1, self.v1, *(np.asarray(d) for d in (dq_bar, dr_bar) if d is not None))
        e_bar = np.zeros(self.m + 1, dtype=dtype)
        if dr_bar is not None:
            e_bar[e_bar.shape[0] - self.length:] = dr_bar
        if self.k <= 0:
            return e_bar
        total = -np.correlate(e_bar, self.v1, "valid") if dr_bar is not None else np.zeros(self.k, dtype)
        if dq_bar is not None:
            total = total + dq_bar
        e_bar[:self.k] += scipy.linalg.solve_triangular(self.toeplitz, total, lower=True, trans="C")
        return e_bar


@rrule.register(np.polydiv, NUMERIC, NUMERIC)
def polydiv_rrule(u: Any, v: Any) -> Any:
    """Reverse rule of ``np.polydiv``: the adjoint of the linearised division ``u = q v + r``.

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> (q, r), pullback = rrule(np.polydiv, np.array([3.0, 5.0, 2.0]), np.array([2.0, 1.0]))
    >>> q, r
    (array([1.5 , 1.75]), array([0.25]))
    >>> [unthunk(c) for c in pullback((np.zeros(2), np.ones(1)))[1:]]   # r = u(-v[1]/v[0]): d/du, d/dv
    [array([ 0.25, -0.5 ,  1.  ]), array([ 0.5, -1. ])]
    """
    y = np.polydiv(u, v)
    q, r = y
    project_u, project_v = cotangent_projector(u), cotangent_projector(v)
    division = _Division(u, v, q, r)

    def polydiv_pullback(dy: Any) -> tuple[Any, ...]:
        dq, dr = _read_parts(dy, y, np.polydiv)
        missing = _first_not_implemented(dq, dr)
        if missing is not None:
            return NoTangent(), missing, missing
        if dq is None and dr is None:
            return NoTangent(), project_u(ZeroTangent()), project_v(ZeroTangent())
        e_bar = division.adjoint(dq, dr)
        du = lazy_cotangent(project_u, lambda: np.reshape(e_bar, np.shape(u)))
        if division.k <= 0:  # the quotient is the constant [0.]: r = u does not depend on v
            return NoTangent(), du, project_v(ZeroTangent())
        dv = lazy_cotangent(project_v, lambda: np.reshape(-np.correlate(e_bar, q, "valid"), np.shape(v)))
        return NoTangent(), du, dv

    return y, polydiv_pullback


@frule.register(np.polydiv, NUMERIC, NUMERIC)
def polydiv_frule(tangents: Any, u: Any, v: Any) -> Any:
    """Forward rule of ``np.polydiv``: ``(dq, dr)`` is the division of ``du - q dv`` by ``v``.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([0.0, 0.0, 1.0]), np.zeros(2)), np.polydiv,
    ...       np.array([3.0, 5.0, 2.0]), np.array([2.0, 1.0]))[1]
    Tangent(tuple, array([0., 0.]), array([1.]))
    """
    y = np.polydiv(u, v)
    q, r = y
    du, dv = tangent_value(tangents[1]), tangent_value(tangents[2])
    if du is None and dv is None:
        return y, ZeroTangent()
    division = _Division(u, v, q, r)
    e = np.zeros(division.m + 1, dtype=np.result_type(q, *(np.asarray(d) for d in (du, dv) if d is not None)))
    if du is not None:
        e = e + np.atleast_1d(du)
    if dv is not None and division.k > 0:
        e = e - np.convolve(q, np.atleast_1d(dv))
    dq, dr = division.forward(e)
    return y, _tuple_tangent([dq if division.k > 0 else ZeroTangent(), dr], y)


# ---- np.polyfit --------------------------------------------------------------------------------------------
def _vandermonde_rates(x: np.ndarray, order: int) -> np.ndarray:
    """``d V[i, j] / d x_i = p_j x_i^(p_j - 1)`` with ``p_j = order - 1 - j`` (NumPy's decreasing powers)."""
    rates = np.zeros((x.shape[0], order), dtype=x.dtype)
    if order > 1:
        rates[:, :-1] = np.arange(order - 1, 0, -1) * np.vander(x, order - 1)
    return rates


class _Fit:
    """The least-squares problem of ``np.polyfit`` at working (double) precision, and its derivatives."""

    def __init__(self, x: np.ndarray, y: np.ndarray, deg: Any, rcond: Any, w: Any, cov: Any) -> None:
        xf, yf = np.asarray(x) + 0.0, np.asarray(y) + 0.0
        wf = None if w is None else np.asarray(w) + 0.0
        self.order = operator.index(deg) + 1
        self.npoints = xf.shape[0]
        self.one_d = yf.ndim == 1
        self.y_shape = yf.shape
        dtype = np.result_type(xf, yf, np.float64, *(() if wf is None else (wf,)))
        self.x = xf.astype(dtype)
        self.v = np.vander(self.x, self.order)
        self.w = None if wf is None else wf.astype(dtype)
        self.y = yf.astype(dtype).reshape(self.npoints, -1)
        self.a = self.v if self.w is None else self.w[:, None] * self.v
        self.b = self.y if self.w is None else self.w[:, None] * self.y
        self.scale = np.sqrt(np.sum(self.a * self.a, axis=0))      # NumPy's column scaling (complex for complex)
        self.a_s = self.a / self.scale
        self.u, self.s, self.vh = np.linalg.svd(self.a_s, full_matrices=False)
        rcond = self.npoints * np.finfo(xf.dtype).eps if rcond is None else rcond
        self.rank = int(np.sum(self.s > rcond * self.s[0])) if self.s.size else 0
        self.full_rank = self.rank == self.order
        self.cov = cov
        if self.full_rank:
            self.qmat, r = np.linalg.qr(self.a_s)
            self.r_a = r * self.scale                                # A = Q (R diag(scale))
            self.c = self.solve(self.qmat.conj().T @ self.b)
            self.resid = self.b - self.a @ self.c
            if cov:
                self.gram_inverse = np.linalg.inv(self.a.T @ self.a)
                if cov == "unscaled":  # NumPy's fac = 1: one covariance matrix even for 2-d y, shape (n, n, 1)
                    self.fac = np.ones(1)
                else:
                    self.fac = np.sum(np.abs(self.resid) ** 2, axis=0) / (self.npoints - self.order)

    def solve(self, z: np.ndarray) -> np.ndarray:
        """``R_A^-1 z``."""
        return scipy.linalg.solve_triangular(self.r_a, z)

    def solve_adjoint(self, z: np.ndarray) -> np.ndarray:
        """``R_A^-H z``."""
        return scipy.linalg.solve_triangular(self.r_a, z, trans="C")

    def truncated_pinv_adjoint(self, z: np.ndarray) -> np.ndarray:
        """``pinv_r(A_s)^H z`` at NumPy's rank (the y-derivative of a rank-deficient fit)."""
        k = self.rank
        return self.u[:, :k] @ ((self.vh[:k].conj() @ z) / self.s[:k, None])

    def truncated_pinv(self, z: np.ndarray) -> np.ndarray:
        k = self.rank
        return self.vh[:k].conj().T @ ((self.u[:, :k].conj().T @ z) / self.s[:k, None])

    # -- reverse ---------------------------------------------------------------------------------------
    def pullback(self, dc: Any, dres: Any, ds: Any, dcov: Any) -> tuple[np.ndarray, np.ndarray]:
        """``(A_bar, b_bar)`` from the output cotangents (full rank)."""
        a_bar = np.zeros_like(self.a)
        b_bar = np.zeros_like(self.b)
        dres = None if dres is None else np.real(np.asarray(dres)).reshape(-1)
        if dcov is not None:
            g = self.gram_inverse
            dcov = np.asarray(dcov).reshape(self.order, self.order, -1)
            g_bar = np.einsum("ijk,k->ij", dcov, self.fac)
            m_bar = -g.conj().T @ g_bar @ g.conj().T
            a_bar += self.a.conj() @ (m_bar + m_bar.T)
            if self.cov != "unscaled":
                fac_bar = np.real(np.einsum("ij,ijk->k", g.conj(), dcov)) / (self.npoints - self.order)
                dres = fac_bar if dres is None else dres + fac_bar
        if dc is not None:
            dc = np.asarray(dc).reshape(self.order, -1)
            t = self.solve_adjoint(dc)
            z = self.solve(t)
            bc = self.qmat @ t
            b_bar += bc
            a_bar += -bc @ self.c.conj().T + self.resid @ z.conj().T
        if dres is not None and dres.size:
            weighted = 2 * self.resid * dres
            b_bar += weighted
            a_bar += -weighted @ self.c.conj().T
        if ds is not None:
            ds = np.real(np.asarray(ds))
            as_bar = (self.u * ds) @ self.vh
            a_bar += as_bar / np.conj(self.scale)
            scale_bar = -np.sum(np.conj(self.a / self.scale**2) * as_bar, axis=0)
            a_bar += np.conj(self.a / self.scale) * scale_bar
        return a_bar, b_bar

    def input_cotangents(self, a_bar: np.ndarray, b_bar: np.ndarray) -> tuple[Any, Any, Any]:
        """``(x_bar, y_bar, w_bar)`` from ``A_bar``, ``b_bar``."""
        wc = None if self.w is None else np.conj(self.w)[:, None]
        y_bar = b_bar if wc is None else wc * b_bar
        v_bar = a_bar if wc is None else wc * a_bar
        x_bar = np.sum(np.conj(_vandermonde_rates(self.x, self.order)) * v_bar, axis=1)
        w_bar = np.sum(np.conj(self.v) * a_bar, axis=1) + np.sum(np.conj(self.y) * b_bar, axis=1)
        return x_bar, y_bar.reshape(self.y_shape), w_bar

    # -- forward ---------------------------------------------------------------------------------------
    def forward(self, dx: Any, dy: Any, dw: Any) -> dict[str, np.ndarray]:
        """Tangents of ``c``, ``residuals``, ``s`` and the covariance (full rank)."""
        da = np.zeros_like(self.a)
        db = np.zeros_like(self.b)
        w = None if self.w is None else self.w[:, None]
        if dx is not None:
            dv = _vandermonde_rates(self.x, self.order) * np.asarray(dx)[:, None]
            da += dv if w is None else w * dv
        if dy is not None:
            dyy = np.asarray(dy).reshape(self.npoints, -1)
            db += dyy if w is None else w * dyy
        if dw is not None:
            dww = np.asarray(dw)[:, None]
            da += dww * self.v
            db += dww * self.y
        rhs = db - da @ self.c
        dc = self.solve(self.qmat.conj().T @ rhs) + self.solve(self.solve_adjoint(da.conj().T @ self.resid))
        dres = 2 * np.real(np.sum(np.conj(self.resid) * rhs, axis=0))
        dscale = np.sum(self.a * da, axis=0) / self.scale
        da_s = da / self.scale - self.a * dscale / self.scale**2
        ds = np.real(np.einsum("ai,ab,ib->i", np.conj(self.u), da_s, np.conj(self.vh)))
        out = {"c": dc, "resids": dres, "s": ds}
        if self.cov:
            g = self.gram_inverse
            dg = -g @ (da.T @ self.a + self.a.T @ da) @ g
            dfac = np.zeros_like(self.fac) if self.cov == "unscaled" else dres / (self.npoints - self.order)
            out["cov"] = dg[:, :, None] * self.fac + g[:, :, None] * dfac
        return out


def _fit_parts(result: Any, full: Any, cov: Any) -> tuple[Any, ...]:
    if full:
        return tuple(result)
    if cov:
        return tuple(result)
    return (result,)


_NOT_IMPLEMENTED_RANK = ("np.polyfit: the fit is rank-deficient (NumPy warns RankWarning); its derivative with "
                         "respect to x and w depends on where the rank drops and is not implemented")


@rrule.register(np.polyfit, np.ndarray, np.ndarray, (SupportsIndex, type(None)))
def polyfit_rrule(x: np.ndarray, y: np.ndarray, deg: Any = None, rcond: Any = None, full: Any = False,
                  w: Any = None, cov: Any = False) -> Any:
    """Reverse rule of ``np.polyfit``: least squares (Golub-Pereyra) through the Vandermonde matrix.

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> x, y = np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 5.0])
    >>> c, pullback = rrule(np.polyfit, x, y, 1)               # y = 2x + 1
    >>> unthunk(pullback(np.array([1.0, 0.0]))[2]).round(12) + 0.0      # slope = cov(x, y) / var(x)
    array([-0.5,  0. ,  0.5])
    """
    result = np.polyfit(x, y, deg, rcond, full, w, cov)
    outputs = _fit_parts(result, full, cov)
    fit = _Fit(x, y, deg, rcond, w, cov)
    project_x, project_y = cotangent_projector(x), cotangent_projector(y)
    project_w = cotangent_projector(w)
    project_rcond = cotangent_projector(rcond) if isinstance(rcond, numbers.Real) else None
    n_out = len(outputs)

    def polyfit_pullback(dy: Any) -> tuple[Any, ...]:
        if n_out == 1:
            dc_read = read_cotangent(dy, result, np.polyfit)
            parts = [None if isinstance(dc_read, AbstractZero) else dc_read]
        else:
            parts = _read_parts(dy, outputs, np.polyfit)  # rank, an integer, always reads as None
        missing = _first_not_implemented(*parts)
        dc = parts[0]
        dres = parts[1] if full else None
        ds = parts[3] if full else None
        drcond = parts[4] if full else None
        dcov = parts[1] if (cov and not full) else None
        if project_rcond is None:
            d_rcond: Any = NoTangent()
        elif drcond is None or isinstance(drcond, NotImplementedTangent):
            d_rcond = project_rcond(ZeroTangent()) if drcond is None else drcond
        else:
            d_rcond = project_rcond(float(np.real(drcond)))
        tail = (NoTangent(), d_rcond, NoTangent())
        if missing is not None:
            return (NoTangent(), missing, missing, *tail, missing, NoTangent())
        if all(p is None for p in (dc, dres, ds, dcov)):
            return (NoTangent(), project_x(ZeroTangent()), project_y(ZeroTangent()), *tail,
                    project_w(ZeroTangent()), NoTangent())
        if fit.full_rank:
            a_bar, b_bar = fit.pullback(dc, dres, ds, dcov)
            x_bar, y_bar, w_bar = fit.input_cotangents(a_bar, b_bar)
            dx: Any = lazy_cotangent(project_x, lambda: x_bar)
            dyy: Any = lazy_cotangent(project_y, lambda: y_bar)
            dw: Any = lazy_cotangent(project_w, lambda: w_bar) if w is not None else NoTangent()
            return (NoTangent(), dx, dyy, *tail, dw, NoTangent())
        # rank-deficient: only c (linear in y) is differentiated
        gone = not_implemented(_NOT_IMPLEMENTED_RANK)
        if any(p is not None for p in (dres, ds, dcov)):
            dyy = not_implemented("np.polyfit: residuals, singular values and covariance of a rank-deficient fit")
        elif dc is None:
            dyy = project_y(ZeroTangent())
        else:
            def y_cotangent() -> np.ndarray:
                b_bar = fit.truncated_pinv_adjoint(np.asarray(dc).reshape(fit.order, -1) / np.conj(fit.scale)[:, None])
                return fit.input_cotangents(np.zeros_like(fit.a), b_bar)[1]

            dyy = lazy_cotangent(project_y, y_cotangent)
        dx = gone if differentiable(x) else NoTangent()
        dw = gone if w is not None and differentiable(np.asarray(w)) else NoTangent()
        return (NoTangent(), dx, dyy, *tail, dw, NoTangent())

    return result, polyfit_pullback


@frule.register(np.polyfit, np.ndarray, np.ndarray, (SupportsIndex, type(None)))
def polyfit_frule(tangents: Any, x: np.ndarray, y: np.ndarray, deg: Any = None, rcond: Any = None,
                  full: Any = False, w: Any = None, cov: Any = False) -> Any:
    """Forward rule of ``np.polyfit``: ``dc = A^+ (db - dA c) + (A^H A)^-1 dA^H r``.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> x, y = np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 5.0])
    >>> frule((NoTangent(), np.zeros(3), np.ones(3), NoTangent()), np.polyfit, x, y, 1)[1]
    array([0., 1.])
    """
    result = np.polyfit(x, y, deg, rcond, full, w, cov)
    outputs = _fit_parts(result, full, cov)
    padded = tuple(tangents) + (NoTangent(),) * (8 - len(tangents))
    dx, dy = tangent_value(padded[1]), tangent_value(padded[2])
    drcond = tangent_value(padded[4]) if isinstance(rcond, numbers.Real) else None
    dw = tangent_value(padded[6]) if w is not None else None
    if dx is None and dy is None and dw is None and drcond is None:
        return result, ZeroTangent()
    fit = _Fit(x, y, deg, rcond, w, cov)
    c_shape = np.shape(outputs[0])
    if fit.full_rank:
        if dx is None and dy is None and dw is None:
            pieces: dict[str, Any] = {}
        else:
            pieces = fit.forward(dx, dy, dw)
        dc = pieces["c"].reshape(c_shape) if "c" in pieces else None
    else:
        if dx is not None or dw is not None:
            pieces = {"c": not_implemented(_NOT_IMPLEMENTED_RANK)}
            dc = pieces["c"]
        else:
            pieces = {}
            dc = None
            if dy is not None:
                db = np.asarray(dy).reshape(fit.npoints, -1)
                db = db if fit.w is None else fit.w[:, None] * db
                dc = (fit.truncated_pinv(db) / fit.scale[:, None]).reshape(c_shape)
        if (full or cov) and (dx is not None or dy is not None or dw is not None):
            gone = not_implemented("np.polyfit: residuals, singular values and covariance of a rank-deficient fit")
            pieces.update(resids=gone, s=gone, cov=gone)
    if not (full or cov):
        if dc is None:
            return result, ZeroTangent()
        return result, dc if isinstance(dc, NotImplementedTangent) else ProjectTo(result)(dc)
    if full:
        res_out = outputs[1]
        dres = pieces.get("resids")
        if dres is not None and not isinstance(dres, NotImplementedTangent):
            dres = dres[:np.size(res_out)].reshape(np.shape(res_out)) if np.size(res_out) else None
        parts = [dc, dres, NoTangent(), pieces.get("s"), drcond]
        return result, _tuple_tangent(parts, outputs)
    dcov = pieces.get("cov")
    if dcov is not None and not isinstance(dcov, NotImplementedTangent):
        dcov = dcov.reshape(np.shape(outputs[1]))
    return result, _tuple_tangent([dc, dcov], outputs)



# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.poly)
def _poly_samples(rng: np.random.Generator) -> list[Sample]:
    r = rng.standard_normal(3)
    a = rng.standard_normal((3, 3))
    return [Sample(r, label="roots"), Sample(np.array([1.0, 1.0, -2.0]), label="a repeated root (smooth)"),
            Sample(np.array([0.5 + 1j, 0.5 - 1j, -2.0]), label="conjugate roots: real coefficients"),
            Sample(r + 1j * r[::-1], label="complex roots"), Sample(r.astype(np.float32), label="float32 roots"),
            Sample(a, label="a square matrix: the characteristic polynomial"),
            Sample(np.array([[2.0, 1.0], [0.0, 2.0]]), label="a defective matrix (smooth)"),
            Sample(a + 1j * a.T, label="a complex matrix"),
            Sample(np.array([1, 2, 3]), label="integer roots (not differentiated)"),
            Sample(np.zeros(0), label="no roots: the constant 1")]


@sample_inputs(np.roots)
def _roots_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(2.5 * np.poly([2.0, -1.0, 0.5]), label="real roots"),
            Sample(2.5 * np.poly([0.5 + 1j, 0.5 - 1j, -2.0]), label="complex conjugate roots"),
            Sample(np.array([1.0, -3.0, 2.0, 0.0]), label="a trailing zero: a root at 0"),
            Sample(2.5 * np.poly([1.5, -0.75]).astype(np.float32), label="float32"),
            Sample(rng.standard_normal(4) + 1j * rng.standard_normal(4), label="complex coefficients"),
            Sample(np.array([1, -3, 2]), label="integer coefficients (not differentiated)")]


@sample_inputs(np.polydiv)
def _polydiv_samples(rng: np.random.Generator) -> list[Sample]:
    u, v = rng.standard_normal(5), rng.standard_normal(3)
    return [Sample(u, v, label="deg u > deg v"), Sample(u[:4], v, label="a quotient as long as the remainder"),
            Sample(u[:3], v, label="equal degrees"),
            Sample(u[:3], rng.standard_normal(5), label="deg u < deg v: the quotient is 0"),
            Sample(u, 2.0, label="by a constant"), Sample(3.0, v[:2], label="a constant numerator"),
            Sample(u.astype(np.float32), v.astype(np.float32), label="float32"),
            Sample(u + 1j * u[::-1], v, label="complex")]


def _fit_data(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.linspace(-1.0, 1.0, 7) + 0.05 * rng.standard_normal(7)
    return x, rng.standard_normal(7), np.linspace(0.5, 2.0, 7)


@sample_inputs(np.polyfit)
def _polyfit_samples(rng: np.random.Generator) -> list[Sample]:
    x, y, w = _fit_data(rng)
    ys = rng.standard_normal((7, 2))
    return [Sample(x, y, 2), Sample(x, y, 0, label="degree 0"), Sample(x, ys, 1, label="two data sets"),
            Sample(x.astype(np.float32), y.astype(np.float32), 2, label="float32"),
            Sample(x + 0.3j * x[::-1], y + 1j * y[::-1], 2, label="complex"),
            Sample(x, y, 2, None, False, w, label="weights by position (differentiated)"),
            Sample(x, y, fkwargs={"deg": 2, "w": w}, label="deg and weights by keyword"),
            Sample(x, y, 2, 1e-12, label="rcond by position"),
            Sample(x, y, 2, None, True, w, label="full=True: residuals, rank, singular values, rcond"),
            Sample(x, y, 2, None, False, w, True, label="cov=True"),
            Sample(x, ys, 1, None, False, None, "unscaled", label="cov='unscaled'"),
            Sample(np.arange(6), y[:6], 1, label="integer x (not differentiated)"),
            Sample(np.array([0.0, 0.0, 1.0, 1.0, 0.0, 1.0]), y[:6], 2,
                   label="rank-deficient: d/dx not implemented (NumPy warns RankWarning)")]
