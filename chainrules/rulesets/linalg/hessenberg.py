"""The Hessenberg reduction ``scipy.linalg.hessenberg`` (``calc_q=``), for stacks of real or complex matrices.

The maths. LAPACK's ``?gehrd`` gives ``A = Q H Q^H`` with ``H`` upper Hessenberg and ``Q``
unitary with ``Q e_1 = e_1`` (its reflectors leave the first row and column alone); for
complex input the subdiagonal of ``H`` is real. By the implicit Q theorem (Golub & Van Loan,
"Matrix Computations", 4th ed., theorem 7.4.2) these conditions fix ``Q`` and ``H`` when
``H`` is unreduced (no zero on its subdiagonal), up to the signs of the subdiagonal, which
are locally constant. Differentiating, with ``C = Q^H dA Q`` and ``K = Q^H dQ``
(skew-Hermitian, first row and column zero):

    dH = C + H K - K H,    dQ = Q K,

and ``K`` is fixed by ``dH`` being Hessenberg (zero below the subdiagonal) with a real
subdiagonal. Reading the entries ``(i, j)``, ``i >= j + 2``, column by column gives
``K[i, j + 1] H[j + 1, j] = C[i, j] + (H K)[i, j] - sum_{l <= j} K[i, l] H[l, j]``: column
``j + 1`` of ``K`` from the columns before it, one matrix-vector product per column
(``O(n^3)`` in all); for complex input, the imaginary diagonal ``K[j + 1, j + 1]`` keeps
``dH[j + 1, j]`` real. The pullback is the adjoint of this recursion, run backwards:
``Hbar`` and ``Qbar`` give ``W = H^H Hbar - Hbar H^H + Q^H Qbar`` (the cotangent of ``K``),
which flows back through the columns into ``Cbar``, and ``Abar = Q (Hbar + Cbar) Q^H``.

SciPy returns ``H = A`` and ``Q = I`` for matrices of order 1 or 2 (already Hessenberg):
their tangents are ``dA`` and zero. A zero on the subdiagonal of ``H`` (a reduced ``H``,
where the reflectors are not differentiable) raises ``LinAlgError`` in the pullback and
pushforward.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import well_conditioned
from chainrules.rulesets.linalg._factorizations import tuple_tangent, typed_cotangent, typed_cotangent_parts
from chainrules.rulesets.linalg._utils import NO, mH, not_implemented_in, tangent_value
from chainrules_core import (
    NotImplementedTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    rrule,
    sample_inputs,
)


def _structure(dh: np.ndarray, complex_: bool) -> np.ndarray:
    """The Hessenberg part of ``dh``: zero below the subdiagonal, a real subdiagonal for complex input."""
    out = np.triu(dh, -1)
    if complex_ and out.shape[-1] > 1:
        idx = np.arange(out.shape[-1] - 1)
        out[..., idx + 1, idx] = out[..., idx + 1, idx].real
    return out


def _check_unreduced(h: np.ndarray, where: str) -> np.ndarray:
    sub = np.diagonal(h, -1).real
    if np.any(sub == 0):
        raise np.linalg.LinAlgError(f"{where}: H has a zero on its subdiagonal (a reduced Hessenberg matrix); the "
                                    "reduction has no derivative there")
    return sub


def _k_of(h: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``K = Q^H dQ`` from ``C = Q^H dA Q`` (one matrix of order >= 3)."""
    n = h.shape[-1]
    sub = _check_unreduced(h, "scipy.linalg.hessenberg pushforward")
    complex_ = np.iscomplexobj(h) or np.iscomplexobj(c)
    k = np.zeros((n, n), dtype=np.result_type(h, c))
    for j in range(n - 1):
        rest = c[j + 1:, j] + h[j + 1:, :] @ k[:, j] - k[j + 1:, : j + 1] @ h[: j + 1, j]
        k[j + 2:, j + 1] = rest[1:] / sub[j]
        if complex_:
            k[j + 1, j + 1] = 1j * rest[0].imag / sub[j]
        k[: j + 1, j + 1] = -np.conj(k[j + 1, : j + 1])
    return k


