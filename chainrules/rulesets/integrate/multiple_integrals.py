"""``scipy.integrate.dblquad``, ``tplquad`` and ``nquad``: iterated integrals, differentiated with respect
to their limits (numbers, or callables of the outer variables), the parameters in ``args`` and the
integrand's (and the limit functions') own values.

Higher-order rules (``config=HasReverseMode`` / ``config=HasForwardsMode``): the integrand and the
limit functions are differentiated through the calling AD (:func:`~chainrules_core.rrule_via_ad`,
:func:`~chainrules_core.frule_via_ad`). In ``nquad`` the limit functions receive ``args`` too, so
the parameters move the region as well as the integrand; in ``dblquad`` and ``tplquad`` they do
not (SciPy calls them with the outer variables only).

The maths
---------
Write the iterated integral with levels ``k = 0`` (innermost, integrated first) to ``n - 1``::

    I(p) = int_{l_{n-1}}^{h_{n-1}} ... int_{l_0(x_1..x_{n-1}, p)}^{h_0(x_1..x_{n-1}, p)} f(x_0, ..., x_{n-1}, p)
           dx_0 ... dx_{n-1}

Leibniz's rule, applied at every level (Flanders, H., "Differentiation under the integral sign",
Amer. Math. Monthly 80(6), 1973), gives the derivative as the interior term plus one boundary
term per level::

    dI = int ... int df dx
         + sum_k int_{x_{k+1..n-1}} [F_k(h_k) w_k(h_k) dh_k - F_k(l_k) w_k(l_k) dl_k] dx_{k+1} ... dx_{n-1}

where ``F_k(x_k, x_{k+1}, ...)`` is the integral over the levels inside ``k`` (``f`` itself for
``k = 0``), ``w_k`` the level's QUADPACK weight (``1`` without one), and ``dl_k``, ``dh_k`` the
tangents of its limits: the tangents given for numbers, the pushforward of the limit function
(``frule_via_ad``) for callables. Reverse mode integrates the same terms with the cotangents
``h_bar = conj(F_k(h_k) w_k(h_k)) I_bar`` pulled back through the limit functions
(``rrule_via_ad``), all parameters at once as a vector (``quad_vec`` at each level). Every
second integral uses the primal's options at its level (``epsabs``, ``epsrel``, ``limit``,
``points``, a weight). The outer limits' derivatives are the fundamental theorem of calculus.

A level with an algebraic-logarithmic weight (``'alg*'``) has no finite boundary value: the
derivatives with respect to its limits are ``not_implemented``. The error estimate and
``nquad``'s ``out_dict`` get ``NoTangent()``, as do the tolerances and options.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import scipy.integrate

from chainrules.rulesets.integrate._callables import (
    CallableDerivatives,
    Leaves,
    NotImplementedDerivativeError,
    is_zero_tangent,
    split_tangent,
)
from chainrules.rulesets.integrate._quadrature import read_integral_cotangent, weight_function
from chainrules.rulesets.integrate.quad import value_only
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    RulesOnlyConfig,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    frule,
    frule_via_ad,
    not_implemented,
    passes_through,
    rrule,
    rrule_via_ad,
    sample_inputs,
    unthunk,
)

_ALG_BOUNDS = ("the algebraic-logarithmic weights (weight='alg*') are zero or infinite at the limits: the "
               "derivatives with respect to the limits of such a level are not implemented")


class _Slots:
    """Offsets of the parts of one flat cotangent vector (args, the integrand's values, each limit's)."""

    def __init__(self) -> None:
        self.size = 0
        self.parts: dict[Any, tuple[slice, Leaves]] = {}

    def add(self, key: Any, leaves: Leaves) -> None:
        self.parts[key] = (slice(self.size, self.size + leaves.size), leaves)
        self.size += leaves.size

    def put(self, out: np.ndarray, key: Any, cotangent: Any) -> None:
        if key in self.parts:
            where, leaves = self.parts[key]
            out[where] += leaves.flatten(cotangent)

    def take(self, vector: np.ndarray, key: Any) -> Any:
        where, leaves = self.parts[key]
        return leaves.cotangent(vector[where])


class _Bound:
    """One limit of one level: a number, or a callable of the outer variables (``order`` says how it takes
    them: ``"upper"`` as ``(x_{k+1}, ..., x_{n-1}, *args)``, ``"reversed"`` as ``(x_{n-1}, ..., x_{k+1})``)."""

    def __init__(self, spec: Any, order: str = "upper", with_args: bool = False) -> None:
        self.spec, self.order, self.with_args = spec, order, with_args
        self.is_callable = callable(spec)

    def arguments(self, upper: tuple[Any, ...], args: tuple[Any, ...]) -> tuple[Any, ...]:
        head = upper[::-1] if self.order == "reversed" else upper
        return (*head, *args) if self.with_args else head


class _Level:
    """The limits of one level: one callable returning ``(lo, hi)`` (nquad), or two bounds."""

    def __init__(self, k: int, pair: Any = None, lo: _Bound | None = None, hi: _Bound | None = None,
                 with_args: bool = False) -> None:
        self.k, self.pair, self.lo, self.hi, self.with_args = k, pair, lo, hi, with_args

    def limits(self, upper: tuple[Any, ...], args: tuple[Any, ...]) -> tuple[float, float]:
        if self.pair is not None:
            if callable(self.pair):
                lo, hi = self.pair(*upper, *(args if self.with_args else ()))
            else:
                lo, hi = self.pair
            return lo, hi
        assert self.lo is not None and self.hi is not None
        return tuple(b.spec(*b.arguments(upper, args)) if b.is_callable else b.spec  # type: ignore[return-value]
                     for b in (self.lo, self.hi))


class _Iterated:
    """One call of an iterated integral: its levels, options, and the derivative integrals of its rules."""

    def __init__(self, config: Any, func: Any, levels: list[_Level], args: tuple[Any, ...],
                 opts: list[Any], value: Any) -> None:
        self.config, self.func, self.levels, self.args, self.opts = config, func, levels, args, opts
        self.n = len(levels)
        self.value = value
        self.complex = bool(np.iscomplexobj(value))
        self.derivatives = CallableDerivatives(config, func, args, n_head=self.n)

    # ---- evaluation ----------------------------------------------------------------------------------------
    def options(self, j: int, upper: tuple[Any, ...], lo: float, hi: float) -> dict[str, Any]:
        opt = self.opts[j]
        opt = dict(opt(*upper, *self.args) if callable(opt) else (opt or {}))
        if "points" in opt:
            opt["points"] = [x for x in opt["points"] if lo <= x <= hi]
        return opt

    def iterated(self, h: Callable[..., Any], m: int, upper: tuple[Any, ...], size: int | None = None,
                 dtype: Any = None) -> Any:
        """The integral of ``h(x_m, ..., x_{n-1})`` over the levels ``m`` to ``n - 1 - len(upper)``, given the
        values ``upper`` of the levels above, with each level's options (``quad``, as ``nquad`` does).

        ``size=None``: ``h`` is scalar. Otherwise ``h`` returns ``size`` values (of ``dtype``), integrated one
        by one through a cache of ``h``'s values: QUADPACK visits the same points for every value wherever it
        subdivides alike, so ``h`` (a pullback) runs about as often as the integrand did in the primal.
        (``quad_vec`` always splits an interval at least once: nested over ``n`` levels it would evaluate
        ``3**n`` times as many points.)
        """
        if size is not None:
            cache: dict[tuple[float, ...], np.ndarray] = {}

            def cached(*x: float) -> np.ndarray:
                value = cache.get(x)
                if value is None:
                    value = cache[x] = np.asarray(h(*x))
                return value

            complex_values = np.dtype(dtype).kind == "c"
            return np.array([self._scalar(lambda *x, c=c: cached(*x)[c], m, upper, complex_values)
                             for c in range(size)], dtype=dtype)
        return self._scalar(h, m, upper, self.complex)

    def _scalar(self, h: Callable[..., Any], m: int, upper: tuple[Any, ...], complex_values: bool) -> Any:
        j = self.n - 1 - len(upper)
        lo, hi = self.levels[j].limits(upper, self.args)
        opt = self.options(j, upper, lo, hi)

        def inner(xj: float) -> Any:
            point = (xj, *upper)
            return h(*point) if j == m else self._scalar(h, m, point, complex_values)

        opt["complex_func"] = complex_values or opt.get("complex_func", False)
        opt.pop("full_output", None)
        return scipy.integrate.quad(inner, lo, hi, **opt)[0]

    def inside(self, k: int, xk: float, upper: tuple[Any, ...]) -> Any:
        """``F_k(x_k, upper)``: ``f`` itself for ``k = 0``, else the integral over the levels inside ``k``."""
        if k == 0:
            return self.func(xk, *upper, *self.args)
        return self.iterated(lambda *x: self.func(*x, *self.args), 0, (xk, *upper))

    def boundary_values(self, k: int, upper: tuple[Any, ...]) -> tuple[float, float, Any, Any]:
        """``(lo, hi, F_k(lo) w_k(lo), F_k(hi) w_k(hi))`` at the outer values ``upper``."""
        lo, hi = self.levels[k].limits(upper, self.args)
        opt = self.options(k, upper, lo, hi)
        weight = opt.get("weight")
        if weight is not None and str(weight).startswith("alg"):
            raise NotImplementedDerivativeError(not_implemented(_ALG_BOUNDS))
        w = weight_function(weight, opt.get("wvar"))
        values = []
        for x in (lo, hi):
            if not math.isfinite(x):
                values.append(0.0)
                continue
            values.append(self.inside(k, x, upper) * (1.0 if w is None else w(x)))
        return lo, hi, values[0], values[1]

    def probe(self) -> list[tuple[Any, ...]]:
        """A point inside the region, as the ``upper`` values of each level (outermost first resolved)."""
        uppers: list[tuple[Any, ...]] = [()] * self.n
        upper: tuple[Any, ...] = ()
        for j in range(self.n - 1, -1, -1):
            uppers[j] = upper
            lo, hi = self.levels[j].limits(upper, self.args)
            upper = (_interior(lo, hi), *upper)
        uppers.append(upper)  # the full point (x_0, ..., x_{n-1})
        return uppers


def _interior(lo: float, hi: float) -> float:
    if math.isfinite(lo) and math.isfinite(hi):
        return lo + 0.6180339887498949 * (hi - lo)
    if math.isfinite(lo):
        return lo + 1.0
    if math.isfinite(hi):
        return hi - 1.0
    return 0.6180339887498949


# ---- reverse mode -------------------------------------------------------------------------------------------
class _Reverse:
    """The flat cotangent vector of an iterated integral and how its parts are pulled back."""

    def __init__(self, call: _Iterated, dI: Any) -> None:
        self.call, self.dI = call, dI
        self.slots = _Slots()
        d = call.derivatives
        uppers = call.probe()
        fx = d.probe(uppers[-1], dI)
        if np.iscomplexobj(dI) and not np.iscomplexobj(fx):
            self.dI = dI = np.real(dI)
        self.slots.add("args", d.parameters)
        if d.own is not None:
            self.slots.add("func", d.own)
        self.missing: dict[Any, NotImplementedTangent] = {}
        for level in call.levels:
            for side, bound in (("lo", level.lo), ("hi", level.hi)):
                if bound is None:
                    continue
                key = (level.k, side)
                if not bound.is_callable:
                    self.slots.add(key, Leaves(bound.spec))
                    continue
                own = _own_cotangent(call.config, bound.spec, bound.arguments(uppers[level.k], call.args), 1.0)
                if isinstance(own, NotImplementedTangent):
                    self.missing[key] = own
                elif own is not None:
                    self.slots.add(key, Leaves(own))
            if level.pair is not None:
                key = (level.k, "pair")
                if not callable(level.pair):
                    self.slots.add(key, Leaves(level.pair))
                    continue
                out = level.pair(*uppers[level.k], *call.args)
                own = _own_cotangent(call.config, level.pair, (*uppers[level.k], *call.args),
                                     Tangent(type(out), 1.0, 1.0) if isinstance(out, (tuple, list)) else (1.0, 1.0))
                if isinstance(own, NotImplementedTangent):
                    self.missing[key] = own
                elif own is not None:
                    self.slots.add(key, Leaves(own))
        self.dtype = self._dtype()

    def interior(self, *x: float) -> np.ndarray:
        d = self.call.derivatives
        out = np.zeros(self.slots.size, dtype=self.dtype)
        _, vector, _ = d.pullback_at(x, self.dI)
        n = d.parameters.size
        out[:n] += vector[:n]
        if "func" in self.slots.parts:
            out[self.slots.parts["func"][0]] += vector[n:]
        return out

    def boundary(self, k: int, *upper: float) -> np.ndarray:
        call, level = self.call, self.call.levels[k]
        out = np.zeros(self.slots.size, dtype=self.dtype)
        _, _, f_lo, f_hi = call.boundary_values(k, upper)
        lo_bar, hi_bar = -np.conj(f_lo) * self.dI, np.conj(f_hi) * self.dI
        if level.pair is not None:
            key = (k, "pair")
            if not callable(level.pair):
                self.slots.put(out, key, Tangent(tuple, lo_bar, hi_bar))
                return out
            y, pullback = rrule_via_ad(call.config, level.pair, *upper, *call.args)
            pair_bar = Tangent(type(y), lo_bar, hi_bar) if isinstance(y, (tuple, list)) else (lo_bar, hi_bar)
            cotangents = pullback(pair_bar)
            self.slots.put(out, "args", Tangent(tuple, *cotangents[1 + len(upper):]))
            self.slots.put(out, key, cotangents[0])
            return out
        for side, bound, bar in (("lo", level.lo, lo_bar), ("hi", level.hi, hi_bar)):
            assert bound is not None
            if not bound.is_callable:
                self.slots.put(out, (k, side), bar)
                continue
            _, pullback = rrule_via_ad(call.config, bound.spec, *bound.arguments(upper, call.args))
            self.slots.put(out, (k, side), pullback(bar)[0])
        return out

    def _dtype(self) -> np.dtype:
        dtypes = [leaves.dtype for _, leaves in self.slots.parts.values()]
        return np.result_type(np.float64, np.asarray(self.dI).dtype, *dtypes)

    def total(self) -> np.ndarray:
        call, size = self.call, self.slots.size
        total = np.zeros(size, dtype=self.dtype)
        if size == 0:
            return total
        total += call.iterated(self.interior, 0, (), size, self.dtype)
        for k in range(call.n):
            if not self._moves(k):
                continue
            if k == call.n - 1:
                total += self.boundary(k)
            else:
                total += call.iterated(lambda *upper, k=k: self.boundary(k, *upper), k + 1, (), size, self.dtype)
        return total

    def _moves(self, k: int) -> bool:
        """Whether any cotangent flows through the limits of level ``k``."""
        level = self.call.levels[k]
        keys = [(k, "pair")] if level.pair is not None else [(k, "lo"), (k, "hi")]
        if any(key in self.slots.parts for key in keys):
            return True
        moved_by_args = level.with_args and self.slots.parts["args"][1].size > 0
        return level.pair is not None and callable(level.pair) and moved_by_args


def _own_cotangent(config: Any, fn: Any, arguments: tuple[Any, ...], dy: Any) -> Any:
    """The layout probe of a limit function's own cotangent: ``None`` when it reports none."""
    _, pullback = rrule_via_ad(config, fn, *arguments)
    df = unthunk(pullback(dy)[0])
    if isinstance(df, NotImplementedTangent):
        return df
    if df is None or isinstance(df, AbstractZero):
        return None
    return df


