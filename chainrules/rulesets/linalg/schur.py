"""The Schur decomposition ``scipy.linalg.schur`` (``output='real'`` and ``'complex'``, ``sort=``) and
the conversion ``scipy.linalg.rsf2csf``, for stacks of matrices.

The maths of ``A = Z T Z^H`` (Z unitary, T upper triangular, or quasi-triangular with 2x2
blocks for complex conjugate eigenvalue pairs in the real form). With ``C = Z^H dA Z`` and
``K = Z^H dZ`` (skew-Hermitian): ``dT = C + T K - K T`` and ``dZ = Z K`` (as for the
Hessenberg reduction, Golub & Van Loan, "Matrix Computations", section 7.1; the Schur
derivative in this form is in Kressner, "Numerical Methods for General and Structured
Eigenvalue Problems", 2005, section 1.2.2). ``K`` is fixed by the structure of ``dT``:

* its strictly (block) lower part ``K_L`` solves ``sbl(T K_L - K_L T) = -sbl(C)``, a
  triangular Sylvester equation solved one (block) column at a time with LAPACK's
  ``?trsyl`` (``T[R, R] X - X T[J, J] = rhs``, ``R`` the rows below block ``J``); it needs
  distinct eigenvalues (``?trsyl`` reports close ones, and the rule raises ``LinAlgError``);
* a 2x2 block ``[[a, b], [c, a]]`` of the real form keeps equal diagonal entries (LAPACK's
  standardization, ``?lanv2``): the rotation ``theta`` inside the block is
  ``(r_{k+1,k+1} - r_{kk}) / (2 (b + c))`` with ``r = C + T K_L' - K_L' T``. Where ``b + c = 0``
  (a normal block) the standardized form is not differentiable and the rule raises
  ``LinAlgError``;
* the complex form leaves each Schur vector's phase free (``Z -> Z D``, ``T -> D^H T D``,
  ``D`` diagonal unitary); LAPACK's choice is not a differentiable function of the
  mathematics, so the rules fix the gauge ``diag(K) = 0``. The pullback is exact for every
  loss invariant under that freedom (``Im diag(Z^H Zbar + T^H Tbar - Tbar T^H) = 0``: functions
  of the eigenvalues ``diag(T)``, of ``|T|``, of ``Z (T o M) Z^H``...); for a cotangent that
  is not, it returns ``not_implemented`` with the reason (PyTorch's eigenvector rule raises
  in the same situation). The forward rule's tangent is the gauge-fixed one.

The pullback is the adjoint: ``W = T^H Tbar - Tbar T^H + Z^H Zbar`` is the cotangent of ``K``;
the 2x2 rotations add ``Omega`` (a diagonal) to ``Cbar`` and ``T^H Omega - Omega T^H`` to ``W``;
the adjoint Sylvester equation ``sbl(T^H L - L T^H) = sbl(W - W^H)`` is solved from the last
block column back (``?trsyl`` with transposes), and ``Abar = Z (Tbar + Omega - L) Z^H``.
``Tbar`` is first projected onto ``T``'s structure (zero below the blocks, the two diagonal
entries of a 2x2 block averaged). ``sdim`` (with ``sort=``) gets ``NoTangent()``.

``rsf2csf(T, Z)`` applies a Givens rotation per 2x2 block; the rules differentiate SciPy's
algorithm step by step (the rotation's derivative through the block's eigenvalue,
``d lambda = (lambda (dp + dt) - p dt - t dp + q dr + r dq) / (2 lambda - p - t)`` for
``[[p, q], [r, t]]``), forward and in reverse, for any input ``T`` and ``Z``. SciPy rotates
where a subdiagonal entry of ``T`` is nonzero, so ``rsf2csf`` is discontinuous at an exactly
zero one (a structural zero of a Schur form): the rules keep each step's branch, which is
the derivative along Schur forms (the tangents ``schur``'s rules give).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._factorizations import tuple_tangent, typed_cotangent_parts
from chainrules.rulesets.linalg._samples import unitary
from chainrules.rulesets.linalg._utils import NO, lapack_functions, mH, not_implemented_in, tangent_value
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    rrule,
    sample_inputs,
)

_GAUGE_REASON = ("scipy.linalg.schur: the loss depends on the phases of the complex Schur vectors (Z -> Z D, "
                 "T -> D^H T D with D diagonal unitary), which the decomposition leaves free; LAPACK's choice is "
                 "not a differentiable function of the mathematics. Use a loss invariant under that freedom "
                 "(the eigenvalues diag(T), |T|, Z (T o M) Z^H, ...)")


class _Structure:
    """The block structure of one Schur form: the blocks (start, stop) and the strictly block-lower mask."""

    def __init__(self, t: np.ndarray) -> None:
        n = t.shape[-1]
        pairs = [] if np.iscomplexobj(t) else [k for k in range(n - 1) if t[k + 1, k] != 0]
        self.pairs = np.array(pairs, dtype=np.intp)
        starts, k = [], 0
        while k < n:
            size = 2 if k in pairs else 1
            starts.append((k, k + size))
            k += size
        self.blocks = starts
        block_of = np.empty(n, dtype=np.intp)
        for b, (s, e) in enumerate(starts):
            block_of[s:e] = b
        self.lower = block_of[:, None] > block_of[None, :]

    def project(self, dt: np.ndarray) -> np.ndarray:
        """``dt`` on the tangent space of the form: zero below the blocks, a 2x2 block's diagonal pair averaged."""
        out = np.where(self.lower, 0, dt)
        k = self.pairs
        if k.size:
            mean = (out[k, k] + out[k + 1, k + 1]) / 2
            out[k, k] = mean
            out[k + 1, k + 1] = mean
        return out


