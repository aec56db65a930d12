"""Rules of chainrules/rulesets/linalg/eigh.py, checked against finite differences.

Eigenvectors are defined up to a sign (real) or phase (complex) per vector, and up to a
rotation inside a repeated eigenvalue's eigenspace; LAPACK's choice is not smooth in
general (SciPy's default ``evr`` driver flips signs under tiny perturbations, and float32
and float64 runs may pick opposite signs, which defeats the finite differences of
float32 rules, computed at float64). The rules' raw outputs are checked where the choice is
locally smooth (float64, the ``evd``/``gvd`` drivers); everything else is checked through
*gauge-invariant* losses: composite functions of ``eigh``'s outputs (a spectral projector,
``V diag(f(w)) V^H``, ``|V|^2``, functions of the eigenvalues), whose rules chain the rules
of each step (``composite`` fixture) and whose finite differences are well defined. The
degenerate and near-degenerate spectra (``eigh(I)``, repeated eigenvalues, gaps of 1e-10)
are checked that way too.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules
from chainrules import NotImplementedTangent, ProjectionError, Tangent, Thunk, ZeroTangent, rrule
from chainrules.rulesets.linalg import degeneracy_tolerance
from chainrules.rulesets.linalg._samples import eigenprojectors
from chainrules.structured import Hermitian, Symmetric
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

SHAPES = [(3, 3), (2, 3, 3)]


def unitary(rng: np.random.Generator, n: int, dtype: Any) -> np.ndarray:
    """A random unitary (orthogonal for real dtypes) matrix."""
    z = rng.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        z = z + 1j * rng.standard_normal((n, n))
    q, _ = np.linalg.qr(z)
    return q


def with_spectrum(eigenvalues: list[float], dtype: Any, seed: int = 7) -> np.ndarray:
    """``Q diag(eigenvalues) Q^H`` for a random unitary ``Q`` (exactly Hermitian)."""
    q = unitary(np.random.default_rng(seed), len(eigenvalues), dtype)
    a = (q * np.asarray(eigenvalues)) @ np.conj(q).T
    return ((a + np.conj(a).T) / 2).astype(dtype)


# ---- composite, gauge-invariant losses of an eigendecomposition ------------------------------------------------
def _mH(call: Callable[..., Any], x: Any) -> Any:
    return call(np.conj, call(np.swapaxes, x, -1, -2))


def _row(call: Callable[..., Any], v: Any) -> Any:
    """``v[..., None, :]``: a vector of values to scale the columns of a matrix by."""
    return call(operator.getitem, v, (Ellipsis, None, slice(None)))


def reconstruction(decompose: Callable[..., Any]) -> Callable[..., Any]:
    """``V diag(exp(w)) V^H``: invariant under each eigenvector's sign or phase."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        w, V = decompose(call, a)
        return call(np.matmul, call(np.multiply, V, _row(call, call(np.exp, w))), _mH(call, V))
    return program


def modulus_squared(decompose: Callable[..., Any]) -> Callable[..., Any]:
    """``|V|^2`` elementwise: invariant under each eigenvector's sign or phase."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        _, V = decompose(call, a)
        return call(np.square, call(np.abs, V))
    return program


def spectral_sum(decompose: Callable[..., Any]) -> Callable[..., Any]:
    """``sum(sin(w))``: a symmetric function of the eigenvalues."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        w, _ = decompose(call, a)
        return call(np.sum, call(np.sin, w), axis=-1)
    return program


