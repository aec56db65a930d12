"""Iterative solvers of ``scipy.sparse.linalg``: ``cg``, ``gmres``, ``bicgstab``, ``minres``, ``bicg``, ``cgs``,
``gcrotmk``, ``lgmres``, ``qmr``, ``tfqmr``, ``lsqr`` and ``lsmr``.

The maths
---------
The rules differentiate the *solution* the solver converged to, by the implicit function
theorem, not the iterations (Giles 2008, "Collected matrix derivative results", §3.1;
Blondel et al. 2022, "Efficient and modular implicit differentiation", NeurIPS):

* ``cg``, ``gmres``, ``bicgstab``, ``minres``, ``bicg``, ``cgs``, ``gcrotmk``, ``lgmres``,
  ``qmr``, ``tfqmr`` (``A x = b``; ``minres`` solves ``(A - shift I) x = b``):
  ``dx = A^{-1} (db - dA x)`` in the frule, and in the pullback ``db = A^{-H} dx`` (one
  adjoint solve, with the same solver, at the same ``rtol`` and ``atol``, with ``A^H`` and
  the preconditioner ``M^H``, for ``qmr`` ``M1``, ``M2`` swapped and adjoint; ``A = A^H`` for
  ``cg`` and ``minres``; callbacks and the recycled subspaces ``CU``/``outer_v`` are not
  passed on) and ``dA = -db x^H`` at the stored entries of ``A`` (``O(nnz)``).
* ``lsqr``, ``lsmr`` (``x = argmin ||A x - b||^2 + damp^2 ||x||^2``, the normal equations
  ``N x = A^H b`` with ``N = A^H A + damp^2 I``): with ``r = b - A x``,
  ``dx = N^{-1} (dA^H r - A^H dA x + A^H db)``, and in the pullback ``z = N^{-1} dx``
  (``cg`` on ``N``, at the tolerance ``min(atol, btol)``), ``db = A z``,
  ``dA = r z^H - (A z) x^H`` on ``A``'s pattern; ``damp``, when given by position, gets
  ``-2 damp Re(z^H x)`` (``dN = 2 damp d(damp) I``). Only ``x`` is differentiated: the other
  outputs are the stopping flag, the iteration count and the norms and estimates the
  solver accumulates along its recurrences (``r1norm``, ``anorm``, ``acond``, ``var``...):
  like ``quad``'s error estimate and ``root``'s internals (see
  :mod:`chainrules.rulesets.optimize.roots`), they get ``NoTangent()`` in forward mode
  and their cotangents are ignored. (A residual norm you need differentiated is
  ``np.linalg.norm(b - A @ x)``, which has rules.)

``x0`` gets a zero tangent (the solution does not depend on the starting point). (SciPy's
``minres`` does not solve complex Hermitian systems: it fails or returns ``x = 0`` with
``info = 0``; use ``cg``, whose rule handles them.) The
derivative is that of the exact solution: it is as accurate as the solves are, so ask
for tight tolerances when derivatives matter. A solve that did not converge
(``info != 0``; for ``lsqr``/``lsmr`` ``istop`` not in 1, 2, 4, 5: an iteration limit or an
ill-conditioned problem) returns a result the derivative is not defined at: the frule
raises and the pullback raises a ``ValueError`` naming the function and ``info``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg

from chainrules.rulesets.structured_matrices._samples import sparse
from chainrules.rulesets.structured_matrices._tangents import NO, add_tangents, conj, tangent_of
from chainrules.structured.base import inexact
from chainrules.structured.sparse import SPARSE_TYPES, is_sparse
from chainrules_core import (
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangents,
    rrule,
    sample_inputs,
)

MATRIX = (*SPARSE_TYPES, np.ndarray)
LinearOperator = scipy.sparse.linalg.LinearOperator

_SQUARE = {scipy.sparse.linalg.cg: "cg", scipy.sparse.linalg.gmres: "gmres",
           scipy.sparse.linalg.bicgstab: "bicgstab", scipy.sparse.linalg.minres: "minres",
           scipy.sparse.linalg.bicg: "bicg", scipy.sparse.linalg.cgs: "cgs", scipy.sparse.linalg.gcrotmk: "gcrotmk",
           scipy.sparse.linalg.lgmres: "lgmres", scipy.sparse.linalg.qmr: "qmr", scipy.sparse.linalg.tfqmr: "tfqmr"}
_HERMITIAN = (scipy.sparse.linalg.cg, scipy.sparse.linalg.minres)
_LEAST_SQUARES = {scipy.sparse.linalg.lsqr: "lsqr", scipy.sparse.linalg.lsmr: "lsmr"}
_SOLVER_STATE = ("callback", "callback_type", "CU", "outer_v")
"""Options not passed on to the tangent and adjoint solves: callbacks, and the Krylov subspaces ``gcrotmk`` and
``lgmres`` keep (and update) between calls, which belong to the forward system."""
_CONVERGED_ISTOP = (0, 1, 2, 4, 5)  # x = 0 exact, or a tolerance met (3 and 6/7: conlim or iteration limit)


def _adjoint(M: Any) -> Any:
    """The adjoint ``M^H`` of a preconditioner (a matrix, sparse array or ``LinearOperator``)."""
    if M is None:
        return None
    if isinstance(M, LinearOperator):
        return M.H
    return conj(M).T


def _product(A: Any, v: np.ndarray) -> np.ndarray:
    return np.asarray(A @ v)


class _Solve:
    """The call of one square solver, repeated for the tangent and adjoint systems at the same options."""

    def __init__(self, f: Callable[..., Any], A: Any, b: np.ndarray, x0: Any, options: dict[str, Any]) -> None:
        self.f, self.A, self.options = f, A, dict(options)
        self.name = f"scipy.sparse.linalg.{_SQUARE[f]}"
        self.x, self.info = f(A, b, x0, **options)
        self.dtype = np.result_type(inexact(A.dtype), inexact(np.asarray(b).dtype))

    def check(self, what: str) -> None:
        if self.info != 0:
            raise ValueError(f"{self.name} {what}: the solve did not converge (info={self.info}), so x is not the "
                             "solution the derivative is defined at; raise maxiter, loosen rtol or precondition")

    def solve(self, rhs: np.ndarray, adjoint: bool, what: str) -> np.ndarray:
        options = {k: v for k, v in self.options.items() if k not in _SOLVER_STATE}
        A = self.A
        if adjoint and self.f not in _HERMITIAN:
            A = conj(A).T
            if "M" in options:
                options["M"] = _adjoint(options["M"])
            if "M1" in options or "M2" in options:  # qmr: M1^{-1} A M2^{-1}; the adjoint swaps the sides
                options["M1"], options["M2"] = _adjoint(options.get("M2")), _adjoint(options.get("M1"))
        if adjoint and "shift" in options:
            options["shift"] = np.conj(options["shift"])
        x, info = self.f(A, np.asarray(rhs, dtype=self.dtype), **options)
        if info != 0:
            raise ValueError(f"{self.name} {what}: the {'adjoint' if adjoint else 'tangent'} solve did not converge "
                             f"(info={info}); raise maxiter or loosen rtol")
        return np.asarray(x)


def _square_rrule(f: Callable[..., Any]) -> Callable[..., Any]:
    def solver_rrule(A: Any, b: np.ndarray, x0: Any = None, **options: Any) -> Any:
        s = _Solve(f, A, b, x0, options)
        y = (s.x, s.info)
        project_A: Any = cotangent_projector(A)
        project_b = cotangent_projector(b)

        def solver_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, y, s.name)
            dx = parts if passes_through(parts) else parts[0]
            if dx is None or passes_through(dx):
                zero = ZeroTangent() if dx is None else dx
                return NO, project_A(zero), project_b(zero), ZeroTangent()
            s.check("pullback")
            db = s.solve(np.asarray(dx), True, "pullback")
            x = s.x
            dA = Thunk(lambda: project_A(-np.outer(db, conj(x))) if not is_sparse(A)
                       else project_A.gather_product(-db[:, None], conj(x)[None, :]))
            return NO, dA, Thunk(lambda: project_b(db)), ZeroTangent()

        solver_pullback.__name__ = f"{_SQUARE[f]}_pullback"
        return y, solver_pullback

    solver_rrule.__name__ = solver_rrule.__qualname__ = f"{_SQUARE[f]}_rrule"
    solver_rrule.__doc__ = (f"Reverse rule of ``scipy.sparse.linalg.{_SQUARE[f]}``: the adjoint solve "
                            "``A^H db = dx``, ``dA = -db x^H`` on ``A``'s pattern (see the module docstring).")
    return solver_rrule


def _square_frule(f: Callable[..., Any]) -> Callable[..., Any]:
    def solver_frule(tangents: Any, A: Any, b: np.ndarray, x0: Any = None, **options: Any) -> Any:
        s = _Solve(f, A, b, x0, options)
        y = (s.x, s.info)
        dA, db = tangent_of(tangents[1]), tangent_of(tangents[2])
        if isinstance(dA, NotImplementedTangent) or isinstance(db, NotImplementedTangent):
            return y, Tangent(tuple, dA if isinstance(dA, NotImplementedTangent) else db, NO)
        rhs = add_tangents(None if db is None else np.asarray(db),
                           None if dA is None else -_product(ProjectTo(A)(dA), s.x))
        if rhs is None:
            return y, ZeroTangent()
        s.check("frule")
        return y, Tangent(tuple, ProjectTo(s.x)(s.solve(rhs, False, "frule")), NO)

    solver_frule.__name__ = solver_frule.__qualname__ = f"{_SQUARE[f]}_frule"
    solver_frule.__doc__ = (f"Forward rule of ``scipy.sparse.linalg.{_SQUARE[f]}``: ``dx = A^{{-1}} (db - dA x)`` "
                            "by the same solver at the same tolerance.")
    return solver_frule


for _f in _SQUARE:
    rrule.register(_f, MATRIX, np.ndarray)(_square_rrule(_f))
    frule.register(_f, MATRIX, np.ndarray)(_square_frule(_f))


# ---- lsqr, lsmr ------------------------------------------------------------------------------------------------
_LSQR_ARGS = ("damp", "atol", "btol", "conlim", "iter_lim", "show", "calc_var", "x0")
_LSMR_ARGS = ("damp", "atol", "btol", "conlim", "maxiter", "show", "x0")


def _least_squares_options(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    names = _LSQR_ARGS if f is scipy.sparse.linalg.lsqr else _LSMR_ARGS
    options = dict(zip(names, args))
    options.update(kwargs)
    return options


class _LeastSquares:
    def __init__(self, f: Callable[..., Any], A: Any, b: np.ndarray, options: dict[str, Any]) -> None:
        self.name = f"scipy.sparse.linalg.{_LEAST_SQUARES[f]}"
        self.A, self.b = A, np.asarray(b)
        self.out = f(A, b, **options)
        self.x, self.istop = np.asarray(self.out[0]), int(self.out[1])
        self.damp = float(options.get("damp", 0.0))
        self.tol = min(float(options.get("atol", 1e-6)), float(options.get("btol", 1e-6)))
        self.dtype = np.result_type(inexact(A.dtype), inexact(self.b.dtype))

    def check(self, what: str) -> None:
        if self.istop not in _CONVERGED_ISTOP:
            raise ValueError(f"{self.name} {what}: the solve stopped with istop={self.istop} (an iteration or "
                             "condition limit), so x is not the solution the derivative is defined at")

    def normal_solve(self, rhs: np.ndarray, what: str) -> np.ndarray:
        """``(A^H A + damp^2 I)^{-1} rhs`` by ``cg`` at the solver's tolerance."""
        A, AH, damp2 = self.A, conj(self.A).T, self.damp ** 2
        n = A.shape[1]
        N = LinearOperator((n, n), matvec=lambda v: _product(AH, _product(A, v)) + damp2 * v, dtype=self.dtype)
        z, info = scipy.sparse.linalg.cg(N, np.asarray(rhs, dtype=self.dtype), rtol=self.tol * 1e-3, atol=0.0,
                                         maxiter=10 * n + 100)
        if info != 0:
            raise ValueError(f"{self.name} {what}: the solve with A^H A + damp^2 I did not converge (info={info}); "
                             "A may be rank deficient with damp=0")
        return np.asarray(z)