# ---- forward mode -------------------------------------------------------------------------------------------
def _forward(call: _Iterated, dfunc: Any, dargs: tuple[Any, ...], bound_tangents: dict[Any, Any]) -> Any:
    """``dI`` along the tangents of the integrand, ``args`` and the limits (keyed like :class:`_Reverse`)."""
    d = call.derivatives
    total: Any = 0.0
    if not (is_zero_tangent(dfunc) and all(is_zero_tangent(t) for t in dargs)):
        zeros = tuple(ZeroTangent() for _ in range(call.n))

        def pushed(*x: float) -> Any:
            dy = unthunk(d.forward_at(x, zeros, dfunc, dargs)[1])
            if isinstance(dy, NotImplementedTangent):
                raise NotImplementedDerivativeError(dy)
            return 0.0 if isinstance(dy, AbstractZero) else dy

        total = total + call.iterated(pushed, 0, ())
    for level in call.levels:
        k = level.k
        limit_tangents = _level_tangents(call, level, bound_tangents, dargs)
        if limit_tangents is None:
            continue

        def boundary(*upper: float, level: _Level = level, tangents: Callable[..., Any] = limit_tangents) -> Any:
            dlo, dhi = tangents(upper)
            if is_zero_tangent(dlo) and is_zero_tangent(dhi):
                return 0.0
            _, _, f_lo, f_hi = call.boundary_values(level.k, upper)
            value: Any = 0.0
            if not is_zero_tangent(dhi):
                value = value + f_hi * unthunk(dhi)
            if not is_zero_tangent(dlo):
                value = value - f_lo * unthunk(dlo)
            return value

        total = total + (boundary() if k == call.n - 1 else call.iterated(boundary, k + 1, ()))
    return total


