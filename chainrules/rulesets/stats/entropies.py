"""Entropies of ``scipy.stats``: ``entropy`` (Shannon entropy and relative entropy of ``pk``, ``qk``) and
``differential_entropy`` (the spacing estimators), in every array they take.

The maths
---------
**entropy.** SciPy normalises ``p = pk / T``, ``T = sum pk`` (and ``q = qk / U``) over
``axis`` and returns ``S = sum entr(p)`` or ``S = sum rel_entr(p, q)``, divided by
``log(base)``. Through the normalisation (``dp_j/dpk_i = (delta_ij - p_j) / T``) the partials
``-log p_i - 1`` and ``log(p_i / q_i) + 1`` lose their mean::

    dS/dpk_i = (-log p_i - S) / T                      (Shannon)
    dS/dpk_i = (log(p_i / q_i) - S) / T,  dS/dqk_i = (1 - p_i / q_i) / U   (relative)

all divided by ``log(base)``; ``dS/dbase = -S / (base log(base))``. At ``p_i = 0`` the
Shannon partial is ``+inf`` and the relative one ``-inf``: the one-sided limits of
``entr`` and ``rel_entr`` (as their rules in :mod:`chainrules.rulesets.special.information`
give). ``pk`` and ``qk`` broadcast against each other; ``nan_policy='omit'`` drops the
entries where either is NaN.

**differential_entropy** estimates the entropy of a sample from the spacings of its
order statistics ``X_(1) <= ... <= X_(n)``, with window ``m``:

* Vasicek (1976) and Ebrahimi, Pflughoeft & Soofi (1994):
  ``H = mean_i log(c_i (X_(i+m) - X_(i-m)))`` (indices clipped to ``[1, n]``; the
  constants ``c_i`` differ between the two and do not enter the derivative):
  ``dH/dX_(k) = (1/n) sum_i ([i+m -> k] - [i-m -> k]) / (X_(i+m) - X_(i-m))``;
* van Es (1992): ``H = 1/(n-m) sum_(i<=n-m) log(X_(i+m) - X_(i)) + const``;
* Correa (1995): ``H = -mean_i log(N_i / D_i)`` over windows ``Y_j = X_(i+j)``,
  ``j = -m..m``, with ``N_i = sum_j j (Y_j - mean Y)`` and ``D_i = n sum_j (Y_j - mean Y)^2``:
  ``dH/dY_j = -(j / N_i - 2 n (Y_j - mean Y) / D_i) / n``.

The gradient in the sorted sample is sent back to the entries through the sorting
permutation: the estimators are piecewise smooth, with kinks where two entries tie (then
a spacing is 0 and the estimate is infinite anyway). ``base`` is a keyword of
``differential_entropy`` (a constant), as are ``window_length`` and ``method``.

Examples
--------
>>> import numpy as np, scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(st.entropy, np.array([0.25, 0.75]))
>>> pullback(1.0)[1]  # (-log p_i - S) / T: zero-sum, pointing towards the uniform distribution
array([ 0.82395922, -0.27465307])
"""

from __future__ import annotations

import math
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
    tangent_value,
    zero_like,
)
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Thunk,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["differential_entropy_frule", "differential_entropy_rrule", "entropy_frule", "entropy_rrule"]


# ---- entropy ---------------------------------------------------------------------------------------------
_ENTROPY = ("pk", "qk", "base", "axis")
_ENTROPY_DEFAULTS = {"qk": None, "base": None, "axis": 0, "nan_policy": "propagate", "keepdims": False}


