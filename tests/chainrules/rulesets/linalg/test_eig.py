"""Rules of chainrules/rulesets/linalg/eig.py, checked against finite differences.

``geev``'s eigenvectors (NumPy's ``eig``, SciPy's standard ``eig``) have unit norm and their
largest component real, and the rules differentiate that normalisation, so the raw outputs
are checked directly at float64 and complex128. A float32 run may pick the opposite sign of
a float64 run (the finite differences run at float64), and the generalized problem's
eigenvectors have an arbitrary phase: those are checked through gauge-invariant losses,
composite functions whose rules chain the rules of each step (``composite`` fixture):
``|V|^2``, ``V diag(f(w)) V^-1`` and spectral projectors.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, NotImplementedTangent, ProjectionError, Thunk, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.linalg._samples import sorted_eigenprojectors, sorted_eigenvalues
from chainrules.structured import UpperTriangular
from chainrules.testing import test_frule, test_rrule

SHAPES = [(3, 3), (2, 3, 3)]


def general(rand: Callable[..., np.ndarray], shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """A random matrix with well separated eigenvalues (complex pairs for most real ones)."""
    return rand(shape, dtype) + np.diag([0.0, 2.0, 4.0])


ROTATION = np.array([[0.5, -2.0, 0.1], [1.2, 0.4, 0.3], [0.15, 0.2, 3.0]])
"""A real matrix with a complex pair of eigenvalues (0.44 +- 1.54j) and a real one. (No exact zeros:
at structured inputs LAPACK's sign choice for a real matrix's complex pair can jump, which
the finite differences would see as a discontinuity.)"""


# ---- composite, gauge-invariant losses ----------------------------------------------------------------------
def numpy_eig(call: Callable[..., Any], a: Any) -> Any:
    return call(np.linalg.eig, a)


def scipy_eig(**kwargs: Any) -> Callable[..., Any]:
    def decompose(call: Callable[..., Any], a: Any) -> Any:
        out = call(sla.eig, a, **kwargs)
        return out[0], out[-1]
    return decompose


def pencil(left: bool = False) -> Callable[..., Any]:
    """``scipy.linalg.eig(x[0], x[1])`` with the pencil packed in one array (both get differentiated)."""
    def decompose(call: Callable[..., Any], x: Any) -> Any:
        a, b = call(operator.getitem, x, 0), call(operator.getitem, x, 1)
        out = call(sla.eig, a, b, left=left)
        return out[0], out[1]
    return decompose


def moduli(decompose: Callable[..., Any]) -> Callable[..., Any]:
    """``|V|^2``: invariant under each eigenvector's phase (and sign)."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        _, V = decompose(call, a)
        return call(np.square, call(np.abs, V))
    return program


def function_of_matrix(decompose: Callable[..., Any]) -> Callable[..., Any]:
    """``V diag(exp(w)) V^-1`` (= expm(a)): invariant under any scaling of the eigenvectors."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        w, V = decompose(call, a)
        scale = call(operator.getitem, call(np.exp, w), (Ellipsis, None, slice(None)))
        return call(np.matmul, call(np.multiply, V, scale), call(np.linalg.inv, V))
    return program


def cluster_function(decompose: Callable[..., Any], clusters: list[list[int]]) -> Callable[..., Any]:
    """``sum_c exp(mean(w_c)) P_c`` with the spectral projectors ``P_c = V_c (V^-1)_c``."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        w, V = decompose(call, a)
        W = call(np.linalg.inv, V)
        total = None
        for idx in clusters:
            mean = call(np.mean, call(np.take, w, idx, axis=-1), axis=-1, keepdims=True)
            weight = call(operator.getitem, call(np.exp, mean), (Ellipsis, None))
            P = call(np.matmul, call(np.take, V, idx, axis=-1), call(np.take, W, idx, axis=-2))
            term = call(np.multiply, weight, P)
            total = term if total is None else call(np.add, total, term)
        return total
    return program


