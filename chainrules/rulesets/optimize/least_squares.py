"""Nonlinear least squares: ``scipy.optimize.least_squares`` and ``scipy.optimize.curve_fit``.

The maths
---------
Both minimise ``phi(p) = e^T W e / 2`` over the parameters ``p``, with the residual
``e = m(p, theta) - y`` of a model ``m`` and a weight ``W`` (``least_squares``: ``m = fun(x, *args)``,
``y = 0``, ``W = I``; ``curve_fit``: ``m = f(xdata, *p)``, ``y = ydata``, and ``W = diag(1 / sigma**2)``
for a vector ``sigma`` or ``W = sigma^{-1}`` for a covariance matrix). The solution is a
stationary point of ``phi``: ``G = J^T W e = 0`` with ``J = dm/dp``, and the implicit function
theorem needs the derivatives of ``G`` (Gould et al. 2016, arXiv:1607.05447; for the normal
equations Golub & Pereyra 1973, SIAM J. Numer. Anal. 10, and Bjorck, *Numerical Methods for
Least Squares Problems*, 1996, sec. 9.1):

* ``H = dG/dp = J^T W J + C``, the Gauss-Newton matrix plus the curvature ``C = sum_i c_i
  d^2 m_i / dp^2`` weighted by ``c = W e`` (exact, not Gauss-Newton: ``C`` vanishes only for
  zero-residual or linear problems);
* the mixed derivatives: through the model's data ``theta`` (``args``, ``xdata``):
  ``(d theta) -> J^T W dm + (dJ)^T c``; through ``y``: ``-J^T W dy``; through ``W``:
  ``J^T dW e``.

Reverse mode solves ``H u = p_bar`` (free parameters only, see bounds below) and returns
``theta_bar = -[(dm/dtheta)^T W J u + d<c, J u>/dtheta]``, ``ydata_bar = W J u``,
``sigma_bar = 2 (J u) e / sigma**3`` (vector ``sigma``) or, for a covariance ``S``,
``S^{-1} (J u) e^T S^{-1}`` folded onto the lower triangle SciPy's Cholesky factorisation
reads. Forward mode solves ``H dp = -(the mixed derivatives along dtheta)``.

Every first derivative of the model is one pullback or pushforward through the config
(``J`` itself is formed by ``n`` pushforwards, or by the user's ``jac``). The curvature
``C u`` and ``d<c, J u>/dtheta`` come

* from the user's ``jac`` (a callable): one pullback of ``jac`` at the cotangent ``c u^T``
  (first derivatives of ``jac``, so a config such as
  :class:`~chainrules_core.RulesOnlyConfig` suffices when ``jac`` has rules);
* otherwise from second derivatives of the model through the config: the map
  ``theta, p -> J^T c`` (one pullback of the model, ``c`` held fixed) differentiated again,
  reverse-over-reverse in the pullback and forward-over-reverse in the frule. A config that
  cannot differentiate twice gets ``not_implemented`` naming the workaround (pass ``jac``).

``H`` is formed (``n`` curvature products) and factored: least-squares problems have few
parameters; past ``DENSE_UP_TO`` of them MINRES on ``H``'s products takes over.

**Bounds** (``trf``, ``dogbox``): a parameter at its bound with ``G`` pushing outwards is held
there (``dp = 0``), the rest solve the reduced system, as in ``minimize``'s rule; a weakly active
bound raises :class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`.

**Outputs.** ``least_squares``: an ``OptimizeResult`` whose ``x``, ``cost`` (``e^T e / 2``:
``dcost = e^T de``) and ``fun`` (the residual ``e``, ``de = J dx + (de/dtheta) dtheta``) are
differentiated; ``jac``, ``grad``, ``optimality`` (functions of the Jacobian at the solution)
and ``active_mask`` are not. ``curve_fit``: ``popt`` and ``pcov`` are differentiated.
``pcov = kappa (J^T W J)^{-1}`` at ``popt``, with ``kappa = e^T W e / (M - n)`` unless
``absolute_sigma`` (then ``1``); its derivative moves with ``popt``, ``xdata``, ``ydata`` and
``sigma``, and needs that of ``J``, taken with the same curvature products (one per
parameter), or from ``jac``. (SciPy computes ``pcov`` from its own Jacobian at ``popt``,
finite differences unless ``jac`` is given; the rule differentiates the exact one.)
``infodict`` (``full_output``) is not differentiated. Only the
``linear`` loss is differentiated (the robust losses reweight the residuals by the solution
itself: ``not_implemented``). A result that did not converge (``status <= 0``) raises;
``curve_fit`` raises itself when it does not converge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import scipy.linalg
import scipy.optimize

from chainrules.rulesets.arrays.higher_order import carries_no_values
from chainrules.rulesets.optimize import _problems
from chainrules.rulesets.optimize._implicit import (
    DENSE_UP_TO,
    ImplicitDerivativeError,
    MissingDerivative,
    args_cotangent,
    args_tangents,
    args_tuple,
    args_zero_cotangent,
    bind,
    flat,
    is_zero,
    read_result_cotangent,
    zero_cotangent,
)
from chainrules.rulesets.optimize.minimize import _free_variables, _twice_failed
from chainrules.rulesets.optimize.roots import result_tangent
from chainrules.testing import PrimalAndTangent, central_fdm
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    RulesOnlyConfig,
    Sample,
    Tangent,
    ZeroTangent,
    backing,
    frule,
    frule_via_ad,
    not_implemented,
    read_cotangent,
    rrule,
    rrule_via_ad,
    sample_inputs,
    unthunk,
)

__all__: list[str] = []

NO = NoTangent()
ZERO = ZeroTangent()
_LSQ = "scipy.optimize.least_squares"
_FIT = "scipy.optimize.curve_fit"
_WHAT = "the Hessian of the least-squares cost (on the free parameters)"


# ---- the model and its derivatives through the config --------------------------------------------------------------
class _Model:
    """``m(p, theta)`` at the solution: how the parameters and the data enter the user's callable.

    ``splat``: ``curve_fit``'s ``f(xdata, *p)`` (the parameters one by one after the data) rather
    than ``least_squares``' ``fun(x, *args, **kwargs)`` (the parameter vector first).
    """

    def __init__(self, config: Any, fun: Callable[..., Any], p: np.ndarray, data: tuple[Any, ...], splat: bool,
                 kwargs: dict[str, Any] | None = None) -> None:
        self.config = config
        self.fun = fun
        self.p = np.asarray(p, dtype=np.float64)
        self.data = data
        self.splat = splat
        self.kwargs = kwargs or {}
        self.n = self.p.size
        self._pullback: Any = None
        self.value: np.ndarray | None = None

    def arguments(self, p: Any) -> tuple[Any, ...]:
        return (*self.data, *p) if self.splat else (p, *self.data)

    def _ensure_reverse(self) -> None:
        if self._pullback is None:
            y, self._pullback = rrule_via_ad(self.config, self.fun, *self.arguments(self.p), **self.kwargs)
            self.value = np.asarray(y, dtype=np.float64)

    def evaluate(self) -> np.ndarray:
        if self.value is None:
            self.value = np.asarray(self.fun(*self.arguments(self.p), **self.kwargs), dtype=np.float64)
        return self.value

    def pull(self, c: np.ndarray) -> tuple[Any, np.ndarray, list[Any]]:
        """``(d_callable, (dm/dp)^T c, [(dm/d data_k)^T c...])`` for a cotangent ``c`` of the model's output."""
        self._ensure_reverse()
        assert self.value is not None
        cts = self._pullback(np.reshape(c, self.value.shape))
        if self.splat:
            k = len(self.data)
            return cts[0], np.array([float(flat(t, 0.0)[0]) for t in cts[1 + k:]]), list(cts[1:1 + k])
        return cts[0], flat(cts[1], self.p), list(cts[2:])

    def push(self, dfun: Any, dp: np.ndarray | None, ddata: Sequence[Any]) -> np.ndarray:
        """``dm`` (flat) along the tangents of the callable, the parameters and the data."""
        if dp is None:
            tp: Any = [ZERO] * self.n if self.splat else ZERO
        else:
            tp = [float(v) for v in dp] if self.splat else dp
        tangents = (dfun, *ddata, *tp) if self.splat else (dfun, tp, *ddata)
        _, dy = frule_via_ad(self.config, tangents, self.fun, *self.arguments(self.p), **self.kwargs)
        return flat(dy, self.evaluate(), "the tangent of the model's output")

    def jacobian(self, user: np.ndarray | None) -> np.ndarray:
        """``J = dm/dp`` (``M`` by ``n``): the user's, or ``n`` pushforwards, or ``M`` pullbacks."""
        if user is not None:
            return user
        zeros = [zero_cotangent(d) for d in self.data]
        m = self.evaluate().size
        if isinstance(self.config, HasForwardsMode) and (self.n <= m or not isinstance(self.config, HasReverseMode)):
            eye = np.eye(self.n)
            return np.stack([self.push(NO, eye[j], zeros) for j in range(self.n)], axis=-1).reshape(m, self.n)
        eye = np.eye(m)
        return np.stack([self.pull(eye[i])[1] for i in range(m)])


