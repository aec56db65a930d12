"""Fixtures shared by the rule tests of every ruleset: the adjoint property of a pair of rules.

``adjoint_check(f, *args, fkwargs=None, rng=...)`` calls the rrule and the frule of ``f`` at
``args`` with a random tangent of each argument and a random output cotangent, and checks
what must hold with no finite differences at all:

* the frule and the rrule agree: ``<dy, J dx> = sum_i <J^T dy, dx_i>`` (the frule's output
  tangent against the output cotangent, the pullback's cotangents against the input tangents,
  in the real inner product ``Re(sum(conj(a) b))``), to a tolerance set by the precision;
* where the output is NaN or infinite (``var`` with ``ddof`` equal to the count) the
  derivative may be undefined, but then on both sides: the check reports ``"undefined"``;
* both return the primal NumPy returns, the cotangent of an array argument has its shape
  and the tangent dtype of its dtype (float32 stays float32), the output tangent has the
  output's shape;
* where NumPy raises on the primal, the rules raise the same exception type (errors on bad
  primal input pass through): the check reports ``"primal raised"`` and the caller decides
  whether that was expected.

The property tests of the elementwise, reduction and contraction families
(``tests/chainrules/rulesets/*/test_properties.py``) drive it with hypothesis.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from chainrules.testing import rand_tangent
from chainrules_core import AbstractZero, NoTangent, NotImplementedTangent, Tangent, backing, frule, rrule, unthunk


def _parts(x: Any) -> list[Any] | None:
    """The fields of a structural (co)tangent or a tuple/list output, else ``None``."""
    if isinstance(x, Tangent):
        stored = backing(x)
        return list(stored.values()) if isinstance(stored, dict) else list(stored)
    if isinstance(x, (tuple, list)):
        return list(x)
    return None


def _inner(a: Any, b: Any, where: str) -> tuple[float, float]:
    """``Re <a, b>`` and ``sum |a| |b|`` (the scale of its rounding error) of two (co)tangents."""
    a, b = unthunk(a), unthunk(b)
    if a is None or b is None or isinstance(a, AbstractZero) or isinstance(b, AbstractZero):
        return 0.0, 0.0
    for v in (a, b):
        if isinstance(v, NotImplementedTangent):
            pytest.fail(f"{where}: a not-implemented tangent ({v.info}) where every derivative exists")
    pa, pb = _parts(a), _parts(b)
    if pa is not None or pb is not None:
        assert pa is not None and pb is not None and len(pa) == len(pb), f"{where}: structures differ"
        value = scale = 0.0
        for k, (x, y) in enumerate(zip(pa, pb)):
            v, s = _inner(x, y, f"{where}[{k}]")
            value, scale = value + v, scale + s
        return value, scale
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, f"{where}: shapes {a.shape} and {b.shape}"
    return float(np.real(np.vdot(a, b))), float(np.sum(np.abs(a) * np.abs(b)))


def _precision(*values: Any) -> float:
    """The machine epsilon of the lowest floating precision among ``values``."""
    eps = [float(np.finfo(v.dtype).eps) for v in values if isinstance(v, (np.ndarray, np.generic))
           and v.dtype.kind in "fc"]
    return max(eps, default=float(np.finfo(np.float64).eps))


def _finite(y: Any) -> bool:
    parts = _parts(y)
    if parts is not None:
        return all(_finite(p) for p in parts)
    value = np.asarray(y)
    return value.dtype.kind not in "fc" or bool(np.all(np.isfinite(value)))


def _check_tangent_space(x: Any, ct: Any, where: str) -> None:
    ct = unthunk(ct)
    if not isinstance(x, np.ndarray) or not isinstance(ct, np.ndarray):
        return
    assert ct.shape == x.shape, f"{where}: shape {ct.shape}, expected {x.shape}"
    if x.dtype.kind in "fc":
        assert ct.dtype == x.dtype, f"{where}: dtype {ct.dtype} for a {x.dtype} argument"


def _same_primal(y: Any, expected: Any, where: str) -> None:
    py, pe = _parts(y), _parts(expected)
    if py is not None or pe is not None:
        assert py is not None and pe is not None and len(py) == len(pe), f"{where}: output structures differ"
        for k, (a, b) in enumerate(zip(py, pe)):
            _same_primal(a, b, f"{where}[{k}]")
        return
    np.testing.assert_array_equal(np.asarray(y), np.asarray(expected), err_msg=where)


def adjoint_property(f: Callable[..., Any], *args: Any, fkwargs: dict[str, Any] | None = None,
                     rng: np.random.Generator | None = None, rtol: float | None = None) -> str:
    """Check the rules of ``f`` at ``args`` as the module docstring says; return what was checked."""
    fkwargs = dict(fkwargs or {})
    rng = np.random.default_rng(0) if rng is None else rng
    name = getattr(f, "__name__", repr(f))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own warnings (empty means...) are not ours
        try:
            expected = f(*args, **fkwargs)
        except Exception as err:  # NumPy's error: the rules must raise it too
            with pytest.raises(type(err)):
                rrule(f, *args, **fkwargs)
            with pytest.raises(type(err)):
                frule((NoTangent(), *(NoTangent() for _ in args)), f, *args, **fkwargs)
            return "primal raised"
        result = rrule(f, *args, **fkwargs)
        assert result is not None, f"{name}: no rrule for {[type(a).__name__ for a in args]}"
        y, pullback = result
        _same_primal(y, expected, f"{name}: rrule primal")
        tangents = [rand_tangent(a, rng) for a in args]
        dy = rand_tangent(y, rng)
        cotangents = pullback(dy)
        assert len(cotangents) == len(args) + 1, f"{name}: {len(cotangents)} cotangents for {len(args)} arguments"
        forward = frule((NoTangent(), *tangents), f, *args, **fkwargs)
        assert forward is not None, f"{name}: no frule"
        y2, ydot = forward
    _same_primal(y2, expected, f"{name}: frule primal")
    if not isinstance(unthunk(ydot), AbstractZero) and _parts(ydot) is None and isinstance(y, np.ndarray):
        assert np.shape(unthunk(ydot)) == y.shape, f"{name}: output tangent of shape {np.shape(unthunk(ydot))}"
    lhs, lhs_scale = _inner(dy, ydot, f"{name}: <dy, frule tangent>")
    rhs = rhs_scale = 0.0
    for k, (a, da, ct) in enumerate(zip(args, tangents, cotangents[1:])):
        _check_tangent_space(a, ct, f"{name}: cotangent of argument {k}")
        if isinstance(da, NoTangent):
            assert isinstance(unthunk(ct), NoTangent), f"{name}: argument {k} is not differentiable, got a cotangent"
            continue
        v, s = _inner(ct, da, f"{name}: <cotangent, dx> of argument {k}")
        rhs, rhs_scale = rhs + v, rhs_scale + s
    tol = (rtol if rtol is not None else 200 * _precision(y, *args)) * (lhs_scale + rhs_scale) + 1e-300
    if not (np.isfinite(lhs) and np.isfinite(rhs)):
        # A derivative may be undefined (NaN or inf) only where the output itself is (var with ddof = N),
        # and then in both rules: a NaN on one side only is a bug (the frule of an empty mean was NaN).
        assert not (np.isfinite(lhs) or np.isfinite(rhs)) and not _finite(y), (
            f"{name}: <dy, J dx> = {lhs}, <J^T dy, dx> = {rhs} for an output that is "
            f"{'finite' if _finite(y) else 'not finite'}")
        return "undefined"
    assert abs(lhs - rhs) <= tol, (f"{name}: the frule and the rrule disagree: <dy, J dx> = {lhs!r} but "
                                   f"<J^T dy, dx> = {rhs!r} (tolerance {tol:.3g})")
    return "checked"


@pytest.fixture(scope="session")
def adjoint_check() -> Callable[..., str]:
    """:func:`adjoint_property`: the frule/rrule adjoint property of a function at given arguments.

    Session-scoped: it is a plain function with no state, so hypothesis may call it for every
    example of a test."""
    return adjoint_property
