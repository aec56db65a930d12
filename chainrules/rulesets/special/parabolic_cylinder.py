"""Rules of the parabolic cylinder functions: ``pbdv``, ``pbvv``, ``pbwa``, ``pbdv_seq``, ``pbvv_seq``, ``pbdn_seq``.

Each returns the function and its derivative in ``x``; both are differentiated in ``x`` and
in the real order (``v`` or ``a``); ``pbdn_seq``'s ``n`` is an integer (``NoTangent()``).

The maths
---------
**In x**: the first output's derivative is the second; the second's comes from Weber's
equation (DLMF 12.2.2-3): ``D_v'' = (x^2/4 - v - 1/2) D_v``, likewise ``V_v``, and
``W'' = (a - x^2/4) W``. ``pbdn_seq`` takes complex ``z``, but SciPy's values there are not the
functions (``D_0(0.7 + 0.2j)`` comes back real): its derivative is ``not_implemented`` off the
real line.

**In the order**, with ``a = -v - 1/2`` and ``D_v = U(a, x)``, ``V_v = V(a, x)``:

* ``U(a, x) = U(a, 0) u1 + U'(a, 0) u2``, ``V(a, x) = V(a, 0) u1 + V'(a, 0) u2`` with
  ``u1 = e^(-x^2/4) M(a/2 + 1/4, 1/2, x^2/2)``, ``u2 = x e^(-x^2/4) M(a/2 + 3/4, 3/2, x^2/2)``
  (DLMF 12.4.1, 12.7.12-13) and the values at ``0`` (DLMF 12.2.6-7, 12.2.8-9)
  ``U(a, 0) = sqrt(pi) / (2^(a/2+1/4) Gamma(3/4 + a/2))``,
  ``U'(a, 0) = -sqrt(pi) / (2^(a/2-1/4) Gamma(1/4 + a/2))``,
  ``V(a, 0) = 2^(a/2+1/4) sin(pi (3/4 - a/2)) / Gamma(3/4 - a/2)``,
  ``V'(a, 0) = 2^(a/2+3/4) sin(pi (1/4 - a/2)) / Gamma(1/4 - a/2)``;
* for ``x > 0`` also ``D_v(x) = 2^(v/2) e^(-x^2/4) U(-v/2, 1/2, x^2/2)`` (DLMF 12.7.14),
  Tricomi's function, which does not cancel where ``D_v`` is recessive (large ``x``);

carried in forward mode with error bounds through the hypergeometric machinery (each
element takes the form with the smaller bound). The derivatives of the second outputs use
``D_v' = x/2 D_v - D_(v+1)`` and ``V_v' = x/2 V_v - (v + 1) V_(v+1)`` (DLMF 12.8.3, 12.8.7;
checked against SciPy). Where no bound reaches ``1e-9``, Richardson-extrapolated
differences of SciPy's function (accurate there, measured against mpmath), else
``not_implemented``.

``W(a, x)`` (``pbwa``) is built from ``U`` at complex arguments (DLMF 12.14.4): its ``a``
derivative is the extrapolated difference of SciPy's ``pbwa``, which mpmath confirms to
``2e-10`` for ``|a| <= 4``, ``|x| <= 5`` (SciPy's own range is ``|a|, |x| <= 5`` and it
loses digits near its edge): ``not_implemented`` outside.

``pbdv_seq(v, x)``, ``pbvv_seq(v, x)`` return the orders ``v0, v0 + 1, ...`` with
``v0 = v - int(v)`` (SciPy's convention; each moves with ``v``). For ``v < 0`` SciPy's
values do not follow that convention (``pbdv_seq(-1.3, x)`` gives the orders ``0.7, 1.7``):
there every derivative is ``not_implemented``.

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> ys, dys = frule((None, 0.0, 1.0), sc.pbdv, 1.0, 0.5)        # D_1(x) = x e^(-x^2/4)
>>> bool(np.isclose(dys[0], (1 - 0.5 ** 2 / 2) * np.exp(-0.5 ** 2 / 4)))
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._hypergeometric_jets import best_of, hyp1f1_jet, hyperu_jet
from chainrules.rulesets.special._jet import Jet, power, rgamma, sin
from chainrules.rulesets.special._parameter_rules import ParameterPartials, float64
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    ZeroTangent,
    frule,
    not_implemented,
    read_cotangents,
    rrule,
    sample_inputs,
    scalar_rule,
    unthunk,
)
from chainrules_core.scalar_rules import NUMERIC, conj_if_complex, project_argument

_SQRT_PI = np.sqrt(np.pi)


# ---- jets in the order ----------------------------------------------------------------------------
def _u_and_v_parts(a: Jet, x: np.ndarray) -> tuple[Jet, Jet]:
    """``u1``, ``u2`` of DLMF 12.4.1 as jets in the parameters of ``a``."""
    k = a.k
    e = Jet.constant(np.exp(-x * x / 4), k, error=4 * 2.0 ** -53 * np.exp(-x * x / 4) * (1 + x * x))
    u1 = e * hyp1f1_jet(a * 0.5 + 0.25, Jet.constant(np.full(x.shape, 0.5), k), x * x / 2)
    u2 = e * Jet.constant(x, k) * hyp1f1_jet(a * 0.5 + 0.75, Jet.constant(np.full(x.shape, 1.5), k), x * x / 2)
    return u1, u2


def pbd_jet(v: Jet, x: np.ndarray) -> Jet:
    """``D_v(x)`` as a jet in the parameters of ``v`` (the best of the two forms per element)."""
    n = x.shape[0]

    def kummer(index: np.ndarray) -> Jet:
        a = -v.take(index) - 0.5
        u1, u2 = _u_and_v_parts(a, x[index])
        two = np.full(index.size, 2.0)
        u0 = power(two, -(a * 0.5 + 0.25)) * rgamma(a * 0.5 + 0.75) * _SQRT_PI
        du0 = -(power(two, -(a * 0.5 - 0.25)) * rgamma(a * 0.5 + 0.25)) * _SQRT_PI
        return u0 * u1 + du0 * u2

    def tricomi(index: np.ndarray) -> Jet:
        vv, xx = v.take(index), x[index]
        half = Jet.constant(np.full(index.size, 0.5), v.k)
        e = Jet.constant(np.exp(-xx * xx / 4), v.k, error=4 * 2.0 ** -53 * np.exp(-xx * xx / 4) * (1 + xx * xx))
        return power(np.full(index.size, 2.0), vv * 0.5) * e * hyperu_jet(vv * -0.5, half, xx * xx / 2)

    # The Kummer form cancels like exp(x^2/2) where D_v is recessive (x > 0): to 1e-11 at x = 5;
    # beyond, Tricomi's function takes over first.
    with np.errstate(all="ignore"):
        ratios = [np.where(x <= 5, 0.1, 0.9), np.where(x > 0, np.where(x > 5, 0.05, 0.95), np.inf)]
    return best_of(n, v.k, [kummer, tricomi], ratios, tries=2)


def pbv_jet(v: Jet, x: np.ndarray) -> Jet:
    """``V_v(x)`` as a jet in the parameters of ``v``."""
    a = -v - 0.5
    u1, u2 = _u_and_v_parts(a, x)
    two = np.full(x.shape, 2.0)
    v0 = power(two, a * 0.5 + 0.25) * sin((0.75 - a * 0.5) * np.pi) * rgamma(0.75 - a * 0.5)
    dv0 = power(two, a * 0.5 + 0.75) * sin((0.25 - a * 0.5) * np.pi) * rgamma(0.25 - a * 0.5)
    return v0 * u1 + dv0 * u2


def _order_jet(fn: Callable[[Jet, np.ndarray], Jet], derivative: bool, recurrence: Callable[[Jet], Any]
               ) -> Callable[..., Jet]:
    """The jet of the function (or, ``derivative``, of its x-derivative by the recurrence) in ``v``."""

    def jet(v: np.ndarray, x: np.ndarray) -> Jet:
        V = Jet.variable(v, 0, 1)
        value = fn(V, x)
        if not derivative:
            return value
        return Jet.constant(x / 2, 1) * value - recurrence(V) * fn(V + 1, x)

    return jet


_pbd_value = _order_jet(pbd_jet, False, lambda V: 1.0)
_pbd_slope = _order_jet(pbd_jet, True, lambda V: 1.0)
_pbv_value = _order_jet(pbv_jet, False, lambda V: 1.0)
_pbv_slope = _order_jet(pbv_jet, True, lambda V: V + 1)


def _moderate(v: Any, x: Any) -> Any:
    """Where SciPy's pbdv is accurate enough to difference (measured against mpmath)."""
    return (np.abs(v) <= 10) & (np.abs(x) <= 10)