def _least_squares_rrule(f: Callable[..., Any]) -> Callable[..., Any]:
    def least_squares_rrule(A: Any, b: np.ndarray, *args: Any, **kwargs: Any) -> Any:
        s = _LeastSquares(f, A, b, _least_squares_options(f, args, kwargs))
        y = s.out
        project_A: Any = cotangent_projector(A)
        project_b = cotangent_projector(b)
        rest = (NO,) * len(args)

        def least_squares_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, y, s.name)
            if passes_through(parts):
                return NO, project_A(parts), project_b(parts), *rest
            dx = parts[0]
            if dx is None or passes_through(dx):
                zero = ZeroTangent() if dx is None else dx
                return NO, project_A(zero), project_b(zero), *rest
            s.check("pullback")
            z = s.normal_solve(np.asarray(dx), "pullback")
            Az = _product(A, z)
            r = s.b - _product(A, s.x)

            def cotangent_of_a() -> Any:
                if not is_sparse(A):
                    return project_A(np.outer(r, conj(z)) - np.outer(Az, conj(s.x)))
                return project_A.gather_product(np.stack([r, -Az], axis=1), conj(np.stack([z, s.x])))

            if not args:
                return NO, Thunk(cotangent_of_a), Thunk(lambda: project_b(Az))
            # damp given by position: N x = A^H b with dN = 2 damp d(damp) I gives d(damp) = -2 damp Re(z^H x)
            d_damp = cotangent_projector(args[0])(-2.0 * s.damp * float(np.real(np.vdot(z, s.x))))
            return NO, Thunk(cotangent_of_a), Thunk(lambda: project_b(Az)), d_damp, *rest[1:]

        least_squares_pullback.__name__ = f"{_LEAST_SQUARES[f]}_pullback"
        return y, least_squares_pullback

    least_squares_rrule.__name__ = least_squares_rrule.__qualname__ = f"{_LEAST_SQUARES[f]}_rrule"
    least_squares_rrule.__doc__ = (f"Reverse rule of ``scipy.sparse.linalg.{_LEAST_SQUARES[f]}``: the normal "
                                   "equations' adjoint (see the module docstring).")
    return least_squares_rrule


