"""Sylvester and Stein equations for the derivatives of matrix equations and matrix functions (private).

The derivatives of ``solve_sylvester``, the Lyapunov and Riccati solvers and ``sqrtm`` are
solutions of linear matrix equations (implicit function theorem), and their adjoints are the
same equations with conjugate-transposed coefficients:

* :class:`Sylvester` solves ``A X + X B = C`` and its adjoint ``A^H Y + Y B^H = G`` by the
  Bartels-Stewart algorithm (Bartels & Stewart 1972; Golub & Van Loan, "Matrix
  Computations", 4th ed., section 7.6.3): the Schur forms ``A = U R U^H``, ``B = V S V^H``
  are computed once per matrix of a stack and shared by both equations, and LAPACK's
  ``?trsyl`` solves the (quasi-)triangular equation ``op(R) Z + Z op(S) = U^H C V``.
  ``?trsyl`` reports a singular or nearly singular equation (``A`` and ``-B`` sharing an
  eigenvalue): :class:`Sylvester` raises ``LinAlgError`` then, where SciPy's
  ``solve_sylvester`` returns the solution of a perturbed equation without a word.
* :func:`solve_stein` solves ``A X A^H - X + Q = 0`` with ``scipy.linalg.solve_discrete_lyapunov``.

A complex right-hand side with real coefficients is solved as its real and imaginary parts:
SciPy's ``solve_sylvester`` and ``solve_continuous_lyapunov`` pass a real quasi-triangular
Schur form to the complex ``?trsyl``, which reads it as triangular, and return a wrong
solution when the real matrix has complex eigenvalues (SciPy 1.17).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._utils import lapack_functions, mH

__all__ = ["Sylvester", "solve_stein"]

_schur: Any = scipy.linalg.schur  # (SciPy's stubs type its result as a 1-tuple)


def _lapack_dtype(*arrays: np.ndarray) -> np.dtype:
    dtype = np.result_type(*[a.dtype for a in arrays], np.float32)
    if dtype.kind not in "fc" or dtype.itemsize > (16 if dtype.kind == "c" else 8):
        dtype = np.dtype(np.complex128 if dtype.kind == "c" else np.float64)
    return dtype


class Sylvester:
    """The Sylvester equations ``A X + X B = C`` (and their adjoints) of a stack of pairs ``(A, B)``.

    Parameters
    ----------
    a : ndarray, shape (..., m, m)
    b : ndarray, shape (..., n, n)
        Their batch shapes broadcast; ``b`` may be ``a`` itself (one Schur form then serves both).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._sylvester import Sylvester
    >>> a, b = np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([[1.0]])
    >>> x = Sylvester(a, b).solve(np.array([[1.0], [2.0]]))
    >>> bool(np.allclose(a @ x + x @ b, [[1.0], [2.0]]))
    True
    >>> y = Sylvester(a, b).solve(np.array([[1.0], [2.0]]), adjoint=True)
    >>> bool(np.allclose(a.T @ y + y @ b.T, [[1.0], [2.0]]))
    True
    """

    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        self.batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        self.same = b is a
        self.dtype = _lapack_dtype(a, b)
        self.m, self.n = a.shape[-1], b.shape[-1]
        self.a = np.broadcast_to(a, self.batch + a.shape[-2:]).reshape((-1,) + a.shape[-2:])
        self.b = np.broadcast_to(b, self.batch + b.shape[-2:]).reshape((-1,) + b.shape[-2:])
        self._schur: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] | None = None

    def _forms(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        if self._schur is None:
            output = "complex" if self.dtype.kind == "c" else "real"
            forms = []
            for a, b in zip(self.a, self.b):
                r, u = _schur(a.astype(self.dtype, copy=False), output=output)
                if self.same:
                    forms.append((r, u, r, u))
                else:
                    s, v = _schur(b.astype(self.dtype, copy=False), output=output)
                    forms.append((r, u, s, v))
            self._schur = forms
        return self._schur

    def solve(self, c: np.ndarray, adjoint: bool = False) -> np.ndarray:
        """``X`` with ``A X + X B = C``, or with ``A^H X + X B^H = C`` when ``adjoint``.

        Raises ``LinAlgError`` when ``A`` and ``-B`` have a common (or numerically common)
        eigenvalue: the equation is singular and the derivative it stands for does not exist.
        """
        if np.iscomplexobj(c) and self.dtype.kind == "f":
            return self.solve(np.ascontiguousarray(c.real), adjoint) + 1j * self.solve(
                np.ascontiguousarray(c.imag), adjoint)
        m, n = self.m, self.n
        batch = np.broadcast_shapes(self.batch, c.shape[:-2])
        if batch != self.batch:  # a right-hand side with more batch axes than the coefficients
            return Sylvester(np.broadcast_to(self.a.reshape(self.batch + (m, m)), batch + (m, m)),
                             np.broadcast_to(self.b.reshape(self.batch + (n, n)), batch + (n, n))).solve(c, adjoint)
        rhs = np.broadcast_to(c, batch + (m, n)).reshape((-1, m, n))
        out = np.zeros((len(rhs), m, n), dtype=self.dtype)
        if m and n:
            (trsyl,) = lapack_functions(("trsyl",), self.dtype)
            op = ("C" if self.dtype.kind == "c" else "T") if adjoint else "N"
            for i, ((r, u, s, v), f) in enumerate(zip(self._forms(), rhs)):
                z, scale, info = trsyl(r, s, (mH(u) @ f @ v).astype(self.dtype, copy=False), trana=op, tranb=op)
                if info < 0:  # pragma: no cover  (an invalid argument: a bug, not a property of the input)
                    raise ValueError(f"LAPACK trsyl: illegal value in argument {-info}")
                if info == 1:
                    raise np.linalg.LinAlgError(
                        "the Sylvester equation A X + X B = C is singular or nearly so (A and -B have a common "
                        "eigenvalue): its solution, a derivative here, does not exist")
                out[i] = u @ (z / scale) @ mH(v)
        return out.reshape(batch + (m, n))


def solve_stein(a: np.ndarray, q: np.ndarray, method: Any = None) -> np.ndarray:
    """``X`` with ``A X A^H - X + Q = 0`` (``scipy.linalg.solve_discrete_lyapunov``; stacks broadcast).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._sylvester import solve_stein
    >>> a = np.array([[0.5, 1.0], [0.0, 0.2]])
    >>> x = solve_stein(a, np.eye(2) + 0j)
    >>> bool(np.allclose(a @ x @ a.T - x + np.eye(2), 0))
    True
    """
    if np.iscomplexobj(q) and not np.iscomplexobj(a):
        return solve_stein(a, np.ascontiguousarray(q.real), method) + 1j * solve_stein(
            a, np.ascontiguousarray(q.imag), method)
    batch = np.broadcast_shapes(a.shape[:-2], q.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    q = np.broadcast_to(q, batch + q.shape[-2:])
    return scipy.linalg.solve_discrete_lyapunov(a, q, method)
