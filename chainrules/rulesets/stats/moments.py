"""Moment statistics of ``scipy.stats``: ``moment``, ``skew``, ``kurtosis``, ``variation``, ``sem``, ``gstd``,
``zscore`` and ``describe``, in the data (and ``ddof`` when it is a float given by position).

Each statistic reads the slices of ``a`` along ``axis`` (an int, a tuple or ``None``) and
takes SciPy's ``nan_policy`` (``'omit'``: NaN entries are dropped and get a zero
cotangent; ``describe`` returns masked arrays then, and raises here) and ``keepdims``.

The maths
---------
For one slice of ``n`` entries with mean ``c``, deviations ``d_i = x_i - c`` and central
moments ``m_k = sum d^k / n`` (so ``m_1 = 0``), differentiating ``m_k`` and the mean gives
(the term of ``c`` is ``-k m_(k-1) / n``)::

    dm_k/dx_i = (k/n) (d_i^(k-1) - m_(k-1))      [about a given centre c: (k/n) d_i^(k-1)]

and with ``s = sqrt(sum d^2 / (n - ddof))``, ``ds/dx_i = d_i / ((n - ddof) s)``,
``ds/dddof = s / (2 (n - ddof))``. From these, by the quotient rule:

* ``moment``: the formula above, per order (``order`` is an integer: ``NoTangent()``);
  the centre passed as ``center=`` is a constant.
* ``skew`` ``g_1 = m_3 / m_2^(3/2)``:
  ``dg_1/dx_i = (3/n) ((d_i^2 - m_2) / m_2^(3/2) - m_3 d_i / m_2^(5/2))``; with
  ``bias=False`` (``n > 2``) times SciPy's constant ``sqrt(n (n-1)) / (n - 2)``.
* ``kurtosis`` ``g_2 = m_4 / m_2^2`` (minus 3 for Fisher's definition):
  ``dg_2/dx_i = (4/n) ((d_i^3 - m_3) / m_2^2 - m_4 d_i / m_2^3)``; with ``bias=False``
  (``n > 3``) times ``(n^2 - 1) / ((n - 2)(n - 3))``.
  Where SciPy returns NaN for a (numerically) constant slice, so does the rule.
* ``variation`` ``v = s / c``: ``dv/dx_i = d_i / ((n - ddof) s c) - v / (n c)``,
  ``dv/dddof = v / (2 (n - ddof))``.
* ``sem`` ``= s / sqrt(n)``: ``d_i / ((n - ddof) s sqrt(n))``, and ``sem / (2 (n - ddof))``
  in ``ddof``.
* ``gstd`` ``G = exp(s_L)``, ``s_L`` the standard deviation of ``L = log x``:
  ``dG/dx_i = G (L_i - mean L) / ((n - ddof) s_L x_i)``, ``dG/dddof = G s_L / (2 (n - ddof))``.
* ``zscore`` ``z_i = d_i / s``: the Jacobian of a slice is the symmetric matrix
  ``J = (I - 1 1^T / n) / s - z z^T / ((n - ddof) s)``, applied in both directions without
  forming it: ``x_bar = (z_bar - mean(z_bar)) / s - z <z, z_bar> / ((n - ddof) s)``;
  ``dz/dddof = -z / (2 (n - ddof))``.
* ``describe``: ``nobs`` is a count (``NoTangent()``), ``minmax`` follows the library's
  extrema convention (ties share the cotangent equally, as ``np.min``/``np.max``), then
  the mean ``1/n``, the variance ``2 d_i / (n - ddof)`` (``var / (n - ddof)`` in a float
  ``ddof``), and the skewness and (Fisher) kurtosis above.

Where the standard deviation of a slice is zero (all entries equal), ``s`` has a kink:
the rules use its zero subgradient, as the ``np.std`` rule does (``variation``, ``sem``,
``gstd``). ``ddof`` is differentiated only when given by position as a float; ``bias``,
``fisher`` and ``order`` are flags or integers. Complex data: SciPy computes these from
``|d|^2`` or not at all; their cotangent is ``not_implemented``.

Examples
--------
>>> import numpy as np, scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(st.moment, np.array([1.0, 2.0, 6.0]), 2)
>>> pullback(1.0)[1]  # (2/n) d_i: the variance with ddof = 0
array([-1.33333333, -0.66666667,  2.        ])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.stats as st

from chainrules.rulesets.stats._calls import ABSENT, bind, primal_args
from chainrules.rulesets.stats._slices import (
    COMPLEX_REASON,
    NO,
    Slices,
    argument_cotangent,
    check_nan_policy,
    fit_output,
    omits,
    tangent_value,
    zero_like,
)
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    backing,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)

__all__ = ["describe_frule", "describe_rrule", "gstd_frule", "gstd_rrule", "kurtosis_frule", "kurtosis_rrule",
           "moment_frule", "moment_rrule", "sem_frule", "sem_rrule", "skew_frule", "skew_rrule", "variation_frule",
           "variation_rrule", "zscore_frule", "zscore_rrule"]


# ---- the maths, on slices -------------------------------------------------------------------------------
class _Central:
    """Central moments of the slices of ``a`` and their derivatives (all as ``batch + (1,)`` or slices)."""

    __slots__ = ("_m", "d", "mean", "n", "slices")

    def __init__(self, a: Any, axis: Any, omit: bool, center: Any = None) -> None:
        self.slices = s = Slices(a, axis, omit)
        self.n = np.asarray(s.n, dtype=np.float64)
        x = s.x.real
        self.mean = s.mean(x) if center is None else np.asarray(center, dtype=np.float64)
        with np.errstate(invalid="ignore"):
            self.d = s.masked(x - self.mean)
        self._m: dict[int, np.ndarray] = {}

    def m(self, k: int) -> np.ndarray:
        """``m_k = sum d^k / n`` (``m_0 = 1``)."""
        if k not in self._m:
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                self._m[k] = np.ones_like(self.n) if k == 0 else np.sum(self.d ** k, axis=-1, keepdims=True) / self.n
        return self._m[k]

    def dm(self, k: int, centred: bool = True) -> np.ndarray:
        """``dm_k/dx`` (slices): about the mean when ``centred``, else about a fixed centre."""
        if k == 0:
            return np.zeros_like(self.d)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            power = np.ones_like(self.d) if k == 1 else self.d ** (k - 1)
            g = (k / self.n) * (power - self.m(k - 1)) if centred else (k / self.n) * power
        return self.slices.masked(g)

    def std(self, ddof: float) -> np.ndarray:
        """``s = sqrt(sum d^2 / (n - ddof))``."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.sqrt(self.m(2) * self.n / (self.n - ddof))

    def dstd(self, ddof: float) -> np.ndarray:
        """``ds/dx = d / ((n - ddof) s)`` (slices), 0 where ``s = 0``."""
        s = self.std(ddof)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(s == 0, 0.0, self.d / ((self.n - ddof) * np.where(s == 0, 1.0, s)))

    def skew_gradient(self, bias: bool) -> np.ndarray:
        m2, m3 = self.m(2), self.m(3)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            g = self.dm(3) / m2 ** 1.5 - 1.5 * m3 / m2 ** 2.5 * self.dm(2)
            if not bias:
                n = self.n
                g = np.where(n > 2, g * np.sqrt((n - 1.0) * n) / (n - 2.0), g)
        return self.slices.masked(g)

    def kurtosis_gradient(self, bias: bool) -> np.ndarray:
        m2, m4 = self.m(2), self.m(4)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            g = self.dm(4) / m2 ** 2 - 2.0 * m4 / m2 ** 3 * self.dm(2)
            if not bias:
                n = self.n
                g = np.where(n > 3, g * (n * n - 1.0) / ((n - 2.0) * (n - 3.0)), g)
        return self.slices.masked(g)