def _least_squares_frule(f: Callable[..., Any]) -> Callable[..., Any]:
    def least_squares_frule(tangents: Any, A: Any, b: np.ndarray, *args: Any, **kwargs: Any) -> Any:
        s = _LeastSquares(f, A, b, _least_squares_options(f, args, kwargs))
        y = s.out
        dA, db = tangent_of(tangents[1]), tangent_of(tangents[2])
        d_damp = tangent_of(tangents[3]) if args else None
        if dA is None and db is None and d_damp is None:
            return y, ZeroTangent()
        s.check("frule")
        AH = conj(A).T
        terms = [] if d_damp is None else [-2.0 * s.damp * float(d_damp) * s.x]
        if dA is not None:
            dA = ProjectTo(A)(dA)
            r = s.b - _product(A, s.x)
            terms.append(_product(conj(dA).T, r) - _product(AH, _product(dA, s.x)))
        if db is not None:
            terms.append(_product(AH, np.asarray(db)))
        dx = s.normal_solve(sum(terms[1:], terms[0]), "frule")
        return y, Tangent(tuple, ProjectTo(s.x)(dx), *(NO,) * (len(y) - 1))

    least_squares_frule.__name__ = least_squares_frule.__qualname__ = f"{_LEAST_SQUARES[f]}_frule"
    least_squares_frule.__doc__ = (f"Forward rule of ``scipy.sparse.linalg.{_LEAST_SQUARES[f]}``: "
                                   "``dx = N^{-1} (dA^H r - A^H dA x + A^H db)``.")
    return least_squares_frule