def _moderate_off_integers(v: Any, x: Any) -> Any:
    """SciPy's pbvv loses digits just off the integer orders (``pbvv(2 + 1e-6, 3.5)`` is off by
    ``4e-4``, ``pbvv(2.001, 3.5)`` by ``5e-11``): differences only ``0.01`` away from them."""
    return _moderate(v, x) & (np.abs(v - np.round(v)) >= 0.01)


def _pbwa_range(a: Any, x: Any) -> Any:
    return (np.abs(a) <= 4) & (np.abs(x) <= 5)


def _two_output_rule(f: Any, order_jets: tuple[Any, Any] | None, equation: Callable[..., Any], order: str,
                     fallback: Callable[..., Any], why: str) -> None:
    """``f(v, x) -> (w, w')``: in ``x`` by ``w'`` and the equation, in the order from jets or differences."""

    def output(k: int) -> Callable[..., Any]:
        def one(v: Any, x: Any) -> Any:
            return f(v, x)[k]

        one.__name__ = f"{f.__name__}_{k}"
        return one

    def order_partial(k: int) -> Callable[..., Any]:
        jet_fn = None if order_jets is None else order_jets[k]

        def partial(v: Any, x: Any, ys: Any) -> Any:
            return ParameterPartials(output(k), jet_fn, (v, x), (0,), (order,), ys[k], fallback=fallback,
                                     why=why).partial(0)

        partial.__name__ = f"{f.__name__}_{order}_{k}"
        return partial

    def value_x(v: Any, x: Any, ys: Any) -> Any:
        return float64(ys[1])

    def slope_x(v: Any, x: Any, ys: Any) -> Any:
        return equation(float64(v), float64(x)) * float64(ys[0])

    scalar_rule(f, (order_partial(0), value_x), (order_partial(1), slope_x))