class _CurvatureFromJac:
    """``C u = sum_i c_i d^2 m_i/dp^2 u`` and ``d<c, J u>/d data`` by one pullback of the user's ``jac``."""

    def __init__(self, model: _Model, jac: Callable[..., Any], c: np.ndarray) -> None:
        self.model = model
        self.c = c
        self._jac = _Model(model.config, jac, model.p, model.data, model.splat, model.kwargs)
        self.value = np.asarray(self._jac.evaluate(), dtype=np.float64)

    def pull(self, u: np.ndarray) -> tuple[np.ndarray, list[Any]]:
        _, cp, cdata = self._jac.pull(np.outer(self.c, u).reshape(self.value.shape))
        return cp, cdata

    def push(self, dp: np.ndarray | None, ddata: Sequence[Any]) -> np.ndarray:
        dj = self._jac.push(NO, dp, ddata).reshape(self.c.size, -1)
        return dj.T @ self.c


class _WeightedGradient:
    """``(data, p) -> J^T c`` (``c`` fixed) computed by the config: differentiated again for second derivatives."""

    def __init__(self, model: _Model, c: np.ndarray) -> None:
        self.model = model
        self.c = c

    def __call__(self, *arguments: Any) -> Any:
        m = self.model
        y, pullback = rrule_via_ad(m.config, m.fun, *arguments, **m.kwargs)
        cts = pullback(np.reshape(self.c, np.shape(y)))
        if m.splat:
            return tuple(cts[1 + len(m.data):])
        return cts[1]


class _CurvatureFromConfig:
    """The same products through second derivatives of the model: reverse-over-reverse and forward-over-reverse."""

    def __init__(self, model: _Model, c: np.ndarray, name: str) -> None:
        self.model = model
        self.c = c
        self.name = name
        self.function = _WeightedGradient(model, c)
        self._pullback: Any = None

    def _failed(self, err: BaseException) -> MissingDerivative:
        return MissingDerivative(_twice_failed(self.name, self.model.fun, self.model.config, err))

    def pull(self, u: np.ndarray) -> tuple[np.ndarray, list[Any]]:
        m = self.model
        try:
            if self._pullback is None:
                _, self._pullback = rrule_via_ad(m.config, self.function, *m.arguments(m.p))
            cotangent = Tangent(tuple, *[float(v) for v in u]) if m.splat else u
            cts = self._pullback(cotangent)
        except MissingDerivative:
            raise
        except Exception as err:
            raise self._failed(err) from err
        if m.splat:
            k = len(m.data)
            cp = np.array([float(flat(t, 0.0)[0]) for t in cts[1 + k:]])
            return _checked(cp, u, self), list(cts[1:1 + k])
        return _checked(flat(cts[1], m.p), u, self), list(cts[2:])

    def push(self, dp: np.ndarray | None, ddata: Sequence[Any]) -> np.ndarray:
        m = self.model
        if dp is None:
            tp: Any = [ZERO] * m.n if m.splat else ZERO
        else:
            tp = [float(v) for v in dp] if m.splat else dp
        tangents = (NO, *ddata, *tp) if m.splat else (NO, tp, *ddata)
        try:
            _, dy = frule_via_ad(m.config, tangents, self.function, *m.arguments(m.p))
        except MissingDerivative:
            raise
        except Exception as err:
            raise self._failed(err) from err
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return np.zeros(m.n)
        if m.splat:
            parts = backing(dy) if isinstance(dy, Tangent) else dy
            return np.array([float(flat(t, 0.0)[0]) for t in parts])
        return flat(dy, m.p)


def _checked(cu: np.ndarray, u: np.ndarray, curvature: _CurvatureFromConfig) -> np.ndarray:
    """A config that silently cannot differentiate twice returns exact zeros; so does a linear model (C = 0),
    whose curvature is indeed zero: nothing to check here beyond finiteness."""
    if not np.all(np.isfinite(cu)):
        raise ImplicitDerivativeError(f"{curvature.name}: the second derivatives of the model are not finite")
    return cu


