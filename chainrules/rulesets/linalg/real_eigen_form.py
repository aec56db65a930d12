"""The real block-diagonal form of an eigendecomposition: ``scipy.linalg.cdf2rdf(w, v)``.

``cdf2rdf`` turns the eigenvalues ``w`` and eigenvectors ``v`` of a real matrix (complex
eigenvalues in conjugate pairs, each pair's first member first) into real ``wr``, ``vr``
with ``A = vr wr vr^{-1}``: ``wr`` holds ``Re w`` on its diagonal and, for each pair
``(j, k)``, ``wr[j, k] = Im w_j`` and ``wr[k, j] = Im w_k``; ``vr = Re(v U)`` with a constant
``U`` (``[[1/2 i, 1/2], [-1/2 i, 1/2]]`` on each pair, the identity elsewhere).

The maths
---------
For a fixed pairing, both outputs are linear in ``(w, v)`` (real parts and imaginary parts
placed in a matrix, and ``Re(v U)``): the frule applies them to the tangents, and the
pullback is their adjoint, ``w_bar_j = wr_bar_jj + i wr_bar_jk`` (``i wr_bar_kj`` for the
second member of a pair) and ``v_bar = vr_bar U^H``.

The pairing
-----------
Which eigenvalues are paired is read from ``Im w != 0``: piecewise constant in ``w``, and
discontinuous where an eigenvalue's imaginary part is exactly ``0`` (a perturbation there
changes the pairing, or makes ``cdf2rdf`` reject the input). The rules differentiate the
piece the input lies on: a real eigenvalue stays real, so the imaginary part of its tangent
is not read and its cotangent is real. That is the derivative along real matrices, whose
real eigenvalues stay real: the one that ``cdf2rdf(*eig(A))`` needs.

Stacks (leading axes of ``w`` and ``v``) are handled as SciPy handles them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._factorizations import tuple_tangent, typed_cotangent_parts
from chainrules.rulesets.linalg._utils import NO, mH, not_implemented_in, tangent_value
from chainrules_core import Sample, Thunk, ZeroTangent, cotangent_projector, frule, rrule, sample_inputs

__all__ = ["pairing"]


def pairing(w: np.ndarray) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """``(stack_index, j, k)``: the stack position and the two members of each complex-conjugate pair, as SciPy.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.real_eigen_form import pairing
    >>> stack, j, k = pairing(np.array([2.0, 1 + 1j, 1 - 1j]))
    >>> stack, j, k
    ((), array([1]), array([2]))
    """
    idx = np.nonzero(np.iscomplex(w))
    stack = tuple(i[0::2] for i in idx[:-1])
    return stack, idx[-1][0::2], idx[-1][1::2]


def _block_basis(w: np.ndarray) -> np.ndarray:
    """SciPy's constant ``U`` (``vr = Re(v U)``) for the pairing of ``w``."""
    n = w.shape[-1]
    stack, j, k = pairing(w)
    u = np.zeros(w.shape[:-1] + (n, n), dtype=np.cdouble)
    di = np.arange(n)
    u[..., di, di] = 1.0
    u[stack + (j, j)] = 0.5j
    u[stack + (j, k)] = 0.5
    u[stack + (k, j)] = -0.5j
    u[stack + (k, k)] = 0.5
    return u