def _level_tangents(call: _Iterated, level: _Level, given: dict[Any, Any],
                    dargs: tuple[Any, ...]) -> Callable[[tuple[Any, ...]], tuple[Any, Any]] | None:
    """``upper -> (dlo, dhi)`` for a level, or ``None`` when its limits do not move."""
    k = level.k
    if level.pair is not None:
        dpair = given.get((k, "pair"), NoTangent())
        if not callable(level.pair):
            if is_zero_tangent(dpair):
                return None
            dlo, dhi = split_tangent(dpair, tuple(level.pair))
            return lambda upper: (dlo, dhi)
        moved_by_args = level.with_args and not all(is_zero_tangent(t) for t in dargs)
        if is_zero_tangent(dpair) and not moved_by_args:
            return None
        pair = level.pair

        def pair_tangents(upper: tuple[Any, ...]) -> tuple[Any, Any]:
            tangents = (dpair, *(ZeroTangent() for _ in upper), *(dargs if level.with_args else ()))
            y, dy = frule_via_ad(call.config, tangents, pair, *upper, *(call.args if level.with_args else ()))
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return ZeroTangent(), ZeroTangent()
            return tuple(split_tangent(dy, tuple(y)))  # type: ignore[return-value]

        return pair_tangents
    sides = []
    for side, bound in (("lo", level.lo), ("hi", level.hi)):
        assert bound is not None
        sides.append((bound, given.get((k, side), NoTangent())))
    if all(is_zero_tangent(t) for _, t in sides):
        return None

    def bound_tangents(upper: tuple[Any, ...]) -> tuple[Any, Any]:
        out = []
        for bound, t in sides:
            if is_zero_tangent(t):
                out.append(ZeroTangent())
            elif not bound.is_callable:
                out.append(t)
            else:
                arguments = bound.arguments(upper, call.args)
                out.append(frule_via_ad(call.config, (t, *(ZeroTangent() for _ in arguments)), bound.spec,
                                        *arguments)[1])
        return out[0], out[1]

    return bound_tangents


