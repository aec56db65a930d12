"""Hermitian eigenproblems: ``np.linalg.eigh``, ``np.linalg.eigvalsh``, ``scipy.linalg.eigh``
(standard and generalized, ``eigvals_only``, ``subset_by_index``/``subset_by_value``),
``scipy.linalg.eigvalsh``, ``scipy.linalg.eig_banded`` and ``scipy.linalg.eigh_tridiagonal``.

The maths
---------
``A = V diag(w) V^H`` with ``V`` unitary. With ``P = V^H dA V`` (Hermitian) and the coupling
matrix ``F_ij = 1 / (w_j - w_i)`` (``F_ii = 0``):

* forward: ``dw = Re diag(P)``, ``dV = V (F o P)``;
* reverse: ``dA = V (diag(dw_bar) + F o skew(V^H dV_bar)) V^H`` with
  ``skew(X) = (X - X^H) / 2``.

(Magnus 1985, "On differentiating eigenvalues and eigenvectors"; Giles 2008, "An extended
collection of matrix derivative results for forward and reverse mode algorithmic
differentiation", sec. 3.1; Boeddeker et al. 2017, "On the computation of complex-valued
gradients with application to statistically optimum beamforming", for complex matrices;
Seeger et al. 2017, "Auto-differentiating linear algebra", for the stacked form.)

The generalized problem of ``scipy.linalg.eigh(a, b, type=t)`` has ``B``-orthonormal
eigenvectors. With ``Pa = Wa^H dA Wa``, ``Nb = Wb^H dB Wb``, ``Wavg_ij = (w_i + w_j) / 2``:

======  =====================  ======================  ==========  ===========  ==========
type    problem                normalisation           ``Wa``      ``Wb``       ``(s, n)``
======  =====================  ======================  ==========  ===========  ==========
1       ``A v = w B v``        ``V^H B V = I``         ``V``       ``V``        ``(-1, -1)``
2       ``A B v = w v``        ``V^H B V = I``         ``B V``     ``V``        ``(+1, -1)``
3       ``B A v = w v``        ``V^H B^-1 V = I``      ``V``       ``B^-1 V``   ``(+1, +1)``
======  =====================  ======================  ==========  ===========  ==========

* forward: ``dw = Re diag(Pa) + s w Re diag(Nb)``,
  ``dV = V C``, ``C = n Nb / 2 + F o (Pa + s Wavg o Nb)``;
* reverse, with ``G = V^H dV_bar``, ``K = F o skew(G)``:
  ``dA = Wa (diag(dw_bar) + K) Wa^H`` and
  ``dB = Wb (s diag(w dw_bar) + n herm(G) / 2 + s Wavg o K) Wb^H``.

Differentiating ``A V = B V diag(w)`` (type 1) and projecting on ``V^H`` gives
``V^H dA V - V^H dB V diag(w) = C diag(w) - diag(w) C + diag(dw)``; its off-diagonal part
fixes the skew-Hermitian part of ``C``, and the normalisation ``d(V^H B V) = 0`` its
Hermitian part, ``-Nb / 2`` (the ``-1/2 v_i^H dB v_i`` term of the literature). Types 2
and 3 follow the same way. ``B = I`` gives the standard problem.

Inputs are read from one triangle
---------------------------------
NumPy's ``eigh(a, UPLO)`` and SciPy's ``eigh(a, lower=...)`` read one triangle of ``a`` (and
of ``b``) and the real part of the diagonal; the rest is never read. The rules
differentiate that function: an input tangent acts through the Hermitian matrix its
triangle stands for, and the cotangent of ``a`` lives on that triangle (``2 G_ij`` on the
strict triangle, ``Re G_ii`` on the diagonal, ``0`` elsewhere, for the Hermitian gradient
``G``). Along Hermitian directions this is the same as ``G``; ``Symmetric`` and
``Hermitian`` inputs (``chainrules.structured``) get ``G`` itself, projected on their
structure. ``eig_banded`` gets its cotangent in LAPACK band storage, ``eigh_tridiagonal``
as ``(d_bar, e_bar) = (diag G, 2 * superdiag G)``.

Degenerate spectra and gauge freedom
------------------------------------
The eigenvectors of a repeated eigenvalue are any orthonormal basis of its eigenspace, and
each eigenvector of a complex matrix has an arbitrary phase: these choices (the gauge) are
LAPACK's. The rules group eigenvalues whose gap is at most ``tau = rtol * max|w|``
(``rtol = sqrt(eps)`` of the working precision; see
:func:`~chainrules.rulesets.linalg.degeneracy_tolerance`) into clusters and set ``F_ij = 0``
for ``i != j`` in one cluster; ``F_ii = 0`` fixes each phase by ``Im(v_i^H dv_i) = 0``.
Nothing is ever divided by a gap at or below ``tau``, so no ``inf`` or ``nan`` can appear.

*Exact for gauge-invariant losses.* Let the loss depend on the eigenvectors of each cluster
``c`` only through the eigenspace (it is invariant under ``V_c -> V_c Q`` for unitary
``Q``, as the projector ``V_c V_c^H`` and every function of it are), and on the eigenvalues
of each cluster symmetrically (as ``sum_i f(w_i)``). Invariance means the cotangent
``dV_bar`` is orthogonal to every ``V_c X`` with ``X`` skew-Hermitian, i.e. the block
``V_c^H dV_bar_c`` is Hermitian, so ``skew(V^H dV_bar)`` vanishes on the cluster's block
-- the only entries the dropped ``F_ij`` multiply. Dropping them changes nothing in exact
arithmetic, and in floating point it removes the amplification ``roundoff / gap``, which
otherwise swamps the answer (``eps / 1e-16 = O(1)`` for an exactly repeated eigenvalue).
Symmetry makes ``dw_bar`` constant on a cluster, so ``V_c diag(dw_bar_c) V_c^H`` does not
depend on the basis either. The result is the derivative of the loss -- at an exact
degeneracy and at a near one (gaps below ``tau``) alike. The generalized problem is the
same with ``B``-unitary ``Q``.

*Otherwise.* A loss that depends on the basis inside a cluster (one eigenvector of a
repeated eigenvalue, the sign or phase of an eigenvector, one eigenvalue of a repeated
pair) has no derivative at an exact degeneracy (the eigenvectors are not continuous
there), and a derivative of size ``1/gap`` at a near one. The rules then return the finite
value of the formulas above with ``F_ij = 0`` inside clusters: the derivative the loss
would have if the eigenvectors moved only by their coupling to other clusters (no rotation
inside a cluster, no change of phase), evaluated in LAPACK's basis. Matrix-function
losses ``V diag(f(w)) V^H`` with ``f'(w) != 0`` inside a cluster need the term
``f'(w) (V^H dA V)_ij`` between the cluster's eigenvectors, which is ``0/0`` in what
``eigh``'s outputs carry (``(dw_bar, dV_bar)``); no ``eigh`` pullback can produce it, so
differentiate such functions with the matrix-function rules (``scipy.linalg.expm``,
``funm`` ...) instead. For real matrices the gauge is a sign per eigenvector, locally
constant as long as LAPACK's choice is, so non-degenerate real spectra have no gauge issue
(but SciPy's default ``evr`` driver flips signs erratically under tiny perturbations, and a
float32 run may choose other signs than a float64 one: the rules differentiate the smooth
branch through the returned vectors); complex eigenvectors have a phase each, so only
phase-invariant losses (``|V|``, projectors, ``V diag(f(w)) V^H``) are differentiable, and
those get the exact derivative.

Subsets (``subset_by_index``, ``subset_by_value``, ``select=``) couple the selected
eigenvectors to the unselected ones, so the rules compute the full decomposition (the
selection is locally constant; a boundary of ``subset_by_value`` that falls on an
eigenvalue is a jump, where no derivative exists).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from chainrules.rulesets._samples import spd
from chainrules.rulesets.linalg._samples import (
    cluster_invariants,
    eigenprojectors,
    hermitian,
    hermitian_band,
    pair_sum,
    repeated_eigenvalue,
)
from chainrules.rulesets.linalg._spectral import (
    add_to_diagonal,
    gap_threshold,
    hermitian_from_triangle,
    hermitian_triangle_cotangent,
    inverse_gaps,
    relative_tolerance,
)
from chainrules.rulesets.linalg._utils import cotangent_parts, mH, not_implemented_in, tangent_value
from chainrules.structured import Hermitian, Symmetric
from chainrules_core import (
    AbstractZero,
    NoTangent,
    ProjectTo,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

NO = NoTangent()
HERMITIAN_INPUTS = (np.ndarray, Symmetric, Hermitian)
"""What the Hermitian eigen rules accept: ndarrays and the self-adjoint structured types."""


# ---- the maths -----------------------------------------------------------------------------------------------
def coupling(w: np.ndarray, rtol: float | None = None) -> np.ndarray:
    """``F_ij = 1 / (w_j - w_i)``, ``0`` on the diagonal and inside (near-)degenerate clusters.

    Examples
    --------
    >>> coupling(np.array([1.0, 1.0, 3.0]))
    array([[ 0. ,  0. ,  0.5],
           [ 0. ,  0. ,  0.5],
           [-0.5, -0.5,  0. ]])
    """
    tau = gap_threshold(w, w.dtype, rtol)[..., np.newaxis]
    return inverse_gaps(w[..., np.newaxis, :] - w[..., :, np.newaxis], tau)


class _Generalized:
    """The matrices ``Wa``, ``Wb`` and signs ``(s, n)`` of the generalized problem of a given type."""

    __slots__ = ("Wa", "Wb", "n", "s")

    def __init__(self, V: np.ndarray, b: np.ndarray, kind: int) -> None:
        if kind == 1:
            self.Wa, self.Wb, self.s, self.n = V, V, -1.0, -1.0
        elif kind == 2:
            self.Wa, self.Wb, self.s, self.n = b @ V, V, 1.0, -1.0
        else:
            self.Wa, self.Wb, self.s, self.n = V, np.linalg.solve(b, V), 1.0, 1.0


def _average(w: np.ndarray) -> np.ndarray:
    return (w[..., :, np.newaxis] + w[..., np.newaxis, :]) / 2


def eigh_pushforward(w: np.ndarray, V: np.ndarray, dA: Any, dB: Any = None, general: _Generalized | None = None,
                     vectors: bool = True, rtol: float | None = None) -> tuple[Any, Any]:
    """``(dw, dV)`` of the (generalized) Hermitian eigenproblem for Hermitian tangents ``dA``, ``dB``.

    ``dA``/``dB`` may be ``None`` (zero). ``dV`` is ``None`` when ``vectors`` is false.
    """
    dw: Any = 0.0
    C: Any = None
    Wa = V if general is None else general.Wa
    if dA is not None:
        P = mH(Wa) @ dA @ Wa
        dw = np.real(np.diagonal(P, axis1=-2, axis2=-1))
        if vectors:
            C = coupling(w, rtol) * P
    if dB is not None and general is not None:
        N = mH(general.Wb) @ dB @ general.Wb
        dw = dw + general.s * w * np.real(np.diagonal(N, axis1=-2, axis2=-1))
        if vectors:
            term = (general.n / 2) * N + coupling(w, rtol) * (general.s * _average(w) * N)
            C = term if C is None else C + term
    dV = None if not vectors else (np.zeros_like(V) if C is None else V @ C)
    if np.ndim(dw) == 0:
        dw = np.zeros_like(w)
    return dw, dV


def eigh_cotangent(w: np.ndarray, V: np.ndarray, w_bar: Any, V_bar: Any, general: _Generalized | None = None,
                   rtol: float | None = None) -> tuple[np.ndarray, Any]:
    """The Hermitian gradients ``(G_a, G_b)`` for the output cotangents ``w_bar``, ``V_bar`` (``None``: zero).

    ``G_b`` is ``None`` for the standard problem.
    """
    F_K: Any = None
    G: Any = None
    if V_bar is not None:
        G = mH(V) @ V_bar
        F_K = coupling(w, rtol) * ((G - mH(G)) / 2)
    Wa = V if general is None else general.Wa
    if F_K is None:
        inner_a = np.zeros(V.shape[:-2] + (V.shape[-1],) * 2, dtype=np.result_type(V.dtype, np.float32))
    else:
        inner_a = F_K.copy()
    if w_bar is not None:
        add_to_diagonal(inner_a, np.real(w_bar))
    if V_bar is None:  # (Wa * w_bar) @ Wa^H is cheaper than two products
        G_a = (Wa * np.real(w_bar)[..., np.newaxis, :]) @ mH(Wa)
    else:
        G_a = Wa @ inner_a @ mH(Wa)
    if general is None:
        return G_a, None
    s, n = general.s, general.n
    inner_b = np.zeros_like(inner_a)
    if w_bar is not None:
        add_to_diagonal(inner_b, s * w * np.real(w_bar))
    if G is not None:
        inner_b = inner_b + (n / 4) * (G + mH(G)) + s * _average(w) * F_K
    G_b = general.Wb @ inner_b @ mH(general.Wb)
    return G_a, G_b


# ---- helpers of the rules -------------------------------------------------------------------------------------
def _lower_of_uplo(UPLO: Any) -> bool:
    return str(UPLO).upper() == "L"


# ---- np.linalg.eigh, np.linalg.eigvalsh ---------------------------------------------------------------------
@rrule.register(np.linalg.eigh, HERMITIAN_INPUTS)
def eigh_rrule(a: Any, UPLO: Any = "L") -> Any:
    """Reverse rule of ``np.linalg.eigh(a, UPLO)``: ``dA = V (diag(w_bar) + F o skew(V^H V_bar)) V^H``.

    See the module docstring for the maths, the triangle ``a`` is read from, and the
    treatment of degenerate eigenvalues and of the eigenvectors' gauge.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> (w, V), pullback = rrule(np.linalg.eigh, np.eye(3))     # a triply degenerate eigenvalue
    >>> pullback((np.ones(3), np.zeros((3, 3))))[1]             # d trace / dA: finite
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    y = np.linalg.eigh(a, UPLO)
    w, V = y
    lower = _lower_of_uplo(UPLO)
    project_a = cotangent_projector(a)
    rtol = relative_tolerance(w.dtype)

    def eigh_pullback(dy: Any) -> tuple[Any, Any, Any]:
        w_bar, V_bar = cotangent_parts(dy, y, np.linalg.eigh)
        missing = not_implemented_in(w_bar, V_bar)
        if missing is not None:
            return NO, missing, NO
        if w_bar is None and V_bar is None:
            return NO, project_a(ZeroTangent()), NO
        G, _ = eigh_cotangent(w, V, w_bar, V_bar, rtol=rtol)
        return NO, project_a(hermitian_triangle_cotangent(G, lower)), NO

    return y, eigh_pullback