# ---- the fit ---------------------------------------------------------------------------------------------------------
class _Fit:
    """A nonlinear least-squares solution and the linear algebra of its implicit derivative."""

    def __init__(self, name: str, model: _Model, y: np.ndarray | None, weight: Any, jac: Any, bounds: Any) -> None:
        self.name = name
        self.model = model
        self.m = model.evaluate()
        self.y = y
        self.weight = weight  # None, a vector of 1/sigma**2, or a (factored) covariance
        e = self.m if y is None else self.m - y
        self.e = e
        self.c = self.w(e)
        user = self._user_jacobian(jac)
        self.J = model.jacobian(user)
        self.curvature = _CurvatureFromJac(model, jac, self.c) if callable(jac) and user is not None else \
            _CurvatureFromConfig(model, self.c, name)
        gradient = self.J.T @ self.c
        self.free = np.ones(model.n, dtype=bool) if bounds is None else _free_variables(name, model.p, gradient,
                                                                                         bounds)

    def _user_jacobian(self, jac: Any) -> np.ndarray | None:
        if not callable(jac):
            return None
        value = jac(*self.model.arguments(self.model.p), **self.model.kwargs)
        if hasattr(value, "toarray"):
            value = value.toarray()
        if not isinstance(value, np.ndarray):
            return None
        return np.asarray(value, dtype=np.float64).reshape(self.m.size, self.model.n)

    def w(self, v: np.ndarray) -> np.ndarray:
        """``W v``."""
        if self.weight is None:
            return v
        if isinstance(self.weight, np.ndarray):
            return self.weight * v
        return scipy.linalg.cho_solve(self.weight, v)

    def hessian(self) -> np.ndarray:
        """``H`` on the free parameters: ``J^T W J + C``, ``C`` column by column."""
        free = np.flatnonzero(self.free)
        jf = self.J[:, free]
        gn = jf.T @ np.stack([self.w(jf[:, k]) for k in range(free.size)], axis=-1) if free.size else np.zeros((0, 0))
        eye = np.eye(self.model.n)
        curv = np.stack([self.curvature.pull(eye[j])[0][free] for j in free], axis=-1) if free.size else gn
        return gn + curv

    def solve(self, b: np.ndarray) -> np.ndarray:
        """``v`` with ``H_FF v_F = b_F``, zero on the active parameters."""
        out = np.zeros(self.model.n)
        free = self.free
        if not np.any(free) or not np.any(b[free]):
            return out
        if int(np.count_nonzero(free)) > DENSE_UP_TO:
            out[free] = self._minres(b[free])
            return out
        h = self.hessian()
        try:
            out[free] = scipy.linalg.solve(h, b[free], assume_a="sym")
        except (np.linalg.LinAlgError, scipy.linalg.LinAlgWarning) as err:
            raise ImplicitDerivativeError(f"{self.name}: {_WHAT} is singular at the solution ({err}): the fitted "
                                          "parameters are not locally unique, so they have no derivative") from None
        return out

    def _minres(self, b: np.ndarray) -> np.ndarray:
        free = self.free

        def matvec(v: np.ndarray) -> np.ndarray:
            full = np.zeros(self.model.n)
            full[free] = v
            return (self.J.T @ self.w(self.J @ full) + self.curvature.pull(full)[0])[free]

        n = b.size
        op = scipy.sparse.linalg.LinearOperator((n, n), matvec=matvec, dtype=np.float64)
        sol, info = scipy.sparse.linalg.minres(op, b, rtol=1e-12, maxiter=4 * n)
        if info != 0:
            raise ImplicitDerivativeError(f"{self.name}: MINRES on {_WHAT} did not converge ({info})")
        return sol


def _add(a: Any, b: Any) -> Any:
    a, b = unthunk(a), unthunk(b)
    if a is None or isinstance(a, AbstractZero):
        return b
    if b is None or isinstance(b, AbstractZero):
        return a
    if isinstance(a, NotImplementedTangent):
        return a
    if isinstance(b, NotImplementedTangent):
        return b
    return a + b


def _negate(t: Any) -> Any:
    t = unthunk(t)
    if t is None or isinstance(t, (AbstractZero, NotImplementedTangent)):
        return t
    if isinstance(t, Tangent):
        return t.map(_negate)
    return -t


# ---- least_squares -------------------------------------------------------------------------------------------------
_LSQ_NAMES = ("fun", "x0", "jac", "bounds", "method", "ftol", "xtol", "gtol", "x_scale", "loss", "f_scale",
              "diff_step", "tr_solver", "tr_options", "jac_sparsity", "max_nfev", "verbose", "args", "kwargs",
              "callback", "workers")
_LOSS = ("{name}: loss={loss!r} reweights the residuals by their own size at the solution; only loss='linear' is "
         "differentiated (not implemented)")
_LSQ_UNSUPPORTED = {k: "a function of the Jacobian at the solution, whose derivative needs the model's second "
                       "derivatives along the solution's" for k in ("jac", "grad", "optimality")}


def _lsq_bounds(bounds: Any) -> Any:
    """``least_squares``' ``(lb, ub)`` as ``Bounds`` (``None`` when unbounded)."""
    if bounds is None:
        return None
    if isinstance(bounds, scipy.optimize.Bounds):
        lb, ub = bounds.lb, bounds.ub
    else:
        lb, ub = bounds
    if np.all(np.isneginf(lb)) and np.all(np.isposinf(ub)):
        return None
    return scipy.optimize.Bounds(lb, ub)


