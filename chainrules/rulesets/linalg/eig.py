"""General (non-Hermitian) eigenproblems: ``np.linalg.eig``, ``np.linalg.eigvals``,
``scipy.linalg.eig`` (``left=``, ``right=``, ``homogeneous_eigvals=``, the generalized problem
``b=``) and ``scipy.linalg.eigvals``.

The maths
---------
``A V = V diag(w)``, ``V`` invertible. With ``M = V^-1 dA V`` and ``F_ij = 1 / (w_j - w_i)``
(``F_ii = 0``): ``dw = diag(M)`` and ``dV = V (F o M) + V diag(c)``, where ``c`` restores the
normalisation of the returned eigenvectors. Reverse:
``dA = V^-H (diag(w_bar) + conj(F) o (V^H V_bar')) V^H`` with ``V_bar'`` the cotangent after the
normalisation's adjoint. Sources: Giles 2008, "An extended collection of matrix derivative
results for forward and reverse mode AD", sec. 3.1; Boeddeker et al. 2017 (complex); Seeger
et al. 2017 (the normalisation and stacked form); ChainRules.jl's ``eigen`` rule (the LAPACK
phase convention).

*Normalisation.* LAPACK's ``geev`` (used by NumPy and SciPy) returns each eigenvector with unit
norm and its largest-modulus component real (positive for complex matrices). Differentiating
these two conditions gives ``c_j = -Re(v_j^H dv'_j) - 1j * Im(dv'_kj) / v_kj`` (``dv'`` the
unnormalised term, ``k`` the row of the largest component), so the rules differentiate exactly
the function NumPy computes, eigenvector phases included (except where LAPACK's choice
jumps: the sign of a real eigenvector, and of the real largest component of a real matrix's
complex pair, is not fixed by the convention and can flip at special inputs or between
float32 and float64 runs; the rules differentiate the smooth branch). Its adjoint is
``V_bar' = V_bar - V diag(Re g) - 1j * Im(g_j) / v_kj`` at row ``k`` of column ``j``, with
``g_j = v_j^H v_bar_j``. The left eigenvectors of ``scipy.linalg.eig(left=True)``
(``u_i^H A = w_i u_i^H``, normalised the same way) are the right eigenvectors of ``A^H`` for
the eigenvalues ``conj(w)``, and go through the same rule.

*Generalized problem* ``A v = w B v`` (``scipy.linalg.eig(a, b)``): with ``B`` invertible it is
the standard problem of ``C = B^-1 A``, ``dC = B^-1 (dA - dB C)``, and in reverse
``dA = B^-H C_bar``, ``dB = -dA C^H``. SciPy rescales these eigenvectors to unit norm but their
phase is whatever LAPACK's ``ggev`` produced, which is not a smooth function of the inputs;
the rules fix it by ``Im(v_j^H dv_j) = 0``, which gives the exact derivative of every loss
invariant under ``v_j -> exp(i theta) v_j`` (``|V|``, ``V diag(w) V^-1``, real eigenvectors
of a real problem, whose sign is locally constant). Left eigenvectors use
``D = (A B^-1)^H``. (With ``left=True, right=False`` SciPy leaves all but the first left
eigenvector at ``ggev``'s scaling instead of unit norm; their cotangent is
``not_implemented`` with that reason.)

Degeneracy and conditioning
---------------------------
Eigenvalues closer than ``tau = rtol * max|w|`` (see
:func:`~chainrules.rulesets.linalg.degeneracy_tolerance`) form clusters inside which
``F_ij = 0``. For a diagonalizable matrix with a repeated eigenvalue this is exact for losses
that depend on a cluster's eigenvectors only through their span (invariant under
``V_c -> V_c G``): then ``V^H V_bar'`` vanishes on the cluster's block. Other losses have no
derivative there, and get the finite value of the formula with those couplings dropped; no
``inf`` or ``nan`` is produced. A defective matrix has no eigenvector basis: when the
computed ``V`` is singular to working precision (reciprocal condition number below ``eps``)
the pullback and the frule raise ``numpy.linalg.LinAlgError`` saying so, rather than
return the garbage a singular solve would give. Near-defective matrices have large but
finite derivatives (the eigenvalue condition numbers), which the rules return.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from chainrules.rulesets._samples import spd, well_conditioned
from chainrules.rulesets.linalg._samples import sorted_eigenpairs, sorted_eigenprojectors, sorted_eigenvalues
from chainrules.rulesets.linalg._spectral import add_to_diagonal, gap_threshold, inverse_gaps, relative_tolerance
from chainrules.rulesets.linalg._utils import (
    LU,
    cotangent_parts,
    lapack_functions,
    linalg_dtype,
    mH,
    not_implemented_in,
    tangent_value,
)
from chainrules.structured import StructuredMatrix, Tridiagonal
from chainrules_core import (
    AbstractZero,
    NoTangent,
    ProjectTo,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

NO = NoTangent()
MATRIX_INPUTS = (np.ndarray, StructuredMatrix)
"""What the eig rules accept: ndarrays and structured matrices (whose cotangents keep their structure)."""

LAPACK_PHASE = "lapack"
"""Eigenvectors normalised by ``geev``: unit norm, largest-modulus component real."""
PARALLEL_PHASE = "parallel"
"""Eigenvectors of unit norm with an arbitrary phase, differentiated with ``Im(v^H dv) = 0``."""


# ---- solves with a checked factorization ------------------------------------------------------------------------
class CheckedLU(LU):
    """``_utils.LU`` of a stack of square matrices, checked for singularity to working precision.

    ``solve(B)`` is ``X^-1 B`` and ``solve_adjoint(B)`` is ``X^-H B``. ``near_singular`` says
    whether the reciprocal 1-norm condition number of some matrix (LAPACK ``?gecon``) is at
    most ``eps``; construction then raises ``numpy.linalg.LinAlgError`` naming ``what``,
    unless ``raise_singular`` is false.

    Examples
    --------
    >>> lu = CheckedLU(np.array([[2.0, 0.0], [0.0, 4.0]]), "X")
    >>> lu.solve(np.eye(2))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    >>> CheckedLU(np.ones((2, 2)), "the eigenvector matrix")
    Traceback (most recent call last):
    ...
    numpy.linalg.LinAlgError: the eigenvector matrix is singular to working precision ...
    """

    def __init__(self, X: np.ndarray, what: str, raise_singular: bool = True) -> None:
        X = np.asarray(X)
        dtype = linalg_dtype(X) or np.dtype(np.float64)
        X = X.astype(dtype, copy=False)
        super().__init__(X)
        (gecon,) = lapack_functions(("gecon",), dtype)
        eps = float(np.finfo(dtype).eps)
        norms = np.linalg.norm(X, 1, axis=(-2, -1)).reshape(-1) if X.shape[-1] else np.zeros(len(self.lu))
        worst = np.inf
        for factors, anorm, exactly in zip(self.lu, norms, np.ravel(self.singular)):
            rcond = 0.0 if exactly or not (0 < anorm < np.inf) else float(gecon(factors, anorm, norm="1")[0])
            worst = min(worst, rcond)
        self.near_singular = not worst > eps
        if self.near_singular and raise_singular:
            raise np.linalg.LinAlgError(
                f"{what} is singular to working precision (reciprocal condition number {worst:.3g}): "
                "the derivative does not exist (a defective matrix or a singular pencil)")

    def solve_adjoint(self, B: np.ndarray) -> np.ndarray:
        """``X^-H B``."""
        return self.solve(B, trans=2)


# ---- the maths -----------------------------------------------------------------------------------------------
def coupling(w: np.ndarray, rtol: float | None = None) -> np.ndarray:
    """``F_ij = 1 / (w_j - w_i)``, ``0`` on the diagonal and inside (near-)degenerate clusters."""
    tau = gap_threshold(w, np.finfo(w.dtype).dtype, rtol)[..., np.newaxis]
    return inverse_gaps(w[..., np.newaxis, :] - w[..., :, np.newaxis], tau)


def _largest_component(V: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row of each column's largest-modulus entry, ``(..., 1, n)``, and that entry's (real) value ``(..., n)``."""
    k = np.argmax(np.abs(V), axis=-2)[..., np.newaxis, :]
    return k, np.real(np.take_along_axis(V, k, axis=-2)[..., 0, :])