class _Entropy:
    """The partials of ``entropy`` on the slices of ``pk`` (and ``qk``), before the base."""

    def __init__(self, pk: Any, qk: Any, axis: Any, omit: bool, y: Any, base: Any) -> None:
        p_arr = np.asarray(pk)
        shape = p_arr.shape if qk is None else np.broadcast_shapes(p_arr.shape, np.shape(qk))
        self.shape = shape
        self.slices = Slices(np.broadcast_to(p_arr, shape), axis, omit, extra_nan=qk)
        s = self.slices
        self.p_total = s.total(s.x.real)
        self.p = s.x.real / self.p_total
        self.q_total = self.q = None
        if qk is not None:
            q = s.masked(s.take(qk).real)
            self.q_total = np.sum(q, axis=-1, keepdims=True)
            self.q = q / self.q_total
        self.log_base = 1.0 if base is None else math.log(base)
        self.s_nat = s.lift(y) * self.log_base  # the entropy in nats

    def dpk(self) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.q is None:
                g = (-np.log(self.p) - self.s_nat) / self.p_total
            else:
                g = (np.log(self.p / self.q) - self.s_nat) / self.p_total
        return self.slices.masked(g) / self.log_base

    def dqk(self) -> np.ndarray:
        assert self.q is not None
        with np.errstate(divide="ignore", invalid="ignore"):
            g = (1.0 - self.p / self.q) / self.q_total
        return self.slices.masked(g) / self.log_base

    def dbase(self, base: float, y: Any) -> np.ndarray:
        return -self.slices.lift(y) / (base * math.log(base))


