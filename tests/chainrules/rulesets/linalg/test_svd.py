"""Rules of chainrules/rulesets/linalg/svd.py, checked against finite differences.

Singular vectors are defined up to a common sign (real) or phase (complex) per pair, up to a
common rotation inside a repeated singular value's subspaces, and (for a zero singular
value, and for ``full_matrices=True``'s extra columns) up to separate rotations. Raw outputs
are checked where LAPACK's choice is locally smooth (float64, distinct nonzero singular
values, thin factors); everything else through gauge-invariant losses, composite functions
of the SVD's outputs whose rules chain the rules of each step (``composite`` fixture): the
projectors onto singular subspaces, ``U diag(f(s)) V^H``, ``|U|^2``, functions of ``s``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules
from chainrules import ProjectionError, Tangent, ZeroTangent, frule, rrule
from chainrules.rulesets.linalg._samples import singular_projectors
from chainrules.structured import Diagonal, UpperTriangular
from chainrules.testing import test_frule, test_rrule

SHAPES = [(3, 3), (4, 2), (2, 4), (2, 3, 2)]


def with_singular_values(s: list[float], shape: tuple[int, int], dtype: Any, seed: int = 5) -> np.ndarray:
    """``U diag(s) V^H`` of shape ``shape`` for random ``U``, ``V`` with orthonormal columns."""
    rng = np.random.default_rng(seed)
    m, n = shape

    def orthonormal(rows: int) -> np.ndarray:
        z = rng.standard_normal((rows, rows))
        if np.dtype(dtype).kind == "c":
            z = z + 1j * rng.standard_normal((rows, rows))
        return np.linalg.qr(z)[0][:, : len(s)]

    return ((orthonormal(m) * np.asarray(s)) @ np.conj(orthonormal(n)).T).astype(dtype)


# ---- composite, gauge-invariant losses of an SVD ---------------------------------------------------------------
def _mH(call: Callable[..., Any], x: Any) -> Any:
    return call(np.conj, call(np.swapaxes, x, -1, -2))


def numpy_svd(**kwargs: Any) -> Callable[..., Any]:
    def decompose(call: Callable[..., Any], a: Any) -> Any:
        return call(np.linalg.svd, a, **kwargs)
    return decompose


def scipy_svd(**kwargs: Any) -> Callable[..., Any]:
    def decompose(call: Callable[..., Any], a: Any) -> Any:
        return call(sla.svd, a, **kwargs)
    return decompose


def reconstruction(decompose: Callable[..., Any]) -> Callable[..., Any]:
    """``U_k diag(sin(s)) V_k^H`` (thin parts): invariant under each pair's common sign or phase."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        U, s, Vh = decompose(call, a)
        k = a.shape[-1] if a.shape[-1] < a.shape[-2] else a.shape[-2]
        Uk, Vhk = call(np.take, U, list(range(k)), axis=-1), call(np.take, Vh, list(range(k)), axis=-2)
        scale = call(operator.getitem, call(np.sin, s), (Ellipsis, None, slice(None)))
        return call(np.matmul, call(np.multiply, Uk, scale), Vhk)
    return program


def moduli(decompose: Callable[..., Any], side: str = "U") -> Callable[..., Any]:
    """``|U_k|^2`` (or ``|V_k|^2``): the squared moduli of a thin factor's entries."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        U, _, Vh = decompose(call, a)
        k = a.shape[-1] if a.shape[-1] < a.shape[-2] else a.shape[-2]
        columns = list(range(k))
        factor = call(np.take, U, columns, axis=-1) if side == "U" else call(np.take, Vh, columns, axis=-2)
        return call(np.square, call(np.abs, factor))
    return program


def right_moduli(decompose: Callable[..., Any]) -> Callable[..., Any]:
    return moduli(decompose, "Vh")


def values_function(decompose: Callable[..., Any]) -> Callable[..., Any]:
    """``sum(cos(s))``: a symmetric, even function of the singular values (smooth at s = 0)."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        _, s, _ = decompose(call, a)
        return call(np.sum, call(np.cos, s), axis=-1)
    return program


def left_projector(decompose: Callable[..., Any], idx: list[int]) -> Callable[..., Any]:
    """``U_c U_c^H`` for the columns ``idx`` of ``U``."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        U, _, _ = decompose(call, a)
        Uc = call(np.take, U, idx, axis=-1)
        return call(np.matmul, Uc, _mH(call, Uc))
    return program


def right_projector(decompose: Callable[..., Any], idx: list[int]) -> Callable[..., Any]:
    """``V_c V_c^H`` for the rows ``idx`` of ``V^H``."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        _, _, Vh = decompose(call, a)
        Vhc = call(np.take, Vh, idx, axis=-2)
        return call(np.matmul, _mH(call, Vhc), Vhc)
    return program