@frule.register(np.linalg.eigh, HERMITIAN_INPUTS)
def eigh_frule(tangents: Any, a: Any, UPLO: Any = "L") -> Any:
    """Forward rule of ``np.linalg.eigh(a, UPLO)``: ``dw = Re diag(P)``, ``dV = V (F o P)``, ``P = V^H dA V``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> y, (dw, dV) = frule((NoTangent(), np.diag([1.0, 2.0])), np.linalg.eigh, np.diag([1.0, 3.0]))
    >>> dw
    array([1., 2.])
    """
    y = np.linalg.eigh(a, UPLO)
    dA = tangent_value(tangents[1])
    if dA is None or not_implemented_in(dA):
        return y, ZeroTangent() if dA is None else dA
    w, V = y
    dw, dV = eigh_pushforward(w, V, hermitian_from_triangle(dA, _lower_of_uplo(UPLO)))
    return y, ProjectTo(y)((dw, dV))


@rrule.register(np.linalg.eigvalsh, HERMITIAN_INPUTS)
def eigvalsh_rrule(a: Any, UPLO: Any = "L") -> Any:
    """Reverse rule of ``np.linalg.eigvalsh(a, UPLO)``: ``dA = V diag(w_bar) V^H`` (on the triangle read).

    The eigenvectors come from ``np.linalg.eigh``, whose eigenvalues are returned (they
    agree with ``eigvalsh``'s to rounding). A function of the eigenvalues that is symmetric
    in each repeated eigenvalue (``sum f(w_i)``, the sorted spectrum's sum over a cluster)
    gets its exact gradient at repeated eigenvalues.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> w, pullback = rrule(np.linalg.eigvalsh, np.diag([2.0, 1.0]))
    >>> pullback(np.array([0.0, 1.0]))[1]          # the largest eigenvalue's gradient
    array([[1., 0.],
           [0., 0.]])
    """
    w, V = np.linalg.eigh(a, UPLO)
    lower = _lower_of_uplo(UPLO)
    project_a = cotangent_projector(a)

    def eigvalsh_pullback(dy: Any) -> tuple[Any, Any, Any]:
        w_bar = read_cotangent(dy, w, np.linalg.eigvalsh)
        if passes_through(w_bar):
            return NO, project_a(w_bar), NO
        G, _ = eigh_cotangent(w, V, w_bar, None)
        return NO, project_a(hermitian_triangle_cotangent(G, lower)), NO

    return w, eigvalsh_pullback