def _pull(c: _Central, grad: np.ndarray, dy: Any, a: Any) -> Any:
    return argument_cotangent(a, c.slices.restore(grad * c.slices.lift(dy)))


def _push(c: _Central, grad: np.ndarray, da: Any) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.sum(grad * c.slices.masked(c.slices.take(da).real), axis=-1)


def _float_ddof(ddof: Any, by_position: bool) -> bool:
    return by_position and differentiable(ddof)


def _pass_on(dy: Any, x: Any) -> Any:
    if not differentiable(x):
        return NO
    return dy if isinstance(dy, NotImplementedTangent) else zero_like(x)


def _complex_cotangent(a: Any) -> Any:
    return not_implemented(COMPLEX_REASON) if np.iscomplexobj(a) else None


# ---- statistics whose gradient is one vector per output (and maybe a ddof partial) ------------------------
class _Statistic:
    """One axis-reducing statistic: how to bind a call and its gradients.

    ``gradient(c, y, bound) -> slices array`` (dy/da); ``ddof_partial(c, y, bound) -> batch + (1,)``.
    """

    def __init__(self, f: Any, names: tuple[str, ...], defaults: dict[str, Any],
                 gradient: Callable[..., np.ndarray],
                 ddof_partial: Callable[..., np.ndarray] | None = None, omit_ok: bool = True) -> None:
        self.f, self.names, self.defaults = f, names, defaults
        self.gradient, self.ddof_partial, self.omit_ok = gradient, ddof_partial, omit_ok

    def central(self, a: Any, bound: dict[str, Any]) -> _Central:
        omit = check_nan_policy(self.f, bound.get("nan_policy")) if self.omit_ok else omits(
            self.f, bound.get("nan_policy"))
        return _Central(a, bound["axis"], omit)

    def rrule(self, short: str, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        """The reverse rule at ``f(*args, **kwargs)`` (``args`` with :data:`ABSENT` for those not given)."""
        f, names = self.f, self.names
        a = args[0]
        y = f(a, *primal_args(*args[1:]), **kwargs)
        b = bind(names, self.defaults, args, kwargs)
        k_ddof = names.index("ddof") if "ddof" in names else -1
        diff_ddof = k_ddof >= 0 and _float_ddof(b["ddof"], b.by_position("ddof"))
        ddof_arg = b["ddof"] if diff_ddof else None
        diff_a = differentiable(a)
        missing = _complex_cotangent(a)
        stat = self

        def statistic_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, f)
            out: list[Any] = [NO] * (len(names) + 1)
            if passes_through(dy):
                out[1] = _pass_on(dy, a)
                if diff_ddof:
                    out[1 + k_ddof] = _pass_on(dy, ddof_arg)
                return tuple(out)
            c = stat.central(a, b)

            def cot_a() -> Any:
                return missing or _pull(c, stat.gradient(c, y, b), dy, a)

            def cot_ddof() -> Any:
                assert stat.ddof_partial is not None
                return argument_cotangent(ddof_arg, np.sum(stat.ddof_partial(c, y, b) * c.slices.lift(dy)))

            several = diff_a and diff_ddof
            if diff_a:
                out[1] = Thunk(cot_a) if several else cot_a()
            if diff_ddof:
                out[1 + k_ddof] = Thunk(cot_ddof) if several else cot_ddof()
            return tuple(out)

        statistic_pullback.__name__ = statistic_pullback.__qualname__ = f"{short}_pullback"
        return y, statistic_pullback

    def frule(self, tangents: tuple[Any, ...], args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any]:
        """The forward rule at ``f(*args, **kwargs)``."""
        f, names = self.f, self.names
        a = args[0]
        y = f(a, *primal_args(*args[1:]), **kwargs)
        b = bind(names, self.defaults, args, kwargs)
        da = tangent_value(tangents[1]) if differentiable(a) else None
        dd = None
        if "ddof" in names and _float_ddof(b["ddof"], b.by_position("ddof")):
            dd = tangent_value(tangents[1 + names.index("ddof")])
        if da is None and dd is None:
            return y, fit_output(None, y)
        for t in (da, dd):
            if isinstance(t, NotImplementedTangent):
                return y, t
        if da is not None and np.iscomplexobj(a):
            return y, not_implemented(COMPLEX_REASON)
        c = self.central(a, b)
        total: Any = 0.0
        if da is not None:
            total = _push(c, self.gradient(c, y, b), da)
        if dd is not None:
            assert self.ddof_partial is not None
            total = total + self.ddof_partial(c, y, b)[..., 0] * float(np.real(dd))
        return y, fit_output(total, y)