def _trsyl(t: np.ndarray, r: slice, j: slice, rhs: np.ndarray, adjoint: bool, where: str) -> np.ndarray:
    """Solve ``T[R, R] X - X T[J, J] = rhs`` (``adjoint``: ``T[R, R]^H X - X T[J, J]^H = rhs``)."""
    (trsyl,) = lapack_functions(("trsyl",), t.dtype)
    op = ("C" if t.dtype.kind == "c" else "T") if adjoint else "N"
    x, scale, info = trsyl(t[r, r], t[j, j], rhs.astype(t.dtype, copy=False), trana=op, tranb=op, isgn=-1)
    if info > 0:
        raise np.linalg.LinAlgError(f"{where}: T has equal or very close eigenvalues; the Schur decomposition "
                                    "has no derivative there")
    return x / scale


def _theta_denominators(t: np.ndarray, s: _Structure, where: str) -> np.ndarray:
    k = s.pairs
    den = 2 * (t[k, k + 1] + t[k + 1, k])
    if np.any(np.abs(den) <= np.finfo(t.dtype).eps * np.abs(t[k, k + 1] - t[k + 1, k])):
        raise np.linalg.LinAlgError(f"{where}: a 2x2 block of the real Schur form is normal ([[a, b], [-b, a]]); "
                                    "its standardized form has no derivative there")
    return den


def _schur_k(t: np.ndarray, c: np.ndarray, s: _Structure) -> np.ndarray:
    """``K = Z^H dZ`` (the gauge ``diag(K) = 0`` for the complex form) from ``C = Z^H dA Z``."""
    where = "scipy.linalg.schur pushforward"
    n = t.shape[-1]
    kl = np.zeros((n, n), dtype=np.result_type(t, c))
    for start, stop in s.blocks:
        if stop == n:
            break
        rhs = -c[stop:, start:stop] + kl[stop:, :start] @ t[:start, start:stop]
        kl[stop:, start:stop] = _trsyl(t, slice(stop, n), slice(start, stop), rhs, False, where)
    k = kl - mH(kl)
    if s.pairs.size:
        den = _theta_denominators(t, s, where)
        rest = c + t @ k - k @ t
        p = s.pairs
        theta = (rest[p + 1, p + 1] - rest[p, p]) / den
        k[p + 1, p] = theta
        k[p, p + 1] = -theta
    return k


def _schur_c_bar(t: np.ndarray, w: np.ndarray, s: _Structure) -> np.ndarray:
    """The adjoint of :func:`_schur_k`: ``Cbar`` from the cotangent ``W`` of ``K``."""
    where = "scipy.linalg.schur pullback"
    n = t.shape[-1]
    cb = np.zeros((n, n), dtype=np.result_type(t, w))
    if s.pairs.size:
        den = _theta_denominators(t, s, where)
        p = s.pairs
        omega = np.zeros(n, dtype=cb.dtype)
        np.add.at(omega, p + 1, (w[p + 1, p] - w[p, p + 1]) / den)
        np.add.at(omega, p, -(w[p + 1, p] - w[p, p + 1]) / den)
        cb[np.arange(n), np.arange(n)] += omega
        th = mH(t)
        w = w + th * omega[None, :] - omega[:, None] * th
    wl = np.where(s.lower, w - mH(w), 0)
    lam = np.zeros((n, n), dtype=cb.dtype)
    for start, stop in reversed(s.blocks):
        if stop == n:
            continue
        rhs = wl[stop:, start:stop] + lam[stop:, stop:] @ mH(t[start:stop, stop:])
        lam[stop:, start:stop] = _trsyl(t, slice(stop, n), slice(start, stop), rhs, True, where)
    return cb - lam