def eig_pushforward(w: np.ndarray, V: np.ndarray, lu: CheckedLU, dA: np.ndarray, phase: str,
                    vectors: bool = True, rtol: float | None = None) -> tuple[np.ndarray, Any]:
    """``(dw, dV)`` of ``A V = V diag(w)`` for a tangent ``dA`` (``dV`` is ``None`` if not ``vectors``)."""
    M = lu.solve(dA @ V)
    dw = np.diagonal(M, axis1=-2, axis2=-1).copy()
    if not vectors:
        return dw, None
    dVp = V @ (coupling(w, rtol) * M)
    g = np.sum(np.conj(V) * dVp, axis=-2)  # v_j^H dv'_j
    if phase == PARALLEL_PHASE or not np.iscomplexobj(dVp):
        c = -g if np.iscomplexobj(V) else -np.real(g)
    else:
        k, vk = _largest_component(V)
        dvk = np.take_along_axis(dVp, k, axis=-2)[..., 0, :]
        c = -np.real(g) - 1j * np.imag(dvk) / vk
    return dw, dVp + V * c[..., np.newaxis, :]


def eig_cotangent(w: np.ndarray, V: np.ndarray, lu: CheckedLU, w_bar: Any, V_bar: Any, phase: str,
                  rtol: float | None = None) -> np.ndarray:
    """The cotangent of ``A`` for the output cotangents ``w_bar``, ``V_bar`` (``None``: zero)."""
    n = w.shape[-1]
    dtype = np.result_type(V.dtype, np.complex64, *(x.dtype for x in (w_bar, V_bar) if x is not None))
    X = np.zeros(w.shape + (n,), dtype=dtype)
    if V_bar is not None:
        if not np.iscomplexobj(V):
            V_bar = np.real(V_bar)  # a real eigenvector's cotangent: its real part is all that counts
        g = np.sum(np.conj(V) * V_bar, axis=-2)  # v_j^H v_bar_j
        if phase == PARALLEL_PHASE:
            Vb = V_bar - V * g[..., np.newaxis, :]
        else:
            Vb = V_bar - V * np.real(g)[..., np.newaxis, :]
            if np.iscomplexobj(V):
                k, vk = _largest_component(V)
                correction = np.zeros(Vb.shape, dtype=np.result_type(Vb.dtype, np.complex64))
                np.put_along_axis(correction, k, (1j * np.imag(g) / vk)[..., np.newaxis, :], axis=-2)
                Vb = Vb - correction
        X += np.conj(coupling(w, rtol)) * (mH(V) @ Vb)
    if w_bar is not None:
        add_to_diagonal(X, w_bar)
    return lu.solve_adjoint(X @ mH(V))