def _skew_gradient(c: _Central, y: Any, b: dict[str, Any]) -> np.ndarray:
    return c.skew_gradient(bool(b["bias"]))


def _kurtosis_gradient(c: _Central, y: Any, b: dict[str, Any]) -> np.ndarray:
    return c.kurtosis_gradient(bool(b["bias"]))


def _ddof(b: dict[str, Any]) -> float:
    return float(b["ddof"])


def _variation_gradient(c: _Central, y: Any, b: dict[str, Any]) -> np.ndarray:
    ddof = _ddof(b)
    v = c.slices.lift(y)
    with np.errstate(invalid="ignore", divide="ignore"):
        return c.slices.masked(c.dstd(ddof) / c.mean - v / (c.n * c.mean))


def _half_over_dof(c: _Central, y: Any, b: dict[str, Any]) -> np.ndarray:
    """``y / (2 (n - ddof))``: the ddof partial of ``variation`` and ``sem``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return c.slices.lift(y) / (2.0 * (c.n - _ddof(b)))


def _sem_gradient(c: _Central, y: Any, b: dict[str, Any]) -> np.ndarray:
    return c.dstd(_ddof(b)) / np.sqrt(c.n)


class _LogCentral(_Central):
    """The central moments of ``log a`` (``gstd``), with the data kept for the chain rule."""

    __slots__ = ("data",)

    def __init__(self, a: Any, axis: Any, omit: bool, center: Any = None) -> None:
        with np.errstate(divide="ignore", invalid="ignore"):
            logs = np.log(np.asarray(a).real.astype(np.float64))
        super().__init__(logs, axis, omit)
        self.data = self.slices.take(np.asarray(a).real)


class _GeometricStatistic(_Statistic):
    def central(self, a: Any, bound: dict[str, Any]) -> _Central:
        return _LogCentral(a, bound["axis"], check_nan_policy(self.f, bound.get("nan_policy")))


def _gstd_gradient(c: _Central, y: Any, b: dict[str, Any]) -> np.ndarray:
    assert isinstance(c, _LogCentral)
    with np.errstate(invalid="ignore", divide="ignore"):
        return c.slices.masked(c.slices.lift(y) * c.dstd(_ddof(b)) / c.data)


def _gstd_ddof(c: _Central, y: Any, b: dict[str, Any]) -> np.ndarray:
    g = c.slices.lift(y)
    with np.errstate(invalid="ignore", divide="ignore"):
        return g * np.log(g) / (2.0 * (c.n - _ddof(b)))


_AXIS_POLICY = {"axis": 0, "nan_policy": "propagate", "keepdims": False}
_SKEW = _Statistic(st.skew, ("a", "axis", "bias", "nan_policy"), {**_AXIS_POLICY, "bias": True}, _skew_gradient)
_KURTOSIS = _Statistic(st.kurtosis, ("a", "axis", "fisher", "bias", "nan_policy"),
                       {**_AXIS_POLICY, "fisher": True, "bias": True}, _kurtosis_gradient)
_VARIATION = _Statistic(st.variation, ("a", "axis", "nan_policy", "ddof"), {**_AXIS_POLICY, "ddof": 0},
                        _variation_gradient, _half_over_dof)
_SEM = _Statistic(st.sem, ("a", "axis", "ddof", "nan_policy"), {**_AXIS_POLICY, "ddof": 1}, _sem_gradient,
                  _half_over_dof)
_GSTD = _GeometricStatistic(st.gstd, ("a", "axis", "ddof"), {**_AXIS_POLICY, "ddof": 1}, _gstd_gradient, _gstd_ddof)


def skew_rrule(a: Any, axis: Any = ABSENT, bias: Any = ABSENT, nan_policy: Any = ABSENT, /, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.stats.skew`` (see the module docstring)."""
    return _SKEW.rrule("skew", (a, axis, bias, nan_policy), kwargs)