def cluster_function(decompose: Callable[..., Any], clusters: list[list[int]]) -> Callable[..., Any]:
    """``sum_c exp(mean(w_c)) V_c V_c^H``: projectors onto the clusters' eigenspaces, weighted by a
    symmetric function of each cluster's eigenvalues (gauge-invariant at repeated eigenvalues)."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        w, V = decompose(call, a)
        total = None
        for idx in clusters:
            mean = call(np.mean, call(np.take, w, idx, axis=-1), axis=-1, keepdims=True)
            weight = call(operator.getitem, call(np.exp, mean), (Ellipsis, None))
            Vc = call(np.take, V, idx, axis=-1)
            term = call(np.multiply, weight, call(np.matmul, Vc, _mH(call, Vc)))
            total = term if total is None else call(np.add, total, term)
        return total
    return program


def projector(decompose: Callable[..., Any], idx: list[int]) -> Callable[..., Any]:
    """``V_c V_c^H``: the orthogonal projector onto the span of the eigenvectors ``idx``."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        _, V = decompose(call, a)
        Vc = call(np.take, V, idx, axis=-1)
        return call(np.matmul, Vc, _mH(call, Vc))
    return program


def numpy_eigh(UPLO: str = "L") -> Callable[..., Any]:
    def decompose(call: Callable[..., Any], a: Any) -> Any:
        return call(np.linalg.eigh, a, UPLO)
    return decompose


def scipy_eigh(**kwargs: Any) -> Callable[..., Any]:
    def decompose(call: Callable[..., Any], a: Any) -> Any:
        return call(sla.eigh, a, **kwargs)
    return decompose


def check_both(f: Callable[[Any], Any], a: Any, **kwargs: Any) -> None:
    test_rrule(f, a, **kwargs)
    test_frule(f, a, **kwargs)


# ---- np.linalg.eigh --------------------------------------------------------------------------------------------
UPLO_SPELLINGS = [((), {}), (("U",), {}), ((), {"UPLO": "U"}), ((), {"UPLO": "L"}), (("l",), {})]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("args", "kwargs"), UPLO_SPELLINGS, ids=["default", "U", "UPLO=U", "UPLO=L", "l"])
def test_eigh(shape, args, kwargs, rand):
    a = rand(shape)  # not symmetric: eigh reads one triangle, and the rules differentiate that
    test_rrule(np.linalg.eigh, a, *args, fkwargs=kwargs)
    test_frule(np.linalg.eigh, a, *args, fkwargs=kwargs)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_gauge_invariant(shape, uplo, dtype, rand, composite):
    a = rand(shape, dtype)
    for program in (reconstruction, modulus_squared):
        check_both(composite(program(numpy_eigh(uplo)), f"eigh_{program.__name__}"), a)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("args", "kwargs"), UPLO_SPELLINGS[:3], ids=["default", "U", "UPLO=U"])
def test_eigvalsh(shape, args, kwargs, dtype, rand):
    a = rand(shape, dtype)
    test_rrule(np.linalg.eigvalsh, a, *args, fkwargs=kwargs)
    test_frule(np.linalg.eigvalsh, a, *args, fkwargs=kwargs)


def test_eigh_reads_one_triangle(rand):
    a = rand((3, 3))
    _, pullback = rrule(np.linalg.eigh, a, "U")
    da = pullback((rand((3,)), rand((3, 3))))[1]
    assert np.all(np.tril(da, -1) == 0)
    _, pullback = rrule(np.linalg.eigvalsh, a)
    da = pullback(rand((3,)))[1]
    assert np.all(np.triu(da, 1) == 0)


def test_eigh_integer_input():
    a = np.array([[2, 1], [1, 3]])
    test_rrule(np.linalg.eigh, a)
    test_rrule(np.linalg.eigvalsh, a)


@pytest.mark.parametrize("lower", [False, True])
def test_eigh_symmetric_structured(lower, rand):
    a = Symmetric(rand((3, 3)), lower)
    test_rrule(np.linalg.eigh, a)
    test_frule(np.linalg.eigh, a)
    test_rrule(np.linalg.eigvalsh, a)
    test_rrule(sla.eigh, a, fkwargs={"driver": "evd"})
    _, pullback = rrule(np.linalg.eigh, a)
    assert isinstance(pullback((rand((3,)), rand((3, 3))))[1], Symmetric)