def matched_vectors(w: np.ndarray, w_found: np.ndarray, V: np.ndarray) -> np.ndarray:
    """The columns of ``V`` (eigenvectors for the eigenvalues ``w_found``) in the order of the eigenvalues ``w``.

    LAPACK's ``?geev`` orders the eigenvalues by how its QR iteration deflates them, and a run
    without eigenvectors (``eigvals``) can deflate in another order than a run with them: the
    eigenvectors computed for a values-only primal are matched to its eigenvalues (the
    closest, as an assignment: a permutation even for nearly equal eigenvalues).

    Examples
    --------
    >>> import numpy as np
    >>> matched_vectors(np.array([2.0, 1.0]), np.array([1.0, 2.0]), np.eye(2))
    array([[0., 1.],
           [1., 0.]])
    """
    from scipy.optimize import linear_sum_assignment

    w, w_found = np.asarray(w), np.asarray(w_found)
    if w.shape != w_found.shape or np.array_equal(w, w_found):
        return V
    out = np.empty_like(V)
    for index in np.ndindex(*w.shape[:-1]):
        cost = np.abs(w[index][:, None] - w_found[index][None, :])
        _, columns = linear_sum_assignment(cost)
        out[index] = V[index][..., columns]
    return out


# ---- the outputs of the four functions ---------------------------------------------------------------------------
class _Eig:
    """An eigendecomposition's pieces, and what the rules need of them, computed when first asked for.

    ``w``: eigenvalues; ``V``/``U``: right/left eigenvectors (the primal's when it returned
    them); for the generalized problem the operators ``C = B^-1 A`` and ``D = (A B^-1)^H``
    whose eigenvectors they are. LU factorizations (checked for singularity) are made once.
    """

    def __init__(self, a: Any, b: Any, w: np.ndarray, V: Any, U: Any) -> None:
        self.a, self.b, self.w = np.asarray(a), None if b is None else np.asarray(b), w
        self._V, self._U = V, U
        self._lu: dict[str, CheckedLU] = {}
        self.phase = LAPACK_PHASE if b is None else PARALLEL_PHASE
        self.rtol = relative_tolerance(np.finfo(w.dtype).dtype)  # the tolerance in force when the rule ran

    @property
    def right_vectors(self) -> np.ndarray:
        """The right eigenvectors: the primal's, or computed and put in the order of ``w`` (their normalisation
        does not matter for ``dw``)."""
        if self._V is None:
            if self.b is None:
                w, V = np.linalg.eig(self.a)
            else:
                w, V = sla.eig(self.a, self.b, check_finite=False)
            self._V = matched_vectors(self.w, w, V)
        return self._V

    def lu(self, which: str) -> CheckedLU:
        if which not in self._lu:
            if which == "B":
                assert self.b is not None
                self._lu[which] = CheckedLU(self.b, "b")
            elif which == "V":
                self._lu[which] = CheckedLU(self.right_vectors, "the eigenvector matrix")
            else:
                self._lu[which] = CheckedLU(self._U, "the left eigenvector matrix")
        return self._lu[which]

    def right_operator(self) -> np.ndarray:
        """``C = B^-1 A``, whose eigenvectors are the right eigenvectors of the pencil."""
        return self.lu("B").solve(self.a)

    def left_operator(self) -> np.ndarray:
        """``D = (A B^-1)^H = B^-H A^H``, whose eigenvectors are the left eigenvectors of the pencil."""
        return self.lu("B").solve_adjoint(mH(self.a))

    # -- forward ----------------------------------------------------------------------------------------------
    def _operator_tangent(self, dA: Any, dB: Any, left: bool) -> Any:
        """The tangent of the operator whose eigenvectors are returned: ``A`` (``A^H`` for the left
        ones), or for the generalized problem ``C = B^-1 A`` (``D = (A B^-1)^H``)."""
        if self.b is None:
            return mH(dA) if left else dA
        if left:
            rhs = mH(dA) if dA is not None else np.zeros_like(self.a, dtype=np.result_type(self.a, dB))
            if dB is not None:
                rhs = rhs - mH(dB) @ self.left_operator()
            return self.lu("B").solve_adjoint(rhs)
        rhs = dA if dA is not None else np.zeros_like(self.a, dtype=np.result_type(self.a, dB))
        if dB is not None:
            rhs = rhs - dB @ self.right_operator()
        return self.lu("B").solve(rhs)

    def pushforward(self, dA: Any, dB: Any, want_w: bool, want_V: bool, want_U: bool) -> tuple[Any, Any, Any]:
        """``(dw, dV, dU)`` (each ``None`` if not wanted); the eigenvalues come from the right
        eigenvectors unless only the left ones are wanted."""
        dw = dV = dU = None
        if want_V or (want_w and not (want_U and self._U is not None)):
            dw, dV = eig_pushforward(self.w, self.right_vectors, self.lu("V"), self._operator_tangent(dA, dB, False),
                                     self.phase, vectors=want_V, rtol=self.rtol)
        if want_U:
            dw_conj, dU = eig_pushforward(np.conj(self.w), self._U, self.lu("U"), self._operator_tangent(dA, dB, True),
                                          self.phase, rtol=self.rtol)
            if dw is None:
                dw = np.conj(dw_conj)
        return (dw if want_w else None), dV, dU

    # -- reverse ----------------------------------------------------------------------------------------------
    def cotangents(self, w_bar: Any, V_bar: Any, U_bar: Any) -> tuple[np.ndarray, Any]:
        """``(dA, dB)`` (``dB`` is ``None`` for the standard problem)."""
        right: Any = None
        left: Any = None
        if V_bar is None and self._V is None and self._U is not None:
            # only left eigenvectors were returned: the eigenvalues' cotangent goes through them
            # (those of A^H are conj(w))
            left_w_bar = None if w_bar is None else np.conj(w_bar)
            if left_w_bar is not None or U_bar is not None:
                left = eig_cotangent(np.conj(self.w), self._U, self.lu("U"), left_w_bar, U_bar, self.phase, self.rtol)
            return self._finish(None, left)
        if w_bar is not None or V_bar is not None:
            right = eig_cotangent(self.w, self.right_vectors, self.lu("V"), w_bar, V_bar, self.phase, self.rtol)
        if U_bar is not None:
            left = eig_cotangent(np.conj(self.w), self._U, self.lu("U"), None, U_bar, self.phase, self.rtol)
        return self._finish(right, left)

    def _finish(self, right: Any, left: Any) -> tuple[np.ndarray, Any]:
        """``(dA, dB)`` from the cotangents of ``C`` (or ``A``) and of ``D`` (or ``A^H``)."""
        if self.b is None:
            total = right if left is None else (mH(left) if right is None else right + mH(left))
            return total, None
        dA: Any = None
        dB: Any = None
        if right is not None:  # C = B^-1 A
            dA = self.lu("B").solve_adjoint(right)
            dB = -dA @ mH(self.right_operator())
        if left is not None:  # D = B^-H A^H = (A B^-1)^H
            E = self.lu("B").solve(left)
            dA_left = mH(E)
            dB_left = -self.left_operator() @ mH(E)
            dA = dA_left if dA is None else dA + dA_left
            dB = dB_left if dB is None else dB + dB_left
        return dA, dB