def skew_frule(tangents: Any, a: Any, axis: Any = ABSENT, bias: Any = ABSENT, nan_policy: Any = ABSENT, /,
               **kwargs: Any) -> Any:
    """Forward rule of ``scipy.stats.skew``."""
    return _SKEW.frule(tangents, (a, axis, bias, nan_policy), kwargs)


def kurtosis_rrule(a: Any, axis: Any = ABSENT, fisher: Any = ABSENT, bias: Any = ABSENT, nan_policy: Any = ABSENT,
                   /, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.stats.kurtosis`` (see the module docstring)."""
    return _KURTOSIS.rrule("kurtosis", (a, axis, fisher, bias, nan_policy), kwargs)


def kurtosis_frule(tangents: Any, a: Any, axis: Any = ABSENT, fisher: Any = ABSENT, bias: Any = ABSENT,
                   nan_policy: Any = ABSENT, /, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.stats.kurtosis``."""
    return _KURTOSIS.frule(tangents, (a, axis, fisher, bias, nan_policy), kwargs)


def variation_rrule(a: Any, axis: Any = ABSENT, nan_policy: Any = ABSENT, ddof: Any = ABSENT, /,
                    **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.stats.variation`` (``ddof`` by position as a float: differentiated)."""
    return _VARIATION.rrule("variation", (a, axis, nan_policy, ddof), kwargs)


def variation_frule(tangents: Any, a: Any, axis: Any = ABSENT, nan_policy: Any = ABSENT, ddof: Any = ABSENT, /,
                    **kwargs: Any) -> Any:
    """Forward rule of ``scipy.stats.variation``."""
    return _VARIATION.frule(tangents, (a, axis, nan_policy, ddof), kwargs)


def sem_rrule(a: Any, axis: Any = ABSENT, ddof: Any = ABSENT, nan_policy: Any = ABSENT, /, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.stats.sem`` (``ddof`` by position as a float: differentiated)."""
    return _SEM.rrule("sem", (a, axis, ddof, nan_policy), kwargs)


def sem_frule(tangents: Any, a: Any, axis: Any = ABSENT, ddof: Any = ABSENT, nan_policy: Any = ABSENT, /,
              **kwargs: Any) -> Any:
    """Forward rule of ``scipy.stats.sem``."""
    return _SEM.frule(tangents, (a, axis, ddof, nan_policy), kwargs)


def gstd_rrule(a: Any, axis: Any = ABSENT, ddof: Any = ABSENT, /, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.stats.gstd`` (``ddof`` by position as a float: differentiated)."""
    return _GSTD.rrule("gstd", (a, axis, ddof), kwargs)


def gstd_frule(tangents: Any, a: Any, axis: Any = ABSENT, ddof: Any = ABSENT, /, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.stats.gstd``."""
    return _GSTD.frule(tangents, (a, axis, ddof), kwargs)


for _f, _r, _fr in ((st.skew, skew_rrule, skew_frule), (st.kurtosis, kurtosis_rrule, kurtosis_frule),
                    (st.variation, variation_rrule, variation_frule), (st.sem, sem_rrule, sem_frule),
                    (st.gstd, gstd_rrule, gstd_frule)):
    rrule.register(_f)(_r)
    frule.register(_f)(_fr)


# ---- moment ----------------------------------------------------------------------------------------------
_MOMENT = ("a", "order", "axis", "nan_policy")
_MOMENT_DEFAULTS = {"order": 1, **_AXIS_POLICY, "center": None}


def _moment_gradients(c: _Central, orders: np.ndarray, centred: bool) -> np.ndarray:
    """``dm_k/dx`` for each order ``k``: shape ``(len(orders),) + slices``."""
    return np.stack([c.dm(int(k), centred) for k in orders])


def _moment_setup(a: Any, order: Any, axis: Any, nan_policy: Any,
                  kwargs: dict[str, Any]) -> tuple[Any, np.ndarray, bool]:
    """The bound call, the orders as a 1-d array, and whether the centre is the mean."""
    b = bind(_MOMENT, _MOMENT_DEFAULTS, (a, order, axis, nan_policy), kwargs)
    return b, np.atleast_1d(np.asarray(b["order"])), b["center"] is None


def moment_rrule(a: Any, order: Any = ABSENT, axis: Any = ABSENT, nan_policy: Any = ABSENT, /,
                 **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.moment`` (see the module docstring)."""
    y = st.moment(a, *primal_args(order, axis, nan_policy), **kwargs)
    b, flat, centred = _moment_setup(a, order, axis, nan_policy, kwargs)
    missing = _complex_cotangent(a)

    def moment_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, st.moment)
        if passes_through(dy) or missing is not None or not differentiable(a):
            return NO, _pass_on(dy, a) if missing is None else missing, NO, NO, NO
        c = _Central(a, b["axis"], check_nan_policy(st.moment, b["nan_policy"]),
                     None if centred else b["center"])
        grads = _moment_gradients(c, flat, centred)
        dyk = np.reshape(dy, (len(flat),) + c.slices.batch + (1,))
        return NO, argument_cotangent(a, c.slices.restore(np.sum(grads * dyk, axis=0))), NO, NO, NO

    return y, moment_pullback


def moment_frule(tangents: tuple[Any, ...], a: Any, order: Any = ABSENT, axis: Any = ABSENT,
                 nan_policy: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.moment``."""
    y = st.moment(a, *primal_args(order, axis, nan_policy), **kwargs)
    b, flat, centred = _moment_setup(a, order, axis, nan_policy, kwargs)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    if da is None or isinstance(da, NotImplementedTangent):
        return y, fit_output(da, y)
    if np.iscomplexobj(a):
        return y, not_implemented(COMPLEX_REASON)
    c = _Central(a, b["axis"], check_nan_policy(st.moment, b["nan_policy"]), None if centred else b["center"])
    grads = _moment_gradients(c, flat, centred)
    dx = c.slices.masked(c.slices.take(da).real)
    return y, fit_output(np.sum(grads * dx, axis=-1), y)


rrule.register(st.moment)(moment_rrule)
frule.register(st.moment)(moment_frule)


# ---- zscore ----------------------------------------------------------------------------------------------
_ZSCORE = ("a", "axis", "ddof", "nan_policy")
_ZSCORE_DEFAULTS = {"axis": 0, "ddof": 0, "nan_policy": "propagate"}


class _ZScore:
    """The Jacobian of ``zscore`` on each slice, applied without forming it."""

    __slots__ = ("c", "ddof", "s", "z")

    def __init__(self, a: Any, b: dict[str, Any]) -> None:
        self.c = _Central(a, b["axis"], check_nan_policy(st.zscore, b["nan_policy"]))
        self.ddof = float(b["ddof"])
        self.s = self.c.std(self.ddof)
        with np.errstate(invalid="ignore", divide="ignore"):
            self.z = self.c.slices.masked(self.c.d / self.s)

    def apply(self, v: np.ndarray) -> np.ndarray:
        """``J v`` on each slice (``J`` is symmetric: also ``J^T v``)."""
        c = self.c
        v = c.slices.masked(v)
        with np.errstate(invalid="ignore", divide="ignore"):
            centred = c.slices.masked(v - c.slices.mean(v))
            inner = np.sum(self.z * v, axis=-1, keepdims=True)
            return c.slices.masked(centred / self.s - self.z * inner / ((c.n - self.ddof) * self.s))

    def ddof_partial(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return -self.z / (2.0 * (self.c.n - self.ddof))


def zscore_rrule(a: Any, axis: Any = ABSENT, ddof: Any = ABSENT, nan_policy: Any = ABSENT, /,
                 **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.zscore`` (see the module docstring)."""
    y = st.zscore(a, *primal_args(axis, ddof, nan_policy), **kwargs)
    b = bind(_ZSCORE, _ZSCORE_DEFAULTS, (a, axis, ddof, nan_policy), kwargs)
    diff_a = differentiable(a)
    diff_ddof = _float_ddof(b["ddof"], b.by_position("ddof"))
    missing = _complex_cotangent(a)

    def zscore_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, st.zscore)
        if passes_through(dy):
            return NO, _pass_on(dy, a), NO, _pass_on(dy, ddof) if diff_ddof else NO, NO
        jac = _ZScore(a, b)
        dys = jac.c.slices.take(np.real(dy))

        def cot_a() -> Any:
            return missing or argument_cotangent(a, jac.c.slices.restore(jac.apply(dys)))

        def cot_ddof() -> Any:
            return argument_cotangent(ddof, np.sum(jac.c.slices.masked(jac.ddof_partial() * dys)))

        several = diff_a and diff_ddof
        return (NO, (Thunk(cot_a) if several else cot_a()) if diff_a else NO, NO,
                (Thunk(cot_ddof) if several else cot_ddof()) if diff_ddof else NO, NO)

    return y, zscore_pullback


def zscore_frule(tangents: tuple[Any, ...], a: Any, axis: Any = ABSENT, ddof: Any = ABSENT, nan_policy: Any = ABSENT,
                 /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.zscore``."""
    y = st.zscore(a, *primal_args(axis, ddof, nan_policy), **kwargs)
    b = bind(_ZSCORE, _ZSCORE_DEFAULTS, (a, axis, ddof, nan_policy), kwargs)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    dd = tangent_value(tangents[3]) if _float_ddof(b["ddof"], b.by_position("ddof")) else None
    if da is None and dd is None:
        return y, fit_output(None, y)
    for t in (da, dd):
        if isinstance(t, NotImplementedTangent):
            return y, t
    if da is not None and np.iscomplexobj(a):
        return y, not_implemented(COMPLEX_REASON)
    jac = _ZScore(a, b)
    total: Any = 0.0
    if da is not None:
        total = jac.apply(jac.c.slices.take(da).real)
    if dd is not None:
        total = total + jac.ddof_partial() * float(np.real(dd))
    return y, fit_output(jac.c.slices.restore(np.broadcast_to(total, jac.z.shape)), y)


rrule.register(st.zscore)(zscore_rrule)
frule.register(st.zscore)(zscore_frule)


# ---- describe --------------------------------------------------------------------------------------------
_DESCRIBE = ("a", "axis", "ddof", "bias", "nan_policy")
_DESCRIBE_DEFAULTS = {"axis": 0, "ddof": 1, "bias": True, "nan_policy": "propagate"}
_DESCRIBE_FIELDS = ("nobs", "minmax", "mean", "variance", "skewness", "kurtosis")


def _tie_shares(c: _Central, value: np.ndarray) -> np.ndarray:
    """The equal shares of the entries of each slice equal to ``value`` (the extrema convention)."""
    hit = c.slices.masked((c.slices.x.real == c.slices.lift(value)).astype(np.float64))
    return hit / np.sum(hit, axis=-1, keepdims=True)


class _Describe:
    """The gradients of the numeric fields of ``describe`` (slices), computed on demand."""

    def __init__(self, a: Any, y: Any, b: dict[str, Any]) -> None:
        omits(st.describe, b["nan_policy"])
        self.c = _Central(a, b["axis"], False)
        self.y, self.ddof, self.bias = y, float(b["ddof"]), bool(b["bias"])

    def gradients(self) -> dict[str, np.ndarray]:
        c, y = self.c, self.y
        with np.errstate(invalid="ignore", divide="ignore"):
            return {"min": _tie_shares(c, np.asarray(y.minmax[0])), "max": _tie_shares(c, np.asarray(y.minmax[1])),
                    "mean": np.broadcast_to(1.0 / c.n, c.d.shape),
                    "variance": 2.0 * c.d / (c.n - self.ddof),
                    "skewness": c.skew_gradient(self.bias), "kurtosis": c.kurtosis_gradient(self.bias)}

    def ddof_partial(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.c.slices.lift(self.y.variance) / (self.c.n - self.ddof)


def _describe_parts(dy: Any, y: Any) -> dict[str, Any] | Any:
    """The cotangents of the numeric fields of a ``DescribeResult`` (``None`` for a zero), or a zero /
    not-implemented tangent for the whole output."""
    dy = unthunk(dy)
    rest: Any
    if isinstance(dy, Tangent):
        stored = backing(dy)
        if isinstance(stored, dict):
            minmax = stored.get("minmax", ZeroTangent())
            rest = Tangent(type(y), **{k: v for k, v in stored.items() if k != "minmax"})
        else:
            minmax = stored[1] if len(stored) == len(_DESCRIBE_FIELDS) else ZeroTangent()
            rest = Tangent(type(y), *[ZeroTangent() if i == 1 else v for i, v in enumerate(stored)])
    elif isinstance(dy, (tuple, list)) and len(dy) == len(_DESCRIBE_FIELDS):
        minmax, rest = dy[1], type(dy)(ZeroTangent() if i == 1 else v for i, v in enumerate(dy))
    else:
        rest, minmax = dy, ZeroTangent()
    parts = read_cotangents(rest, y, st.describe)
    if passes_through(parts):
        return parts
    bounds = read_cotangents(minmax, y.minmax, st.describe)
    out = dict(zip(_DESCRIBE_FIELDS, parts))
    out["min"], out["max"] = (None, None) if passes_through(bounds) else bounds
    if isinstance(bounds, NotImplementedTangent):
        return bounds
    return out


def describe_rrule(a: Any, axis: Any = ABSENT, ddof: Any = ABSENT, bias: Any = ABSENT, nan_policy: Any = ABSENT, /,
                   **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.describe`` (its numeric fields; ``nobs`` is a count)."""
    b = bind(_DESCRIBE, _DESCRIBE_DEFAULTS, (a, axis, ddof, bias, nan_policy), kwargs)
    omits(st.describe, b["nan_policy"])
    y = st.describe(a, *primal_args(axis, ddof, bias, nan_policy), **kwargs)
    diff_a = differentiable(a)
    diff_ddof = _float_ddof(b["ddof"], b.by_position("ddof"))
    missing = _complex_cotangent(a)

    def describe_pullback(dy: Any) -> tuple[Any, ...]:
        parts = _describe_parts(dy, y)
        if passes_through(parts):
            return NO, _pass_on(parts, a), NO, _pass_on(parts, ddof) if diff_ddof else NO, NO, NO
        d = _Describe(a, y, b)
        lift = d.c.slices.lift

        def cot_a() -> Any:
            if missing is not None:
                return missing
            grads = d.gradients()
            total = np.zeros_like(d.c.d)
            for name in ("min", "max", "mean", "variance", "skewness", "kurtosis"):
                if parts[name] is not None:
                    total = total + grads[name] * lift(parts[name])
            return argument_cotangent(a, d.c.slices.restore(total))

        def cot_ddof() -> Any:
            if parts["variance"] is None:
                return zero_like(ddof)
            return argument_cotangent(ddof, np.sum(d.ddof_partial() * lift(parts["variance"])))

        several = diff_a and diff_ddof
        return (NO, (Thunk(cot_a) if several else cot_a()) if diff_a else NO, NO,
                (Thunk(cot_ddof) if several else cot_ddof()) if diff_ddof else NO, NO, NO)

    return y, describe_pullback


def describe_frule(tangents: tuple[Any, ...], a: Any, axis: Any = ABSENT, ddof: Any = ABSENT, bias: Any = ABSENT,
                   nan_policy: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.describe``: a ``Tangent`` of the ``DescribeResult``."""
    b = bind(_DESCRIBE, _DESCRIBE_DEFAULTS, (a, axis, ddof, bias, nan_policy), kwargs)
    omits(st.describe, b["nan_policy"])
    y = st.describe(a, *primal_args(axis, ddof, bias, nan_policy), **kwargs)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    dd = tangent_value(tangents[3]) if _float_ddof(b["ddof"], b.by_position("ddof")) else None
    if da is None and dd is None:
        return y, ZeroTangent()
    for t in (da, dd):
        if isinstance(t, NotImplementedTangent):
            return y, t
    if da is not None and np.iscomplexobj(a):
        return y, not_implemented(COMPLEX_REASON)
    d = _Describe(a, y, b)
    pushed: dict[str, Any] = {k: 0.0 for k in ("min", "max", "mean", "variance", "skewness", "kurtosis")}
    if da is not None:
        dx = d.c.slices.take(da).real
        for name, g in d.gradients().items():
            with np.errstate(invalid="ignore"):
                pushed[name] = np.sum(g * dx, axis=-1)
    if dd is not None:
        pushed["variance"] = pushed["variance"] + d.ddof_partial()[..., 0] * float(np.real(dd))
    minmax = Tangent(tuple, fit_output(pushed["min"], y.minmax[0]), fit_output(pushed["max"], y.minmax[1]))
    return y, Tangent(type(y), nobs=NO, minmax=minmax,
                      **{k: fit_output(pushed[k], getattr(y, k)) for k in ("mean", "variance", "skewness",
                                                                           "kurtosis")})


rrule.register(st.describe)(describe_rrule)
frule.register(st.describe)(describe_frule)


# ---- sample inputs --------------------------------------------------------------------------------------
def _data(rng: np.random.Generator, shape: tuple[int, ...] = (5, 3)) -> np.ndarray:
    return rng.standard_normal(shape) + 1.0


def _omit(a: np.ndarray) -> np.ndarray:
    out = a.copy()
    out[[0, 2, 4], [0, 1, 2]] = np.nan
    return out


@sample_inputs(st.moment)
def _moment_samples(rng: np.random.Generator) -> list[Sample]:
    a = _data(rng)
    return [Sample(a, 3), Sample(a, 2, 1, label="axis by position"), Sample(a, [2, 3, 4], label="several orders"),
            Sample(a, 4, fkwargs={"center": 0.5}, label="center= (a constant)"),
            Sample(a, fkwargs={"order": 2, "axis": None}, label="axis=None"),
            Sample(a.astype(np.float32), 2, label="float32"),
            Sample(_omit(a), 3, fkwargs={"nan_policy": "omit"}, label="nan_policy='omit'"),
            Sample(a, 1, label="order 1 (identically 0)")]


@sample_inputs(st.skew, st.kurtosis)
def _shape_samples(rng: np.random.Generator) -> list[Sample]:
    a = _data(rng, (6, 3))
    return [Sample(a), Sample(a, 1, label="axis by position"), Sample(a, fkwargs={"bias": False}, label="bias=False"),
            Sample(a, None, label="axis=None"), Sample(a.astype(np.float32), label="float32"),
            Sample(_omit(a), fkwargs={"nan_policy": "omit", "keepdims": True}, label="nan_policy='omit', keepdims")]


@sample_inputs(st.variation, st.sem, st.gstd)
def _spread_samples(rng: np.random.Generator) -> list[Sample]:
    a = np.abs(_data(rng)) + 0.5
    return [Sample(a), Sample(a, 1, label="axis by position"), Sample(a, fkwargs={"ddof": 1}, label="ddof by keyword"),
            Sample(a.astype(np.float32), label="float32"), Sample(a, (0, 1), label="tuple axis"),
            Sample(_omit(a), fkwargs={"nan_policy": "omit"}, label="nan_policy='omit'")]


@sample_inputs(st.variation)
def _variation_ddof_samples(rng: np.random.Generator) -> list[Sample]:
    a = np.abs(_data(rng)) + 0.5
    return [Sample(a, 0, "propagate", 1.5, label="float ddof by position (differentiated)")]


@sample_inputs(st.sem, st.gstd)
def _ddof_samples(rng: np.random.Generator) -> list[Sample]:
    a = np.abs(_data(rng)) + 0.5
    return [Sample(a, 0, 0.5, label="float ddof by position (differentiated)")]


@sample_inputs(st.zscore)
def _zscore_samples(rng: np.random.Generator) -> list[Sample]:
    a = _data(rng, (4, 3))
    return [Sample(a), Sample(a, 1, label="axis by position"), Sample(a, None, 1, label="axis=None, integer ddof"),
            Sample(a, 0, 0.5, label="float ddof by position (differentiated)"),
            Sample(a.astype(np.float32), label="float32"),
            Sample(_omit(_data(rng)), fkwargs={"nan_policy": "omit"}, gauge_invariant=np.nan_to_num,
                   label="nan_policy='omit' (the NaN outputs compared as zeros)")]


@sample_inputs(st.describe)
def _describe_samples(rng: np.random.Generator) -> list[Sample]:
    a = _data(rng, (6, 3))
    return [Sample(a), Sample(a, 1, label="axis by position"), Sample(a, None, 0.5, False,
                                                                     label="float ddof by position, bias=False"),
            Sample(a.astype(np.float32), fkwargs={"ddof": 0}, label="float32, ddof by keyword")]