@frule.register(np.linalg.eigvalsh, HERMITIAN_INPUTS)
def eigvalsh_frule(tangents: Any, a: Any, UPLO: Any = "L") -> Any:
    """Forward rule of ``np.linalg.eigvalsh(a, UPLO)``: ``dw = Re diag(V^H dA V)``."""
    w, V = np.linalg.eigh(a, UPLO)
    dA = tangent_value(tangents[1])
    if dA is None or not_implemented_in(dA):
        return w, ZeroTangent() if dA is None else dA
    dw, _ = eigh_pushforward(w, V, hermitian_from_triangle(dA, _lower_of_uplo(UPLO)), vectors=False)
    return w, ProjectTo(w)(dw)


# ---- subsets -------------------------------------------------------------------------------------------------
class _Subset:
    """Where a contiguous selection of ``k`` eigenpairs sits in the full (ascending) spectrum."""

    __slots__ = ("index",)

    def __init__(self, start: np.ndarray, k: int) -> None:
        self.index = np.asarray(start)[..., np.newaxis] + np.arange(k)  # (..., k)

    @staticmethod
    def of(w_full: np.ndarray, k: int, by_index: Any, by_value: Any) -> _Subset | None:
        n = w_full.shape[-1]
        if k == n:
            return None
        if by_index is not None:
            lo = int(np.asarray(by_index).ravel()[0])
            start = np.full(w_full.shape[:-1], lo if lo >= 0 else lo + n)
        else:
            vl = np.asarray(by_value).ravel()[0]
            start = np.sum(w_full <= vl, axis=-1)
        start = np.clip(start, 0, n - k)
        return _Subset(start, k)

    def embed_values(self, full: np.ndarray, part: np.ndarray) -> np.ndarray:
        out = full.copy()
        np.put_along_axis(out, np.broadcast_to(self.index, part.shape), part, axis=-1)
        return out

    def embed_vectors(self, full: np.ndarray, part: np.ndarray) -> np.ndarray:
        out = full.copy()
        idx = np.broadcast_to(self.index[..., np.newaxis, :], part.shape)
        np.put_along_axis(out, idx, part, axis=-1)
        return out

    def zeros_with_values(self, shape: tuple[int, ...], part: Any, dtype: Any) -> Any:
        if part is None:
            return None
        out = np.zeros(shape, dtype=np.result_type(dtype, part.dtype))
        np.put_along_axis(out, np.broadcast_to(self.index, part.shape), part, axis=-1)
        return out

    def zeros_with_vectors(self, shape: tuple[int, ...], part: Any, dtype: Any) -> Any:
        if part is None:
            return None
        out = np.zeros(shape, dtype=np.result_type(dtype, part.dtype))
        np.put_along_axis(out, np.broadcast_to(self.index[..., np.newaxis, :], part.shape), part, axis=-1)
        return out

    def take_values(self, full: np.ndarray) -> np.ndarray:
        return np.take_along_axis(full, np.broadcast_to(self.index, full.shape[:-1] + self.index.shape[-1:]),
                                  axis=-1)

    def take_vectors(self, full: np.ndarray) -> np.ndarray:
        idx = self.index[..., np.newaxis, :]
        return np.take_along_axis(full, np.broadcast_to(idx, full.shape[:-1] + idx.shape[-1:]), axis=-1)