_WHY = "neither the hypergeometric forms nor the extrapolated differences of SciPy's function reach it there"
_two_output_rule(sc.pbdv, (_pbd_value, _pbd_slope), lambda v, x: x * x / 4 - v - 0.5, "v", _moderate, _WHY)
_two_output_rule(sc.pbvv, (_pbv_value, _pbv_slope), lambda v, x: x * x / 4 - v - 0.5, "v", _moderate_off_integers,
                 _WHY)
_two_output_rule(sc.pbwa, None, lambda a, x: a - x * x / 4, "a", _pbwa_range,
                 "W(a, x) has no real-parameter form here; SciPy's pbwa is accurate enough to difference only for "
                 "|a| <= 4, |x| <= 5")


# ---- the sequences ----------------------------------------------------------------------------------
def _sequence_rules(f: Any, fn: Callable[[Jet, np.ndarray], Jet], slope_factor: Callable[[Jet], Any]) -> None:
    name = f.__name__

    def derivatives(v: float, x: Any, ys: tuple[Any, Any]) -> tuple[list[Any], list[Any]]:
        """Per output, ``(d/dv, d/dx)`` as arrays of the output's shape (or not implemented)."""
        values, slopes = (np.asarray(t) for t in ys)
        orders = v - int(v) + np.arange(values.shape[0], dtype=np.float64)
        x = float(x)
        equation = (x * x / 4 - orders - 0.5) * values
        if v < 0:
            missing = not_implemented(f"scipy.special.{name}: for v < 0 SciPy's sequence does not follow its "
                                      "documented orders v - int(v) + k; no derivative is given there")
            return [missing, missing], [missing, missing]
        X = np.full(orders.shape, x)
        V = Jet.variable(orders, 0, 1)
        value = fn(V, X)
        slope = Jet.constant(X / 2, 1) * value - slope_factor(V) * fn(V + 1, X)
        out = []
        for jet, primal in ((value, values), (slope, slopes)):
            scale = np.maximum(np.abs(jet.d[0]), np.abs(primal))
            if np.all(jet.ed[0] <= 1e-9 * scale):
                out.append(jet.d[0].real)
            else:
                out.append(not_implemented(f"scipy.special.{name}: the derivative in v could not be computed to "
                                           "1e-8 (the hypergeometric forms cancel there)"))
        return out, [slopes, equation]

    def seq_rrule(v: Any, x: Any) -> Any:
        ys = f(v, x)
        live_v, live_x = np.asarray(v).dtype.kind == "f", np.asarray(x).dtype.kind == "f"

        def seq_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, ys, f)
            if not isinstance(parts, tuple | list):
                return (NoTangent(), parts if live_v else NoTangent(), parts if live_x else NoTangent())
            d_v, d_x = derivatives(float(v), x, ys)
            out: list[Any] = []
            for table, arg, live in ((d_v, v, live_v), (d_x, x, live_x)):
                if not live:
                    out.append(NoTangent())
                    continue
                total: Any = 0.0
                for k, part in enumerate(parts):
                    if part is None or isinstance(part, ZeroTangent):
                        continue
                    if isinstance(table[k], NotImplementedTangent):
                        total = table[k]
                        break
                    total = total + np.sum(table[k] * part)
                out.append(total if isinstance(total, NotImplementedTangent) else project_argument(arg, total))
            return (NoTangent(), *out)

        seq_pullback.__name__ = f"{name}_pullback"
        return ys, seq_pullback

    def seq_frule(tangents: Any, v: Any, x: Any) -> Any:
        ys = f(v, x)
        dv, dx = (unthunk(t) for t in tangents[1:3])
        d_v, d_x = derivatives(float(v), x, ys)
        dys = []
        for k, yk in enumerate(ys):
            total: Any = np.zeros_like(yk)
            for table, t, arg in ((d_v, dv, v), (d_x, dx, x)):
                if t is None or isinstance(t, ZeroTangent | NoTangent) or np.asarray(arg).dtype.kind != "f":
                    continue
                if isinstance(table[k], NotImplementedTangent):
                    total = table[k]
                    break
                total = total + table[k] * t
            dys.append(total)
        return ys, Tangent(tuple, *dys)

    seq_rrule.__name__ = f"{name}_rrule"
    seq_frule.__name__ = f"{name}_frule"
    rrule.register(f, NUMERIC, NUMERIC)(seq_rrule)
    frule.register(f, NUMERIC, NUMERIC)(seq_frule)