# ---- assembling the rules ----------------------------------------------------------------------------------
def _reverse_parts(call: _Iterated, dI: Any) -> tuple[_Reverse | None, np.ndarray | NotImplementedTangent]:
    try:
        reverse = _Reverse(call, dI)
        return reverse, reverse.total()
    except NotImplementedDerivativeError as err:
        return None, err.tangent


def _limit_cotangent(reverse: _Reverse | None, vector: Any, key: Any, primal: Any) -> Any:
    """The cotangent of one limit (a number, or a callable's own values) from the integrated vector."""
    if isinstance(vector, NotImplementedTangent):
        return vector if (callable(primal) or Leaves(primal).size) else NoTangent()
    assert reverse is not None
    if key in reverse.missing:
        return reverse.missing[key]
    if key not in reverse.slots.parts:
        return NoTangent() if callable(primal) or not Leaves(primal).size else cotangent_projector(primal)(
            ZeroTangent())
    value = reverse.slots.take(vector, key)
    return value if callable(primal) else cotangent_projector(primal)(value)


def _args_and_func(reverse: _Reverse | None, vector: Any, args: tuple[Any, ...]) -> tuple[Any, Any]:
    if isinstance(vector, NotImplementedTangent):
        return vector, (vector if Leaves(args).size else NoTangent())
    assert reverse is not None
    args_bar = reverse.slots.take(vector, "args")
    func_bar = reverse.slots.take(vector, "func") if "func" in reverse.slots.parts else NoTangent()
    if reverse.call.derivatives.own_missing is not None:
        func_bar = reverse.call.derivatives.own_missing
    return func_bar, args_bar