class _Decomposition:
    """The full eigendecomposition behind a (possibly partial, possibly values-only) primal output.

    ``w``/``V`` are the full spectrum and eigenvectors, with the primal's own eigenvectors
    in the selected columns (so the phase of each returned eigenvector is the one the
    derivative refers to); ``subset`` maps between the two (``None``: everything selected).
    """

    __slots__ = ("V", "rtol", "subset", "w")

    def __init__(self, w_out: np.ndarray, V_out: Any, full: Any, by_index: Any = None, by_value: Any = None) -> None:
        k = w_out.shape[-1]
        self.rtol = relative_tolerance(w_out.dtype)  # the tolerance in force when the rule ran
        if V_out is not None and V_out.shape[-1] == V_out.shape[-2] and k == V_out.shape[-1]:
            self.w, self.V, self.subset = w_out, V_out, None
            return
        w_full, V_full = full()
        self.subset = _Subset.of(w_full, k, by_index, by_value)
        if self.subset is None:
            self.w = w_out
            self.V = V_full if V_out is None else V_out
        else:
            self.w = self.subset.embed_values(w_full, w_out)
            self.V = V_full if V_out is None else self.subset.embed_vectors(V_full, V_out)

    def cotangent(self, w_bar: Any, V_bar: Any, general: _Generalized | None = None) -> tuple[Any, Any]:
        """``(G_a, G_b)`` for cotangents of the selected outputs."""
        if self.subset is not None:
            w_bar = self.subset.zeros_with_values(self.w.shape, w_bar, self.w.dtype)
            V_bar = self.subset.zeros_with_vectors(self.V.shape, V_bar, self.V.dtype)
        return eigh_cotangent(self.w, self.V, w_bar, V_bar, general, self.rtol)

    def pushforward(self, dA: Any, dB: Any = None, general: _Generalized | None = None,
                    vectors: bool = True) -> tuple[Any, Any]:
        """``(dw, dV)`` of the selected outputs."""
        dw, dV = eigh_pushforward(self.w, self.V, dA, dB, general, vectors, self.rtol)
        if self.subset is not None:
            dw = self.subset.take_values(dw)
            dV = None if dV is None else self.subset.take_vectors(dV)
        return dw, dV


# ---- scipy.linalg.eigh, scipy.linalg.eigvalsh ------------------------------------------------------------------
def _scipy_eigh_parts(a: Any, b: Any, lower: bool, eigvals_only: bool, kind: int, check_finite: bool,
                      subset_by_index: Any, subset_by_value: Any, driver: Any) -> tuple[Any, _Decomposition, Any]:
    """The primal output, the full decomposition behind it and the generalized-problem data."""
    y = sla.eigh(a, b, lower=lower, eigvals_only=eigvals_only, type=kind, check_finite=check_finite,
                 subset_by_index=subset_by_index, subset_by_value=subset_by_value, driver=driver)
    w_out, V_out = (y, None) if eigvals_only else (y[0], y[1])

    def full() -> tuple[np.ndarray, np.ndarray]:
        w, V = sla.eigh(a, b, lower=lower, type=kind, check_finite=False)
        return w, V

    dec = _Decomposition(np.asarray(w_out), None if V_out is None else np.asarray(V_out), full,
                         subset_by_index, subset_by_value)
    general = None
    if b is not None:
        general = _Generalized(dec.V, hermitian_from_triangle(np.asarray(b), lower), kind)
    return y, dec, general