def test_eigh_hermitian_structured(rand, composite):
    a = Hermitian(rand((3, 3), np.complex128))
    check_both(composite(reconstruction(numpy_eigh()), "hermitian_eigh_reconstruction"), a)
    test_rrule(np.linalg.eigvalsh, a)
    test_frule(sla.eigvalsh, a)
    _, pullback = rrule(np.linalg.eigvalsh, a)
    assert isinstance(pullback(rand((3,)))[1], Hermitian)


# ---- degenerate and near-degenerate spectra ---------------------------------------------------------------------
# (eigenvalues, the clusters of (nearly) equal eigenvalues, sorted ascending)
SPECTRA = {
    "identity": ([1.0, 1.0, 1.0], [[0, 1, 2]]),
    "double": ([1.0, 1.0, 3.0], [[0, 1], [2]]),
    "double-top": ([-2.0, 0.5, 0.5], [[0], [1, 2]]),
    "near-double": ([1.0, 1.0 + 1e-10, 3.0], [[0, 1], [2]]),
    "near-triple": ([2.0, 2.0 + 1e-10, 2.0 - 1e-10], [[0, 1, 2]]),
    "near-double-zero": ([-1e-10, 1e-10, 4.0], [[0, 1], [2]]),
}


def degenerate_matrix(name: str, dtype: Any) -> tuple[np.ndarray, list[list[int]]]:
    eigenvalues, clusters = SPECTRA[name]
    a = np.eye(3, dtype=dtype) * eigenvalues[0] if name == "identity" else with_spectrum(eigenvalues, dtype)
    return a, clusters


@pytest.mark.parametrize("name", list(SPECTRA))
def test_eigh_degenerate_gauge_invariant_losses(name, dtype, composite):
    a, clusters = degenerate_matrix(name, dtype)
    decompose = numpy_eigh()
    check_both(composite(spectral_sum(decompose), "eigh_spectral_sum"), a)
    check_both(composite(cluster_function(decompose, clusters), "eigh_cluster_function"), a)
    for idx in clusters:
        if len(idx) < 3:
            check_both(composite(projector(decompose, idx), "eigh_cluster_projector"), a)


@pytest.mark.parametrize("name", ["identity", "double", "near-double"])
def test_eigh_degenerate_gauge_invariant_losses_scipy(name, composite):
    a, clusters = degenerate_matrix(name, np.complex128)
    for decompose in (scipy_eigh(), scipy_eigh(lower=False, driver="ev")):
        check_both(composite(cluster_function(decompose, clusters), "scipy_eigh_cluster_function"), a)
    # a diagonal band matrix with a repeated eigenvalue: its off-diagonal entries mix the cluster
    a_band = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 3.0]]) + (1e-10 if name == "near-double" else 0.0) * np.eye(2, 3)
    decompose_band = lambda call, x: call(sla.eig_banded, x)  # noqa: E731
    check_both(composite(cluster_function(decompose_band, [[0, 1], [2]]), "eig_banded_cluster_function"), a_band)


@pytest.mark.parametrize("name", list(SPECTRA))
@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_eigh_degenerate_cotangents_are_finite_and_gauge_blind(name, dtype_):
    """Any cotangent gives a finite answer, and the in-cluster part of V_bar (pure gauge) is ignored."""
    a, clusters = degenerate_matrix(name, dtype_)
    rng = np.random.default_rng(3)
    (_w, V), pullback = rrule(np.linalg.eigh, a)
    w_bar = rng.standard_normal(3)
    V_bar = rng.standard_normal((3, 3)) + (1j * rng.standard_normal((3, 3)) if dtype_ is np.complex128 else 0)
    da = pullback((w_bar, V_bar))[1]
    assert np.all(np.isfinite(da))
    gauge = np.zeros((3, 3), dtype=V.dtype)
    for idx in clusters:
        block = rng.standard_normal((len(idx), len(idx)))
        gauge[:, idx] = V[:, idx] @ block  # a change of V_bar inside each cluster only
    np.testing.assert_allclose(pullback((w_bar, V_bar + gauge))[1], da, atol=1e-12)
    _y, dy = chainrules.frule((chainrules.NoTangent(), V_bar), np.linalg.eigh, a)
    assert np.all(np.isfinite(dy.eigenvalues)) and np.all(np.isfinite(dy.eigenvectors))