def _gauge_free(t: np.ndarray, w: np.ndarray, scale: float) -> bool:
    """Whether a cotangent leaves the Schur vectors' phases alone: ``Im diag(W) = 0`` up to rounding."""
    if t.dtype.kind != "c":
        return True
    bound = np.sqrt(np.finfo(t.dtype).eps) * max(scale, np.finfo(t.dtype).tiny)
    return bool(np.abs(np.diagonal(w).imag).max(initial=0.0) <= bound)


class _Schur:
    def __init__(self, a: np.ndarray, output: str, lwork: Any, sort: Any, check_finite: bool) -> None:
        self.y = scipy.linalg.schur(a, output, lwork, False, sort, check_finite)
        self.t, self.z = self.y[0], self.y[1]
        self.index = list(np.ndindex(*self.t.shape[:-2]))
        self.structures = [_Structure(self.t[i]) for i in self.index]

    def pushforward(self, da: Any) -> Any:
        if da is None or isinstance(da, NotImplementedTangent):
            return ZeroTangent() if da is None else da
        t, z = self.t, self.z
        c = mH(z) @ da.astype(t.dtype, copy=False) @ z
        dt = np.empty(t.shape, dtype=t.dtype)
        dz = np.empty(z.shape, dtype=z.dtype)
        for i, s in zip(self.index, self.structures):
            k = _schur_k(t[i], c[i], s)
            dt[i] = s.project(c[i] + t[i] @ k - k @ t[i])
            dz[i] = z[i] @ k
        return tuple_tangent(self.y, [dt, dz] + [NO] * (len(self.y) - 2))

    def pullback(self, dy: Any) -> Any:
        dt, dz = typed_cotangent_parts(dy, self.y, "scipy.linalg.schur")[:2]    # sdim is an integer
        missing = not_implemented_in(dt, dz)
        if missing is not None:
            return missing
        if dt is None and dz is None:
            return ZeroTangent()
        t, z = self.t, self.z
        cb = np.empty(t.shape, dtype=t.dtype)
        for i, s in zip(self.index, self.structures):
            tb = s.project(dt[i]) if dt is not None else np.zeros(t[i].shape, dtype=t.dtype)
            w = mH(t[i]) @ tb - tb @ mH(t[i])
            scale = np.abs(tb).max(initial=0.0) * np.abs(t[i]).max(initial=0.0) * t.shape[-1]
            if dz is not None:
                w = w + mH(z[i]) @ dz[i]
                scale += np.abs(dz[i]).max(initial=0.0)
            if not _gauge_free(t[i], w, scale):
                return not_implemented(_GAUGE_REASON)
            cb[i] = tb + _schur_c_bar(t[i], w, s)
        return z @ cb @ mH(z)