def _scipy_eigh_outputs(y: Any, eigvals_only: bool, dy: Any, f: str) -> tuple[Any, Any]:
    """``(w_bar, V_bar)`` (``None`` for zeros; ``V_bar`` is ``None`` for ``eigvals_only``), read by the core."""
    if eigvals_only:
        w_bar = read_cotangent(dy, y, f)
        return (None if isinstance(w_bar, AbstractZero) else w_bar), None
    w_bar, V_bar = cotangent_parts(dy, y, f)
    return w_bar, V_bar


@rrule.register(sla.eigh, HERMITIAN_INPUTS)
def scipy_eigh_rrule(a: Any, b: Any = None, *, lower: bool = True, eigvals_only: bool = False,
                     overwrite_a: bool = False, overwrite_b: bool = False, type: int = 1,
                     check_finite: bool = True, subset_by_index: Any = None, subset_by_value: Any = None,
                     driver: Any = None) -> Any:
    """Reverse rule of ``scipy.linalg.eigh``: standard and generalized (types 1-3), subsets, values only.

    The maths (the generalized table), the triangles of ``a`` and ``b`` that are read, and
    the degenerate and gauge treatment are in the module docstring. ``overwrite_a`` and
    ``overwrite_b`` are ignored: the rule never overwrites its inputs.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> a, b = np.diag([1.0, 4.0]), np.diag([1.0, 2.0])
    >>> w, pullback = rrule(scipy.linalg.eigh, a, b, eigvals_only=True)    # w = [1, 2]
    >>> _, da, db = pullback(np.array([0.0, 1.0]))
    >>> unthunk(da), unthunk(db)                # d(a_22 / b_22): 1/b_22 and -a_22/b_22^2
    (array([[0. , 0. ],
           [0. , 0.5]]), array([[ 0.,  0.],
           [ 0., -1.]]))
    """
    return _scipy_eigh_reverse("scipy.linalg.eigh", a, b, lower, eigvals_only, type, check_finite, subset_by_index,
                               subset_by_value, driver)


def _scipy_eigh_reverse(where: str, a: Any, b: Any, lower: bool, eigvals_only: bool, type: int,
                        check_finite: bool, subset_by_index: Any, subset_by_value: Any, driver: Any) -> Any:
    """The reverse rule of ``scipy.linalg.eigh`` and ``eigvalsh``; ``where`` names the function in errors."""
    y, dec, general = _scipy_eigh_parts(a, b, lower, eigvals_only, type, check_finite, subset_by_index,
                                        subset_by_value, driver)
    project_a = cotangent_projector(a)
    project_b = cotangent_projector(a if b is None else b)

    def scipy_eigh_pullback(dy: Any) -> tuple[Any, Any, Any]:
        w_bar, V_bar = _scipy_eigh_outputs(y, eigvals_only, dy, where)
        missing = not_implemented_in(w_bar, V_bar)
        if missing is not None:
            return NO, missing, NO if b is None else missing
        if w_bar is None and V_bar is None:
            return NO, project_a(ZeroTangent()), NO if b is None else project_b(ZeroTangent())
        if b is None:
            G_a, _ = dec.cotangent(w_bar, V_bar)
            return NO, project_a(hermitian_triangle_cotangent(G_a, lower)), NO
        grads: dict[str, Any] = {}

        def both() -> dict[str, Any]:
            if not grads:
                grads["a"], grads["b"] = dec.cotangent(w_bar, V_bar, general)
            return grads

        da = Thunk(lambda: project_a(hermitian_triangle_cotangent(both()["a"], lower)))
        db = Thunk(lambda: project_b(hermitian_triangle_cotangent(both()["b"], lower)))
        return NO, da, db

    return y, scipy_eigh_pullback


@frule.register(sla.eigh, HERMITIAN_INPUTS)
def scipy_eigh_frule(tangents: Any, a: Any, b: Any = None, *, lower: bool = True, eigvals_only: bool = False,
                     overwrite_a: bool = False, overwrite_b: bool = False, type: int = 1,
                     check_finite: bool = True, subset_by_index: Any = None, subset_by_value: Any = None,
                     driver: Any = None) -> Any:
    """Forward rule of ``scipy.linalg.eigh`` (see the module docstring)."""
    y, dec, general = _scipy_eigh_parts(a, b, lower, eigvals_only, type, check_finite, subset_by_index,
                                        subset_by_value, driver)
    dA = tangent_value(tangents[1])
    dB = tangent_value(tangents[2]) if b is not None else None
    if dA is None and dB is None:
        return y, ZeroTangent()
    missing = not_implemented_in(dA, dB)
    if missing is not None:
        return y, missing
    dA = None if dA is None else hermitian_from_triangle(dA, lower)
    dB = None if dB is None else hermitian_from_triangle(dB, lower)
    dw, dV = dec.pushforward(dA, dB, general, vectors=not eigvals_only)
    return y, ProjectTo(y)(dw if eigvals_only else type_like(y, (dw, dV)))


def type_like(y: Any, parts: tuple[Any, ...]) -> Any:
    """``parts`` in the container type of ``y`` (SciPy returns lists for stacked inputs)."""
    return list(parts) if isinstance(y, list) else parts


@rrule.register(sla.eigvalsh, HERMITIAN_INPUTS)
def scipy_eigvalsh_rrule(a: Any, b: Any = None, *, lower: bool = True, overwrite_a: bool = False,
                         overwrite_b: bool = False, type: int = 1, check_finite: bool = True,
                         subset_by_index: Any = None, subset_by_value: Any = None, driver: Any = None) -> Any:
    """Reverse rule of ``scipy.linalg.eigvalsh``: that of ``scipy.linalg.eigh(..., eigvals_only=True)``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> w, pullback = rrule(scipy.linalg.eigvalsh, np.diag([3.0, 1.0]), subset_by_index=[1, 1])
    >>> w, pullback(np.array([1.0]))[1]
    (array([3.]), array([[1., 0.],
           [0., 0.]]))
    """
    return _scipy_eigh_reverse("scipy.linalg.eigvalsh", a, b, lower, True, type, check_finite, subset_by_index,
                               subset_by_value, driver)