_UNNORMALISED_LEFT = (
    "scipy.linalg.eig(a, b, left=True, right=False) returns all but the first left eigenvector unnormalised "
    "(SciPy normalises them in a loop over the shape of the unused right-eigenvector array), scaled as LAPACK's "
    "ggev leaves them (largest component with |Re| + |Im| = 1); that scaling is not differentiated: pass "
    "right=True to get unit-norm left eigenvectors")


def _unnormalised(vectors: Any) -> bool:
    """Whether some column of ``vectors`` is not of unit norm (to rounding)."""
    if vectors is None:
        return False
    norms = np.linalg.norm(vectors, axis=-2)
    return bool(np.any(np.abs(norms - 1) > 100 * np.finfo(norms.dtype).eps))


def _singular_pencil(dec: _Eig) -> Any:
    """A not-implemented tangent if the generalized problem's ``b`` is singular (infinite eigenvalues)."""
    if dec.b is None:
        return None
    lu = CheckedLU(dec.b, "b", raise_singular=False)
    if lu.near_singular or not np.all(np.isfinite(dec.w)):
        return not_implemented("scipy.linalg.eig(a, b) with b singular to working precision: infinite or "
                               "undetermined eigenvalues have no derivative")
    dec._lu["B"] = lu
    return None


# ---- np.linalg.eig, np.linalg.eigvals ---------------------------------------------------------------------------
@rrule.register(np.linalg.eig, MATRIX_INPUTS)
def eig_rrule(a: Any) -> Any:
    """Reverse rule of ``np.linalg.eig(a)``: ``dA = V^-H (diag(w_bar) + conj(F) o (V^H V_bar')) V^H``.

    The eigenvectors' normalisation (unit norm, largest component real) is differentiated
    exactly; see the module docstring for it, for repeated eigenvalues and for defective
    matrices.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> (w, V), pullback = rrule(np.linalg.eig, np.array([[2.0, 1.0], [0.0, 3.0]]))
    >>> w
    array([2., 3.])
    >>> pullback((np.array([0.0, 1.0]), np.zeros((2, 2))))[1]      # d w_2 / dA = u_2 v_2^T / (u_2^T v_2)
    array([[0., 0.],
           [1., 1.]])
    """
    y = np.linalg.eig(a)
    w, V = y
    dec = _Eig(a, None, w, V, None)
    project_a = cotangent_projector(a)

    def eig_pullback(dy: Any) -> tuple[Any, Any]:
        w_bar, V_bar = cotangent_parts(dy, y, np.linalg.eig)
        missing = not_implemented_in(w_bar, V_bar)
        if missing is not None:
            return NO, missing
        if w_bar is None and V_bar is None:
            return NO, project_a(ZeroTangent())
        return NO, project_a(dec.cotangents(w_bar, V_bar, None)[0])

    return y, eig_pullback