def _c_bar_of(h: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The adjoint of :func:`_k_of`: ``Cbar`` from the cotangent ``W`` of the full ``K``."""
    n = h.shape[-1]
    sub = _check_unreduced(h, "scipy.linalg.hessenberg pullback")
    complex_ = np.iscomplexobj(h) or np.iscomplexobj(w)
    # the cotangent of K's free entries (strict lower part and diagonal): K[l, i] = -conj(K[i, l])
    kb = np.tril(w, -1) - np.conj(np.triu(w, 1)).swapaxes(-1, -2)
    idx = np.arange(n)
    kb[idx, idx] = w[idx, idx]
    cb = np.zeros((n, n), dtype=np.result_type(h, w))
    for j in range(n - 2, -1, -1):
        rb = np.zeros(n - j - 1, dtype=cb.dtype)
        rb[1:] = kb[j + 2:, j + 1] / sub[j]
        if complex_:
            rb[0] = 1j * kb[j + 1, j + 1].imag / sub[j]
        cb[j + 1:, j] += rb
        col_bar = mH(h[j + 1:, :]) @ rb
        kb[j + 1:, : j + 1] -= np.outer(rb, np.conj(h[: j + 1, j]))
        kb[j:, j] += col_bar[j:]
        kb[j, :j] -= np.conj(col_bar[:j])
    return cb


def _each(*arrays: np.ndarray) -> Any:
    """The indices of the matrices of a stack (``[()]`` for one matrix)."""
    return list(np.ndindex(*arrays[0].shape[:-2]))


class _Hessenberg:
    def __init__(self, a: np.ndarray, calc_q: bool, check_finite: bool) -> None:
        self.y = scipy.linalg.hessenberg(a, calc_q, False, check_finite)
        self.calc_q = calc_q
        self.n = a.shape[-1]
        if self.n <= 2:
            return
        self.h, self.q = self.y if calc_q else scipy.linalg.hessenberg(a, True, False, check_finite)

    def pushforward(self, da: Any) -> Any:
        if da is None or isinstance(da, NotImplementedTangent):
            return ZeroTangent() if da is None else da
        if self.n <= 2:
            dh, dq = np.array(da), ZeroTangent()
        else:
            h, q = self.h, self.q
            complex_ = h.dtype.kind == "c"
            c = mH(q) @ da.astype(h.dtype, copy=False) @ q
            k = np.empty(c.shape, dtype=c.dtype)
            for i in _each(c):
                k[i] = _k_of(h[i], c[i])
            dh = _structure(c + h @ k - k @ h, complex_)
            dq = q @ k
        if not self.calc_q:
            return ProjectTo(self.y)(dh)
        return tuple_tangent(self.y, [dh, dq])

    def pullback(self, dy: Any) -> Any:
        if self.calc_q:
            dh, dq = typed_cotangent_parts(dy, self.y, "scipy.linalg.hessenberg")
            h_out = self.y[0]
        else:
            dh, dq = typed_cotangent(dy, self.y, "scipy.linalg.hessenberg"), None
            h_out = self.y
        missing = not_implemented_in(dh, dq)
        if missing is not None:
            return missing
        if self.n <= 2:
            return ZeroTangent() if dh is None else np.array(dh)
        if dh is None and dq is None:
            return ZeroTangent()
        h, q = self.h, self.q
        complex_ = h.dtype.kind == "c"
        hb = np.zeros(h_out.shape, dtype=h.dtype) if dh is None else _structure(dh, complex_)
        w = mH(h) @ hb - hb @ mH(h)
        if dq is not None:
            w = w + mH(q) @ dq
        cb = np.empty(w.shape, dtype=w.dtype)
        for i in _each(w):
            cb[i] = _c_bar_of(h[i], w[i])
        return q @ (hb + cb) @ mH(q)


@rrule.register(scipy.linalg.hessenberg, np.ndarray)
def hessenberg_rrule(a: np.ndarray, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.hessenberg``: the adjoint of the column recursion for ``K = Q^H dQ``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> a = np.array([[1.0, 2.0, 0.0], [3.0, 4.0, 1.0], [4.0, 0.0, 2.0]])
    >>> h, pullback = rrule(scipy.linalg.hessenberg, a)
    >>> h[1, 0]
    np.float64(-5.0)
    >>> dh = np.zeros((3, 3)); dh[1, 0] = 1.0   # d h[1, 0] = -(a[1, 0] da[1, 0] + a[2, 0] da[2, 0]) / 5
    >>> pullback(dh)[1]
    array([[ 0. ,  0. ,  0. ],
           [-0.6,  0. ,  0. ],
           [-0.8,  0. ,  0. ]])
    """
    state = _Hessenberg(a, calc_q, check_finite)
    project_a = cotangent_projector(a)

    def hessenberg_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, project_a(state.pullback(dy)), NO, NO, NO

    return state.y, hessenberg_pullback


@frule.register(scipy.linalg.hessenberg, np.ndarray)
def hessenberg_frule(tangents: Any, a: np.ndarray, calc_q: bool = False, overwrite_a: bool = False,
                     check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.hessenberg``: ``dH = C + H K - K H``, ``dQ = Q K`` (``C = Q^H dA Q``)."""
    state = _Hessenberg(a, calc_q, check_finite)
    return state.y, state.pushforward(tangent_value(tangents[1]))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.hessenberg)
def _hessenberg_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((4, 4))
    return [
        Sample(a, label="4x4, H only"),
        Sample(a, True, label="calc_q=True by position"),
        Sample(a.astype(np.float32), fkwargs={"calc_q": True}, label="float32, calc_q by keyword"),
        Sample(a + 1j * rng.standard_normal((4, 4)), fkwargs={"calc_q": True}, label="complex"),
        Sample(well_conditioned(2, rng), True, label="2x2: already Hessenberg (H = A, Q = I)"),
        Sample(np.stack([a, rng.standard_normal((4, 4))]), True, label="stack"),
    ]