@frule.register(sla.eigvalsh, HERMITIAN_INPUTS)
def scipy_eigvalsh_frule(tangents: Any, a: Any, b: Any = None, *, lower: bool = True, overwrite_a: bool = False,
                         overwrite_b: bool = False, type: int = 1, check_finite: bool = True,
                         subset_by_index: Any = None, subset_by_value: Any = None, driver: Any = None) -> Any:
    """Forward rule of ``scipy.linalg.eigvalsh``."""
    return scipy_eigh_frule(tangents, a, b, lower=lower, eigvals_only=True, type=type, check_finite=check_finite,
                            subset_by_index=subset_by_index, subset_by_value=subset_by_value, driver=driver)


# ---- scipy.linalg.eig_banded ----------------------------------------------------------------------------------
def _band_indices(shape: tuple[int, ...], lower: bool) -> tuple[np.ndarray, ...]:
    """``(band_row, column, i, j)`` of the entries of band storage that stand for ``a[i, j]``."""
    rows, n = shape[-2], shape[-1]
    u = rows - 1
    r, c = np.meshgrid(np.arange(rows), np.arange(n), indexing="ij")
    i = (r + c) if lower else (c - u + r)  # lower: a[j + r, j] = ab[r, j]; upper: a[j - u + r, j] = ab[r, j]
    keep = (i >= 0) & (i < n)
    return r[keep], c[keep], i[keep], c[keep]


def band_to_dense(a_band: np.ndarray, lower: bool) -> np.ndarray:
    """The Hermitian matrix that LAPACK band storage stands for (the real part of the diagonal).

    Examples
    --------
    >>> band_to_dense(np.array([[0.0, 5.0], [1.0, 2.0]]), lower=False)
    array([[1., 5.],
           [5., 2.]])
    """
    r, c, i, j = _band_indices(a_band.shape, lower)
    n = a_band.shape[-1]
    dense = np.zeros(a_band.shape[:-2] + (n, n), dtype=a_band.dtype)
    dense[..., i, j] = a_band[..., r, c]
    return hermitian_from_triangle(dense, lower)


def dense_to_band_cotangent(G: np.ndarray, a_band_shape: tuple[int, ...], lower: bool) -> np.ndarray:
    """The adjoint of :func:`band_to_dense`: the band-storage cotangent of a Hermitian gradient ``G``."""
    T = hermitian_triangle_cotangent(G, lower)
    r, c, i, j = _band_indices(a_band_shape, lower)
    out = np.zeros(G.shape[:-2] + tuple(a_band_shape[-2:]), dtype=T.dtype)
    out[..., r, c] = T[..., i, j]
    return out


def _selection(select: str, select_range: Any) -> tuple[Any, Any]:
    """``select=``/``select_range=`` of ``eig_banded``/``eigh_tridiagonal`` as ``(by_index, by_value)``."""
    kind = str(select).lower()
    if kind in ("a", "all", "0"):
        return None, None
    if kind in ("i", "index", "2"):
        return select_range, None
    return None, select_range


def _selected(y: Any, eigvals_only: Any, select: Any, select_range: Any,
              full: Any) -> _Decomposition:
    """The decomposition behind the output ``y`` of ``eig_banded``/``eigh_tridiagonal`` (``select=``)."""
    by_index, by_value = _selection(select, select_range)
    w_out, V_out = (y, None) if eigvals_only else (y[0], y[1])
    return _Decomposition(np.asarray(w_out), None if V_out is None else np.asarray(V_out), full, by_index, by_value)


def _banded_decomposition(y: Any, a_band: np.ndarray, lower: Any, eigvals_only: Any, select: Any,
                          select_range: Any) -> _Decomposition:
    def full() -> tuple[np.ndarray, np.ndarray]:
        w, V = np.linalg.eigh(band_to_dense(np.asarray(a_band), lower))
        return w, V

    return _selected(y, eigvals_only, select, select_range, full)


def _tridiagonal_decomposition(y: Any, d: np.ndarray, e: np.ndarray, eigvals_only: Any, select: Any,
                               select_range: Any) -> _Decomposition:
    def full() -> tuple[np.ndarray, np.ndarray]:
        w, V = sla.eigh_tridiagonal(d, e, check_finite=False)
        return np.asarray(w), np.asarray(V)

    return _selected(y, eigvals_only, select, select_range, full)