@rrule.register(scipy.linalg.schur, np.ndarray)
def schur_rrule(a: np.ndarray, output: str = "real", lwork: Any = None, overwrite_a: bool = False, sort: Any = None,
                check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.schur`` (distinct eigenvalues; see the module docstring for the gauge).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, ZeroTangent
    >>> a = np.array([[1.0, 2.0], [0.0, 3.0]])
    >>> (t, z), pullback = rrule(scipy.linalg.schur, a)
    >>> np.diagonal(t)
    array([1., 3.])
    >>> pullback((np.diag([0.0, 1.0]), ZeroTangent()))[1]   # d lambda_2 / dA = y x^T / (y^T x)
    array([[0., 1.],
           [0., 1.]])
    """
    state = _Schur(a, output, lwork, sort, check_finite)
    project_a = cotangent_projector(a)

    def schur_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, project_a(state.pullback(dy)), NO, NO, NO, NO, NO

    return state.y, schur_pullback


@frule.register(scipy.linalg.schur, np.ndarray)
def schur_frule(tangents: Any, a: np.ndarray, output: str = "real", lwork: Any = None, overwrite_a: bool = False,
                sort: Any = None, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.schur``: ``dT = C + T K - K T``, ``dZ = Z K`` (``C = Z^H dA Z``)."""
    state = _Schur(a, output, lwork, sort, check_finite)
    return state.y, state.pushforward(tangent_value(tangents[1]))


# ---- rsf2csf ----------------------------------------------------------------------------------------------------
_EPS = np.finfo(float).eps  # SciPy's threshold for a nonzero subdiagonal entry


class _Rotation:
    """One Givens step of ``rsf2csf`` at row ``m``, with what its derivative needs."""

    def __init__(self, t: np.ndarray, m: int, dtype: np.dtype) -> None:
        self.m = m
        self.block = t[m - 1:m + 1, m - 1:m + 1].copy()
        self.lam = scipy.linalg.eigvals(self.block)[0]
        self.mu = self.lam - t[m, m]
        self.x = t[m, m - 1]
        self.r = scipy.linalg.norm([self.mu, self.x])
        self.c, self.s = self.mu / self.r, self.x / self.r
        self.g = np.array([[np.conj(self.c), self.s], [-self.s, self.c]], dtype=dtype)

    def _lambda_partials(self) -> tuple[Any, Any, Any, Any]:
        (p, q), (r, t) = self.block
        den = 2 * self.lam - p - t
        return (self.lam - t) / den, r / den, q / den, (self.lam - p) / den

    def d_g(self, dt: np.ndarray) -> np.ndarray:
        m = self.m
        db = dt[m - 1:m + 1, m - 1:m + 1]
        wp, wq, wr, wt = self._lambda_partials()
        d_lam = wp * db[0, 0] + wq * db[0, 1] + wr * db[1, 0] + wt * db[1, 1]
        d_mu = d_lam - db[1, 1]
        dx = dt[m, m - 1]
        dr = np.real(np.conj(self.mu) * d_mu + np.conj(self.x) * dx) / self.r
        dc = (d_mu - self.c * dr) / self.r
        ds = (dx - self.s * dr) / self.r
        return np.array([[np.conj(dc), ds], [-ds, dc]])

    def g_bar_to_t_bar(self, gb: np.ndarray, tb: np.ndarray) -> None:
        """Add the cotangent of the state before the step, through ``G``, to ``tb``."""
        m = self.m
        cb = np.conj(gb[0, 0]) + gb[1, 1]
        sb = gb[0, 1] - gb[1, 0]
        mub = cb / self.r
        xb = sb / self.r
        rb = -np.real(np.conj(cb) * self.c + np.conj(sb) * self.s) / self.r
        mub = mub + rb * self.mu / self.r
        xb = xb + rb * self.x / self.r
        wp, wq, wr, wt = self._lambda_partials()
        tb[m - 1, m - 1] += np.conj(wp) * mub
        tb[m - 1, m] += np.conj(wq) * mub
        tb[m, m - 1] += np.conj(wr) * mub + xb
        tb[m, m] += np.conj(wt) * mub - mub


def _rsf2csf_steps(t: np.ndarray, z: np.ndarray, dt: np.ndarray | None = None, dz: np.ndarray | None = None,
                   record: bool = False) -> Any:
    """SciPy's ``rsf2csf`` on one matrix, with tangents carried along (``dt``, ``dz``) or the steps recorded."""
    n = t.shape[-1]
    steps: list[Any] = []
    for m in range(n - 1, 0, -1):
        if abs(t[m, m - 1]) > _EPS * (abs(t[m - 1, m - 1]) + abs(t[m, m])):
            rot = _Rotation(t, m, t.dtype)
            g, gh = rot.g, rot.g.conj().T
            saved = (t[m - 1:m + 1, m - 1:].copy(), z[:, m - 1:m + 1].copy())
            if dt is not None and dz is not None:
                dg = rot.d_g(dt)
                dt[m - 1:m + 1, m - 1:] = dg @ t[m - 1:m + 1, m - 1:] + g @ dt[m - 1:m + 1, m - 1:]
            t[m - 1:m + 1, m - 1:] = g @ t[m - 1:m + 1, m - 1:]
            cols = t[:m + 1, m - 1:m + 1].copy()
            if dt is not None and dz is not None:
                dt[:m + 1, m - 1:m + 1] = dt[:m + 1, m - 1:m + 1] @ gh + cols @ dg.conj().T
                dz[:, m - 1:m + 1] = dz[:, m - 1:m + 1] @ gh + z[:, m - 1:m + 1] @ dg.conj().T
            t[:m + 1, m - 1:m + 1] = cols @ gh
            z[:, m - 1:m + 1] = z[:, m - 1:m + 1] @ gh
            if record:
                steps.append((rot, saved[0], cols, saved[1]))
        elif record:
            steps.append((None, None, None, None))
        t[m, m - 1] = 0.0
        if dt is not None:
            dt[m, m - 1] = 0.0
    return steps


def _rsf2csf_pullback_one(t0: np.ndarray, z0: np.ndarray, tb: np.ndarray, zb: np.ndarray) -> tuple[np.ndarray,
                                                                                                       np.ndarray]:
    t, z = t0.copy(), z0.copy()
    steps = _rsf2csf_steps(t, z, record=True)
    n = t.shape[-1]
    tb, zb = tb.copy(), zb.copy()
    for m, (rot, rows0, cols1, zcols0) in zip(range(1, n), reversed(steps)):
        tb[m, m - 1] = 0
        if rot is None:
            continue
        g = rot.g
        gb = np.zeros((2, 2), dtype=tb.dtype)
        # Z[:, m-1:m+1] = Z0 G^H
        gb += mH(zb[:, m - 1:m + 1]) @ zcols0
        zb[:, m - 1:m + 1] = zb[:, m - 1:m + 1] @ g
        # T[:m+1, m-1:m+1] = T1 G^H
        gb += mH(tb[:m + 1, m - 1:m + 1]) @ cols1
        tb[:m + 1, m - 1:m + 1] = tb[:m + 1, m - 1:m + 1] @ g
        # T[m-1:m+1, m-1:] = G T0
        gb += tb[m - 1:m + 1, m - 1:] @ mH(rows0)
        tb[m - 1:m + 1, m - 1:] = mH(g) @ tb[m - 1:m + 1, m - 1:]
        rot.g_bar_to_t_bar(gb, tb)
    return tb, zb


def _rsf2csf_inputs(t: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    dtype = np.result_type(t.dtype, z.dtype, np.complex64)
    return np.array(t, dtype=dtype), np.array(z, dtype=dtype)


@rrule.register(scipy.linalg.rsf2csf, np.ndarray, np.ndarray)
def rsf2csf_rrule(T: np.ndarray, Z: np.ndarray, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.rsf2csf``: SciPy's Givens steps differentiated in reverse order.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, ZeroTangent
    >>> T = np.array([[1.0, 2.0], [-2.0, 1.0]])                    # eigenvalues 1 +- 2i
    >>> (t, z), pullback = rrule(scipy.linalg.rsf2csf, T, np.eye(2))
    >>> np.round(np.diagonal(t), 12)
    array([1.+2.j, 1.-2.j])
    >>> dT, dZ = pullback((np.diag([1.0, 0.0]), ZeroTangent()))[1:3]   # d Re(t00) / dT
    >>> np.round(dT, 12) + 0.0
    array([[0.5, 0. ],
           [0. , 0.5]])
    """
    y = scipy.linalg.rsf2csf(T, Z, check_finite)
    project_t, project_z = cotangent_projector(T), cotangent_projector(Z)
    t0, z0 = _rsf2csf_inputs(T, Z)

    def rsf2csf_pullback(dy: Any) -> tuple[Any, ...]:
        dt, dz = typed_cotangent_parts(dy, y, "scipy.linalg.rsf2csf")
        missing = not_implemented_in(dt, dz)
        if missing is not None:
            return NO, missing, missing, NO
        if dt is None and dz is None:
            return NO, project_t(ZeroTangent()), project_z(ZeroTangent()), NO
        dt = np.zeros(y[0].shape, y[0].dtype) if dt is None else dt
        dz = np.zeros(y[1].shape, y[1].dtype) if dz is None else dz
        tb = np.empty(t0.shape, dtype=t0.dtype)
        zb = np.empty(z0.shape, dtype=z0.dtype)
        for i in np.ndindex(*t0.shape[:-2]):
            tb[i], zb[i] = _rsf2csf_pullback_one(t0[i], z0[i], dt[i], dz[i])
        return NO, project_t(tb), project_z(zb), NO

    return y, rsf2csf_pullback


@frule.register(scipy.linalg.rsf2csf, np.ndarray, np.ndarray)
def rsf2csf_frule(tangents: Any, T: np.ndarray, Z: np.ndarray, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.rsf2csf``: SciPy's Givens steps with their tangents."""
    y = scipy.linalg.rsf2csf(T, Z, check_finite)
    d_t, d_z = tangent_value(tangents[1]), tangent_value(tangents[2])
    for d in (d_t, d_z):
        if isinstance(d, NotImplementedTangent):
            return y, d
    if d_t is None and d_z is None:
        return y, ZeroTangent()
    t, z = _rsf2csf_inputs(T, Z)
    dt = np.zeros(t.shape, t.dtype) if d_t is None else np.array(np.broadcast_to(d_t, t.shape), dtype=t.dtype)
    dz = np.zeros(z.shape, z.dtype) if d_z is None else np.array(np.broadcast_to(d_z, z.shape), dtype=z.dtype)
    for i in np.ndindex(*t.shape[:-2]):
        ti, zi, dti, dzi = t[i].copy(), z[i].copy(), dt[i].copy(), dz[i].copy()
        _rsf2csf_steps(ti, zi, dti, dzi)
        dt[i], dz[i] = dti, dzi
    return y, tuple_tangent(y, [dt, dz])


# ---- sample inputs ----------------------------------------------------------------------------------------
def _distinct(rng: np.random.Generator, w: Any) -> np.ndarray:
    """A real matrix with the eigenvalues ``w`` (closed under conjugation) and a well-conditioned basis."""
    x = np.eye(len(w)) + 0.3 * rng.standard_normal((len(w), len(w)))
    d = np.zeros((len(w), len(w)))
    k = 0
    while k < len(w):
        if np.imag(w[k]) != 0:
            d[k:k + 2, k:k + 2] = [[w[k].real, w[k].imag], [-w[k].imag, w[k].real]]
            k += 2
        else:
            d[k, k] = w[k].real
            k += 1
    return x @ d @ np.linalg.inv(x)


def _phase_invariants(result: Any) -> tuple[Any, ...]:
    """``diag(T)``, ``|T|^2`` and ``Z T Z^H``: blind to the phases ``(Z D, D^H T D)`` of the complex form."""
    t, z = result[0], result[1]
    return np.diagonal(t, axis1=-2, axis2=-1), np.abs(t) ** 2, z @ t @ np.conj(np.swapaxes(z, -1, -2))


@sample_inputs(scipy.linalg.schur)
def _schur_samples(rng: np.random.Generator) -> list[Sample]:
    real = _distinct(rng, [-1.0, 0.5, 2.0])
    pair = _distinct(rng, [1.0 + 2.0j, 1.0 - 2.0j, -0.5])
    return [
        Sample(real, label="real eigenvalues, real form"),
        Sample(pair, label="a complex pair: a 2x2 block"),
        Sample(real.astype(np.float32), gauge_invariant=_phase_invariants, label="float32 (its own signs)"),
        Sample(pair, "complex", gauge_invariant=_phase_invariants, label="output='complex' by position"),
        Sample(real + 0.3j * rng.standard_normal((3, 3)), gauge_invariant=_phase_invariants, label="complex"),
        Sample(real, fkwargs={"sort": "lhp"}, label="sort='lhp' (with sdim)"),
        Sample(np.stack([real, _distinct(rng, [2.0, -3.0, 0.7])]), label="stack"),
    ]


@sample_inputs(scipy.linalg.rsf2csf)
def _rsf2csf_samples(rng: np.random.Generator) -> list[Sample]:
    # rsf2csf rotates where a subdiagonal entry of T is nonzero: it jumps at the structural zeros of a Schur
    # form, which generic finite differences move. So: a 2x2 Schur form (one block, no structural zero), and
    # upper Hessenberg T with every subdiagonal entry nonzero, on which SciPy's steps are smooth (the rules
    # differentiate those steps for any T and Z).
    t2, z2 = scipy.linalg.schur(_distinct(rng, [1.0 + 2.0j, 1.0 - 2.0j]))
    hessenberg = np.triu(rng.standard_normal((4, 4)), -1) + np.diag([1.5, -1.2, 0.9], -1)
    return [
        Sample(t2, z2, label="a 2x2 Schur form: one block"),
        Sample(hessenberg, unitary(4, rng), label="upper Hessenberg T, every subdiagonal entry nonzero"),
        Sample(hessenberg[:3, :3], np.eye(3), False, label="check_finite by position"),
    ]