class _RealForm:
    def __init__(self, w: Any, v: Any) -> None:
        self.y = scipy.linalg.cdf2rdf(w, v)
        self.w = np.asarray(w)
        self.stack, self.j, self.k = pairing(self.w)
        self.u = _block_basis(self.w)

    def tangent(self, dw: Any, dv: Any) -> tuple[Any, Any]:
        wr = self.y[0]
        dwr = None
        if dw is not None:
            n = self.w.shape[-1]
            dwr = np.zeros(np.broadcast_shapes(wr.shape, dw.shape[:-1] + (n, n)), dtype=wr.dtype)
            di = np.arange(n)
            dwr[..., di, di] = np.real(dw)
            dwr[self.stack + (self.j, self.k)] = np.imag(dw[self.stack + (self.j,)])
            dwr[self.stack + (self.k, self.j)] = np.imag(dw[self.stack + (self.k,)])
        dvr = None if dv is None else np.real(dv @ self.u)
        return dwr, dvr

    def cotangent_w(self, wr_bar: np.ndarray) -> np.ndarray:
        n = wr_bar.shape[-1]
        di = np.arange(n)
        out = wr_bar[..., di, di].astype(np.cdouble)
        out[self.stack + (self.j,)] += 1j * wr_bar[self.stack + (self.j, self.k)]
        out[self.stack + (self.k,)] += 1j * wr_bar[self.stack + (self.k, self.j)]
        return out

    def cotangent_v(self, vr_bar: np.ndarray) -> np.ndarray:
        return vr_bar @ mH(self.u)


@rrule.register(scipy.linalg.cdf2rdf, np.ndarray, np.ndarray)
def cdf2rdf_rrule(w: np.ndarray, v: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.cdf2rdf``: ``w_bar_j = wr_bar_jj + i wr_bar_jk``, ``v_bar = vr_bar U^H``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk, ZeroTangent
    >>> w, v = np.array([1 + 2j, 1 - 2j]), np.eye(2, dtype=complex)
    >>> (wr, vr), pullback = rrule(scipy.linalg.cdf2rdf, w, v)
    >>> wr
    array([[ 1.,  2.],
           [-2.,  1.]])
    >>> unthunk(pullback((np.array([[0.0, 1.0], [0.0, 0.0]]), ZeroTangent()))[1])     # wr[0, 1] = Im w_0
    array([0.+1.j, 0.+0.j])
    """
    state = _RealForm(w, v)
    project_w, project_v = cotangent_projector(w), cotangent_projector(v)

    def cdf2rdf_pullback(dy: Any) -> tuple[Any, Any, Any]:
        wr_bar, vr_bar = typed_cotangent_parts(dy, state.y, "scipy.linalg.cdf2rdf")
        missing = not_implemented_in(wr_bar, vr_bar)
        if missing is not None:
            return NO, missing, missing
        dw = ZeroTangent() if wr_bar is None else Thunk(lambda: project_w(state.cotangent_w(wr_bar)))
        dv = ZeroTangent() if vr_bar is None else Thunk(lambda: project_v(state.cotangent_v(vr_bar)))
        return NO, dw, dv

    return state.y, cdf2rdf_pullback


@frule.register(scipy.linalg.cdf2rdf, np.ndarray, np.ndarray)
def cdf2rdf_frule(tangents: Any, w: np.ndarray, v: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.cdf2rdf``: the same placement of ``dw`` and ``Re(dv U)`` (linear)."""
    state = _RealForm(w, v)
    dw, dv = tangent_value(tangents[1]), tangent_value(tangents[2])
    missing = not_implemented_in(dw, dv)
    if missing is not None:
        return state.y, missing
    if dw is None and dv is None:
        return state.y, ZeroTangent()
    return state.y, tuple_tangent(state.y, list(state.tangent(dw, dv)))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.cdf2rdf)
def _cdf2rdf_samples(rng: np.random.Generator) -> list[Sample]:
    def v(n: int) -> np.ndarray:
        return rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))

    return [
        Sample(np.array([1.0 + 2.0j, 1.0 - 2.0j, 0.5 + 0.3j, 0.5 - 0.3j]), v(4), label="two conjugate pairs"),
        Sample(rng.standard_normal(3), rng.standard_normal((3, 3)), label="real eigenvalues only"),
        Sample(rng.standard_normal(3), v(3), label="real eigenvalues, complex eigenvectors"),
        Sample(np.array([[1.0 + 2.0j, 1.0 - 2.0j], [3.0 + 1.0j, 3.0 - 1.0j]]), rng.standard_normal((2, 2, 2)) + 0j,
               label="stack"),
    ]