@rrule.register(sla.eig_banded, np.ndarray)
def eig_banded_rrule(a_band: np.ndarray, lower: Any = False, eigvals_only: Any = False,
                     overwrite_a_band: Any = False, select: Any = "a", select_range: Any = None, max_ev: Any = 0,
                     check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.eig_banded``: the Hermitian rule, the cotangent in band storage.

    Entries of ``a_band`` outside the matrix (the unused corner) get a zero cotangent; a
    strict off-diagonal entry stands for two entries of the matrix, so it gets ``2 G_ij``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> a_band = np.array([[0.0, 1.0], [2.0, 2.0]])        # [[2, 1], [1, 2]]: eigenvalues 1, 3
    >>> w, pullback = rrule(scipy.linalg.eig_banded, a_band, eigvals_only=True)
    >>> pullback(np.array([0.0, 1.0]))[1]                   # d w_max
    array([[0. , 1. ],
           [0.5, 0.5]])
    """
    y = sla.eig_banded(a_band, lower, eigvals_only, False, select, select_range, max_ev, check_finite)
    dec = _banded_decomposition(y, a_band, lower, eigvals_only, select, select_range)
    project_a_band = cotangent_projector(a_band)
    shape = np.shape(a_band)

    def eig_banded_pullback(dy: Any) -> tuple[Any, ...]:
        w_bar, V_bar = _scipy_eigh_outputs(y, eigvals_only, dy, "scipy.linalg.eig_banded")
        rest = (NO,) * 6
        missing = not_implemented_in(w_bar, V_bar)
        if missing is not None:
            return (NO, missing, *rest)
        if w_bar is None and V_bar is None:
            return (NO, project_a_band(ZeroTangent()), *rest)
        G, _ = dec.cotangent(w_bar, V_bar)
        return (NO, project_a_band(dense_to_band_cotangent(G, shape, lower)), *rest)

    return y, eig_banded_pullback


@frule.register(sla.eig_banded, np.ndarray)
def eig_banded_frule(tangents: Any, a_band: np.ndarray, lower: Any = False, eigvals_only: Any = False,
                     overwrite_a_band: Any = False, select: Any = "a", select_range: Any = None, max_ev: Any = 0,
                     check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.eig_banded``: the Hermitian rule on the matrix the band stands for."""
    y = sla.eig_banded(a_band, lower, eigvals_only, False, select, select_range, max_ev, check_finite)
    d_band = tangent_value(tangents[1])
    if d_band is None or not_implemented_in(d_band):
        return y, ZeroTangent() if d_band is None else d_band
    dec = _banded_decomposition(y, a_band, lower, eigvals_only, select, select_range)
    dw, dV = dec.pushforward(band_to_dense(d_band, lower), vectors=not eigvals_only)
    return y, ProjectTo(y)(dw if eigvals_only else type_like(y, (dw, dV)))


# ---- scipy.linalg.eigh_tridiagonal -----------------------------------------------------------------------------
def tridiagonal_to_dense(d: np.ndarray, e: np.ndarray) -> np.ndarray:
    """The symmetric tridiagonal matrix with diagonal ``d`` and off-diagonal ``e`` (stacks too)."""
    n = d.shape[-1]
    batch = np.broadcast_shapes(d.shape[:-1], e.shape[:-1])
    out = np.zeros(batch + (n, n), dtype=np.result_type(d.dtype, e.dtype))
    k = np.arange(n)
    out[..., k, k] = d
    out[..., k[:-1], k[1:]] = e
    out[..., k[1:], k[:-1]] = e
    return out


@rrule.register(sla.eigh_tridiagonal, np.ndarray, np.ndarray)
def eigh_tridiagonal_rrule(d: np.ndarray, e: np.ndarray, eigvals_only: Any = False, select: Any = "a",
                           select_range: Any = None, check_finite: Any = True, tol: Any = 0.0,
                           lapack_driver: Any = "auto") -> Any:
    """Reverse rule of ``scipy.linalg.eigh_tridiagonal``: ``d_bar = diag(G)``, ``e_bar = 2 * superdiag(G)``.

    ``G`` is the symmetric gradient of the Hermitian rule (module docstring); each ``e_i``
    is two entries of the matrix, hence the 2.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> w, pullback = rrule(scipy.linalg.eigh_tridiagonal, np.array([2.0, 2.0]), np.array([1.0]),
    ...                     eigvals_only=True)                  # eigenvalues 1 and 3
    >>> tuple(map(unthunk, pullback(np.array([0.0, 1.0]))[1:3]))   # d w_max = d d_mean + d e
    (array([0.5, 0.5]), array([1.]))
    """
    y = sla.eigh_tridiagonal(d, e, eigvals_only, select, select_range, check_finite, tol, lapack_driver)
    dec = _tridiagonal_decomposition(y, d, e, eigvals_only, select, select_range)
    project_d, project_e = cotangent_projector(d), cotangent_projector(e)
    n = np.shape(d)[-1]

    def eigh_tridiagonal_pullback(dy: Any) -> tuple[Any, ...]:
        w_bar, V_bar = _scipy_eigh_outputs(y, eigvals_only, dy, "scipy.linalg.eigh_tridiagonal")
        rest = (NO,) * 6
        missing = not_implemented_in(w_bar, V_bar)
        if missing is not None:
            return (NO, missing, missing, *rest)
        if w_bar is None and V_bar is None:
            return (NO, project_d(ZeroTangent()), project_e(ZeroTangent()), *rest)
        G, _ = dec.cotangent(w_bar, V_bar)
        k = np.arange(n)
        d_bar = Thunk(lambda: project_d(np.real(G[..., k, k])))
        e_bar = Thunk(lambda: project_e(2 * np.real(G[..., k[:-1], k[1:]])))
        return (NO, d_bar, e_bar, *rest)

    return y, eigh_tridiagonal_pullback


@frule.register(sla.eigh_tridiagonal, np.ndarray, np.ndarray)
def eigh_tridiagonal_frule(tangents: Any, d: np.ndarray, e: np.ndarray, eigvals_only: Any = False,
                           select: Any = "a", select_range: Any = None, check_finite: Any = True, tol: Any = 0.0,
                           lapack_driver: Any = "auto") -> Any:
    """Forward rule of ``scipy.linalg.eigh_tridiagonal``: the Hermitian rule with ``dT = tridiag(de, dd, de)``."""
    y = sla.eigh_tridiagonal(d, e, eigvals_only, select, select_range, check_finite, tol, lapack_driver)
    dd, de = tangent_value(tangents[1]), tangent_value(tangents[2])
    if dd is None and de is None:
        return y, ZeroTangent()
    missing = not_implemented_in(dd, de)
    if missing is not None:
        return y, missing
    dec = _tridiagonal_decomposition(y, d, e, eigvals_only, select, select_range)
    dT = tridiagonal_to_dense(np.zeros_like(d) if dd is None else dd, np.zeros_like(e) if de is None else de)
    dw, dV = dec.pushforward(dT, vectors=not eigvals_only)
    return y, ProjectTo(y)(dw if eigvals_only else type_like(y, (dw, dV)))


# ---- sample inputs ----------------------------------------------------------------------------------------
def _banded_hermitian(rng: np.random.Generator, dtype: Any = np.float64) -> np.ndarray:
    return np.triu(np.tril(hermitian(rng, dtype, 4), 1), -1)


def _tridiagonal(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    return np.array([1.0, 2.5, 4.0, 6.0]) + 0.1 * rng.standard_normal(4), 0.5 + 0.2 * rng.standard_normal(3)


@sample_inputs(np.linalg.eigh)
def _eigh_samples(rng: np.random.Generator) -> list[Sample]:
    a = hermitian(rng)
    g = eigenprojectors
    return [
        Sample(a, label="real symmetric (the eigenvectors themselves)"),
        Sample(a.astype(np.float32), gauge_invariant=g, label="float32"),
        Sample(hermitian(rng, np.complex128), gauge_invariant=g, label="complex Hermitian (eigenprojectors)"),
        Sample(a, "U", gauge_invariant=g, label="UPLO='U' by position"),
        Sample(np.triu(a) + 5 * np.tril(a, -1), fkwargs={"UPLO": "U"}, gauge_invariant=g,
               label="UPLO='U' by keyword, the lower triangle not read"),
        Sample(np.stack([hermitian(rng), hermitian(rng)]), gauge_invariant=g, label="stack"),
        Sample(repeated_eigenvalue(rng), gauge_invariant=cluster_invariants,
               label="repeated eigenvalue: eigenspace projectors and cluster sums"),
        Sample(repeated_eigenvalue(rng, np.complex128), gauge_invariant=cluster_invariants,
               label="repeated eigenvalue, complex"),
    ]


@sample_inputs(np.linalg.eigvalsh)
def _eigvalsh_samples(rng: np.random.Generator) -> list[Sample]:
    a = hermitian(rng)
    return [
        Sample(a, label="real symmetric"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(hermitian(rng, np.complex128), label="complex Hermitian"),
        Sample(a, "U", label="UPLO='U' by position"),
        Sample(a, fkwargs={"UPLO": "U"}, label="UPLO='U' by keyword"),
        Sample(np.stack([hermitian(rng), hermitian(rng)]), label="stack"),
        Sample(repeated_eigenvalue(rng), gauge_invariant=pair_sum,
               label="repeated eigenvalue: functions symmetric in the pair"),
    ]


@sample_inputs(sla.eigh)
def _scipy_eigh_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = hermitian(rng), spd(3, rng)
    h, hb = hermitian(rng, np.complex128), spd(3, rng, np.complex128)
    g = eigenprojectors
    out = [
        Sample(a, gauge_invariant=g, label="real symmetric"),
        Sample(a.astype(np.float32), gauge_invariant=g, label="float32"),
        Sample(h, gauge_invariant=g, label="complex Hermitian"),
        Sample(a, fkwargs={"lower": False}, gauge_invariant=g, label="lower=False"),
        Sample(a, fkwargs={"eigvals_only": True}, label="eigvals_only"),
        Sample(h, fkwargs={"eigvals_only": True, "lower": False}, label="eigvals_only, complex, lower=False"),
        Sample(a, fkwargs={"subset_by_index": [1, 2]}, gauge_invariant=g, label="subset_by_index"),
        Sample(a, fkwargs={"subset_by_value": [0.0, float(np.linalg.eigvalsh(a)[1]) + 0.5], "eigvals_only": True},
               label="subset_by_value, eigvals_only"),
        Sample(repeated_eigenvalue(rng), gauge_invariant=cluster_invariants, label="repeated eigenvalue"),
    ]
    for driver in ("ev", "evd", "evr", "evx"):
        out.append(Sample(a, fkwargs={"driver": driver}, gauge_invariant=g, label=f"driver={driver!r}"))
    for kind in (1, 2, 3):
        out.append(Sample(a, b, fkwargs={"type": kind}, gauge_invariant=g, label=f"generalized, type={kind}"))
        out.append(Sample(h, hb, fkwargs={"type": kind, "lower": False}, gauge_invariant=g,
                          label=f"generalized, complex, type={kind}, lower=False"))
    out.append(Sample(a, b, fkwargs={"eigvals_only": True, "driver": "gvd"}, label="generalized, eigvals_only, gvd"))
    out.append(Sample(a, b, fkwargs={"subset_by_index": [0, 1], "driver": "gvx"}, gauge_invariant=g,
                      label="generalized, subset_by_index, gvx"))
    return out


@sample_inputs(sla.eigvalsh)
def _scipy_eigvalsh_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = hermitian(rng), spd(3, rng)
    return [
        Sample(a, label="real symmetric"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(hermitian(rng, np.complex128), fkwargs={"lower": False}, label="complex Hermitian, lower=False"),
        Sample(a, b, label="generalized (b by position)"),
        Sample(a, b, fkwargs={"type": 3}, label="generalized, type=3"),
        Sample(a, fkwargs={"subset_by_index": [2, 2]}, label="subset_by_index: the largest"),
        Sample(repeated_eigenvalue(rng), gauge_invariant=pair_sum, label="repeated eigenvalue"),
    ]


@sample_inputs(sla.eig_banded)
def _eig_banded_samples(rng: np.random.Generator) -> list[Sample]:
    a, h = _banded_hermitian(rng), _banded_hermitian(rng, np.complex128)
    g = eigenprojectors
    return [
        Sample(hermitian_band(a, 1, False), gauge_invariant=g, label="upper form"),
        Sample(hermitian_band(a, 1, True), True, gauge_invariant=g, label="lower form, lower by position"),
        Sample(hermitian_band(a, 1, False).astype(np.float32), gauge_invariant=g, label="float32"),
        Sample(hermitian_band(h, 1, False), gauge_invariant=g, label="complex Hermitian"),
        Sample(hermitian_band(a, 1, True), fkwargs={"lower": True, "eigvals_only": True}, label="eigvals_only"),
        Sample(hermitian_band(a, 1, False), fkwargs={"select": "i", "select_range": (1, 2)}, gauge_invariant=g,
               label="select='i'"),
    ]


@sample_inputs(sla.eigh_tridiagonal)
def _eigh_tridiagonal_samples(rng: np.random.Generator) -> list[Sample]:
    d, e = _tridiagonal(rng)
    g = eigenprojectors
    return [
        Sample(d, e, gauge_invariant=g, label="eigenpairs"),
        Sample(d, e, True, label="eigvals_only by position"),
        Sample(d.astype(np.float32), e.astype(np.float32), gauge_invariant=g, label="float32"),
        Sample(d, e, fkwargs={"select": "i", "select_range": (1, 2)}, gauge_invariant=g, label="select='i'"),
        Sample(d, e, fkwargs={"eigvals_only": True, "lapack_driver": "stebz"}, label="lapack_driver='stebz'"),
    ]
