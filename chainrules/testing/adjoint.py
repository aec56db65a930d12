"""The adjoint property of a function's frule and rrule, checked without finite differences.

For a function ``f`` with both rules, the frule gives ``J dx`` and the pullback gives
``J^T dy`` of the same Jacobian ``J``, so for every tangent ``dx`` and cotangent ``dy``

    ``<dy, J dx> = sum_i <J^T dy, dx_i>``

in the real inner product ``Re(sum(conj(a) b))`` (complex parts included). Checking it at random
``dx`` and ``dy`` costs one call of each rule and no finite differences, which makes it cheap
enough to run at many random shapes, axes and dtypes (the property tests of the elementwise,
reduction, contraction, array and integration families drive it with hypothesis). It does not
check that the rules are the *derivative* (two rules wrong in the same way agree): pair it with
:func:`~chainrules.testing.test_rrule` at a few points.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.testing.random_tangents import rand_tangent
from chainrules_core import AbstractZero, NoTangent, NotImplementedTangent, Tangent, backing, frule, rrule, unthunk

__all__ = ["check_adjoint"]


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
            raise AssertionError(f"{where}: a not-implemented tangent ({v.info}) where every derivative exists")
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


def _raises_like(err: Exception, call: Callable[[], Any], where: str) -> None:
    """``call()`` raises an exception of ``err``'s type (the primal's error passes through the rule)."""
    try:
        call()
    except type(err):
        return
    except Exception as other:
        raise AssertionError(f"{where} raised {type(other).__name__}: {other}, where the function raised "
                             f"{type(err).__name__}: {err}") from other
    raise AssertionError(f"{where} raised nothing, where the function raised {type(err).__name__}: {err}")


def check_adjoint(f: Callable[..., Any], *args: Any, fkwargs: dict[str, Any] | None = None,
                  rng: np.random.Generator | None = None, rtol: float | None = None) -> str:
    """Check that the frule and the rrule of ``f`` at ``args`` are adjoint, with no finite differences.

    Draws a random tangent of each argument and a random output cotangent and checks:

    * both rules return the primal ``f`` returns, exactly;
    * ``<dy, J dx> = sum_i <J^T dy, dx_i>`` to ``rtol`` (default: 200 times the machine
      epsilon of the least precise floating input or output) times ``sum |dy| |J dx| +
      sum_i |J^T dy| |dx_i|``;
    * the cotangent of an array argument has its shape and its dtype (float32 stays
      float32), an argument with no tangent gets ``NoTangent``, no derivative is
      not-implemented;
    * where the output is NaN or infinite the derivative may be undefined, but then in both
      rules (reported as ``"undefined"``);
    * where ``f`` raises on these arguments both rules raise the same exception type (errors on
      bad primal input pass through; reported as ``"primal raised"``).

    Parameters
    ----------
    f
        The function whose rules are checked.
    *args
        Its positional arguments (differentiated where :func:`rand_tangent` gives a tangent).
    fkwargs
        Keyword arguments (never differentiated).
    rng
        The random generator of the tangents (default: seeded with 0).
    rtol
        The relative tolerance of the adjoint identity.

    Returns
    -------
    str
        ``"checked"``, ``"undefined"`` or ``"primal raised"``; any failure raises ``AssertionError``.

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules  # noqa: F401  (registers the rules)
    >>> from chainrules.testing import check_adjoint
    >>> check_adjoint(np.cumsum, np.arange(6.0).reshape(2, 3), fkwargs={"axis": 1})
    'checked'
    >>> check_adjoint(np.reshape, np.ones(5), (2, 3))  # NumPy's ValueError from both rules
    'primal raised'
    """
    fkwargs = dict(fkwargs or {})
    rng = np.random.default_rng(0) if rng is None else rng
    name = getattr(f, "__name__", repr(f))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own warnings (mean of empty...) are not ours
        try:
            expected = f(*copy.deepcopy(args), **fkwargs)
        except Exception as err:  # the function's error: the rules must raise it too
            _raises_like(err, lambda: rrule(f, *args, **fkwargs), f"{name}: the rrule")
            _raises_like(err, lambda: frule((NoTangent(), *(NoTangent() for _ in args)), f, *args, **fkwargs),
                         f"{name}: the frule")
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
        # and then in both rules: a NaN on one side only is a bug.
        assert not (np.isfinite(lhs) or np.isfinite(rhs)) and not _finite(y), (
            f"{name}: <dy, J dx> = {lhs}, <J^T dy, dx> = {rhs} for an output that is "
            f"{'finite' if _finite(y) else 'not finite'}")
        return "undefined"
    assert abs(lhs - rhs) <= tol, (f"{name}: the frule and the rrule disagree: <dy, J dx> = {lhs!r} but "
                                   f"<J^T dy, dx> = {rhs!r} (tolerance {tol:.3g})")
    return "checked"