for _f in _LEAST_SQUARES:
    rrule.register(_f, MATRIX, np.ndarray)(_least_squares_rrule(_f))
    frule.register(_f, MATRIX, np.ndarray)(_least_squares_frule(_f))


# ---- sample inputs ----------------------------------------------------------------------------------------
def _hermitian(rng: np.random.Generator, fmt: str, dtype: Any = np.float64) -> Any:
    A = sparse(rng, "coo", (4, 4), dtype)
    return (A @ conj(A).T + 4.0 * sp.eye_array(4)).asformat(fmt)


_TIGHT = {"rtol": 1e-13}


@sample_inputs(scipy.sparse.linalg.cg)
def _cg_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(_hermitian(rng, "csr"), rng.standard_normal(4), fkwargs=_TIGHT, label="csr, positive definite"),
        Sample(_hermitian(rng, "csc", np.complex128), rng.standard_normal(4) + 1j, fkwargs=_TIGHT,
               label="complex Hermitian"),
        Sample(_hermitian(rng, "csr"), rng.standard_normal(4), np.ones(4),
               fkwargs={"rtol": 1e-13, "M": sp.diags_array(np.full(4, 0.25))}, label="x0 by position, preconditioned"),
        Sample(np.asarray(_hermitian(rng, "csr").toarray()), rng.standard_normal(4), fkwargs=_TIGHT,
               label="a dense A"),
    ]


