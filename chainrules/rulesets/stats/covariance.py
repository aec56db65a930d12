"""``scipy.stats.Covariance`` objects: their factories and their cotangents as arguments of ``multivariate_normal``.

SciPy's ``multivariate_normal`` accepts, for ``cov``, a ``Covariance`` object built by
``Covariance.from_diagonal(d)``, ``.from_cholesky(L)``, ``.from_precision(P)`` or
``.from_eigendecomposition((w, V))``; its methods only use the object's whitening map
``Z = R W`` and its ``log_pdet``. The tangent of such an object is the structural tangent
of the arrays it was built from::

    Tangent(CovViaDiagonal, diagonal=dd)          Tangent(CovViaCholesky, cholesky=dL)
    Tangent(CovViaPrecision, precision=dP)        Tangent(CovViaEigendecomposition, eigenvalues=dw, eigenvectors=dV)

and the rules of the four factories pass it to their arguments (the factories' own
``covariance=`` of ``from_precision`` is only read by ``.covariance``, never by the
densities). The cotangents are the **exact derivatives of what SciPy computes** from those
arrays (as the ``cholesky``/``eigh`` rules of this library do), which differs from
``multivariate_normal``'s symmetric convention for a plain array ``cov`` only where SciPy
reads part of an array:

The maths
---------
For ``sum_k a_k m_k + b log pdet`` (``m_k = |r_k W|^2``; the density's rules supply ``a`` and ``b``):

* diagonal ``d`` (``W = diag(d^-1/2)``, ``log pdet = sum log d`` over ``d > 0``):
  ``d_bar_i = -sum_k a_k r_ki^2 / d_i^2 + b / d_i``; entries ``d_i <= 0`` (a singular
  covariance) get 0: they are constant where the density is finite;
* Cholesky factor ``L`` (``W = L^-T``, read from the lower triangle; ``log pdet = 2 sum log L_ii``):
  ``L_bar = tril(-2 L^-T (Z^T diag(a) Z)) + 2 b diag(1/L_ii)`` (``dm_k = -2 z_k L^-1 dL z_k^T``);
* precision ``P`` (``W = chol(P)``, so ``m_k = r_k^T P r_k`` with ``P`` read from its lower
  triangle; ``log pdet = -log|P|``): with ``G = sum_k a_k r_k r_k^T - b P^-1`` the cotangent is
  ``G`` folded onto the lower triangle (``2 G_ij`` below the diagonal, ``G_ii`` on it);
* eigendecomposition ``(w, V)`` (``W = V diag(w^-1/2)``, ``log pdet = sum log w`` over ``w > 0``;
  SciPy does not check that ``V`` is orthogonal, and the derivative is that of its formula
  ``m_k = sum_j (V^T r_k)_j^2 / w_j`` for any ``V``): with ``Y = R V``,
  ``w_bar_j = -sum_k a_k Y_kj^2 / w_j^2 + b / w_j``, ``V_bar = 2 R^T diag(a) Y diag(1/w)``
  (zero eigenvalues: 0).

A ``Covariance`` built inside a frozen ``multivariate_normal(mean, cov)`` from a plain array
(SciPy's internal ``CovViaPSD``) has the tangent ``Tangent(CovViaPSD, covariance=dS)``,
``dS`` a symmetric matrix (the convention of :mod:`chainrules.rulesets.stats.multivariate_normal`).

Examples
--------
>>> import numpy as np
>>> from scipy.stats import Covariance, multivariate_normal
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> cov, factory_pullback = rrule(Covariance.from_diagonal, np.array([1.0, 4.0]))
>>> y, pullback = rrule(multivariate_normal.logpdf, np.array([2.0, 1.0]), np.zeros(2), cov)
>>> dcov = unthunk(pullback(1.0)[4])
>>> dcov
Tangent(CovViaDiagonal, diagonal=array([ 1.5    , -0.09375]))
>>> factory_pullback(dcov)[1]  # (r_i^2 / d_i - 1) / (2 d_i)
array([ 1.5    , -0.09375])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg
from scipy.stats import Covariance
from scipy.stats._covariance import CovViaCholesky, CovViaDiagonal, CovViaEigendecomposition, CovViaPrecision, CovViaPSD
from scipy.stats._multivariate import _PSD

from chainrules.rulesets.stats._psd import ArrayCovariance, symmetric
from chainrules.rulesets.stats._slices import NO
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    Sample,
    Tangent,
    Varargs,
    ZeroTangent,
    backing,
    cotangent_projector,
    differentiable,
    frule,
    rrule,
    sample_inputs,
    unthunk,
)
from chainrules_core.projection import StructuralProjector
from chainrules_core.rules import _callable_name

__all__ = ["FIELDS", "covariance_parameter", "is_covariance", "read_covariance_tangent", "register_for_testing"]

FIELDS: dict[type, tuple[str, ...]] = {
    CovViaDiagonal: ("diagonal",),
    CovViaCholesky: ("cholesky",),
    CovViaPrecision: ("precision",),
    CovViaEigendecomposition: ("eigenvalues", "eigenvectors"),
    CovViaPSD: ("covariance",),
}
"""The fields of the tangent of each ``Covariance`` class: the arrays it is built from."""

_UNKNOWN = ("a Covariance class other than SciPy's five (diagonal, Cholesky, precision, eigendecomposition, PSD) "
            "has no rule: build it with one of Covariance's factories")


def is_covariance(x: Any) -> bool:
    """Whether ``x`` is a ``scipy.stats.Covariance`` object."""
    return isinstance(x, Covariance)


def _values(cov: Any) -> dict[str, np.ndarray]:
    """The arrays a ``Covariance`` object was built from (float64)."""
    if isinstance(cov, CovViaDiagonal):
        return {"diagonal": np.diagonal(cov._covariance).astype(np.float64)}
    if isinstance(cov, CovViaCholesky):
        return {"cholesky": np.asarray(cov._factor, dtype=np.float64)}
    if isinstance(cov, CovViaPrecision):
        return {"precision": np.asarray(cov._precision, dtype=np.float64)}
    if isinstance(cov, CovViaEigendecomposition):
        return {"eigenvalues": np.asarray(cov._w, dtype=np.float64),
                "eigenvectors": np.asarray(cov._v, dtype=np.float64)}
    if isinstance(cov, CovViaPSD):
        return {"covariance": np.asarray(cov._covariance, dtype=np.float64)}
    raise TypeError(type(cov).__name__)


def read_covariance_tangent(d: Any, cov: Any, f: Any = "scipy.stats.Covariance", what: str = "tangent",
                            ) -> dict[str, Any]:
    """The fields of a (co)tangent of ``cov`` (``None`` for a zero field), from a ``Tangent`` or a zero.

    Raises ``ProjectionError`` naming ``f`` for anything else.
    """
    d = unthunk(d)
    names = FIELDS[type(cov)]
    if isinstance(d, AbstractZero):
        return dict.fromkeys(names)
    if isinstance(d, NotImplementedTangent):
        return dict.fromkeys(names, d)
    if not isinstance(d, Tangent) or not isinstance(backing(d), dict):
        raise ProjectionError(f"{_callable_name(f) if not isinstance(f, str) else f} pullback: {what} of a "
                              f"{type(cov).__name__} is a {type(d).__name__}, expected a Tangent({type(cov).__name__}, "
                              f"{', '.join(n + '=...' for n in names)}) or a zero")
    stored = backing(d)
    out = {}
    for name in names:
        value = unthunk(stored.get(name, ZeroTangent()))
        out[name] = None if isinstance(value, AbstractZero) else value
    return out


def _tangent(cov: Any, **fields: Any) -> Tangent:
    return Tangent(type(cov), **fields)


class _ObjectCovariance:
    """The parameter protocol of :class:`~chainrules.rulesets.stats._psd.QuadraticForm` for a ``Covariance``."""

    W: np.ndarray
    log_pdet: float

    def __init__(self, cov: Any) -> None:
        self.cov = cov
        self.values = _values(cov)

    @property
    def pinv(self) -> np.ndarray:
        return self.W @ self.W.T

    def in_support(self, deviations: np.ndarray) -> np.ndarray | None:
        if int(self.cov.rank) == self.W.shape[0]:
            return None
        return np.asarray(self.cov._support_mask(deviations), dtype=bool)


class _Diagonal(_ObjectCovariance):
    def __init__(self, cov: Any) -> None:
        super().__init__(cov)
        d = self.values["diagonal"]
        self.positive = d > 0
        self.d = np.where(self.positive, d, 1.0)
        self.W = np.diag(np.where(self.positive, 1.0 / np.sqrt(self.d), 0.0))

    def cotangent(self, deviations: np.ndarray, z: np.ndarray, a: np.ndarray, b: float) -> Any:
        g = -(a @ (deviations * deviations)) / self.d ** 2 + b / self.d
        return _tangent(self.cov, diagonal=np.where(self.positive, g, 0.0))

    def tangent(self, deviations: np.ndarray, z: np.ndarray, d: Any) -> tuple[np.ndarray, float]:
        dd = read_covariance_tangent(d, self.cov)["diagonal"]
        if dd is None:
            return np.zeros(deviations.shape[0]), 0.0
        dd = np.where(self.positive, np.asarray(dd, dtype=np.float64), 0.0)
        return -(deviations * deviations) @ (dd / self.d ** 2), float(np.sum(dd / self.d))


class _Cholesky(_ObjectCovariance):
    def __init__(self, cov: Any) -> None:
        super().__init__(cov)
        self.L = np.tril(self.values["cholesky"])
        self.L_inv = scipy.linalg.solve_triangular(self.L, np.eye(self.L.shape[0]), lower=True)
        self.W = self.L_inv.T

    def cotangent(self, deviations: np.ndarray, z: np.ndarray, a: np.ndarray, b: float) -> Any:
        g = np.tril(-2.0 * self.L_inv.T @ ((z.T * a) @ z))
        g[np.diag_indices_from(g)] += 2.0 * b / np.diagonal(self.L)
        return _tangent(self.cov, cholesky=g)

    def tangent(self, deviations: np.ndarray, z: np.ndarray, d: Any) -> tuple[np.ndarray, float]:
        dl = read_covariance_tangent(d, self.cov)["cholesky"]
        if dl is None:
            return np.zeros(deviations.shape[0]), 0.0
        dl = np.tril(np.asarray(dl, dtype=np.float64))
        m = self.L_inv @ dl
        return -2.0 * np.einsum("ij,ij->i", z @ m.T, z), float(2.0 * np.sum(np.diagonal(dl) / np.diagonal(self.L)))


def _fold_lower(g: np.ndarray) -> np.ndarray:
    """A symmetric ``g`` folded onto the lower triangle: ``2 g_ij`` below the diagonal, ``g_ii`` on it."""
    return np.tril(2.0 * g) - np.diag(np.diagonal(g))


def _from_lower(p: np.ndarray) -> np.ndarray:
    """The symmetric matrix read from the lower triangle of ``p``."""
    return np.tril(p) + np.tril(p, -1).T


class _Precision(_ObjectCovariance):
    def __init__(self, cov: Any) -> None:
        super().__init__(cov)
        self.P = _from_lower(self.values["precision"])
        self.W = np.asarray(cov._chol_P, dtype=np.float64)
        self.P_inv = scipy.linalg.cho_solve((self.W, True), np.eye(self.W.shape[0]))

    @property
    def pinv(self) -> np.ndarray:
        return self.P_inv

    def cotangent(self, deviations: np.ndarray, z: np.ndarray, a: np.ndarray, b: float) -> Any:
        g = (deviations.T * a) @ deviations - b * self.P_inv
        return _tangent(self.cov, precision=_fold_lower(g))

    def tangent(self, deviations: np.ndarray, z: np.ndarray, d: Any) -> tuple[np.ndarray, float]:
        dp = read_covariance_tangent(d, self.cov)["precision"]
        if dp is None:
            return np.zeros(deviations.shape[0]), 0.0
        ds = _from_lower(np.asarray(dp, dtype=np.float64))
        return np.einsum("ij,ij->i", deviations @ ds, deviations), float(-np.sum(self.P_inv * ds))


class _Eigendecomposition(_ObjectCovariance):
    def __init__(self, cov: Any) -> None:
        super().__init__(cov)
        w = self.values["eigenvalues"]
        self.V = self.values["eigenvectors"]
        self.positive = w > 0
        self.w = np.where(self.positive, w, 1.0)
        self.W = self.V * np.where(self.positive, 1.0 / np.sqrt(self.w), 0.0)

    def cotangent(self, deviations: np.ndarray, z: np.ndarray, a: np.ndarray, b: float) -> Any:
        y = deviations @ self.V
        dw = np.where(self.positive, -(a @ (y * y)) / self.w ** 2 + b / self.w, 0.0)
        dv = 2.0 * (deviations.T * a) @ (y * np.where(self.positive, 1.0 / self.w, 0.0))
        return _tangent(self.cov, eigenvalues=dw, eigenvectors=dv)

    def tangent(self, deviations: np.ndarray, z: np.ndarray, d: Any) -> tuple[np.ndarray, float]:
        fields = read_covariance_tangent(d, self.cov)
        y = deviations @ self.V
        inv = np.where(self.positive, 1.0 / self.w, 0.0)
        dm = np.zeros(deviations.shape[0])
        dlogdet = 0.0
        if fields["eigenvalues"] is not None:
            dw = np.asarray(fields["eigenvalues"], dtype=np.float64)
            dm = dm - (y * y) @ (dw * inv * inv)
            dlogdet = float(np.sum(dw * inv))
        if fields["eigenvectors"] is not None:
            dv = np.asarray(fields["eigenvectors"], dtype=np.float64)
            dm = dm + 2.0 * np.einsum("ij,ij->i", y * inv, deviations @ dv)
        return dm, dlogdet


class _PsdObject(ArrayCovariance):
    """The ``CovViaPSD`` a frozen ``multivariate_normal`` builds from an array: the symmetric convention."""

    def __init__(self, cov: Any) -> None:
        super().__init__(np.asarray(cov._covariance, dtype=np.float64), int(cov.shape[-1]))
        self.cov = cov

    def cotangent(self, deviations: np.ndarray, z: np.ndarray, a: np.ndarray, b: float) -> Any:
        return _tangent(self.cov, covariance=self.symmetric_cotangent(z, a, b))

    def tangent(self, deviations: np.ndarray, z: np.ndarray, d: Any) -> tuple[np.ndarray, float]:
        ds = read_covariance_tangent(d, self.cov)["covariance"]
        if ds is None:
            return np.zeros(deviations.shape[0]), 0.0
        return self.symmetric_tangent(z, symmetric(np.asarray(ds, dtype=np.float64)))


_PARAMETERS: dict[type, Callable[[Any], Any]] = {
    CovViaDiagonal: _Diagonal, CovViaCholesky: _Cholesky, CovViaPrecision: _Precision,
    CovViaEigendecomposition: _Eigendecomposition, CovViaPSD: _PsdObject,
}


def covariance_parameter(value: Any, dim: int) -> Any:
    """The parameter object of a ``cov`` argument: an array (:class:`ArrayCovariance`) or a ``Covariance``."""
    if isinstance(value, Covariance):
        make = _PARAMETERS.get(type(value))
        if make is None:
            raise TypeError(f"scipy.stats.multivariate_normal: {_UNKNOWN}")
        return make(value)
    return ArrayCovariance(value, dim)


# ---- projection ---------------------------------------------------------------------------------------------
def _project_covariance(x: Any) -> Any:
    """The tangent space of a ``Covariance``: the arrays it was built from (``FIELDS``)."""
    values = _values(x)
    return StructuralProjector(type(x), {name: cotangent_projector(values[name]) for name in FIELDS[type(x)]})


for _cls in FIELDS:
    ProjectTo.register(_cls)(_project_covariance)


# ---- the factories --------------------------------------------------------------------------------------------
def _factory_rules(factory: Callable[..., Any], names: tuple[str, ...], packed: bool) -> None:
    """Rules of ``Covariance.from_*``: the object's tangent is that of the arrays given (``packed``: one tuple)."""
    short = factory.__name__

    def factory_rrule(arg: Any, *rest: Any, **kwargs: Any) -> Any:
        cov = factory(arg, *rest, **kwargs)
        parts = tuple(arg) if packed else (arg,)

        def factory_pullback(dcov: Any) -> tuple[Any, ...]:
            fields = read_covariance_tangent(dcov, cov, factory, "output cotangent")
            cotangents: list[Any] = []
            for value, name in zip(parts, names):
                g = fields[name]
                if not differentiable(value):
                    cotangents.append(NO)
                elif g is None or isinstance(g, NotImplementedTangent):
                    cotangents.append(ZeroTangent() if g is None else g)
                else:
                    cotangents.append(cotangent_projector(value)(np.reshape(g, np.shape(value))))
            first = Tangent(tuple, *cotangents) if packed else cotangents[0]
            return (NO, first, *(ZeroTangent() if differentiable(r) else NO for r in rest))

        factory_pullback.__name__ = f"{short}_pullback"
        return cov, factory_pullback

    def factory_frule(tangents: Any, arg: Any, *rest: Any, **kwargs: Any) -> Any:
        cov = factory(arg, *rest, **kwargs)
        darg = unthunk(tangents[1])
        if darg is None or isinstance(darg, AbstractZero):
            return cov, ZeroTangent()
        if isinstance(darg, NotImplementedTangent):
            return cov, darg
        parts = (tuple(backing(darg)) if isinstance(darg, Tangent) else tuple(darg)) if packed else (darg,)
        values = _values(cov)
        fields = {}
        for name, d in zip(names, parts):
            d = unthunk(d)
            fields[name] = (ZeroTangent() if d is None or isinstance(d, AbstractZero)
                            else np.reshape(np.asarray(d, dtype=np.float64), values[name].shape))
        return cov, Tangent(type(cov), **fields)

    factory_rrule.__name__ = f"{short}_rrule"
    factory_frule.__name__ = f"{short}_frule"
    rrule.register(factory, object, Varargs(object))(factory_rrule)
    frule.register(factory, object, Varargs(object))(factory_frule)