def cluster_product(decompose: Callable[..., Any], clusters: list[list[int]]) -> Callable[..., Any]:
    """``sum_c exp(mean(s_c)) U_c V_c^H`` over clusters of (nearly) equal nonzero singular values."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        U, s, Vh = decompose(call, a)
        total = None
        for idx in clusters:
            mean = call(np.mean, call(np.take, s, idx, axis=-1), axis=-1, keepdims=True)
            weight = call(operator.getitem, call(np.exp, mean), (Ellipsis, None))
            term = call(np.matmul, call(np.take, U, idx, axis=-1), call(np.take, Vh, idx, axis=-2))
            term = call(np.multiply, weight, term)
            total = term if total is None else call(np.add, total, term)
        return total
    return program


def check_both(f: Callable[[Any], Any], a: Any, **kwargs: Any) -> None:
    test_rrule(f, a, **kwargs)
    test_frule(f, a, **kwargs)


# ---- np.linalg.svd, scipy.linalg.svd: raw outputs -------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("args", "kwargs"), [((False,), {}), ((), {"full_matrices": False})],
                         ids=["positional", "keyword"])
def test_svd_thin(shape, args, kwargs, rand):
    a = rand(shape)
    test_rrule(np.linalg.svd, a, *args, fkwargs=kwargs)
    test_frule(np.linalg.svd, a, *args, fkwargs=kwargs)


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3)])
def test_svd_full_square(shape, rand):
    a = rand(shape)
    test_rrule(np.linalg.svd, a)
    test_frule(np.linalg.svd, a, True)
    test_rrule(sla.svd, a)


@pytest.mark.parametrize("shape", [(4, 2), (2, 4), (3, 3)])
@pytest.mark.parametrize("driver", ["gesdd", "gesvd"])
def test_scipy_svd(shape, driver, rand):
    a = rand(shape)
    test_rrule(sla.svd, a, False, fkwargs={"lapack_driver": driver})
    test_frule(sla.svd, a, fkwargs={"full_matrices": False, "lapack_driver": driver})


@pytest.mark.parametrize("shape", SHAPES)
def test_singular_values(shape, dtype, rand):
    a = rand(shape, dtype)
    for f, args, kwargs in [(np.linalg.svd, (), {"compute_uv": False}), (np.linalg.svd, (True, False), {}),
                            (np.linalg.svdvals, (), {}), (sla.svdvals, (), {}),
                            (sla.svd, (), {"compute_uv": False})]:
        test_rrule(f, a, *args, fkwargs=kwargs)
        test_frule(f, a, *args, fkwargs=kwargs)


# ---- gauge-invariant losses: complex, float32, full_matrices=True, SciPy's drivers ----------------------------
DECOMPOSITIONS = {
    "thin": numpy_svd(full_matrices=False),
    "full": numpy_svd(),
    "scipy-gesdd": scipy_svd(),
    "scipy-gesvd": scipy_svd(full_matrices=False, lapack_driver="gesvd"),
}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("which", list(DECOMPOSITIONS))
def test_svd_gauge_invariant(shape, which, dtype, rand, composite):
    a = rand(shape, dtype)
    decompose = DECOMPOSITIONS[which]
    for program in (reconstruction, moduli, right_moduli):
        check_both(composite(program(decompose), f"svd_{program.__name__}"), a)


@pytest.mark.parametrize("shape", [(4, 2), (2, 4), (2, 4, 3)])
def test_svd_full_matrices_complement(shape, dtype, rand, composite):
    """``U_perp U_perp^H`` and ``V_perp V_perp^H``: the extra columns count through their span."""
    a = rand(shape, dtype)
    m, n = shape[-2:]
    k = min(m, n)
    decompose = numpy_svd(full_matrices=True)
    if m > k:
        check_both(composite(left_projector(decompose, list(range(k, m))), "svd_left_complement"), a)
    if n > k:
        check_both(composite(right_projector(decompose, list(range(k, n))), "svd_right_complement"), a)
    check_both(composite(left_projector(scipy_svd(), list(range(k))), "scipy_svd_left_range"), a)


# ---- hermitian=True ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3)])
@pytest.mark.parametrize(("args", "kwargs"), [((True, True, True), {}), ((), {"hermitian": True})],
                         ids=["positional", "keyword"])
def test_svd_hermitian(shape, args, kwargs, rand):
    a = rand(shape)  # only the lower triangle is read
    test_rrule(np.linalg.svd, a, *args, fkwargs=kwargs)
    test_frule(np.linalg.svd, a, *args, fkwargs=kwargs)
    test_rrule(np.linalg.svd, a, fkwargs={"hermitian": True, "compute_uv": False})
    test_frule(np.linalg.svd, a, False, False, True)


def test_svd_hermitian_gauge_invariant(dtype, rand, composite):
    a = rand((3, 3), dtype)
    decompose = numpy_svd(hermitian=True)
    for program in (reconstruction, moduli, right_moduli):
        check_both(composite(program(decompose), f"svd_hermitian_{program.__name__}"), a)
    test_rrule(np.linalg.svd, a, fkwargs={"hermitian": True, "compute_uv": False})


def test_svd_structured(rand):
    u = UpperTriangular(rand((3, 3)) + 3 * np.eye(3))
    test_rrule(np.linalg.svd, u, False)
    test_frule(np.linalg.svdvals, u)
    d = Diagonal(np.array([3.0, -1.0, 2.0]))
    test_rrule(np.linalg.svdvals, d)
    test_rrule(sla.svdvals, d)
    assert isinstance(rrule(np.linalg.svdvals, d)[1](np.ones(3))[1], Diagonal)


# ---- degenerate, zero and near-degenerate singular values -----------------------------------------------------
# name: (singular values, shape, clusters of equal nonzero values, clusters of zeros)
DEGENERATE = {
    "double": ([2.0, 2.0, 1.0], (3, 3), [[0, 1], [2]], []),
    "triple": ([1.5, 1.5, 1.5], (3, 3), [[0, 1, 2]], []),
    "double-tall": ([2.0, 2.0, 1.0], (4, 3), [[0, 1], [2]], []),
    "double-wide": ([1.0, 1.0, 0.5], (3, 4), [[0, 1], [2]], []),
    "rank-2": ([3.0, 1.0, 0.0], (3, 3), [[0], [1]], [[2]]),
    "rank-1-tall": ([3.0, 0.0, 0.0], (4, 3), [[0]], [[1, 2]]),
    "rank-1-wide": ([3.0, 0.0], (2, 4), [[0]], [[1]]),
    "zero": ([0.0, 0.0], (2, 3), [], [[0, 1]]),
    "near-double": ([2.0, 2.0 + 1e-10, 1.0], (3, 3), [[0, 1], [2]], []),
    "near-double-tall": ([1.0, 1.0 - 1e-10, 0.3], (4, 3), [[0, 1], [2]], []),
    "near-zero": ([3.0, 1.0, 1e-10], (3, 3), [[0], [1]], [[2]]),
    "near-zero-wide": ([3.0, 1e-10], (2, 3), [[0]], [[1]]),
}


def degenerate_case(name: str, dtype: Any) -> tuple[np.ndarray, list[list[int]], list[list[int]]]:
    s, shape, clusters, zeros = DEGENERATE[name]
    if name == "zero":
        return np.zeros(shape, dtype=dtype), clusters, zeros
    return with_singular_values(s, shape, dtype), clusters, zeros


@pytest.mark.parametrize("name", list(DEGENERATE))
@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_svd_degenerate_gauge_invariant_losses(name, dtype_, composite):
    a, clusters, zeros = degenerate_case(name, dtype_)
    m, n = a.shape
    k = min(m, n)
    thin, full = numpy_svd(full_matrices=False), numpy_svd(full_matrices=True)
    check_both(composite(values_function(thin), "svd_values_function"), a)
    if clusters:
        check_both(composite(cluster_product(thin, clusters), "svd_cluster_product"), a)
    for idx in clusters:
        if len(idx) < k:
            check_both(composite(left_projector(thin, idx), "svd_cluster_left_projector"), a)
            check_both(composite(right_projector(scipy_svd(full_matrices=False), idx), "svd_cluster_right_projector"),
                       a)
    for idx in zeros:  # the null spaces: on the short side with the thin factors, else with the complement
        left = idx + list(range(k, m))
        right = idx + list(range(k, n))
        check_both(composite(left_projector(full, left), "svd_left_null_space"), a)
        check_both(composite(right_projector(full, right), "svd_right_null_space"), a)
        if m == k:
            check_both(composite(left_projector(thin, idx), "svd_left_null_space_thin"), a)


@pytest.mark.parametrize("name", ["double", "rank-2", "near-double", "zero"])
def test_svd_degenerate_float32(name, composite):
    a, clusters, _zeros = degenerate_case(name, np.float32)
    check_both(composite(values_function(numpy_svd(full_matrices=False)), "svd_values_function"), a)
    if clusters:
        check_both(composite(cluster_product(numpy_svd(full_matrices=False), clusters), "svd_cluster_product"), a)


@pytest.mark.parametrize("name", list(DEGENERATE))
@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_svd_degenerate_cotangents_are_finite_and_gauge_blind(name, dtype_):
    a, clusters, zeros = degenerate_case(name, dtype_)
    rng = np.random.default_rng(2)

    def rand(*shape: int) -> np.ndarray:
        x = rng.standard_normal(shape)
        return x + 1j * rng.standard_normal(shape) if np.dtype(dtype_).kind == "c" else x

    for full_matrices in (False, True):
        (U, s, Vh), pullback = rrule(np.linalg.svd, a, full_matrices)
        U_bar, s_bar, Vh_bar = rand(*U.shape), rng.standard_normal(s.shape), rand(*Vh.shape)
        da = pullback((U_bar, s_bar, Vh_bar))[1]
        assert np.all(np.isfinite(da))
        # in a cluster of equal nonzero values, a common rotation of U_c and V_c is gauge ...
        dU, dVh = np.zeros_like(U_bar), np.zeros_like(Vh_bar)
        for idx in clusters:
            X = rand(len(idx), len(idx))
            dU[:, idx] += U[:, idx] @ X
            dVh[idx, :] += np.conj(X).T @ Vh[idx, :]
        # ... and in a cluster of zeros, separate rotations are
        for idx in zeros:
            dU[:, idx] += U[:, idx] @ rand(len(idx), len(idx))
            dVh[idx, :] += rand(len(idx), len(idx)) @ Vh[idx, :]
        np.testing.assert_allclose(pullback((U_bar + dU, s_bar, Vh_bar + dVh))[1], da, atol=1e-10)
        _, dy = frule((chainrules.NoTangent(), rand(*a.shape), chainrules.NoTangent()), np.linalg.svd, a, full_matrices)
        assert all(np.all(np.isfinite(part)) for part in dy)


# ---- cotangent kinds and errors ----------------------------------------------------------------------------
def test_svd_cotangent_kinds(rand):
    a = rand((4, 3))
    y, pullback = rrule(np.linalg.svd, a, False)
    parts = (rand((4, 3)), rand((3,)), rand((3, 3)))
    full = pullback(parts)[1]
    np.testing.assert_allclose(pullback(Tangent(type(y), U=parts[0], S=parts[1], Vh=parts[2]))[1], full)
    only_s = pullback(Tangent(type(y), S=parts[1]))[1]
    np.testing.assert_allclose(only_s, pullback((ZeroTangent(), parts[1], ZeroTangent()))[1])
    assert isinstance(pullback(ZeroTangent())[1], ZeroTangent)


def test_svd_wrong_cotangents(rand):
    a = rand((4, 3))
    _, pullback = rrule(np.linalg.svd, a, False)
    with pytest.raises(ProjectionError, match=r"numpy.linalg.svd pullback: cotangent of output 0 has shape \(4, 4\), "
                                              r"expected shape \(4, 3\)"):
        pullback((rand((4, 4)), rand((3,)), rand((3, 3))))
    _, pullback = rrule(sla.svdvals, a)
    with pytest.raises(ProjectionError, match=r"scipy.linalg.svdvals pullback"):
        pullback(rand((4,)))


def test_svd_primal_errors_pass_through(rand):
    with pytest.raises(np.linalg.LinAlgError):
        rrule(np.linalg.svd, np.full((2, 2), np.nan))
    with pytest.raises(ValueError):
        rrule(sla.svd, np.full((2, 2), np.inf))


# ---- the testers' gauge_invariant=: complex singular vectors checked directly -------------------------------------
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3)])
def test_svd_complex_through_the_singular_projectors(shape, rand):
    """Each pair ``(u_k, v_k)`` has a free common phase: the testers compare ``(s, u_k v_k^H)``."""
    a = rand(shape, np.complex128)
    test_rrule(np.linalg.svd, a, False, gauge_invariant=singular_projectors)
    test_frule(np.linalg.svd, a, False, gauge_invariant=singular_projectors)
    test_rrule(sla.svd, a, False, gauge_invariant=singular_projectors)