def _zero_cotangent(primal: Any, dI: Any) -> Any:
    zero = ZeroTangent() if isinstance(dI, AbstractZero) else dI
    if callable(primal):
        return NoTangent() if isinstance(zero, AbstractZero) else zero
    return cotangent_projector(primal)(zero)


def _output_tangent(out: tuple[Any, ...], d_value: Any) -> Any:
    d_value = unthunk(d_value)
    if isinstance(d_value, NotImplementedTangent):
        value: Any = d_value
    elif isinstance(d_value, AbstractZero) or (np.ndim(d_value) == 0 and d_value == 0):
        value = ZeroTangent()
    else:
        value = ProjectTo(out[0])(d_value)
    return Tangent(tuple, value, *(NoTangent() for _ in out[1:]))


def _forward_value(call: _Iterated, dfunc: Any, dargs: tuple[Any, ...], given: dict[Any, Any]) -> Any:
    try:
        return _forward(call, dfunc, dargs, given)
    except NotImplementedDerivativeError as err:
        return err.tangent


def _tolerances(epsabs: Any, epsrel: Any, n: int) -> list[Any]:
    return [{"epsabs": epsabs, "epsrel": epsrel}] * n


# ---- dblquad ------------------------------------------------------------------------------------------------
def _dblquad_call(config: Any, func: Any, a: Any, b: Any, gfun: Any, hfun: Any, args: Any, epsabs: Any,
                  epsrel: Any, value: Any) -> _Iterated:
    levels = [_Level(0, lo=_Bound(gfun), hi=_Bound(hfun)), _Level(1, lo=_Bound(a), hi=_Bound(b))]
    return _Iterated(config, func, levels, tuple(args), _tolerances(epsabs, epsrel, 2), value)


@rrule.register(scipy.integrate.dblquad, object, numbers.Real, numbers.Real, object, object,
                config=HasReverseMode)