_factory_rules(Covariance.from_diagonal, ("diagonal",), False)
_factory_rules(Covariance.from_cholesky, ("cholesky",), False)
_factory_rules(Covariance.from_precision, ("precision",), False)
_factory_rules(Covariance.from_eigendecomposition, ("eigenvalues", "eigenvectors"), True)


# ---- testing ------------------------------------------------------------------------------------------------
def register_for_testing() -> None:
    """Teach the testers' finite differences and random tangents the arrays of the ``Covariance`` classes.

    A ``CovViaPSD`` (from an array) varies in the symmetric matrices (a ``Symmetric`` child).
    Called by the sample generators (the testers are not imported with the rules).
    """
    from chainrules.structured import Symmetric
    from chainrules.testing.tree import register_tree_node

    def make(cls: type) -> None:
        names = FIELDS[cls]

        def flatten(x: Any) -> tuple[list[Any], Any]:
            values = _values(x)
            children = [Symmetric(values[n]) if cls is CovViaPSD else values[n] for n in names]
            return children, (cls, getattr(x, "_allow_singular", False))

        def unflatten(aux: Any, children: list[Any]) -> Any:
            arrays = [np.asarray(c, dtype=np.float64) for c in children]
            if cls is CovViaDiagonal:
                return Covariance.from_diagonal(arrays[0])
            if cls is CovViaCholesky:
                return Covariance.from_cholesky(arrays[0])
            if cls is CovViaPrecision:
                return Covariance.from_precision(arrays[0])
            if cls is CovViaEigendecomposition:
                return Covariance.from_eigendecomposition((arrays[0], arrays[1]))
            return CovViaPSD(_PSD(arrays[0], allow_singular=True))

        def flatten_tangent(dx: Any, aux: Any) -> list[Any]:
            if isinstance(dx, Tangent):
                stored = backing(dx)
                return [stored.get(n, ZeroTangent()) if isinstance(stored, dict) else ZeroTangent() for n in names]
            return [ZeroTangent()] * len(names)

        def unflatten_tangent(aux: Any, children: list[Any]) -> Any:
            return Tangent(cls, **{n: (np.asarray(c) if not isinstance(c, AbstractZero) else c)
                                   for n, c in zip(names, children)})

        register_tree_node(cls, flatten, unflatten, flatten_tangent=flatten_tangent,
                           unflatten_tangent=unflatten_tangent)

    for cls in FIELDS:
        make(cls)


def _spd(rng: np.random.Generator) -> np.ndarray:
    a = rng.standard_normal((3, 3))
    return a @ a.T + 3 * np.eye(3)


@sample_inputs(Covariance.from_diagonal)
def _diagonal_samples(rng: np.random.Generator) -> list[Sample]:
    register_for_testing()
    return [Sample(np.array([1.5, 0.5, 2.0]))]


@sample_inputs(Covariance.from_cholesky)
def _cholesky_samples(rng: np.random.Generator) -> list[Sample]:
    register_for_testing()
    return [Sample(np.linalg.cholesky(_spd(rng)))]


@sample_inputs(Covariance.from_precision)
def _precision_samples(rng: np.random.Generator) -> list[Sample]:
    register_for_testing()
    s = _spd(rng)
    return [Sample(s), Sample(s, np.linalg.inv(s), label="with its covariance (read by .covariance only)")]


@sample_inputs(Covariance.from_eigendecomposition)
def _eigendecomposition_samples(rng: np.random.Generator) -> list[Sample]:
    register_for_testing()
    w, v = np.linalg.eigh(_spd(rng))
    return [Sample((w, v))]