@frule.register(np.linalg.eig, MATRIX_INPUTS)
def eig_frule(tangents: Any, a: Any) -> Any:
    """Forward rule of ``np.linalg.eig(a)``: ``dw = diag(M)``, ``dV = V (F o M) + V diag(c)``, ``M = V^-1 dA V``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> y, (dw, dV) = frule((NoTangent(), np.array([[0.0, 0.0], [1.0, 0.0]])), np.linalg.eig,
    ...                     np.array([[2.0, 1.0], [0.0, 3.0]]))
    >>> dw
    array([-1.,  1.])
    """
    y = np.linalg.eig(a)
    dA = tangent_value(tangents[1])
    if dA is None or not_implemented_in(dA):
        return y, ZeroTangent() if dA is None else dA
    w, V = y
    dw, dV, _ = _Eig(a, None, w, V, None).pushforward(dA, None, True, True, False)
    return y, ProjectTo(y)((dw, dV))


@rrule.register(np.linalg.eigvals, MATRIX_INPUTS)
def eigvals_rrule(a: Any) -> Any:
    """Reverse rule of ``np.linalg.eigvals(a)``: ``dA = V^-H diag(w_bar) V^H`` (``V`` from ``np.linalg.eig``).

    The output is ``np.linalg.eigvals``' own, in its order; the eigenvectors the pullback
    needs are computed by ``np.linalg.eig`` and matched to it (:func:`matched_vectors`).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> w, pullback = rrule(np.linalg.eigvals, np.array([[0.0, 1.0], [-1.0, 0.0]]))   # +-1j
    >>> pullback(np.ones(2))[1]                                                        # d Re(trace)
    array([[1., 0.],
           [0., 1.]])
    """
    w = np.linalg.eigvals(a)
    dec = _Eig(a, None, w, None, None)
    project_a = cotangent_projector(a)

    def eigvals_pullback(dy: Any) -> tuple[Any, Any]:
        w_bar = read_cotangent(dy, w, np.linalg.eigvals)
        if passes_through(w_bar):
            return NO, project_a(w_bar)
        return NO, project_a(dec.cotangents(w_bar, None, None)[0])

    return w, eigvals_pullback