def eigenvalue_sum(decompose: Callable[..., Any]) -> Callable[..., Any]:
    """``sum(w**2)`` (= trace(a @ a)): symmetric in the eigenvalues."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        w, _ = decompose(call, a)
        return call(np.sum, call(np.square, w), axis=-1)
    return program


def check_both(f: Callable[[Any], Any], a: Any, **kwargs: Any) -> None:
    test_rrule(f, a, **kwargs)
    test_frule(f, a, **kwargs)


# ---- np.linalg.eig, np.linalg.eigvals ------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_eig(shape, dtype_, rand):
    a = general(rand, shape, dtype_)
    test_rrule(np.linalg.eig, a)
    test_frule(np.linalg.eig, a)


def test_eig_complex_pair_of_real_matrix():
    test_rrule(np.linalg.eig, ROTATION)
    test_frule(np.linalg.eig, ROTATION)
    test_rrule(np.linalg.eigvals, ROTATION)
    test_rrule(np.linalg.eig, np.stack([ROTATION, ROTATION.T]))


@pytest.mark.parametrize("shape", SHAPES)
def test_eig_gauge_invariant(shape, dtype, rand, composite):
    a = general(rand, shape, dtype)
    for program in (moduli, function_of_matrix):
        check_both(composite(program(numpy_eig), f"eig_{program.__name__}"), a)


@pytest.mark.parametrize("shape", SHAPES)
def test_eigvals(shape, dtype, rand):
    a = general(rand, shape, dtype)
    test_rrule(np.linalg.eigvals, a)
    test_frule(np.linalg.eigvals, a)


def test_eig_structured(rand):
    a = UpperTriangular(rand((3, 3)) + np.diag([0.0, 2.0, 4.0]))
    test_rrule(np.linalg.eigvals, a)
    test_rrule(np.linalg.eig, a)
    assert isinstance(rrule(np.linalg.eigvals, a)[1](np.ones(3))[1], UpperTriangular)


# ---- scipy.linalg.eig, scipy.linalg.eigvals ------------------------------------------------------------------
EIG_SPELLINGS = [
    ((), {}),
    ((None, True), {}),                       # left=True, positionally
    ((), {"left": True}),
    ((), {"left": True, "right": False}),
    ((None, False, False), {}),               # eigenvalues only
    ((), {"homogeneous_eigvals": True}),
    ((), {"left": True, "homogeneous_eigvals": True, "check_finite": False}),
]


@pytest.mark.parametrize(("args", "kwargs"), EIG_SPELLINGS,
                         ids=["default", "left-pos", "left", "left-only", "values", "homogeneous", "homog-left"])
@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_scipy_eig(args, kwargs, dtype_, rand):
    a = general(rand, (3, 3), dtype_)
    test_rrule(sla.eig, a, *args, fkwargs=kwargs)
    test_frule(sla.eig, a, *args, fkwargs=kwargs)


def test_scipy_eig_stacked_and_real_pair(rand):
    test_rrule(sla.eig, general(rand, (2, 3, 3), np.float64), fkwargs={"left": True})
    test_rrule(sla.eig, ROTATION, fkwargs={"left": True})
    test_frule(sla.eig, ROTATION, fkwargs={"left": True, "right": False})


@pytest.mark.parametrize("shape", SHAPES)
def test_scipy_eigvals(shape, dtype, rand):
    a = general(rand, shape, dtype)
    test_rrule(sla.eigvals, a)
    test_frule(sla.eigvals, a)
    test_rrule(sla.eigvals, a, fkwargs={"homogeneous_eigvals": True})


def test_scipy_eig_left_gauge_invariant(dtype, rand, composite):
    a = general(rand, (3, 3), dtype)
    check_both(composite(moduli(scipy_eig(left=True, right=False)), "scipy_eig_left_moduli"), a)


# ---- the generalized problem ---------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
def test_scipy_eig_generalized_values(shape, dtype, rand, spd):
    a, b = general(rand, shape, dtype), spd(shape, dtype) + rand(shape, dtype) * 0.2
    test_rrule(sla.eigvals, a, b)
    test_frule(sla.eigvals, a, b)
    test_rrule(sla.eig, a, b, False, False)


@pytest.mark.parametrize("left", [False, True])
def test_scipy_eig_generalized_vectors(left, dtype, rand, spd, composite):
    x = np.stack([general(rand, (3, 3), dtype), spd((3, 3), dtype) + 0.2 * rand((3, 3), dtype)])
    for program in (moduli, function_of_matrix):
        check_both(composite(program(pencil(left)), f"pencil_{program.__name__}"), x)


def test_scipy_eig_generalized_not_implemented(rand):
    a = general(rand, (3, 3), np.float64)
    _, pullback = rrule(sla.eig, a, np.eye(3), homogeneous_eigvals=True)
    _, da, _, *_ = pullback((rand((2, 3)), rand((3, 3))))
    assert isinstance(unthunk(da), NotImplementedTangent) and "alpha, beta" in unthunk(da).info
    _, dy = frule((NoTangent(), rand((3, 3)), ZeroTangent()), sla.eig, a, np.eye(3),
                  homogeneous_eigvals=True)
    assert isinstance(dy, NotImplementedTangent)
    singular = np.diag([1.0, 1.0, 0.0])
    _, pullback = rrule(sla.eigvals, a, singular)
    assert isinstance(unthunk(pullback(np.ones(3))[1]), NotImplementedTangent)
    # SciPy leaves left eigenvectors unnormalised when right=False: their scaling is not differentiated
    b = np.eye(3) + 0.2 * rand((3, 3))
    (_w, vl), pullback = rrule(sla.eig, a, b, left=True, right=False)
    assert not np.allclose(np.linalg.norm(vl, axis=0), 1)
    _, da, _, *_ = pullback((ZeroTangent(), rand((3, 3))))
    assert isinstance(unthunk(da), NotImplementedTangent) and "right=True" in unthunk(da).info
    _, da, _, *_ = pullback((rand((3,)), ZeroTangent()))
    assert np.all(np.isfinite(unthunk(da)))
    _, dy = frule((NoTangent(), rand((3, 3)), ZeroTangent()), sla.eig, a, b, left=True, right=False)
    assert isinstance(unthunk(dy[1]), NotImplementedTangent)
    test_rrule(sla.eig, a, b, False, False)
    # only the eigenvectors' cotangent: the eigenvalues' is not asked for
    _, pullback = rrule(sla.eig, a, np.eye(3) + 0.1, homogeneous_eigvals=True)
    _, da, _db, *_ = pullback((ZeroTangent(), rand((3, 3))))
    assert np.all(np.isfinite(unthunk(da)))


# ---- repeated eigenvalues and defective matrices -------------------------------------------------------------
def diagonalizable(eigenvalues: list[float], dtype: Any, seed: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    V = np.eye(len(eigenvalues)) + 0.4 * rng.standard_normal((len(eigenvalues),) * 2)
    if np.dtype(dtype).kind == "c":
        V = V + 0.4j * rng.standard_normal(V.shape)
    return (V * np.asarray(eigenvalues)) @ np.linalg.inv(V)


@pytest.mark.parametrize(("eigenvalues", "clusters"), [
    ([1.0, 1.0, 1.0], [[0, 1, 2]]),
    ([1.0, 1.0, 3.0], None),
    ([2.0, 2.0 + 1e-10, -1.0], None),
], ids=["identity", "double", "near-double"])
@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_eig_degenerate(eigenvalues, clusters, dtype_, composite):
    a = np.eye(3, dtype=dtype_) if eigenvalues == [1.0] * 3 else diagonalizable(eigenvalues, dtype_)
    check_both(composite(eigenvalue_sum(numpy_eig), "eig_eigenvalue_sum"), a)
    if clusters is None:  # find the pair in numpy's (unsorted) order
        w = np.linalg.eigvals(a)
        close = np.abs(w[:, None] - w[None, :]) < 1e-6
        pair = [int(i) for i in np.flatnonzero(close.sum(axis=1) == 2)]
        clusters = [pair, [i for i in range(3) if i not in pair]]
    check_both(composite(cluster_function(numpy_eig, clusters), "eig_cluster_function"), a)
    (w, _V), pullback = rrule(np.linalg.eig, a)
    rng = np.random.default_rng(0)
    da = pullback((rng.standard_normal(3), rng.standard_normal((3, 3))))[1]
    assert np.all(np.isfinite(da))


def test_eig_defective_raises():
    jordan = np.array([[1.0, 1.0], [0.0, 1.0]])
    _, pullback = rrule(np.linalg.eig, jordan)
    with pytest.raises(np.linalg.LinAlgError, match="eigenvector matrix is singular"):
        pullback((np.ones(2), np.zeros((2, 2))))
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        frule((NoTangent(), np.eye(2)), np.linalg.eigvals, jordan)


# ---- cotangent kinds and errors ----------------------------------------------------------------------------
def test_scipy_eig_generalized_returns_thunks(rand, spd):
    _, pullback = rrule(sla.eig, general(rand, (3, 3), np.float64), spd((3, 3)))
    cotangents = pullback((rand((3,)), rand((3, 3))))
    assert isinstance(cotangents[1], Thunk) and isinstance(cotangents[2], Thunk)


def test_eig_wrong_cotangents(rand):
    a = general(rand, (3, 3), np.float64)
    _, pullback = rrule(np.linalg.eig, a)
    with pytest.raises(ProjectionError, match=r"numpy.linalg.eig pullback: cotangent of output 1 has shape \(3, 2\)"):
        pullback((rand((3,)), rand((3, 2))))
    _, pullback = rrule(sla.eig, a, left=True)
    with pytest.raises(ProjectionError, match=r"scipy\.linalg\.eig pullback: output cotangent has 2 parts, expected 3"):
        pullback((rand((3,)), rand((3, 3))))


def test_eig_primal_errors_pass_through(rand):
    with pytest.raises(np.linalg.LinAlgError):
        rrule(np.linalg.eig, rand((2, 3)))
    with pytest.raises(ValueError):
        rrule(sla.eig, rand((3, 3)), rand((2, 2)))


# ---- the testers' gauge_invariant=: complex eigenvectors checked directly ---------------------------------------
def test_eig_complex_through_sorted_eigenprojectors(rand):
    """A general complex matrix: each eigenvector has a free phase, and geev's eigenvalue order can change
    under a small perturbation; the testers compare the sorted eigenvalues and the projectors ``v_k v_k^H``."""
    a = general(rand, (3, 3), np.complex128)
    test_rrule(np.linalg.eig, a, gauge_invariant=sorted_eigenprojectors)
    test_frule(np.linalg.eig, a, gauge_invariant=sorted_eigenprojectors)
    test_rrule(sla.eig, a, fkwargs={"left": True, "right": False}, gauge_invariant=sorted_eigenprojectors)
    test_rrule(np.linalg.eigvals, a, gauge_invariant=sorted_eigenvalues)


def test_eigvals_pairs_its_own_eigenvalues_with_eigenvectors():
    """``eigvals`` (geev without vectors) can order the eigenvalues differently from ``eig``: the rule returns
    ``eigvals``' own output and matches the eigenvectors of its pullback to it, so ``w_bar = e_k`` gives the
    gradient of ``eigvals(a)[k]`` (finite differences of the eigenvalue of that value, found by sorting)."""
    a = np.array([[0.914, -0.099, 0.397], [-0.051, 1.971, 0.151], [-0.681, -0.400, 4.115]])
    w, pullback = rrule(np.linalg.eigvals, a)
    np.testing.assert_array_equal(w, np.linalg.eigvals(a))
    rank = np.argsort(np.argsort(w.real))          # the place of each eigenvalue in the sorted spectrum
    d = np.random.default_rng(0).standard_normal((3, 3))
    h = 1e-6
    fd = (sorted_eigenvalues(np.linalg.eigvals(a + h * d)) - sorted_eigenvalues(np.linalg.eigvals(a - h * d))) / (2 * h)
    for k in range(3):
        w_bar = np.zeros(3)
        w_bar[k] = 1.0
        assert np.sum(unthunk(pullback(w_bar)[1]) * d) == pytest.approx(fd[rank[k]].real, rel=1e-6)


def test_scipy_eigvals_pairs_its_eigenvalues_with_their_eigenvectors():
    """At this float32 matrix SciPy's ``eigvals`` returns ``(-1.81, 0.84, -0.54)`` and NumPy's ``eig``
    ``(0.84, -1.81, -0.54)``: the pullback's eigenvectors must follow the primal's order (it paired them by
    position before). ``w_bar = e_k`` must give the gradient of the eigenvalue ``w[k]`` (finite differences
    at float64, each eigenvalue found by sorting the real spectrum)."""
    a = np.array([[-0.41, 0.76, 0.77], [1.55, -0.71, 0.08], [0.69, 0.04, -0.39]], dtype=np.float32)
    w, pullback = rrule(sla.eigvals, a)
    assert not np.allclose(w, np.linalg.eig(a)[0], atol=1e-3)           # the two orders differ here
    rank = np.argsort(np.argsort(w.real))
    d = np.random.default_rng(1).standard_normal((3, 3))
    h = 1e-6
    a64 = a.astype(np.float64)
    fd = (np.sort(sla.eigvals(a64 + h * d).real) - np.sort(sla.eigvals(a64 - h * d).real)) / (2 * h)
    for k in range(3):
        w_bar = np.zeros(3, dtype=np.complex64)
        w_bar[k] = 1.0
        assert np.sum(unthunk(pullback(w_bar)[1]) * d) == pytest.approx(fd[rank[k]], rel=1e-4)