def test_eigh_identity_eigenvalue_gradient():
    """The gradient of sum(f(w)) at eigh(I) is f'(1) I (here checked against finite differences)."""
    a = np.eye(4)
    _, pullback = rrule(np.linalg.eigvalsh, a)
    da = pullback(np.full(4, 2.0))[1]
    assert np.all(np.isfinite(da))
    test_rrule(np.linalg.eigvalsh, a, output_tangent=np.full(4, 2.0))


def test_degeneracy_tolerance():
    a = with_spectrum([1.0, 1.001, 3.0], np.float64)
    rng = np.random.default_rng(5)
    (_w, V), pullback = rrule(np.linalg.eigh, a)
    V_bar = rng.standard_normal((3, 3))
    gauge = np.zeros((3, 3))
    gauge[:, :2] = V[:, :2] @ rng.standard_normal((2, 2))
    # gap 1e-3 relative: a separate pair by default, one cluster at rtol = 1e-2
    assert not np.allclose(pullback((ZeroTangent(), V_bar + gauge))[1], pullback((ZeroTangent(), V_bar))[1])
    with degeneracy_tolerance(1e-2):
        _, clustered = rrule(np.linalg.eigh, a)
    np.testing.assert_allclose(clustered((ZeroTangent(), V_bar + gauge))[1], clustered((ZeroTangent(), V_bar))[1],
                               atol=1e-12)
    with degeneracy_tolerance(0.0):  # only exactly equal eigenvalues: eigh(I) is still finite
        _, pullback = rrule(np.linalg.eigh, np.eye(3))
        assert np.all(np.isfinite(pullback((ZeroTangent(), V_bar))[1]))
    with pytest.raises(ValueError, match="rtol"), degeneracy_tolerance(-1.0):
        pass


# ---- scipy.linalg.eigh, scipy.linalg.eigvalsh ------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("lower", [True, False])
def test_scipy_eigh(shape, lower, rand):
    a = rand(shape)
    kwargs = {"lower": lower, "driver": "evd"}
    test_rrule(sla.eigh, a, fkwargs=kwargs)
    test_frule(sla.eigh, a, fkwargs=kwargs)


@pytest.mark.parametrize("lower", [True, False])
def test_scipy_eigh_default_driver(lower, dtype, rand, composite):
    a = rand((3, 3), dtype)
    for program in (reconstruction, modulus_squared):
        check_both(composite(program(scipy_eigh(lower=lower)), f"scipy_eigh_{program.__name__}"), a)


@pytest.mark.parametrize("shape", SHAPES)
def test_scipy_eigh_values_only(shape, dtype, rand):
    a = rand(shape, dtype)
    test_rrule(sla.eigh, a, fkwargs={"eigvals_only": True})
    test_frule(sla.eigh, a, fkwargs={"eigvals_only": True, "lower": False})
    test_rrule(sla.eigvalsh, a, fkwargs={"lower": False})
    test_frule(sla.eigvalsh, a)


SUBSETS = [{"subset_by_index": [1, 2]}, {"subset_by_index": [0, 0]}, {"subset_by_value": [-0.5, np.inf]}]


@pytest.mark.parametrize("subset", SUBSETS, ids=["index-1-2", "index-0", "value"])
def test_scipy_eigh_subsets(subset, rand, composite):
    a = with_spectrum([-1.0, 0.5, 2.0], np.float64) + 0.1 * rand((3, 3))
    kwargs = {**subset, "driver": "evx"}
    test_rrule(sla.eigh, a, fkwargs=kwargs)
    test_frule(sla.eigh, a, fkwargs=kwargs)
    test_rrule(sla.eigvalsh, a, fkwargs=subset)
    test_frule(sla.eigvalsh, a, fkwargs=subset)
    c = with_spectrum([-1.0, 0.5, 2.0], np.complex128) + 0.1 * rand((3, 3), np.complex128)
    check_both(composite(modulus_squared(scipy_eigh(**subset)), "scipy_eigh_subset_modulus"), c)
    if "subset_by_index" in subset:
        test_rrule(sla.eigvalsh, np.stack([a, a.T + 0.05]), fkwargs=subset)