@frule.register(np.linalg.eigvals, MATRIX_INPUTS)
def eigvals_frule(tangents: Any, a: Any) -> Any:
    """Forward rule of ``np.linalg.eigvals(a)``: ``dw = diag(V^-1 dA V)``."""
    w = np.linalg.eigvals(a)
    dA = tangent_value(tangents[1])
    if dA is None or not_implemented_in(dA):
        return w, ZeroTangent() if dA is None else dA
    dw, _, _ = _Eig(a, None, w, None, None).pushforward(dA, None, True, False, False)
    return w, ProjectTo(w)(dw)


# ---- scipy.linalg.eig, scipy.linalg.eigvals --------------------------------------------------------------------
def _scipy_outputs(y: Any, left: bool, right: bool) -> tuple[np.ndarray, Any, Any]:
    """``(w, vl, vr)`` of ``scipy.linalg.eig``'s output (``None`` where not returned)."""
    if not (left or right):
        return np.asarray(y), None, None
    parts = list(y)
    w = parts.pop(0)
    vl = parts.pop(0) if left else None
    vr = parts.pop(0) if right else None
    return w, vl, vr


def _homogeneous_values(w: np.ndarray) -> np.ndarray:
    """The eigenvalues ``alpha / beta`` of ``homogeneous_eigvals=True`` output (``beta = 1`` without ``b``)."""
    return w[..., 0, :] / w[..., 1, :]


@rrule.register(sla.eig, MATRIX_INPUTS)
def scipy_eig_rrule(a: Any, b: Any = None, left: Any = False, right: Any = True, overwrite_a: Any = False,
                    overwrite_b: Any = False, check_finite: Any = True, homogeneous_eigvals: Any = False) -> Any:
    """Reverse rule of ``scipy.linalg.eig``: eigenvalues, left and right eigenvectors, generalized ``b``.

    ``homogeneous_eigvals=True`` is supported for the standard problem (``beta = 1``: its
    cotangent is ignored); for the generalized problem the scale of ``(alpha, beta)`` is
    LAPACK's choice, not a function of ``(a, b)``, and the eigenvalue cotangent is
    ``not_implemented``. A singular ``b`` (infinite eigenvalues) is ``not_implemented`` too.
    ``overwrite_a``/``overwrite_b`` are ignored (the inputs are kept).

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> w, pullback = rrule(scipy.linalg.eig, np.diag([1.0, 4.0]), np.diag([1.0, 2.0]), right=False)
    >>> _, da, db = pullback(np.array([0.0, 1.0]))            # w_2 = a_22 / b_22
    >>> unthunk(da).real, unthunk(db).real
    (array([[0. , 0. ],
           [0. , 0.5]]), array([[ 0.,  0.],
           [ 0., -1.]]))
    """
    return _scipy_eig_reverse("scipy.linalg.eig", a, b, left, right, check_finite, homogeneous_eigvals)


def _scipy_eig_reverse(where: str, a: Any, b: Any, left: Any, right: Any, check_finite: Any,
                       homogeneous_eigvals: Any) -> Any:
    """The reverse rule of ``scipy.linalg.eig`` and ``eigvals``; ``where`` names the function in errors."""
    y = sla.eig(a, b, left, right, False, False, check_finite, homogeneous_eigvals)
    w_out, vl, vr = _scipy_outputs(y, left, right)
    w = _homogeneous_values(w_out) if homogeneous_eigvals else w_out
    dec = _Eig(a, b, w, vr, vl)
    project_a = cotangent_projector(a)
    project_b = cotangent_projector(a if b is None else b)
    rest = (NO,) * 6
    refused = _singular_pencil(dec)
    unnormalised_left = b is not None and left and not right and _unnormalised(vl)

    def scipy_eig_pullback(dy: Any) -> tuple[Any, ...]:
        if left or right:
            parts = cotangent_parts(dy, y, where)
        else:
            only = read_cotangent(dy, y, where)
            parts = [None if isinstance(only, AbstractZero) else only]
        w_bar = parts[0]
        vl_bar = parts[1] if left else None
        vr_bar = parts[-1] if right else None
        missing = not_implemented_in(*parts)
        if missing is not None:
            return (NO, missing, NO if b is None else missing, *rest)
        if all(p is None for p in parts):
            return (NO, project_a(ZeroTangent()), NO if b is None else project_b(ZeroTangent()), *rest)
        if homogeneous_eigvals and w_bar is not None:
            if b is not None:
                reason = not_implemented("scipy.linalg.eig(a, b, homogeneous_eigvals=True): the scale of "
                                         "(alpha, beta) is LAPACK's choice, not a function of (a, b)")
                return (NO, reason, reason, *rest)
            w_bar = w_bar[..., 0, :]
        if refused is not None:
            return (NO, refused, refused, *rest)
        if unnormalised_left and vl_bar is not None:
            reason = not_implemented(_UNNORMALISED_LEFT)
            return (NO, reason, reason, *rest)
        grads: dict[str, Any] = {}

        def both() -> dict[str, Any]:
            if not grads:
                grads["a"], grads["b"] = dec.cotangents(w_bar, vr_bar, vl_bar)
            return grads

        if b is None:
            return (NO, project_a(both()["a"]), NO, *rest)
        return (NO, Thunk(lambda: project_a(both()["a"])), Thunk(lambda: project_b(both()["b"])), *rest)

    return y, scipy_eig_pullback