def dblquad_rrule(config: Any, func: Any, a: Any, b: Any, gfun: Any, hfun: Any, args: Any = (),
                  epsabs: Any = 1.49e-8, epsrel: Any = 1.49e-8) -> Any:
    """Reverse rule of ``scipy.integrate.dblquad`` with respect to the limits, ``args`` (and the callables' values).

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, unthunk
    >>> out, pullback = rrule(RulesOnlyConfig(), scipy.integrate.dblquad, np.hypot, 0.0, 1.0, 0.0, 2.0)
    >>> [round(float(unthunk(c)), 10) for c in pullback((1.0, 0.0))[2:6]]    # -/+ the edges' integrals
    [-2.0, 2.9578857151, -0.5, 2.0804576389]
    """
    out = scipy.integrate.dblquad(func, a, b, gfun, hfun, args, epsabs, epsrel)
    call = _dblquad_call(config, func, a, b, gfun, hfun, args, epsabs, epsrel, out[0])

    def dblquad_pullback(d_out: Any) -> tuple[Any, ...]:
        dI = read_integral_cotangent(d_out, out, scipy.integrate.dblquad)
        if passes_through(dI):
            return (NoTangent(), NoTangent(), *(_zero_cotangent(p, dI) for p in (a, b, gfun, hfun, args)),
                    NoTangent(), NoTangent())
        reverse, vector = _reverse_parts(call, dI)
        func_bar, args_bar = _args_and_func(reverse, vector, call.args)
        limits = [_limit_cotangent(reverse, vector, key, p)
                  for key, p in (((1, "lo"), a), ((1, "hi"), b), ((0, "lo"), gfun), ((0, "hi"), hfun))]
        return NoTangent(), func_bar, *limits, args_bar, NoTangent(), NoTangent()

    return out, dblquad_pullback


@frule.register(scipy.integrate.dblquad, object, numbers.Real, numbers.Real, object, object,
                config=HasForwardsMode)
def dblquad_frule(config: Any, tangents: Any, func: Any, a: Any, b: Any, gfun: Any, hfun: Any, args: Any = (),
                  epsabs: Any = 1.49e-8, epsrel: Any = 1.49e-8) -> Any:
    """Forward rule of ``scipy.integrate.dblquad``.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig
    >>> tangents = (NoTangent(), NoTangent(), 0.0, 1.0, 0.0, 0.0)
    >>> frule(RulesOnlyConfig(), tangents, scipy.integrate.dblquad, np.multiply, 0.0, 1.0, 0.0, 2.0)[1]
    Tangent(tuple, 2.0, NoTangent())
    """
    out = scipy.integrate.dblquad(func, a, b, gfun, hfun, args, epsabs, epsrel)
    call = _dblquad_call(config, func, a, b, gfun, hfun, args, epsabs, epsrel, out[0])
    t = tuple(tangents) + (NoTangent(),) * (9 - len(tangents))
    given = {(1, "lo"): t[2], (1, "hi"): t[3], (0, "lo"): t[4], (0, "hi"): t[5]}
    return out, _output_tangent(out, _forward_value(call, t[1], split_tangent(t[6], call.args), given))


# ---- tplquad ------------------------------------------------------------------------------------------------
def _tplquad_call(config: Any, func: Any, a: Any, b: Any, gfun: Any, hfun: Any, qfun: Any, rfun: Any, args: Any,
                  epsabs: Any, epsrel: Any, value: Any) -> _Iterated:
    levels = [_Level(0, lo=_Bound(qfun, "reversed"), hi=_Bound(rfun, "reversed")),
              _Level(1, lo=_Bound(gfun), hi=_Bound(hfun)), _Level(2, lo=_Bound(a), hi=_Bound(b))]
    return _Iterated(config, func, levels, tuple(args), _tolerances(epsabs, epsrel, 3), value)


_TPLQUAD_LIMITS = (((2, "lo"), 2), ((2, "hi"), 3), ((1, "lo"), 4), ((1, "hi"), 5), ((0, "lo"), 6), ((0, "hi"), 7))
"""The limits of tplquad: (level, side) and the position of the argument (after func at 1)."""


@rrule.register(scipy.integrate.tplquad, object, numbers.Real, numbers.Real, object, object, object, object,
                config=HasReverseMode)