class _LeastSquares:
    """One ``least_squares`` call: its rules' shared work."""

    def __init__(self, config: Any, res: Any, params: dict[str, Any]) -> None:
        self.config = config
        self.res = res
        self.params = params
        self.fun = params["fun"]
        self.args = params["args"]
        self.items = args_tuple(self.args)
        self._fit: _Fit | None = None

    def fit(self) -> _Fit:
        if self._fit is None:
            if not self.res.success or self.res.status <= 0:
                raise ImplicitDerivativeError(f"{_LSQ} did not converge ({self.res.message}): the implicit derivative "
                                              "at a point that is not a solution would be wrong")
            if self.params["loss"] != "linear":
                raise MissingDerivative(not_implemented(_LOSS.format(name=_LSQ, loss=self.params["loss"])))
            model = _Model(self.config, self.fun, self.res.x, self.items, False, self.params["kwargs"])
            self._fit = _Fit(_LSQ, model, None, None, self.params["jac"], _lsq_bounds(self.params["bounds"]))
        return self._fit

    def cotangents(self, xbar: Any, cbar: Any, rbar: Any) -> tuple[Any, list[Any]]:
        fit = self.fit()
        model = fit.model
        n = model.n
        xb = np.zeros(n) if xbar is None else flat(xbar, self.res.x)
        # the residual's and the cost's cotangents reach x through J (cost: e^T de, de = J dx + ...)
        direct = np.zeros(fit.m.size)
        if rbar is not None:
            direct = direct + flat(rbar, fit.m)
        if cbar is not None:
            direct = direct + float(np.asarray(cbar)) * fit.e
        xb = xb + fit.J.T @ direct
        u = fit.solve(xb)
        dfun, _, ddata = model.pull(direct - fit.J @ u)
        _, cdata = fit.curvature.pull(u)
        return dfun, [_add(a, _negate(b)) for a, b in zip(ddata, cdata)]

    def tangents(self, dfun: Any, dargs: Any) -> tuple[np.ndarray, float, np.ndarray]:
        fit = self.fit()
        model = fit.model
        ddata = args_tangents(dargs, self.args)
        dm_data = model.push(dfun, None, ddata)
        rhs = fit.J.T @ dm_data + fit.curvature.push(None, ddata)
        dx = -fit.solve(rhs)
        de = fit.J @ dx + dm_data
        return dx, float(fit.e @ de), de


def _lsq_cotangents(npos: int, params: dict[str, Any], dfun: Any, dargs: Any, dbounds: Any) -> tuple[Any, ...]:
    out: list[Any] = [NO]
    for name in _LSQ_NAMES[:npos]:
        out.append({"fun": dfun, "x0": zero_cotangent(params["x0"]), "args": dargs,
                    "bounds": dbounds}.get(name, NO))
    return tuple(out)


def _missing_for(value: Any, t: NotImplementedTangent) -> Any:
    return t if zero_cotangent(value) is ZERO or args_zero_cotangent(value) is ZERO else NO


def _lsq_bounds_cotangent(problem: _LeastSquares) -> Any:
    bounds = problem.params["bounds"]
    if zero_cotangent(bounds) is NO and args_zero_cotangent(bounds) is NO:
        return NO
    if np.all(problem.fit().free):
        return ZERO
    return not_implemented(f"{_LSQ}: the derivative with respect to active bounds is not implemented; pass bounds by "
                           "keyword (they are then constants)")