@frule.register(sla.eig, MATRIX_INPUTS)
def scipy_eig_frule(tangents: Any, a: Any, b: Any = None, left: Any = False, right: Any = True,
                    overwrite_a: Any = False, overwrite_b: Any = False, check_finite: Any = True,
                    homogeneous_eigvals: Any = False) -> Any:
    """Forward rule of ``scipy.linalg.eig`` (see the module docstring and the rrule)."""
    y = sla.eig(a, b, left, right, False, False, check_finite, homogeneous_eigvals)
    dA = tangent_value(tangents[1])
    dB = tangent_value(tangents[2]) if b is not None else None
    if dA is None and dB is None:
        return y, ZeroTangent()
    missing = not_implemented_in(dA, dB)
    if missing is not None:
        return y, missing
    w_out, vl, vr = _scipy_outputs(y, left, right)
    if homogeneous_eigvals and b is not None:
        return y, not_implemented("scipy.linalg.eig(a, b, homogeneous_eigvals=True): the scale of (alpha, beta) "
                                  "is LAPACK's choice, not a function of (a, b)")
    w = _homogeneous_values(w_out) if homogeneous_eigvals else w_out
    dec = _Eig(a, b, w, vr, vl)
    refused = _singular_pencil(dec)
    if refused is not None:
        return y, refused
    unnormalised_left = b is not None and left and not right and _unnormalised(vl)
    dw, dV, dU = dec.pushforward(dA, dB, True, right, left and not unnormalised_left)
    if unnormalised_left:
        dU = not_implemented(_UNNORMALISED_LEFT)
    if homogeneous_eigvals:
        dw = np.stack([dw, np.zeros_like(dw)], axis=-2)
    if not (left or right):
        return y, ProjectTo(y)(dw)
    parts = [dw] + ([dU] if left else []) + ([dV] if right else [])
    return y, ProjectTo(y)(parts if isinstance(y, list) else tuple(parts))


@rrule.register(sla.eigvals, MATRIX_INPUTS)
def scipy_eigvals_rrule(a: Any, b: Any = None, overwrite_a: Any = False, check_finite: Any = True,
                        homogeneous_eigvals: Any = False) -> Any:
    """Reverse rule of ``scipy.linalg.eigvals``: that of ``scipy.linalg.eig(a, b, right=False)``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> w, pullback = rrule(scipy.linalg.eigvals, np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> pullback(np.array([1.0, 0.0]))[1].real          # u_1 v_1^T with u_1 = (1, -1), v_1 = (1, 0)
    array([[ 1.,  0.],
           [-1.,  0.]])
    """
    y, pullback = _scipy_eig_reverse("scipy.linalg.eigvals", a, b, False, False, check_finite, homogeneous_eigvals)

    def scipy_eigvals_pullback(dy: Any) -> tuple[Any, ...]:
        cts = pullback(dy)
        return (*cts[:3], NO, NO, NO)

    return y, scipy_eigvals_pullback


@frule.register(sla.eigvals, MATRIX_INPUTS)
def scipy_eigvals_frule(tangents: Any, a: Any, b: Any = None, overwrite_a: Any = False, check_finite: Any = True,
                        homogeneous_eigvals: Any = False) -> Any:
    """Forward rule of ``scipy.linalg.eigvals``."""
    full = (tangents[0], tangents[1], tangents[2], NO, NO, NO, NO, NO, NO)
    return scipy_eig_frule(full, a, b, False, False, False, False, check_finite, homogeneous_eigvals)


# ---- sample inputs ----------------------------------------------------------------------------------------
# LAPACK returns the eigenvalues of a general matrix in an order that can change under an arbitrarily small
# perturbation: the samples compare sorted eigenvalues (and eigenvectors sorted with them), and the projectors
# where the phase or sign of an eigenvector is LAPACK's free choice.
def _real_spectrum(rng: np.random.Generator, dtype: Any = np.float64) -> np.ndarray:
    """A non-normal matrix with eigenvalues ``1, 2, 4`` (a well-conditioned eigenvector matrix)."""
    x = well_conditioned(3, rng, dtype)
    return (x * np.array([1.0, 2.0, 4.0])) @ np.linalg.inv(x)