def entropy_rrule(pk: Any, qk: Any = ABSENT, base: Any = ABSENT, axis: Any = ABSENT, /,
                  **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.entropy`` (see the module docstring)."""
    y = st.entropy(pk, *primal_args(qk, base, axis), **kwargs)
    b = bind(_ENTROPY, _ENTROPY_DEFAULTS, (pk, qk, base, axis), kwargs)
    q = b["qk"]
    q_arg = q if b.by_position("qk") else None
    base_arg = b["base"] if b.by_position("base") else None
    diff = {"pk": differentiable(pk), "qk": differentiable(q_arg), "base": differentiable(base_arg)}
    missing = not_implemented(COMPLEX_REASON) if np.iscomplexobj(pk) or np.iscomplexobj(q) else None
    omit = check_nan_policy(st.entropy, b["nan_policy"])

    def entropy_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, st.entropy)
        args = {"pk": pk, "qk": q_arg, "base": base_arg}
        if passes_through(dy) or missing is not None:
            fill = dy if missing is None else missing
            return (NO, *(((fill if isinstance(fill, NotImplementedTangent) else zero_like(args[k]))
                           if diff[k] else NO) for k in ("pk", "qk", "base")), NO)
        e = _Entropy(pk, q, b["axis"], omit, y, b["base"])
        dyl = e.slices.lift(dy)

        def cot_pk() -> Any:
            return argument_cotangent(pk, e.slices.restore(e.dpk() * dyl))

        def cot_qk() -> Any:
            return argument_cotangent(q_arg, e.slices.restore(e.dqk() * dyl))

        def cot_base() -> Any:
            return argument_cotangent(base_arg, np.sum(e.dbase(float(b["base"]), y) * dyl))

        several = sum(diff.values()) > 1
        makers = {"pk": cot_pk, "qk": cot_qk, "base": cot_base}
        return (NO, *((Thunk(makers[k]) if several else makers[k]()) if diff[k] else NO
                      for k in ("pk", "qk", "base")), NO)

    return y, entropy_pullback


def entropy_frule(tangents: tuple[Any, ...], pk: Any, qk: Any = ABSENT, base: Any = ABSENT, axis: Any = ABSENT, /,
                  **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.entropy``."""
    y = st.entropy(pk, *primal_args(qk, base, axis), **kwargs)
    b = bind(_ENTROPY, _ENTROPY_DEFAULTS, (pk, qk, base, axis), kwargs)
    q = b["qk"]
    dp = tangent_value(tangents[1]) if differentiable(pk) else None
    dq = tangent_value(tangents[2]) if b.by_position("qk") and differentiable(q) else None
    db = tangent_value(tangents[3]) if b.by_position("base") and differentiable(b["base"]) else None
    if dp is None and dq is None and db is None:
        return y, fit_output(None, y)
    for t in (dp, dq, db):
        if isinstance(t, NotImplementedTangent):
            return y, t
    if np.iscomplexobj(pk) or np.iscomplexobj(q):
        return y, not_implemented(COMPLEX_REASON)
    e = _Entropy(pk, q, b["axis"], check_nan_policy(st.entropy, b["nan_policy"]), y, b["base"])
    total: Any = 0.0
    with np.errstate(invalid="ignore"):
        if dp is not None:
            total = total + np.sum(e.dpk() * e.slices.masked(e.slices.take(np.broadcast_to(dp, np.shape(pk)))),
                                   axis=-1)
        if dq is not None:
            total = total + np.sum(e.dqk() * e.slices.masked(e.slices.take(np.broadcast_to(dq, np.shape(q)))),
                                   axis=-1)
    if db is not None:
        total = total + e.dbase(float(b["base"]), y)[..., 0] * float(np.real(db))
    return y, fit_output(total, y)


rrule.register(st.entropy)(entropy_rrule)
frule.register(st.entropy)(entropy_frule)


# ---- differential_entropy --------------------------------------------------------------------------------
def _spacing_gradient(sorted_x: np.ndarray, hi: np.ndarray, lo: np.ndarray, weight: float) -> np.ndarray:
    """``weight * sum_i ([hi_i -> k] - [lo_i -> k]) / (X[hi_i] - X[lo_i])`` for each position ``k``."""
    spacing = sorted_x[..., hi] - sorted_x[..., lo]
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.moveaxis(weight / spacing, -1, 0)
    g = np.zeros((sorted_x.shape[-1],) + sorted_x.shape[:-1])
    np.add.at(g, hi, w)
    np.add.at(g, lo, -w)
    return np.moveaxis(g, 0, -1)


def _correa_gradient(sorted_x: np.ndarray, m: int) -> np.ndarray:
    n = sorted_x.shape[-1]
    i = np.arange(1, n + 1)
    dj = np.arange(-m, m + 1)[:, None]
    idx = np.clip(i + dj - 1, 0, n - 1)  # (2m+1, n): window j of centre i
    y = sorted_x[..., idx]
    centred = y - np.mean(y, axis=-2, keepdims=True)
    num = np.sum(centred * dj, axis=-2, keepdims=True)
    den = n * np.sum(centred ** 2, axis=-2, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        gw = -(dj / num - 2.0 * n * centred / den) / n
    g = np.zeros((n,) + sorted_x.shape[:-1])
    np.add.at(g, idx.ravel(), np.moveaxis(gw.reshape(sorted_x.shape[:-1] + (-1,)), -1, 0))
    return np.moveaxis(g, 0, -1)


def _estimator_gradient(sorted_x: np.ndarray, m: int, method: str) -> np.ndarray:
    """The gradient of the estimate in the sorted sample (last axis)."""
    n = sorted_x.shape[-1]
    if method == "auto":
        method = "van es" if n <= 10 else "ebrahimi" if n <= 1000 else "vasicek"
    if method in ("vasicek", "ebrahimi"):
        i = np.arange(n)
        return _spacing_gradient(sorted_x, np.minimum(i + m, n - 1), np.maximum(i - m, 0), 1.0 / n)
    if method == "van es":
        i = np.arange(n - m)
        return _spacing_gradient(sorted_x, i + m, i, 1.0 / (n - m))
    return _correa_gradient(sorted_x, m)


def _differential_entropy_gradient(values: Any, kwargs: dict[str, Any]) -> tuple[Slices, np.ndarray]:
    """``dH/dvalues`` in the slice layout (a loop over slices of different lengths for ``'omit'``)."""
    axis = kwargs.get("axis", 0)
    slices = Slices(values, axis, check_nan_policy(st.differential_entropy, kwargs.get("nan_policy")))
    method = str(kwargs.get("method", "auto")).lower()
    base = kwargs.get("base")
    scale = 1.0 if base is None else 1.0 / math.log(base)
    x = slices.x.real

    def one(rows: np.ndarray) -> np.ndarray:
        n = rows.shape[-1]
        window = kwargs.get("window_length")
        m = math.floor(math.sqrt(n) + 0.5) if window is None else int(window)
        order = np.argsort(rows, axis=-1, kind="stable")
        g_sorted = _estimator_gradient(np.take_along_axis(rows, order, axis=-1), m, method)
        g = np.empty_like(g_sorted)
        np.put_along_axis(g, order, g_sorted, axis=-1)
        return g * scale

    if slices.mask is None:
        return slices, one(x)
    grad = np.zeros_like(x)
    for index in np.ndindex(*slices.batch):
        keep = slices.mask[index]
        grad[index + (keep,)] = one(x[index][keep][None, :])[0]
    return slices, grad


def differential_entropy_rrule(values: Any, /, **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.differential_entropy`` (see the module docstring)."""
    y = st.differential_entropy(values, **kwargs)
    missing = not_implemented(COMPLEX_REASON) if np.iscomplexobj(values) else None

    def differential_entropy_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, st.differential_entropy)
        if not differentiable(values):
            return NO, NO
        if passes_through(dy) or missing is not None:
            fill = dy if missing is None else missing
            return NO, fill if isinstance(fill, NotImplementedTangent) else zero_like(values)
        slices, grad = _differential_entropy_gradient(values, kwargs)
        return NO, argument_cotangent(values, slices.restore(grad * slices.lift(dy)))

    return y, differential_entropy_pullback


def differential_entropy_frule(tangents: tuple[Any, ...], values: Any, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.differential_entropy``."""
    y = st.differential_entropy(values, **kwargs)
    dv = tangent_value(tangents[1]) if differentiable(values) else None
    if dv is None or isinstance(dv, NotImplementedTangent):
        return y, fit_output(dv, y)
    if np.iscomplexobj(values):
        return y, not_implemented(COMPLEX_REASON)
    slices, grad = _differential_entropy_gradient(values, kwargs)
    with np.errstate(invalid="ignore"):
        return y, fit_output(np.sum(grad * slices.masked(slices.take(dv).real), axis=-1), y)


rrule.register(st.differential_entropy)(differential_entropy_rrule)
frule.register(st.differential_entropy)(differential_entropy_frule)


# ---- sample inputs --------------------------------------------------------------------------------------
@sample_inputs(st.entropy)
def _entropy_samples(rng: np.random.Generator) -> list[Sample]:
    pk = 0.2 + rng.random((4, 3))
    qk = 0.2 + rng.random((4, 3))
    nan = pk.copy()
    nan[[0, 2], [1, 2]] = np.nan
    return [Sample(pk), Sample(pk, qk, label="relative entropy"),
            Sample(pk, qk[:, :1], 2.0, label="qk broadcast, float base (differentiated)"),
            Sample(pk, None, None, 1, label="axis by position"),
            Sample(pk.astype(np.float32), fkwargs={"base": 10}, label="float32, base by keyword"),
            Sample(pk, qk, fkwargs={"axis": None, "keepdims": True}, label="axis=None, keepdims"),
            Sample(nan, qk, fkwargs={"nan_policy": "omit"}, label="nan_policy='omit'"),
            Sample(pk, fkwargs={"qk": qk}, label="qk by keyword (a constant)")]


@sample_inputs(st.differential_entropy)
def _differential_entropy_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((3, 12))
    nan = x.copy()
    nan[[0, 1], [3, 7]] = np.nan
    out = [Sample(x[0], label="auto (n <= 10 would be van Es, here Ebrahimi)"),
           Sample(x[0, :9], label="auto: van Es (n <= 10)")]
    out += [Sample(x, fkwargs={"axis": 1, "method": method}, label=method)
            for method in ("vasicek", "van es", "ebrahimi", "correa")]
    out += [Sample(x.T.astype(np.float32), fkwargs={"window_length": 2, "base": 2.0}, label="float32, window, base"),
            Sample(nan, fkwargs={"axis": 1, "nan_policy": "omit"}, label="nan_policy='omit'")]
    return out