# ---- the generalized problem ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", [1, 2, 3])
@pytest.mark.parametrize("lower", [True, False])
def test_scipy_eigh_generalized(kind, lower, rand, spd):
    a, b = rand((3, 3)), spd((3, 3))
    junk = rand((3, 3))
    b = b + (np.triu(junk, 1) if lower else np.tril(junk, -1))  # the triangle not read is junk
    kwargs = {"type": kind, "lower": lower, "driver": "gvd"}
    test_rrule(sla.eigh, a, b, fkwargs=kwargs)
    test_frule(sla.eigh, a, b, fkwargs=kwargs)
    test_rrule(sla.eigh, a, b, fkwargs={**kwargs, "eigvals_only": True})
    test_frule(sla.eigvalsh, a, b, fkwargs={"type": kind, "lower": lower})


def test_scipy_eigh_generalized_stacked(rand, spd):
    a, b = rand((2, 3, 3)), spd((2, 3, 3))
    test_rrule(sla.eigh, a, b, fkwargs={"driver": "gvd"})
    test_frule(sla.eigh, a, b, fkwargs={"driver": "gvd"})


def generalized(kind: int = 1, **kwargs: Any) -> Callable[..., Any]:
    """``eigh(x[0], x[1])``: the pencil packed in one array, so that both get differentiated."""
    def decompose(call: Callable[..., Any], x: Any) -> Any:
        a, b = call(operator.getitem, x, 0), call(operator.getitem, x, 1)
        return call(sla.eigh, a, b, type=kind, **kwargs)
    return decompose


@pytest.mark.parametrize("kind", [1, 2, 3])
def test_scipy_eigh_generalized_gauge_invariant(kind, dtype, rand, spd, composite):
    x = np.stack([rand((3, 3), dtype), spd((3, 3), dtype)])
    check_both(composite(reconstruction(generalized(kind)), "generalized_reconstruction"), x)
    check_both(composite(modulus_squared(generalized(kind)), "generalized_modulus_squared"), x)


@pytest.mark.parametrize("eigenvalues", [[1.0, 1.0, 3.0], [1.0, 1.0 + 1e-10, 3.0], [2.0, 2.0, 2.0]])
@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_scipy_eigh_generalized_degenerate(eigenvalues, dtype_, composite):
    """A pencil with B-orthonormal eigenvectors V and repeated eigenvalues: A = V^-H L V^-1, B = V^-H V^-1."""
    rng = np.random.default_rng(11)
    V = np.eye(3) + 0.3 * rng.standard_normal((3, 3))
    if np.dtype(dtype_).kind == "c":
        V = V + 0.3j * rng.standard_normal((3, 3))
    W = np.linalg.inv(V)
    a = np.conj(W).T @ np.diag(eigenvalues) @ W
    b = np.conj(W).T @ W
    x = np.stack([(a + np.conj(a).T) / 2, (b + np.conj(b).T) / 2]).astype(dtype_)
    clusters = [[0, 1, 2]] if eigenvalues[0] == eigenvalues[2] else [[0, 1], [2]]
    check_both(composite(cluster_function(generalized(), clusters), "generalized_cluster_function"), x)
    check_both(composite(spectral_sum(generalized(1, eigvals_only=False)), "generalized_spectral_sum"), x)


def test_scipy_eigh_generalized_subset(rand, spd):
    a, b = rand((3, 3)), spd((3, 3))
    test_rrule(sla.eigh, a, b, fkwargs={"subset_by_index": [1, 2], "driver": "gvx"})
    test_frule(sla.eigh, a, b, fkwargs={"subset_by_index": [1, 2], "driver": "gvx"})
    test_rrule(sla.eigvalsh, a, b, fkwargs={"subset_by_index": [0, 1]})