def tplquad_rrule(config: Any, func: Any, a: Any, b: Any, gfun: Any, hfun: Any, qfun: Any, rfun: Any,
                  args: Any = (), epsabs: Any = 1.49e-8, epsrel: Any = 1.49e-8) -> Any:
    """Reverse rule of ``scipy.integrate.tplquad`` with respect to the limits, ``args`` (and the callables' values).

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, unthunk
    >>> def f(z, y, x, t):
    ...     return t * x * y * z
    >>> @rrule.register(f, float, float, float, float)
    ... def _f_rrule(z, y, x, t):
    ...     return f(z, y, x, t), lambda dv: (NoTangent(), dv * t * x * y, dv * t * x * z, dv * t * y * z,
    ...                                       dv * x * y * z)
    >>> out, pullback = rrule(RulesOnlyConfig(), scipy.integrate.tplquad, f, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, (2.0,))
    >>> out[0], unthunk(pullback((1.0, 0.0))[8])     # 2/8 and d/dt (t/8) = 1/8
    (0.25, Tangent(tuple, 0.125))
    """
    out = scipy.integrate.tplquad(func, a, b, gfun, hfun, qfun, rfun, args, epsabs, epsrel)
    call = _tplquad_call(config, func, a, b, gfun, hfun, qfun, rfun, args, epsabs, epsrel, out[0])
    primals = (None, func, a, b, gfun, hfun, qfun, rfun)

    def tplquad_pullback(d_out: Any) -> tuple[Any, ...]:
        dI = read_integral_cotangent(d_out, out, scipy.integrate.tplquad)
        if passes_through(dI):
            return (NoTangent(), NoTangent(), *(_zero_cotangent(p, dI) for p in (*primals[2:], args)),
                    NoTangent(), NoTangent())
        reverse, vector = _reverse_parts(call, dI)
        func_bar, args_bar = _args_and_func(reverse, vector, call.args)
        limits = [_limit_cotangent(reverse, vector, key, primals[i]) for key, i in _TPLQUAD_LIMITS]
        return NoTangent(), func_bar, *limits, args_bar, NoTangent(), NoTangent()

    return out, tplquad_pullback


@frule.register(scipy.integrate.tplquad, object, numbers.Real, numbers.Real, object, object, object, object,
                config=HasForwardsMode)
def tplquad_frule(config: Any, tangents: Any, func: Any, a: Any, b: Any, gfun: Any, hfun: Any, qfun: Any,
                  rfun: Any, args: Any = (), epsabs: Any = 1.49e-8, epsrel: Any = 1.49e-8) -> Any:
    """Forward rule of ``scipy.integrate.tplquad``.

    Examples
    --------
    >>> import math
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig
    >>> tangents = (NoTangent(), NoTangent(), 0.0, 1.0, 0.0, 0.0, 0.0, 0.0)
    >>> out, dout = frule(RulesOnlyConfig(), tangents, scipy.integrate.tplquad, math.hypot, 0.0, 1.0, 0.0, 1.0,
    ...                   0.0, 1.0)
    >>> round(float(dout[0]), 10)      # d/db: int_0^1 int_0^1 hypot(z, y, 1) dz dy
    1.2807892753
    """
    out = scipy.integrate.tplquad(func, a, b, gfun, hfun, qfun, rfun, args, epsabs, epsrel)
    call = _tplquad_call(config, func, a, b, gfun, hfun, qfun, rfun, args, epsabs, epsrel, out[0])
    t = tuple(tangents) + (NoTangent(),) * (11 - len(tangents))
    given = {key: t[i] for key, i in _TPLQUAD_LIMITS}
    return out, _output_tangent(out, _forward_value(call, t[1], split_tangent(t[8], call.args), given))


# ---- nquad --------------------------------------------------------------------------------------------------
def _nquad_call(config: Any, func: Any, ranges: Sequence[Any], args: Any, opts: Any, value: Any) -> _Iterated:
    n = len(ranges)
    levels = [_Level(k, pair=r, with_args=True) for k, r in enumerate(ranges)]
    if opts is None:
        opts_list: list[Any] = [{}] * n
    elif isinstance(opts, dict):
        opts_list = [opts] * n
    else:
        opts_list = list(opts)
    return _Iterated(config, func, levels, tuple(args or ()), opts_list, value)


def _ranges_cotangent(reverse: _Reverse | None, vector: Any, ranges: Sequence[Any]) -> Any:
    parts = [_limit_cotangent(reverse, vector, (k, "pair"), r) for k, r in enumerate(ranges)]
    if all(isinstance(p, NoTangent) for p in parts):
        return NoTangent()
    return Tangent(type(ranges), *parts)


