"""The polar decomposition ``scipy.linalg.polar`` (``side='right'``: ``A = U P``; ``'left'``: ``A = P U``),
for stacks of real or complex matrices of any shape and full rank.

The maths. SciPy computes both factors from the thin SVD ``A = W S V^H``: ``U = W V^H`` and
``P = V S V^H`` (right) or ``P = W S W^H`` (left). For a tall or square ``X = W S V^H`` of
full column rank and its right polar decomposition ``X = U P`` (Higham, "Functions of
Matrices", 2008, section 8.1 and problem 8.x; the derivative through the SVD as in
Townsend 2016, "Differentiating the singular value decomposition"), with
``dM = W^H dX V`` and ``F_ij = 1 / (s_i + s_j)``:

* ``V^H (U^H dU) V = E = F o (dM - dM^H)`` (skew-Hermitian: ``P E + E P = H - H^H`` for
  ``H = U^H dX``, solved in ``P``'s eigenbasis), so
  ``dU = W E V^H + (dX V - W dM) S^{-1} V^H`` and ``dP = V (dM - E S) V^H``;
* the pullback, with ``Uhat = W^H Ubar V``, ``Phat = V^H Pbar V`` and ``G = Uhat - Phat S``:
  ``Xbar = W (Phat + F o (G - G^H) - Uhat S^{-1}) V^H + Ubar V S^{-1} V^H``.

A wide ``A`` (right) goes through its transpose: ``A^H = U' P'`` is tall, ``U = U'^H`` and
``P = U' P' U'^H``; the left decomposition of ``A`` is the right one of ``A^H``
(``A^H = U^H P``). One SVD of the primal serves all cases. A rank-deficient ``A`` (a zero
singular value) raises ``LinAlgError`` in the pullback and pushforward: its polar factor
is not unique there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import well_conditioned
from chainrules.rulesets.linalg._factorizations import tuple_tangent, typed_cotangent_parts
from chainrules.rulesets.linalg._utils import NO, mH, not_implemented_in, tangent_value
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    rrule,
    sample_inputs,
)


class _TallCore:
    """The right polar decomposition ``X = U P`` of a tall or square ``X = W S V^H`` (full column rank)."""

    def __init__(self, w: np.ndarray, s: np.ndarray, v: np.ndarray, where: str) -> None:
        if s.size and not np.all(s > 0):
            raise np.linalg.LinAlgError(f"{where}: the matrix is rank deficient (a zero singular value); its polar "
                                        "factor is not unique and has no derivative there")
        self.w, self.s, self.v = w, s, v
        self.f = 1 / (s[:, None] + s[None, :])

    def pushforward(self, dx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w, s, v = self.w, self.s, self.v
        dm = mH(w) @ dx @ v
        e = self.f * (dm - mH(dm))
        du = (w @ e + (dx @ v - w @ dm) / s) @ mH(v)
        dp = v @ (dm - e * s) @ mH(v)
        return du, (dp + mH(dp)) / 2

    def pullback(self, du: np.ndarray | None, dp: np.ndarray | None) -> np.ndarray:
        w, s, v = self.w, self.s, self.v
        n = s.shape[-1]
        u_hat = np.zeros((n, n), dtype=w.dtype) if du is None else mH(w) @ du @ v
        p_hat = np.zeros((n, n), dtype=w.dtype) if dp is None else mH(v) @ dp @ v
        g = u_hat - p_hat * s
        m_bar = p_hat + self.f * (g - mH(g)) - u_hat / s
        out = w @ m_bar @ mH(v)
        if du is not None:
            out = out + ((du @ v) / s) @ mH(v)
        return out


class _Polar:
    """One matrix: SciPy's ``u, p`` from the thin SVD, and the rules through a tall right decomposition.

    The right decomposition of ``X = A`` (right) or ``X = A^H`` (left, ``A = X^H = P_x U_x^H``)
    is computed on the tall one of ``X`` and ``X^H`` (the "core", ``U' P'``): for a wide ``X``,
    ``U_x = U'^H`` and ``P_x = U' P' U'^H``.
    """

    def __init__(self, a: np.ndarray, side: str) -> None:
        w, s, vh = scipy.linalg.svd(a, full_matrices=False)
        self.u = w.dot(vh)
        self.p = (vh.T.conj() * s).dot(vh) if side == "right" else (w * s).dot(w.T.conj())
        m, n = a.shape
        self.on_transpose = (side == "right" and m < n) or (side == "left" and m <= n)
        self.composite = (side == "right" and m < n) or (side == "left" and m > n)
        v = mH(vh)
        core_w, core_v = (v, w) if self.on_transpose else (w, v)
        self.core_args = (core_w, s, core_v)
        self.u1 = mH(self.u) if self.on_transpose else self.u        # U' = W' V'^H
        self.p1 = core_v @ (s[:, None] * mH(core_v))                  # P' = V' S V'^H

    def pushforward(self, da: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        core = _TallCore(*self.core_args, "scipy.linalg.polar pushforward")
        du1, dp1 = core.pushforward(mH(da) if self.on_transpose else da)
        du = mH(du1) if self.on_transpose else du1
        if not self.composite:
            return du, dp1
        u1, p1 = self.u1, self.p1
        return du, du1 @ p1 @ mH(u1) + u1 @ dp1 @ mH(u1) + u1 @ p1 @ mH(du1)

    def pullback(self, du: np.ndarray | None, dp: np.ndarray | None) -> np.ndarray:
        core = _TallCore(*self.core_args, "scipy.linalg.polar pullback")
        du1 = None if du is None else (mH(du) if self.on_transpose else du)
        dp1 = dp
        if self.composite and dp is not None:
            u1, p1 = self.u1, self.p1
            extra = (dp + mH(dp)) @ u1 @ p1
            du1 = extra if du1 is None else du1 + extra
            dp1 = mH(u1) @ dp @ u1
        dx = core.pullback(du1, dp1)
        return mH(dx) if self.on_transpose else dx


class _Stack:
    def __init__(self, a: np.ndarray, side: str) -> None:
        if side not in ("right", "left") or a.ndim < 2 or a.dtype.kind not in "fcbiu":
            scipy.linalg.polar(a, side)  # SciPy's own error
        self.index = list(np.ndindex(*a.shape[:-2]))
        self.parts = [_Polar(a[i], side) for i in self.index]
        first = self.parts[0]
        u = np.empty(a.shape[:-2] + first.u.shape, dtype=first.u.dtype)
        p = np.empty(a.shape[:-2] + first.p.shape, dtype=first.p.dtype)
        for i, part in zip(self.index, self.parts):
            u[i], p[i] = part.u, part.p
        self.y = (u, p)


@rrule.register(scipy.linalg.polar, np.ndarray)
def polar_rrule(a: np.ndarray, side: str = "right") -> Any:
    """Reverse rule of ``scipy.linalg.polar`` (through the SVD; see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, ZeroTangent
    >>> (u, p), pullback = rrule(scipy.linalg.polar, np.array([[2.0, 0.0], [0.0, -3.0]]))
    >>> u, p
    (array([[ 1.,  0.],
           [ 0., -1.]]), array([[2., 0.],
           [0., 3.]]))
    >>> pullback((ZeroTangent(), np.array([[1.0, 0.0], [0.0, 1.0]])))[1]   # d tr(P) = d (|a11| + |a22|)
    array([[ 1.,  0.],
           [ 0., -1.]])
    """
    state = _Stack(a, side)
    y = state.y
    project_a = cotangent_projector(a)

    def polar_pullback(dy: Any) -> tuple[Any, Any, Any]:
        du, dp = typed_cotangent_parts(dy, y, "scipy.linalg.polar")
        missing = not_implemented_in(du, dp)
        if missing is not None:
            return NO, missing, NO
        if du is None and dp is None:
            return NO, project_a(ZeroTangent()), NO
        da = np.empty(a.shape, dtype=y[0].dtype)
        for i, part in zip(state.index, state.parts):
            da[i] = part.pullback(None if du is None else du[i], None if dp is None else dp[i])
        return NO, project_a(da), NO

    return y, polar_pullback


@frule.register(scipy.linalg.polar, np.ndarray)
def polar_frule(tangents: Any, a: np.ndarray, side: str = "right") -> Any:
    """Forward rule of ``scipy.linalg.polar``: ``dU = W E V^H + (dA V - W dM) S^{-1} V^H``, ``dP = V (dM - E S) V^H``.
    """
    state = _Stack(a, side)
    y = state.y
    da = tangent_value(tangents[1])
    if da is None or isinstance(da, NotImplementedTangent):
        return y, ZeroTangent() if da is None else da
    da = da.astype(y[0].dtype, copy=False)
    du, dp = np.empty(y[0].shape, dtype=y[0].dtype), np.empty(y[1].shape, dtype=y[1].dtype)
    for i, part in zip(state.index, state.parts):
        du[i], dp[i] = part.pushforward(da[i])
    return y, tuple_tangent(y, [du, dp])


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.polar)
def _polar_samples(rng: np.random.Generator) -> list[Sample]:
    a = well_conditioned(3, rng)
    return [
        Sample(a, label="square, side='right'"),
        Sample(a, "left", label="side='left' by position"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(well_conditioned(3, rng, np.complex128), fkwargs={"side": "left"}, label="complex, side by keyword"),
        Sample(rng.standard_normal((4, 2)), label="tall"),
        Sample(rng.standard_normal((2, 4)), label="wide"),
        Sample(np.stack([a, well_conditioned(3, rng)]), label="stack"),
    ]