def test_scipy_eigh_generalized_returns_thunks(rand, spd):
    a, b = rand((3, 3)), spd((3, 3))
    _, pullback = rrule(sla.eigh, a, b)
    cotangents = pullback((rand((3,)), rand((3, 3))))
    assert isinstance(cotangents[1], Thunk) and isinstance(cotangents[2], Thunk)


# ---- scipy.linalg.eig_banded ---------------------------------------------------------------------------------
def band(rand: Callable[..., np.ndarray], shape: tuple[int, ...], dtype: Any, lower: bool) -> np.ndarray:
    """LAPACK band storage of a Hermitian matrix with well separated eigenvalues (junk in the unused corner)."""
    ab = rand(shape, dtype)
    row = 0 if lower else -1  # the diagonal's row
    ab[..., row, :] = np.real(ab[..., row, :]) + 3 * np.arange(shape[-1])
    return ab


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("shape", [(2, 4), (2, 2, 4), (3, 4)], ids=["tridiagonal", "stacked", "pentadiagonal"])
def test_eig_banded(lower, shape, rand):
    ab = band(rand, shape, np.float64, lower)
    test_rrule(sla.eig_banded, ab, lower)
    test_frule(sla.eig_banded, ab, lower)
    test_rrule(sla.eig_banded, ab, fkwargs={"lower": lower, "eigvals_only": True})
    test_frule(sla.eig_banded, ab, lower, True)


def test_eig_banded_gauge_invariant(dtype, rand, composite):
    ab = band(rand, (2, 4), dtype, False)
    decompose = lambda call, x: call(sla.eig_banded, x)  # noqa: E731
    check_both(composite(reconstruction(decompose), "eig_banded_reconstruction"), ab)
    test_rrule(sla.eig_banded, ab, fkwargs={"eigvals_only": True})


@pytest.mark.parametrize("select", [{"select": "i", "select_range": [1, 2]},
                                    {"select": "v", "select_range": [2.0, 20.0]}], ids=["index", "value"])
def test_eig_banded_select(select, rand):
    ab = band(rand, (2, 4), np.float64, False)
    test_rrule(sla.eig_banded, ab, fkwargs=select)
    test_frule(sla.eig_banded, ab, fkwargs=select)
    test_rrule(sla.eig_banded, ab, fkwargs={**select, "eigvals_only": True})


# ---- scipy.linalg.eigh_tridiagonal ----------------------------------------------------------------------------
@pytest.mark.parametrize("batch", [(), (2,)])
def test_eigh_tridiagonal(batch, rand):
    d, e = rand(batch + (4,)) + 2 * np.arange(4), rand(batch + (3,))
    test_rrule(sla.eigh_tridiagonal, d, e)
    test_frule(sla.eigh_tridiagonal, d, e)
    test_rrule(sla.eigh_tridiagonal, d, e, True)
    test_frule(sla.eigh_tridiagonal, d, e, fkwargs={"eigvals_only": True})
    test_frule(sla.eigh_tridiagonal, d, PrimalAndTangent(e, ZeroTangent()))


def test_eigh_tridiagonal_float32_and_select(rand, composite):
    d, e = (rand((4,)) + 2 * np.arange(4)).astype(np.float32), rand((3,)).astype(np.float32)
    test_rrule(sla.eigh_tridiagonal, d, e, fkwargs={"eigvals_only": True})
    for select in ({"select": "i", "select_range": [0, 1]}, {"select": "v", "select_range": [1.0, 10.0]}):
        test_rrule(sla.eigh_tridiagonal, d.astype(np.float64), e.astype(np.float64), fkwargs=select)
        test_frule(sla.eigh_tridiagonal, d.astype(np.float64), e.astype(np.float64), fkwargs=select)