@rrule.register(scipy.integrate.nquad, object, (list, tuple), config=HasReverseMode)
def nquad_rrule(config: Any, func: Any, ranges: Any, args: Any = None, opts: Any = None,
                full_output: Any = False) -> Any:
    """Reverse rule of ``scipy.integrate.nquad`` with respect to the ranges, ``args`` (and the callables' values).

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, unthunk
    >>> out, pullback = rrule(RulesOnlyConfig(), scipy.integrate.nquad, np.multiply, [[0.0, 1.0], [0.0, 2.0]])
    >>> unthunk(pullback((1.0, 0.0))[2])        # int_0^2 int_0^1 x0 x1: the edges' integrals
    Tangent(list, Tangent(list, -0.0, 2.0), Tangent(list, -0.0, 1.0))
    """
    out = scipy.integrate.nquad(func, ranges, args, opts, full_output)
    call = _nquad_call(config, func, ranges, args, opts, out[0])

    def nquad_pullback(d_out: Any) -> tuple[Any, ...]:
        dI = read_integral_cotangent(d_out, out, scipy.integrate.nquad)
        if passes_through(dI):
            ranges_zero = NoTangent() if isinstance(dI, AbstractZero) else dI
            return (NoTangent(), NoTangent(), ranges_zero, _zero_cotangent(args, dI) if args is not None
                    else NoTangent(), NoTangent(), NoTangent())
        reverse, vector = _reverse_parts(call, dI)
        func_bar, args_bar = _args_and_func(reverse, vector, call.args)
        if args is None or (not isinstance(args, tuple) and isinstance(args_bar, Tangent)):
            args_bar = NoTangent() if args is None else cotangent_projector(args)(args_bar[0])
        return (NoTangent(), func_bar, _ranges_cotangent(reverse, vector, ranges), args_bar, NoTangent(),
                NoTangent())

    return out, nquad_pullback


@frule.register(scipy.integrate.nquad, object, (list, tuple), config=HasForwardsMode)
def nquad_frule(config: Any, tangents: Any, func: Any, ranges: Any, args: Any = None, opts: Any = None,
                full_output: Any = False) -> Any:
    """Forward rule of ``scipy.integrate.nquad``.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, Tangent
    >>> ranges = [[0.0, 1.0], [0.0, 2.0]]
    >>> dranges = Tangent(list, Tangent(list, 0.0, 0.0), Tangent(list, 0.0, 1.0))
    >>> frule(RulesOnlyConfig(), (NoTangent(), NoTangent(), dranges), scipy.integrate.nquad, np.multiply, ranges)[1]
    Tangent(tuple, 1.0, NoTangent())
    """
    out = scipy.integrate.nquad(func, ranges, args, opts, full_output)
    call = _nquad_call(config, func, ranges, args, opts, out[0])
    t = tuple(tangents) + (NoTangent(),) * (6 - len(tangents))
    per_level = split_tangent(t[2], tuple(ranges))
    given = {(k, "pair"): per_level[k] for k in range(len(ranges))}
    args_tuple = call.args
    dargs = split_tangent(t[3], args_tuple) if isinstance(args, tuple) else (
        (t[3],) if args is not None else ())
    return out, _output_tangent(out, _forward_value(call, t[1], dargs, given))


# ---- sample inputs -----------------------------------------------------------------------------------------
@sample_inputs(scipy.integrate.dblquad)
def _dblquad_samples(rng: np.random.Generator) -> Iterator[Sample]:
    from chainrules.testing import PrimalAndTangent

    # Polynomial integrands: one Gauss-Kronrod rule per level is exact, so the finite differences are cheap.
    options: dict[str, Any] = {"config": RulesOnlyConfig(), "gauge_invariant": value_only}
    fixed = [PrimalAndTangent(1e-10, NoTangent()), PrimalAndTangent(1e-10, NoTangent())]
    yield Sample(np.multiply, 0.0, 1.0, -0.5, 2.0, (), *fixed, **options, label="a rectangle")
    yield Sample(np.add, 0.5, 1.5, np.negative, np.square, (), *fixed, **options, label="callable limits")


@sample_inputs(scipy.integrate.tplquad)
def _tplquad_samples(rng: np.random.Generator) -> Iterator[Sample]:
    from chainrules.rulesets.integrate._sample_functions import trilinear
    from chainrules.testing import PrimalAndTangent

    options: dict[str, Any] = {"config": RulesOnlyConfig(), "gauge_invariant": value_only}
    fixed = [PrimalAndTangent(1e-10, NoTangent()), PrimalAndTangent(1e-10, NoTangent())]
    yield Sample(trilinear, 0.5, 1.0, np.negative, 0.5, np.add, np.multiply, (0.8,), *fixed, **options,
                 label="numbers and callables as limits, a parameter")


@sample_inputs(scipy.integrate.nquad)
def _nquad_samples(rng: np.random.Generator) -> Iterator[Sample]:
    from chainrules.testing import PrimalAndTangent

    options: dict[str, Any] = {"config": RulesOnlyConfig(), "gauge_invariant": value_only}
    tight = PrimalAndTangent({"epsabs": 1e-10, "epsrel": 1e-10}, NoTangent())
    yield Sample(np.multiply, [[0.0, 1.0], [-0.5, 2.0]], None, tight, **options, label="a rectangle")
    yield Sample(np.add, [(0.3, 1.0), [-1.0, 0.5]], (), tight, **options, label="ranges as tuples, empty args")