@sample_inputs(scipy.sparse.linalg.minres)
def _minres_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(_hermitian(rng, "csr"), rng.standard_normal(4), fkwargs=_TIGHT, label="csr"),
        Sample(_hermitian(rng, "csc"), rng.standard_normal(4), fkwargs={"rtol": 1e-13, "shift": 1.5},
               label="shifted"),
    ]


def _general_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csr", (4, 4), shift=3.0), rng.standard_normal(4), fkwargs={"rtol": 1e-13, "atol": 0.0},
               label="csr"),
        Sample(sparse(rng, "csc", (4, 4), np.complex128, shift=3.0), rng.standard_normal(4) + 1j,
               fkwargs=_TIGHT, label="complex csc"),
        Sample(sparse(rng, "coo", (4, 4), shift=3.0), rng.standard_normal(4), np.ones(4),
               fkwargs={"rtol": 1e-13, "M": sp.diags_array(np.full(4, 1 / 3))}, label="x0 by position, preconditioned"),
    ]


for _f in (scipy.sparse.linalg.gmres, scipy.sparse.linalg.bicgstab, scipy.sparse.linalg.bicg,
           scipy.sparse.linalg.cgs, scipy.sparse.linalg.gcrotmk, scipy.sparse.linalg.lgmres, scipy.sparse.linalg.tfqmr):
    sample_inputs(_f)(_general_samples)


@sample_inputs(scipy.sparse.linalg.qmr)
def _qmr_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_general_samples(rng)[:2],
            Sample(sparse(rng, "csr", (4, 4), shift=3.0), rng.standard_normal(4),
                   fkwargs={"rtol": 1e-13, "M1": _operator(rng, 4), "M2": _operator(rng, 4)},
                   label="two preconditioners (LinearOperators, as qmr needs)")]


def _operator(rng: np.random.Generator, n: int) -> Any:
    """A nonsymmetric, well-conditioned preconditioner as a ``LinearOperator`` (``qmr`` calls its ``matvec``)."""
    return scipy.sparse.linalg.aslinearoperator(np.eye(n) + 0.1 * rng.standard_normal((n, n)))


def _solution(y: tuple[Any, ...]) -> np.ndarray:
    """What the least-squares samples check: the solution ``x`` (the estimates are not differentiated)."""
    return np.asarray(y[0])


def _least_squares_samples(rng: np.random.Generator) -> list[Sample]:
    tight = {"atol": 1e-14, "btol": 1e-14}
    return [
        Sample(sparse(rng, "csr", (5, 3), shift=2.0), rng.standard_normal(5), fkwargs=tight,
               label="overdetermined csr", gauge_invariant=_solution),
        Sample(sparse(rng, "csc", (5, 3), np.complex128, shift=2.0), rng.standard_normal(5) + 1j, fkwargs=tight,
               label="complex", gauge_invariant=_solution),
        Sample(sparse(rng, "coo", (4, 4), shift=2.0), rng.standard_normal(4), 0.5, fkwargs=tight,
               label="damp by position", gauge_invariant=_solution),
        Sample(rng.standard_normal((5, 3)), rng.standard_normal(5), fkwargs={**tight, "damp": 0.3},
               label="a dense A, damp by keyword", gauge_invariant=_solution),
    ]


sample_inputs(scipy.sparse.linalg.lsqr)(_least_squares_samples)
sample_inputs(scipy.sparse.linalg.lsmr)(_least_squares_samples)