# ---- cotangent kinds and errors ----------------------------------------------------------------------------
def test_eigh_cotangent_kinds(rand):
    a = rand((3, 3))
    y, pullback = rrule(np.linalg.eigh, a)
    w_bar, V_bar = rand((3,)), rand((3, 3))
    full = pullback((w_bar, V_bar))[1]
    as_tangent = pullback(Tangent(type(y), eigenvalues=w_bar, eigenvectors=Thunk(lambda: V_bar)))[1]
    np.testing.assert_allclose(as_tangent, full)
    only_w = pullback(Tangent(type(y), eigenvalues=w_bar))[1]
    np.testing.assert_allclose(only_w, pullback((w_bar, ZeroTangent()))[1])
    assert isinstance(pullback(ZeroTangent())[1], ZeroTangent)
    missing = chainrules.not_implemented("test")
    assert isinstance(pullback((w_bar, missing))[1], NotImplementedTangent)


def test_eigh_wrong_cotangents(rand):
    a = rand((3, 3))
    _, pullback = rrule(np.linalg.eigh, a)
    with pytest.raises(ProjectionError, match=r"eigh pullback: cotangent of output 1 has shape \(2, 2\), expected "
                                              r"shape \(3, 3\)"):
        pullback((rand((3,)), rand((2, 2))))
    with pytest.raises(ProjectionError, match="eigh pullback: output cotangent has 3 parts, expected 2"):
        pullback((rand((3,)), rand((3, 3)), rand((3,))))
    with pytest.raises(ProjectionError, match="eigh pullback: output cotangent is a ndarray"):
        pullback(rand((3,)))
    with pytest.raises(ProjectionError, match="eigh pullback: cotangent of output 0 is a NoneType"):
        pullback((None, rand((3, 3))))
    _, pullback = rrule(sla.eigh, a, eigvals_only=True)
    with pytest.raises(ProjectionError, match=r"scipy.linalg.eigh pullback"):
        pullback(rand((4,)))


def test_eigh_primal_errors_pass_through(rand):
    with pytest.raises(np.linalg.LinAlgError):
        rrule(np.linalg.eigh, rand((2, 3)))
    with pytest.raises(ValueError, match="UPLO"):
        rrule(np.linalg.eigh, rand((3, 3)), "X")
    with pytest.raises(np.linalg.LinAlgError):
        rrule(sla.eigh, rand((3, 3)), -np.eye(3))  # b not positive definite


# ---- the testers' gauge_invariant=: complex eigenvectors checked directly ---------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
def test_eigh_complex_through_the_eigenprojectors(shape, rand):
    """Complex eigenvectors have a free phase each: the testers compare ``(w, v_k v_k^H)`` and feed the
    pullback the cotangents a phase-invariant loss produces (``gauge_invariant=``)."""
    g = rand(shape, np.complex128)
    a = g + np.conj(np.swapaxes(g, -1, -2)) + np.diag([0.0, 3.0, 6.0])
    test_rrule(np.linalg.eigh, a, gauge_invariant=eigenprojectors)
    test_frule(np.linalg.eigh, a, gauge_invariant=eigenprojectors)
    test_rrule(sla.eigh, a[..., :, :] if len(shape) == 2 else a[0], fkwargs={"driver": "evr"},
               gauge_invariant=eigenprojectors)


def test_eigh_complex_eigenvectors_themselves_are_not_a_function():
    """Without the gauge-invariant view the check fails: LAPACK's phases move otherwise than the rule's gauge
    (``Im(v_k^H dv_k) = 0``), and neither is the derivative of a function of the matrix (the reason
    ``gauge_invariant=`` exists)."""
    a = with_spectrum([-1.0, 0.5, 2.0], np.complex128)
    with pytest.raises(AssertionError):
        test_rrule(np.linalg.eigh, a, output_tangent=(np.zeros(3), np.ones((3, 3)) + 1j))


def test_scipy_eigh_generalized_complex_through_the_eigenprojectors(rand, spd):
    a = with_spectrum([-1.0, 0.5, 2.0], np.complex128)
    test_rrule(sla.eigh, a, spd((3, 3), np.complex128), fkwargs={"type": 2}, gauge_invariant=eigenprojectors)
    test_frule(sla.eigh, a, spd((3, 3), np.complex128), gauge_invariant=eigenprojectors)