@rrule.register(scipy.optimize.least_squares, object, object, config=HasReverseMode)
def least_squares_rrule(config: Any, fun: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.least_squares``: ``(J^T J + C) u = x_bar``, ``args_bar = -d(J^T e)/dargs^T u``.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig, Tangent
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()                        # p0 exp(-p1 t) - y, and its Jacobian, with rules
    >>> t = np.linspace(0.0, 2.0, 5)
    >>> y = 2.0 * np.exp(-1.5 * t)                   # exact data: the fit is (2, 1.5), a zero residual
    >>> res, pullback = rrule(RulesOnlyConfig(), scipy.optimize.least_squares, _problems.exp_decay_residual,
    ...                       np.ones(2), _problems.exp_decay_jacobian, args=(t, y), xtol=1e-14, ftol=1e-14)
    >>> np.round(res.x, 10)
    array([2. , 1.5])
    """
    res = scipy.optimize.least_squares(fun, x0, *rest, **kwargs)
    params = bind(scipy.optimize.least_squares, (fun, x0, *rest), kwargs)
    npos = 2 + len(rest)
    problem = _LeastSquares(config, res, params)
    fields = ("x", "cost", "fun")

    def least_squares_pullback(dy: Any) -> tuple[Any, ...]:
        cts = read_result_cotangent(dy, res, fields, scipy.optimize.least_squares, _LSQ_UNSUPPORTED)
        if isinstance(cts, NotImplementedTangent):
            return _lsq_missing(npos, params, cts)
        if isinstance(cts, AbstractZero) or all(v is None for v in cts.values()):
            return _lsq_cotangents(npos, params, NO, args_zero_cotangent(params["args"]),
                                   zero_cotangent(params["bounds"]))
        try:
            dfun, dargs = problem.cotangents(cts["x"], cts["cost"], cts["fun"])
            dbounds = _lsq_bounds_cotangent(problem) if npos > 3 else NO
        except MissingDerivative as missing:
            return _lsq_missing(npos, params, missing.tangent)
        return _lsq_cotangents(npos, params, dfun if not carries_no_values(fun) or not is_zero(dfun) else NO,
                               args_cotangent(params["args"], dargs), dbounds)

    return res, least_squares_pullback


def _lsq_missing(npos: int, params: dict[str, Any], t: NotImplementedTangent) -> tuple[Any, ...]:
    dfun = NO if carries_no_values(params["fun"]) else t
    return _lsq_cotangents(npos, params, dfun, _missing_for(params["args"], t), _missing_for(params["bounds"], t))


@frule.register(scipy.optimize.least_squares, object, object, config=HasForwardsMode)
def least_squares_frule(config: Any, tangents: Any, fun: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.least_squares``: ``(J^T J + C) dx = -(mixed derivatives) dargs``."""
    res = scipy.optimize.least_squares(fun, x0, *rest, **kwargs)
    params = bind(scipy.optimize.least_squares, (fun, x0, *rest), kwargs)
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[18] if len(tangents) > 18 else ZERO
    if is_zero(dfun) and is_zero(dargs):
        return res, ZERO
    problem = _LeastSquares(config, res, params)
    try:
        dx, dcost, de = problem.tangents(dfun, dargs)
    except MissingDerivative as missing:
        return res, missing.tangent
    return res, result_tangent(res, {"x": dx, "cost": dcost, "fun": de})


# ---- curve_fit -----------------------------------------------------------------------------------------------------
_FIT_NAMES = ("f", "xdata", "ydata", "p0", "sigma", "absolute_sigma", "check_finite", "bounds", "method", "jac")


class _CurveFit:
    """One ``curve_fit`` call: ``popt`` by the implicit function theorem, ``pcov`` by differentiating its formula.

    ``pcov = kappa inv(A)`` with ``A = J^T W J`` at ``popt`` and ``kappa = e^T W e / (M - n)`` (``1`` with
    ``absolute_sigma``). Its derivative needs that of ``J``: ``dJ^T W J`` column by column is the
    pushforward of ``p -> J^T c_l`` with ``c_l = W J e_l`` (the curvature products above), and the
    pullback of ``J`` at ``J_bar = W J S`` is ``sum_l`` the pullbacks of ``J^T c_l`` at ``S[l]``; with the
    user's ``jac`` both are one product of ``jac``.
    """

    def __init__(self, config: Any, out: tuple[Any, ...], params: dict[str, Any]) -> None:
        self.config = config
        self.popt = out[0]
        self.pcov = out[1]
        self.params = params
        self._fit: _Fit | None = None
        sigma = params["sigma"]
        self.sigma = None if sigma is None else np.asarray(sigma, dtype=np.float64)
        self.ydata = np.asarray(params["ydata"], dtype=np.float64)

    def weight(self) -> Any:
        if self.sigma is None:
            return None
        if self.sigma.ndim == 1:
            return 1.0 / self.sigma ** 2
        lower = np.tril(self.sigma)
        full = lower + np.tril(self.sigma, -1).T
        return scipy.linalg.cho_factor(full, lower=True)

    def fit(self) -> _Fit:
        if self._fit is None:
            bounds = self.params["bounds"]
            lb, ub = (bounds.lb, bounds.ub) if isinstance(bounds, scipy.optimize.Bounds) else bounds
            box = None if np.all(np.isneginf(lb)) and np.all(np.isposinf(ub)) else scipy.optimize.Bounds(
                np.broadcast_to(lb, self.popt.shape), np.broadcast_to(ub, self.popt.shape))
            model = _Model(self.config, self.params["f"], self.popt, (self.params["xdata"],), True)
            self._fit = _Fit(_FIT, model, self.ydata, self.weight(), self.params["jac"], box)
        return self._fit

    # ---- pcov ----
    def _kappa_scale(self, fit: _Fit) -> float | None:
        """``1 / (M - n)`` when ``pcov`` is scaled by the residual variance, ``None`` when not (``absolute_sigma``)."""
        if self.params["absolute_sigma"]:
            return None
        dof = fit.m.size - fit.model.n
        if dof <= 0:
            raise ImplicitDerivativeError(f"{_FIT}: pcov is infinite (no more data than parameters): no derivative")
        return 1.0 / dof

    def _wj(self, fit: _Fit) -> np.ndarray:
        return np.stack([fit.w(fit.J[:, k]) for k in range(fit.model.n)], axis=-1)

    def _pcov_parts(self, fit: _Fit) -> tuple[np.ndarray, float, float | None]:
        wj = self._wj(fit)
        p0 = np.linalg.inv(fit.J.T @ wj)
        scale = self._kappa_scale(fit)
        kappa = 1.0 if scale is None else float(fit.e @ fit.c) * scale
        return p0, kappa, scale

    def _dweight(self, ds: Any) -> Callable[[np.ndarray], np.ndarray] | None:
        """``v -> dW v`` for a tangent of ``sigma``."""
        if self.sigma is None or is_zero(ds):
            return None
        d = np.asarray(unthunk(ds), dtype=np.float64)
        sigma = self.sigma
        fit = self.fit()
        if sigma.ndim == 1:
            return lambda v: -2.0 * d / sigma ** 3 * v
        lower = np.tril(d)
        dfull = lower + np.tril(d, -1).T
        return lambda v: -fit.w(dfull @ fit.w(v))

    def _sigma_bar_from_weight(self, wbar: np.ndarray) -> np.ndarray:
        """The cotangent of ``sigma`` from that of ``W`` (a matrix)."""
        assert self.sigma is not None
        if self.sigma.ndim == 1:
            return np.diag(wbar) * (-2.0 / self.sigma ** 3)
        fit = self.fit()
        m = wbar.shape[0]
        winv_t = np.stack([fit.w(wbar[:, j]) for j in range(m)], axis=-1)  # W Wbar
        sbar = -np.stack([fit.w(winv_t[j, :]) for j in range(m)])            # -W Wbar W (W symmetric)
        return np.tril(sbar + sbar.T) - np.diag(np.diag(sbar))

    def pcov_cotangents(self, pcov_bar: np.ndarray) -> tuple[np.ndarray, Any, np.ndarray, np.ndarray | None]:
        """The direct cotangents of ``(popt, xdata, ydata, sigma)`` from ``pcov_bar`` (popt's still goes through the
        implicit function theorem)."""
        fit = self.fit()
        p0, kappa, scale = self._pcov_parts(fit)
        abar = -p0 @ (kappa * pcov_bar) @ p0
        sym = abar + abar.T
        wj = self._wj(fit)
        # through J (at fixed W): J_bar = W J S
        if isinstance(fit.curvature, _CurvatureFromJac):
            _, pbar, dbar = fit.curvature._jac.pull(wj @ sym)
            xbar: Any = dbar[0]
        else:
            pbar = np.zeros(fit.model.n)
            xbar = ZERO
            for k in range(fit.model.n):
                cp, cdata = _CurvatureFromConfig(fit.model, wj[:, k], _FIT).pull(sym[k, :])
                pbar = pbar + cp
                xbar = _add(xbar, cdata[0])
        wbar = fit.J @ abar @ fit.J.T if self.sigma is not None else None
        ybar = np.zeros(fit.m.size)
        if scale is not None:
            kbar = float(np.sum(pcov_bar * p0))
            ebar = 2.0 * kbar * scale * fit.c
            pbar = pbar + fit.J.T @ ebar
            _, _, dx = fit.model.pull(ebar)
            xbar = _add(xbar, dx[0])
            ybar = ybar - ebar
            if wbar is not None:
                wbar = wbar + kbar * scale * np.outer(fit.e, fit.e)
        sbar = None if wbar is None else self._sigma_bar_from_weight(wbar)
        return pbar, xbar, ybar, sbar

    def pcov_tangent(self, dpopt: np.ndarray, dxdata: Any, dydata: Any, dsigma: Any) -> np.ndarray:
        fit = self.fit()
        p0, kappa, scale = self._pcov_parts(fit)
        dxd = [ZERO if is_zero(dxdata) else dxdata]
        if isinstance(fit.curvature, _CurvatureFromJac):
            dj = fit.curvature._jac.push(NO, dpopt, dxd).reshape(fit.J.shape)
            d = dj.T @ self._wj(fit)
        else:
            wj = self._wj(fit)
            d = np.stack([_CurvatureFromConfig(fit.model, wj[:, k], _FIT).push(dpopt, dxd)
                          for k in range(fit.model.n)], axis=-1)
        da = d + d.T
        dw = self._dweight(dsigma)
        if dw is not None:
            da = da + fit.J.T @ np.stack([dw(fit.J[:, k]) for k in range(fit.model.n)], axis=-1)
        dp0 = -p0 @ da @ p0
        dkappa = 0.0
        if scale is not None:
            de = fit.J @ dpopt
            if not is_zero(dxdata):
                de = de + fit.model.push(NO, None, dxd)
            if not is_zero(dydata):
                de = de - flat(dydata, self.ydata)
            dkappa = 2.0 * float(fit.c @ de) * scale
            if dw is not None:
                dkappa += float(fit.e @ dw(fit.e)) * scale
        return dkappa * p0 + kappa * dp0

    # ---- popt ----
    def cotangents(self, pbar: np.ndarray, pcov_bar: np.ndarray | None) -> tuple[Any, Any, Any, Any]:
        """``(d_f, d_xdata, d_ydata, d_sigma)``."""
        fit = self.fit()
        direct = None
        if pcov_bar is not None:
            direct = self.pcov_cotangents(pcov_bar)
            pbar = pbar + direct[0]
        u = fit.solve(pbar)
        ju = fit.J @ u
        wju = fit.w(ju)
        df, _, dx_model = fit.model.pull(-wju)
        _, dx_curv = fit.curvature.pull(u)
        dxdata = _add(dx_model[0], _negate(dx_curv[0]))
        dydata = wju
        dsigma: Any = NO
        if self.sigma is not None:
            if self.sigma.ndim == 1:
                dsigma = 2.0 * ju * fit.e / self.sigma ** 3
            else:
                s = np.outer(fit.w(ju), fit.c)  # S^{-1} J u (S^{-1} e)^T
                dsigma = np.tril(s + s.T) - np.diag(np.diag(s))
        if direct is not None:
            dxdata = _add(dxdata, direct[1])
            dydata = dydata + direct[2]
            if direct[3] is not None:
                dsigma = _add(dsigma, direct[3])
        return df, dxdata, dydata.reshape(self.ydata.shape), dsigma

    def tangent(self, df: Any, dxdata: Any, dydata: Any, dsigma: Any) -> np.ndarray:
        fit = self.fit()
        model = fit.model
        dxd = [ZERO if is_zero(dxdata) else dxdata]
        dm = model.push(df, None, dxd) if not (is_zero(df) and is_zero(dxdata)) else np.zeros(fit.m.size)
        rhs = fit.J.T @ fit.w(dm)
        if not is_zero(dxdata):
            rhs = rhs + fit.curvature.push(None, dxd)
        if not is_zero(dydata):
            rhs = rhs - fit.J.T @ fit.w(flat(dydata, self.ydata))
        dw = self._dweight(dsigma)
        if dw is not None:
            rhs = rhs + fit.J.T @ dw(fit.e)
        return -fit.solve(rhs)


def _read_curve_fit(dy: Any, out: tuple[Any, ...], full_output: bool) -> Any:
    """``(popt_bar, pcov_bar)`` (``None`` for zeros), or a not-implemented tangent (``infodict``)."""
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return (None, None) if isinstance(dy, AbstractZero) else dy
    parts = backing(dy) if isinstance(dy, Tangent) else dy
    n = len(out)
    if not isinstance(parts, (tuple, list)) or len(parts) != n:
        raise ProjectionError(f"{_FIT} pullback: output cotangent is a {type(dy).__name__}, expected a Tangent of the "
                              f"{n}-tuple (popt, pcov{', infodict, mesg, ier' if full_output else ''})")
    popt_bar = read_cotangent(parts[0], out[0], scipy.optimize.curve_fit, "cotangent of output 0 (popt)")
    pcov_bar = read_cotangent(parts[1], out[1], scipy.optimize.curve_fit, "cotangent of output 1 (pcov)")
    for t in (popt_bar, pcov_bar):
        if isinstance(t, NotImplementedTangent):
            return t
    if full_output:
        info = read_result_cotangent(parts[2], out[2], (), _FIT)
        if isinstance(info, NotImplementedTangent):
            return info
    return (None if isinstance(popt_bar, AbstractZero) else popt_bar,
            None if isinstance(pcov_bar, AbstractZero) or not np.any(pcov_bar) else np.asarray(pcov_bar))


def _fit_cotangents(npos: int, params: dict[str, Any], values: dict[str, Any]) -> tuple[Any, ...]:
    out: list[Any] = [NO]
    for name in _FIT_NAMES[:npos]:
        if name in values:
            out.append(values[name])
        elif name == "p0":
            out.append(zero_cotangent(params["p0"]))
        else:
            out.append(NO)
    return tuple(out)


def _fit_project(params: dict[str, Any], name: str, value: Any) -> Any:
    primal = params[name]
    if not (zero_cotangent(primal) is ZERO or args_zero_cotangent(primal) is ZERO):
        return NO
    value = unthunk(value)
    if value is None or isinstance(value, (AbstractZero, NotImplementedTangent)):
        return ZERO if value is None else value
    return ProjectTo(primal)(np.reshape(value, np.shape(primal)) if isinstance(value, np.ndarray) else value)


def _fit_missing(npos: int, params: dict[str, Any], t: NotImplementedTangent) -> tuple[Any, ...]:
    values = {name: _missing_for(params[name], t) for name in ("xdata", "ydata", "sigma")}
    values["f"] = NO if carries_no_values(params["f"]) else t
    return _fit_cotangents(npos, params, values)


@rrule.register(scipy.optimize.curve_fit, object, object, object, config=HasReverseMode)
def curve_fit_rrule(config: Any, f: Any, xdata: Any, ydata: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.curve_fit``: ``popt``'s derivatives in ``xdata``, ``ydata`` and ``sigma``.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig, Tangent, ZeroTangent
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()                        # exp_decay(t, a, k) = a exp(-k t), with rules
    >>> t = np.linspace(0.0, 2.0, 6)
    >>> y = 2.0 * np.exp(-1.5 * t) + 0.01 * np.cos(5 * t)
    >>> (popt, pcov), pullback = rrule(RulesOnlyConfig(), scipy.optimize.curve_fit, _problems.exp_decay, t, y,
    ...                                jac=_problems.exp_decay_model_jacobian)
    >>> np.round(popt, 3)
    array([2.008, 1.51 ])
    >>> np.round(pullback(Tangent(tuple, np.array([1.0, 0.0]), ZeroTangent()))[3], 3)   # d amplitude / d ydata
    array([ 0.917,  0.222, -0.031, -0.1  , -0.1  , -0.08 ])
    """
    out = scipy.optimize.curve_fit(f, xdata, ydata, *rest, **kwargs)
    params = bind(scipy.optimize.curve_fit, (f, xdata, ydata, *rest), kwargs)
    npos = 3 + len(rest)
    full_output = bool(params["full_output"])
    popt = out[0]
    problem = _CurveFit(config, out, params)

    def curve_fit_pullback(dy: Any) -> tuple[Any, ...]:
        bars = _read_curve_fit(dy, out, full_output)
        if isinstance(bars, NotImplementedTangent):
            return _fit_missing(npos, params, bars)
        pbar, pcov_bar = bars
        if pbar is None and pcov_bar is None:
            return _fit_cotangents(npos, params, {"f": NO, **{k: _fit_project(params, k, None) for k in (
                "xdata", "ydata", "sigma")}})
        try:
            df, dxdata, dydata, dsigma = problem.cotangents(flat(pbar, popt), pcov_bar)
        except MissingDerivative as missing:
            return _fit_missing(npos, params, missing.tangent)
        values = {"f": df if not carries_no_values(f) or not is_zero(df) else NO,
                  "xdata": _fit_project(params, "xdata", dxdata), "ydata": _fit_project(params, "ydata", dydata),
                  "sigma": _fit_project(params, "sigma", dsigma)}
        return _fit_cotangents(npos, params, values)

    return out, curve_fit_pullback


@frule.register(scipy.optimize.curve_fit, object, object, object, config=HasForwardsMode)
def curve_fit_frule(config: Any, tangents: Any, f: Any, xdata: Any, ydata: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.curve_fit``: ``H dpopt = -(mixed derivatives)(dxdata, dydata, dsigma)``."""
    out = scipy.optimize.curve_fit(f, xdata, ydata, *rest, **kwargs)
    params = bind(scipy.optimize.curve_fit, (f, xdata, ydata, *rest), kwargs)
    t = list(tangents) + [NO] * (11 - len(tangents))
    df, dxdata, dydata, dsigma = t[1], t[2], t[3], t[5]
    if all(is_zero(v) for v in (df, dxdata, dydata, dsigma)):
        return out, ZERO
    problem = _CurveFit(config, out, params)
    try:
        dpopt = problem.tangent(df, dxdata, dydata, dsigma)
        dpcov = problem.pcov_tangent(dpopt, dxdata, dydata, dsigma)
    except MissingDerivative as missing:
        return out, missing.tangent
    if len(out) == 2:
        return out, Tangent(tuple, dpopt, dpcov)
    return out, Tangent(tuple, dpopt, dpcov, result_tangent(out[2], {}), NO, NO)


# ---- samples -------------------------------------------------------------------------------------------------------
_NOISY = central_fdm(5, 1, condition=1e5, max_range=1e-2)


def _lsq_fields(res: Any) -> tuple[Any, Any, Any]:
    return res.x, res.cost, res.fun


def _popt(out: Any) -> Any:
    return out[0], out[1]


def _decay_data(rng: np.random.Generator, n: int = 8) -> tuple[np.ndarray, np.ndarray]:
    t = np.linspace(0.0, 2.0, n)
    return t, 2.0 * np.exp(-1.5 * t) + 0.05 * rng.standard_normal(n)


@sample_inputs(scipy.optimize.least_squares)
def _least_squares_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    t, y = _decay_data(rng)
    check: dict[str, Any] = {"config": RulesOnlyConfig(), "gauge_invariant": _lsq_fields, "fdm": _NOISY,
                             "rtol": 1e-5, "atol": 1e-6}
    yield Sample(_problems.exp_decay_residual, np.ones(2), _problems.exp_decay_jacobian,
                 fkwargs={"args": (t, y), "xtol": 1e-15, "ftol": 1e-15, "gtol": 1e-15}, label="trf, args by keyword",
                 **check)
    fixed = [PrimalAndTangent(v, NO) for v in (1e-14, 1e-14, 1e-14)]  # tolerances by position: constants
    yield Sample(_problems.exp_decay_residual, np.ones(2), _problems.exp_decay_jacobian, (-np.inf, np.inf), "lm",
                 *fixed, "jac", "linear", PrimalAndTangent(1.0, NO), None, None, None, None, None, 0, (t, y),
                 label="lm, args by position (differentiated)", **check)


@sample_inputs(scipy.optimize.curve_fit)
def _curve_fit_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    t, y = _decay_data(rng)
    sigma = 0.05 + 0.02 * rng.random(t.size)
    check: dict[str, Any] = {"config": RulesOnlyConfig(), "gauge_invariant": _popt, "fdm": _NOISY, "rtol": 1e-5,
                             "atol": 1e-6}
    jac = _problems.exp_decay_model_jacobian
    tight = {"xtol": 1e-15, "ftol": 1e-15, "gtol": 1e-15}
    yield Sample(_problems.exp_decay, t, y, np.ones(2), sigma, fkwargs={"jac": jac, **tight},
                 label="lm with sigma, the model's jac", **check)
    yield Sample(_problems.exp_decay, t, y, fkwargs={"jac": jac, "method": "trf", **tight}, label="trf", **check)
    # a covariance of order one, so that the finite differences' steps keep it positive definite
    covariance = 0.25 * np.eye(t.size) + 0.05 * np.exp(-np.abs(np.subtract.outer(t, t)))
    yield Sample(_problems.exp_decay, t, y, np.ones(2), covariance, PrimalAndTangent(True, NO),
                 fkwargs={"jac": jac, **tight}, label="a covariance sigma, absolute_sigma", **check)


# ---- leastsq (the legacy interface of MINPACK's lmdif/lmder) ------------------------------------------------------
_LEASTSQ = "scipy.optimize.leastsq"
_LEASTSQ_NAMES = ("func", "x0", "args", "Dfun", "full_output", "col_deriv", "ftol", "xtol", "gtol", "maxfev",
                  "epsfcn", "factor", "diag")
_COV_X = (f"{_LEASTSQ}: the derivative of cov_x (inv(J^T J) at the solution, whose derivative needs the model's "
          "second derivatives along the solution's) is not implemented; curve_fit's pcov has one")


class _Leastsq(_LeastSquares):
    """One ``leastsq`` call: ``least_squares``' problem (``loss='linear'``, no bounds), MINPACK's outputs."""

    def __init__(self, config: Any, out: tuple[Any, ...], params: dict[str, Any]) -> None:
        ier = int(out[-1])
        message = out[3] if params["full_output"] else f"ier {ier}"
        res = scipy.optimize.OptimizeResult(x=np.asarray(out[0]), success=ier in (1, 2, 3, 4), status=ier,
                                            message=message)
        super().__init__(config, res, {"fun": params["func"], "args": params["args"]})
        self.leastsq_params = params

    def fit(self) -> _Fit:
        if self._fit is None:
            if not self.res.success:
                raise ImplicitDerivativeError(f"{_LEASTSQ} did not converge ({self.res.message}): the implicit "
                                              "derivative at a point that is not a solution would be wrong")
            params = self.leastsq_params
            jac = None if params["col_deriv"] else params["Dfun"]  # col_deriv: the transposed Jacobian
            model = _Model(self.config, self.fun, self.res.x, self.items, False)
            self._fit = _Fit(_LEASTSQ, model, None, None, jac, None)
        return self._fit


def _leastsq_cotangents(npos: int, params: dict[str, Any], dfun: Any, dargs: Any) -> tuple[Any, ...]:
    out: list[Any] = [NO]
    for name in _LEASTSQ_NAMES[:npos]:
        out.append({"func": dfun, "x0": zero_cotangent(params["x0"]), "args": dargs}.get(name, NO))
    return tuple(out)


def _read_leastsq(dy: Any, out: tuple[Any, ...]) -> Any:
    """``(x_bar, fvec_bar)`` (``None`` for zeros), a zero, or a not-implemented tangent."""
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return dy
    parts = backing(dy) if isinstance(dy, Tangent) and dy.primal_type is tuple else dy
    if not isinstance(parts, (tuple, list)) or len(parts) != len(out):
        raise ProjectionError(f"{_LEASTSQ} pullback: output cotangent is a {type(dy).__name__}, expected a Tangent "
                              f"of the {len(out)}-tuple it returned")
    xbar = read_cotangent(parts[0], out[0], scipy.optimize.leastsq, "cotangent of output 0 (x)")
    if isinstance(xbar, NotImplementedTangent):
        return xbar
    fvec_bar = None
    if len(out) == 5:
        if out[1] is not None:
            cov_bar = read_cotangent(parts[1], out[1], scipy.optimize.leastsq, "cotangent of output 1 (cov_x)")
            if isinstance(cov_bar, NotImplementedTangent):
                return cov_bar
            if not isinstance(cov_bar, AbstractZero) and np.any(cov_bar):
                return not_implemented(_COV_X)
        info = read_result_cotangent(parts[2], out[2], ("fvec",), _LEASTSQ)
        if isinstance(info, NotImplementedTangent):
            return info
        if not isinstance(info, AbstractZero):
            fvec_bar = info["fvec"]
    return (None if isinstance(xbar, AbstractZero) else xbar), fvec_bar


@rrule.register(scipy.optimize.leastsq, object, object, config=HasReverseMode)
def leastsq_rrule(config: Any, func: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.leastsq``: ``least_squares``' at the point it returns (``x``, and with
    ``full_output`` the residual ``infodict['fvec']``; ``cov_x`` is ``not_implemented``).

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig, Tangent, NoTangent
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()                        # p0 exp(-p1 t) - y, with rules
    >>> t = np.linspace(0.0, 2.0, 5)
    >>> y = 2.0 * np.exp(-1.5 * t)                   # exact data: the fit is (2, 1.5)
    >>> (x, ier), pullback = rrule(RulesOnlyConfig(), scipy.optimize.leastsq, _problems.exp_decay_residual,
    ...                            np.ones(2), (t, y), xtol=1e-14, ftol=1e-14)
    >>> np.round(x, 10), ier in (1, 2, 3, 4)
    (array([2. , 1.5]), True)
    """
    out = scipy.optimize.leastsq(func, x0, *rest, **kwargs)
    params = bind(scipy.optimize.leastsq, (func, x0, *rest), kwargs)
    npos = 2 + len(rest)
    problem = _Leastsq(config, out, params)

    def leastsq_pullback(dy: Any) -> tuple[Any, ...]:
        bars = _read_leastsq(dy, out)
        if isinstance(bars, NotImplementedTangent):
            return _leastsq_cotangents(npos, params, NO if carries_no_values(func) else bars,
                                       _missing_for(params["args"], bars))
        if isinstance(bars, AbstractZero) or all(v is None for v in bars):
            return _leastsq_cotangents(npos, params, NO, args_zero_cotangent(params["args"]))
        try:
            dfun, dargs = problem.cotangents(bars[0], None, bars[1])
        except MissingDerivative as missing:
            return _leastsq_cotangents(npos, params, NO if carries_no_values(func) else missing.tangent,
                                       _missing_for(params["args"], missing.tangent))
        return _leastsq_cotangents(npos, params, dfun if not carries_no_values(func) or not is_zero(dfun) else NO,
                                   args_cotangent(params["args"], dargs))

    return out, leastsq_pullback


@frule.register(scipy.optimize.leastsq, object, object, config=HasForwardsMode)
def leastsq_frule(config: Any, tangents: Any, func: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.leastsq``: ``(J^T J + C) dx = -(mixed derivatives) dargs``."""
    out = scipy.optimize.leastsq(func, x0, *rest, **kwargs)
    params = bind(scipy.optimize.leastsq, (func, x0, *rest), kwargs)
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[3] if len(tangents) > 3 else ZERO
    if is_zero(dfun) and is_zero(dargs):
        return out, ZERO
    try:
        dx, _, de = _Leastsq(config, out, params).tangents(dfun, dargs)
    except MissingDerivative as missing:
        return out, missing.tangent
    dx = dx.reshape(np.shape(out[0]))
    if len(out) == 2:
        return out, Tangent(tuple, dx, NO)
    dcov = NO if out[1] is None else not_implemented(_COV_X)
    return out, Tangent(tuple, dx, dcov, result_tangent(out[2], {"fvec": de}), NO, NO)


@sample_inputs(scipy.optimize.leastsq)
def _leastsq_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    t, y = _decay_data(rng)
    check: dict[str, Any] = {"config": RulesOnlyConfig(), "gauge_invariant": lambda out: out[0], "fdm": _NOISY,
                             "rtol": 1e-5, "atol": 1e-6}
    yield Sample(_problems.exp_decay_residual, np.ones(2), (t, y), _problems.exp_decay_jacobian,
                 fkwargs={"xtol": 1e-15, "ftol": 1e-15}, label="Dfun by position", **check)
