"""The matrix exponential and its Fréchet derivative by scaling and squaring (private).

Al-Mohy & Higham (2009), "Computing the Fréchet derivative of the matrix exponential, with
an application to condition number estimation", SIAM J. Matrix Anal. Appl. 30(4),
1639-1657, Algorithm 6.4. With ``A`` scaled to ``A / 2^s`` and the ``[m/m]`` Padé
approximant ``r_m = q_m^{-1} p_m`` of ``exp`` (``p_m(x) = U + V``, ``q_m(x) = V - U``, ``U``
the odd and ``V`` the even part):

* ``R_0 = r_m(A / 2^s)`` and ``R_{k+1} = R_k^2``, so ``exp(A) ~ R_s``;
* the Fréchet derivative ``L(A, E)`` follows the same steps, differentiated: ``L_U`` and
  ``L_V`` are the derivatives of the polynomials (through ``M_{2j} = L_{x^{2j}}(A, E)``:
  ``M_2 = A E + E A``, ``M_{2j+2k} = A^{2j} M_{2k} + M_{2j} A^{2k}``), ``q_m L_0 = L_U + L_V
  + (L_U - L_V) R_0`` and ``L_{k+1} = R_k L_k + L_k R_k``.

The degree ``m`` and the number of squarings ``s`` come from the 1-norm of ``A`` and the
thresholds ``ell_m`` of the paper's Table 6.1, which bound the backward error of both the
exponential and the derivative. :class:`PadeExponential` computes the exponential once and
keeps what does not depend on ``E`` (the powers of ``A``, the factorized ``q_m``, the
squares ``R_k``): each derivative then costs ``13 + 2s`` matrix products and two solves with
``q_m``'s LU factors (``m = 13``), against ``6 + s`` products and one factorization for the
exponential alone. The pullback uses the adjoint ``L^*(A, G) = L(A^H, G) = L(A, G^H)^H``,
which reuses the same intermediates.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.linalg

__all__ = ["PadeExponential", "pade_coefficients"]

# ell_m of Al-Mohy & Higham (2009), Table 6.1: for ||A||_1 <= ell_m the [m/m] Padé approximant
# gives exp(A) and L(A, E) to double precision backward error.
_ELL = {3: 1.08e-2, 5: 2.00e-1, 7: 7.83e-1, 9: 1.78e0, 13: 4.74e0}


def pade_coefficients(m: int) -> tuple[float, ...]:
    """The coefficients ``b_0, ..., b_m`` of the numerator of the ``[m/m]`` Padé approximant to ``exp``.

    ``b_j = (2m - j)! / (j! (m - j)!)``: proportional to ``(2m - j)! m! / ((2m)! j! (m - j)!)``
    (Higham 2005, "The scaling and squaring method for the matrix exponential revisited",
    eq. 2.3), normalised so that ``b_m = 1``.

    Examples
    --------
    >>> from chainrules.rulesets.linalg._expm_pade import pade_coefficients
    >>> pade_coefficients(3)
    (120.0, 60.0, 12.0, 1.0)
    """
    return tuple(float(math.factorial(2 * m - j) // (math.factorial(j) * math.factorial(m - j)))
                 for j in range(m + 1))


_B = {m: pade_coefficients(m) for m in _ELL}


class PadeExponential:
    """``exp(A)`` of one square matrix, keeping what its Fréchet derivatives ``L(A, E)`` need.

    Parameters
    ----------
    a : ndarray, shape (n, n)
        Finite, of dtype float32, float64, complex64 or complex128 (computed in that dtype).

    Attributes
    ----------
    value : ndarray
        ``exp(A)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._expm_pade import PadeExponential
    >>> a = np.array([[0.0, 1.0], [-1.0, 0.0]])
    >>> p = PadeExponential(a)
    >>> bool(np.allclose(p.value, [[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]]))
    True
    >>> e = np.array([[1.0, 0.0], [0.0, 0.0]])
    >>> bool(np.allclose(p.frechet(e), (PadeExponential(a + 1e-7 * e).value - p.value) / 1e-7, atol=1e-6))
    True
    """

    def __init__(self, a: np.ndarray) -> None:
        n = a.shape[-1]
        self.dtype = a.dtype
        self.identity = np.eye(n, dtype=a.dtype)
        norm = float(np.max(np.sum(np.abs(a), axis=0))) if n else 0.0
        self.s = 0
        for m in (3, 5, 7, 9):
            if norm <= _ELL[m]:
                self.m = m
                break
        else:
            self.m = 13
            self.s = max(0, math.ceil(math.log2(norm / _ELL[13])))
        self.a = a * (2.0 ** -self.s) if self.s else a
        if self.m == 13:
            u, v = self._uv_13()
        else:
            u, v = self._uv_low()
        self.lu = scipy.linalg.lu_factor(v - u, check_finite=False)
        r = scipy.linalg.lu_solve(self.lu, u + v, check_finite=False)
        self.squares = [r]  # R_0, ..., R_s
        for _ in range(self.s):
            r = r @ r
            self.squares.append(r)
        self.value = r

    # ---- the exponential ------------------------------------------------------------------------------------
    def _uv_low(self) -> tuple[Any, Any]:
        b, a = _B[self.m], self.a
        powers = [self.identity, a @ a]  # A^0, A^2, A^4, ...
        while len(powers) <= self.m // 2:
            powers.append(powers[-1] @ powers[1])
        self.powers = powers
        self.odd = sum(b[2 * k + 1] * powers[k] for k in range(len(powers)))  # sum b_{2k+1} A^{2k}
        even = sum(b[2 * k] * powers[k] for k in range(len(powers)))
        return a @ self.odd, even

    def _uv_13(self) -> tuple[np.ndarray, np.ndarray]:
        b, a, eye = _B[13], self.a, self.identity
        a2 = a @ a
        a4 = a2 @ a2
        a6 = a2 @ a4
        self.powers = [eye, a2, a4, a6]
        self.w1 = b[13] * a6 + b[11] * a4 + b[9] * a2
        w2 = b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye
        self.z1 = b[12] * a6 + b[10] * a4 + b[8] * a2
        z2 = b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
        self.w = a6 @ self.w1 + w2
        return a @ self.w, a6 @ self.z1 + z2

    # ---- the Fréchet derivative -----------------------------------------------------------------------------
    def frechet(self, e: np.ndarray) -> np.ndarray:
        """``L(A, E)``, the derivative of ``exp`` at ``A`` in the direction ``E`` (an (n, n) array)."""
        if np.iscomplexobj(e) and self.dtype.kind == "f":  # a complex direction at a real A: split it
            return self.frechet(np.ascontiguousarray(e.real)) + 1j * self.frechet(np.ascontiguousarray(e.imag))
        e = e.astype(self.dtype, copy=False)
        if self.s:
            e = e * (2.0 ** -self.s)
        lu_, lv = self._luv_13(e) if self.m == 13 else self._luv_low(e)
        r = self.squares[0]
        lr = scipy.linalg.lu_solve(self.lu, lu_ + lv + (lu_ - lv) @ r, check_finite=False)
        for r in self.squares[:-1]:
            lr = r @ lr + lr @ r
        return lr

    def frechet_adjoint(self, g: np.ndarray) -> np.ndarray:
        """``L^*(A, G) = L(A, G^H)^H``: the pullback of ``exp`` at ``A`` (an (n, n) cotangent)."""
        return np.conj(self.frechet(np.conj(g.T))).T

    def _luv_low(self, e: np.ndarray) -> tuple[Any, Any]:
        b, a, powers = _B[self.m], self.a, self.powers
        m2 = a @ e + e @ a
        derivs = [np.zeros_like(e), m2]  # M_0, M_2, M_4, ...
        while len(derivs) < len(powers):
            k = len(derivs)  # M_{2k} = A^{2k-2} M_2 + M_{2k-2} A^2
            derivs.append(powers[k - 1] @ m2 + derivs[k - 1] @ powers[1])
        l_odd = sum(b[2 * k + 1] * derivs[k] for k in range(1, len(derivs)))
        l_even = sum(b[2 * k] * derivs[k] for k in range(1, len(derivs)))
        return a @ l_odd + e @ self.odd, l_even

    def _luv_13(self, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        b, a = _B[13], self.a
        _, a2, a4, _ = self.powers
        m2 = a @ e + e @ a
        m4 = a2 @ m2 + m2 @ a2
        m6 = a4 @ m2 + m4 @ a2
        lw1 = b[13] * m6 + b[11] * m4 + b[9] * m2
        lw2 = b[7] * m6 + b[5] * m4 + b[3] * m2
        lz1 = b[12] * m6 + b[10] * m4 + b[8] * m2
        lz2 = b[6] * m6 + b[4] * m4 + b[2] * m2
        a6 = self.powers[3]
        lw = a6 @ lw1 + m6 @ self.w1 + lw2
        return a @ lw + e @ self.w, a6 @ lz1 + m6 @ self.z1 + lz2