def _complex_pair(rng: np.random.Generator) -> np.ndarray:
    """A real matrix with eigenvalues ``1 +- 2j`` and ``3``: complex eigenvectors of a real matrix."""
    x = well_conditioned(3, rng)
    block = np.array([[1.0, 2.0, 0.0], [-2.0, 1.0, 0.0], [0.0, 0.0, 3.0]])
    return x @ block @ np.linalg.inv(x)


@sample_inputs(np.linalg.eig)
def _eig_samples(rng: np.random.Generator) -> list[Sample]:
    a = _real_spectrum(rng)
    g = sorted_eigenprojectors
    return [
        Sample(a, gauge_invariant=sorted_eigenpairs, label="real eigenvalues (LAPACK's normalisation, differentiated)"),
        Sample(_complex_pair(rng), gauge_invariant=sorted_eigenpairs, label="a real matrix with a complex pair"),
        Sample(_real_spectrum(rng, np.complex128), gauge_invariant=sorted_eigenpairs, label="complex"),
        Sample(a.astype(np.float32), gauge_invariant=g, label="float32"),
        Sample(np.stack([_real_spectrum(rng), _complex_pair(rng)]), gauge_invariant=g, label="stack"),
        Sample(Tridiagonal(np.array([0.3, -0.2]), np.array([1.0, 2.0, 4.0]), np.array([0.5, 0.1])),
               gauge_invariant=g, label="Tridiagonal"),
    ]


@sample_inputs(np.linalg.eigvals)
def _eigvals_samples(rng: np.random.Generator) -> list[Sample]:
    a = _real_spectrum(rng)
    g = sorted_eigenvalues
    return [
        Sample(a, gauge_invariant=g, label="real eigenvalues"),
        Sample(_complex_pair(rng), gauge_invariant=g, label="a complex pair"),
        Sample(_real_spectrum(rng, np.complex128), gauge_invariant=g, label="complex"),
        Sample(a.astype(np.float32), gauge_invariant=g, label="float32"),
        Sample(np.stack([_real_spectrum(rng), _complex_pair(rng)]), gauge_invariant=g, label="stack"),
    ]


def _left_and_right(result: Any) -> tuple[Any, ...]:
    w, vl, vr = result
    return (*sorted_eigenprojectors((w, vl)), sorted_eigenprojectors((w, vr))[1])


def _homogeneous(result: Any) -> np.ndarray:
    return sorted_eigenvalues(result[..., 0, :] / result[..., 1, :])


@sample_inputs(sla.eig)
def _scipy_eig_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = _real_spectrum(rng), spd(3, rng)
    g = sorted_eigenprojectors
    return [
        Sample(a, gauge_invariant=sorted_eigenpairs, label="standard, right eigenvectors"),
        Sample(_complex_pair(rng), gauge_invariant=g, label="a complex pair"),
        Sample(a.astype(np.float32), gauge_invariant=g, label="float32"),
        Sample(a, None, True, gauge_invariant=_left_and_right, label="left=True by position"),
        Sample(a, fkwargs={"left": True, "right": False}, gauge_invariant=g, label="left only"),
        Sample(a, fkwargs={"right": False}, gauge_invariant=sorted_eigenvalues, label="eigenvalues only"),
        Sample(a, fkwargs={"right": False, "homogeneous_eigvals": True}, gauge_invariant=_homogeneous,
               label="homogeneous_eigvals"),
        Sample(a, b, gauge_invariant=g, label="generalized"),
        Sample(a + 0.5j * rng.standard_normal((3, 3)), spd(3, rng, np.complex128), gauge_invariant=g,
               label="generalized, complex"),
        Sample(a, b, fkwargs={"left": True}, gauge_invariant=_left_and_right, label="generalized, left and right"),
        Sample(a, b, fkwargs={"right": False}, gauge_invariant=sorted_eigenvalues,
               label="generalized, eigenvalues only"),
    ]


@sample_inputs(sla.eigvals)
def _scipy_eigvals_samples(rng: np.random.Generator) -> list[Sample]:
    a = _real_spectrum(rng)
    g = sorted_eigenvalues
    return [
        Sample(a, gauge_invariant=g, label="standard"),
        Sample(_complex_pair(rng), gauge_invariant=g, label="a complex pair"),
        Sample(a.astype(np.float32), gauge_invariant=g, label="float32"),
        Sample(a, spd(3, rng), gauge_invariant=g, label="generalized (b by position)"),
        Sample(a, fkwargs={"homogeneous_eigvals": True, "check_finite": False}, gauge_invariant=_homogeneous,
               label="homogeneous_eigvals"),
    ]