_sequence_rules(sc.pbdv_seq, pbd_jet, lambda V: 1.0)
_sequence_rules(sc.pbvv_seq, pbv_jet, lambda V: V + 1)


def _pbdn_seq_rules() -> None:
    f = sc.pbdn_seq

    def derivatives(n: Any, z: Any, ys: tuple[Any, Any]) -> Any:
        if np.imag(z) != 0:
            return not_implemented(
                "scipy.special.pbdn_seq: at complex z SciPy's values are not the parabolic cylinder functions "
                "(D_0(0.7+0.2j) is returned as 0.876 + 0j; mpmath gives 0.891 - 0.0625j), so they have no "
                "derivative to give; real z is supported")
        values, slopes = ys
        orders = np.arange(values.shape[0], dtype=np.float64)
        return [slopes, (z * z / 4 - orders - 0.5) * values]

    def pbdn_seq_rrule(n: Any, z: Any) -> Any:
        ys = f(n, z)
        live = np.asarray(z).dtype.kind in "fc"

        def pbdn_seq_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, ys, f)
            if not live:
                return NoTangent(), NoTangent(), NoTangent()
            if not isinstance(parts, tuple | list):
                return NoTangent(), NoTangent(), parts
            table = derivatives(n, z, ys)
            if isinstance(table, NotImplementedTangent):
                return NoTangent(), NoTangent(), table
            total: Any = 0.0
            for k, part in enumerate(parts):
                if part is None or isinstance(part, ZeroTangent):
                    continue
                total = total + np.sum(conj_if_complex(table[k]) * part)
            return NoTangent(), NoTangent(), project_argument(z, total)

        pbdn_seq_pullback.__name__ = "pbdn_seq_pullback"
        return ys, pbdn_seq_pullback

    def pbdn_seq_frule(tangents: Any, n: Any, z: Any) -> Any:
        ys = f(n, z)
        dz = unthunk(tangents[2])
        if dz is None or isinstance(dz, ZeroTangent | NoTangent) or np.asarray(z).dtype.kind not in "fc":
            return ys, Tangent(tuple, ZeroTangent(), ZeroTangent())
        table = derivatives(n, z, ys)
        if isinstance(table, NotImplementedTangent):
            return ys, table
        return ys, Tangent(tuple, *(np.asarray(t * dz, dtype=np.result_type(yk)) for t, yk in zip(table, ys)))

    rrule.register(f, NUMERIC, NUMERIC)(pbdn_seq_rrule)
    frule.register(f, NUMERIC, NUMERIC)(pbdn_seq_frule)


_pbdn_seq_rules()


# ---- samples ---------------------------------------------------------------------------------------------
@sample_inputs(sc.pbdv, sc.pbvv)
def _pbdv_samples(rng: np.random.Generator) -> Any:
    # (orders off the integers: SciPy's pbvv jumps by 1e-4 within 1e-6 of them, which finite differences see)
    yield Sample(np.array([1.3, -0.7, 2.2, 4.5]), np.array([0.7, -1.5, 3.5, -0.3]), label="orders and both signs of x")
    yield Sample(np.array([0.4, 1.5], np.float32), np.float32(1.2), label="float32")
    yield Sample(0.5, 7.0, label="large x")


@sample_inputs(sc.pbwa)
def _pbwa_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([1.0, -2.0, 3.5]), np.array([0.7, -1.5, 3.0]), label="|a|, |x| < 5")


@sample_inputs(sc.pbdv_seq, sc.pbvv_seq)
def _sequence_samples(rng: np.random.Generator) -> Any:
    yield Sample(2.7, 0.7, label="orders 0.7, 1.7, 2.7")
    yield Sample(0.3, -1.2, label="orders 0.3, 1.3")


@sample_inputs(sc.pbdn_seq)
def _pbdn_seq_samples(rng: np.random.Generator) -> Any:
    yield Sample(3, 0.7, label="z > 0")
    yield Sample(4, -1.3, label="z < 0")
    # (no complex sample: SciPy's pbdn_seq is wrong at complex z; its rule says not implemented)
