"""Elementwise rules that :func:`~chainrules_core.scalar_rule` cannot express (private).

The Bessel-type functions of this family are registered with ``scalar_rule`` wherever
they are holomorphic in their complex argument and take only elementwise operands. A few
are not, and :func:`bessel_rule` defines their frule and rrule the same way (one partial
per operand, computed lazily, cotangents read with ``read_cotangent(s)``, summed over
broadcast axes and projected with ``ProjectTo``), with three additions:

* **non-holomorphic partials**: a partial may return a :class:`Wirtinger` pair
  ``(df/dz, df/dconj(z))`` (``jve``, ``yve`` and ``ive`` scale by ``exp(-|Im z|)`` or
  ``exp(-|Re z|)``; ``airye``'s ``Bi`` part by ``exp(-|Re(2/3 z^(3/2))|)``). The pushforward
  is ``d dz + dbar conj(dz)``, the pullback ``conj(d) dy + dbar conj(dy)`` (the adjoint in
  the real inner product ``Re(sum(conj(a) b))``, the convention of the holomorphic rules);
* **index operands**: operands that are never differentiated even when they are floats
  (``yn``'s and ``kn``'s order, which SciPy truncates to an integer; the ``n`` of the
  spherical Bessel functions): their cotangent is ``NoTangent()``;
* **parameters**: optional arguments after the operands (``jvp``'s ``n``, the spherical
  functions' ``derivative``), by position or keyword, passed to the partials and never
  differentiated.

A partial may return ``not_implemented(...)`` where it cannot reach its promised
accuracy, as in ``scalar_rule``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Tangent,
    Thunk,
    differentiable,
    frule,
    read_cotangent,
    read_cotangents,
    rrule,
    unthunk,
)
from chainrules_core.rules import _callable_name
from chainrules_core.scalar_rules import (
    NO,
    NUMERIC,
    ZERO_TANGENT,
    _register_positional_out,
    check_ufunc_keywords,
    fit_tangent,
    is_zero_tangent,
    project_argument,
)

__all__ = ["Wirtinger", "bessel_rule"]


class Wirtinger:
    """The partials ``df/dz`` and ``df/dconj(z)`` of a function that is not holomorphic in ``z``.

    Examples
    --------
    >>> from chainrules.rulesets.special._bessel_rules import Wirtinger
    >>> Wirtinger(1.0, 0.5)
    Wirtinger(d=1.0, dbar=0.5)
    """

    __slots__ = ("d", "dbar")

    def __init__(self, d: Any, dbar: Any) -> None:
        self.d, self.dbar = d, dbar

    def __repr__(self) -> str:
        return f"Wirtinger(d={self.d!r}, dbar={self.dbar!r})"


def _backward(partial: Any, dy: Any) -> Any:
    """The contribution ``conj(d) dy + dbar conj(dy)`` of one output to an operand's cotangent."""
    if isinstance(partial, Wirtinger):
        return np.conj(partial.d) * dy + partial.dbar * np.conj(dy)
    return np.conj(partial) * dy if np.iscomplexobj(partial) else partial * dy


def _forward(partial: Any, dx: Any) -> Any:
    """The contribution ``d dx + dbar conj(dx)`` of one operand's tangent to an output's tangent."""
    if isinstance(partial, Wirtinger):
        return partial.d * dx + partial.dbar * np.conj(dx)
    return partial * dx


def bessel_rule(f: Callable[..., Any], partials: Sequence[Callable[..., Any] | None], *, name: str | None = None,
                index: Sequence[int] = (), extra: Sequence[tuple[str, Any]] = (),
                keywords: Callable[[Any, dict[str, Any]], None] = check_ufunc_keywords,
                positional_out: bool | None = None) -> None:
    """Register the frule and rrule of an elementwise function from per-operand partials.

    Parameters
    ----------
    f : callable
        Elementwise in its first ``len(partials)`` arguments (the operands); it may return
        a tuple of outputs.
    partials : sequence
        One entry per operand: ``None`` for an index operand, else a callable
        ``partial(*operands, y, **params)`` (``y`` the output, or the tuple of outputs)
        returning the partial derivative of the output (an array or number, a
        :class:`Wirtinger` pair, ``None`` for zero, or ``not_implemented(...)``), or for a
        function with several outputs a tuple of such values, one per output.
    index : sequence of int
        Operands never differentiated (their cotangent is ``NoTangent()``).
    extra : sequence of (name, type)
        Optional parameters after the operands, by position or keyword.
    keywords : callable
        ``keywords(f, kwargs)`` raises for keywords the rule cannot honour.
    positional_out : bool, optional
        Make ``f(*operands, out)`` raise (default: for ufuncs).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, frule
    >>> from chainrules.rulesets.special._bessel_rules import Wirtinger, bessel_rule
    >>> def scaled_exp(z):                     # exp(z) exp(-|Re z|): not holomorphic
    ...     return np.exp(z) * np.exp(-np.abs(np.real(z)))
    >>> def scaled_exp_partial(z, y):
    ...     s = np.sign(np.real(z)) / 2
    ...     return Wirtinger(y - s * y, -s * y) if np.iscomplexobj(z) else y - 2 * s * y
    >>> bessel_rule(scaled_exp, [scaled_exp_partial], positional_out=False)
    >>> frule((None, 1.0), scaled_exp, 1.0 + 1.0j)[1]      # a real step leaves |Re z| growing
    np.complex128(0j)
    """
    n = len(partials)
    name = str(name or getattr(f, "__name__", "f"))
    names = tuple(p for p, _ in extra)
    fixed = set(index)

    def given(rest: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        keywords(f, {k: v for k, v in kwargs.items() if k not in names})
        params = {k: kwargs[k] for k in names if k in kwargs}
        params.update(zip(names, rest))
        return params

    def differentiated(operands: tuple[Any, ...]) -> list[bool]:
        return [i not in fixed and differentiable(a) for i, a in enumerate(operands)]

    def rule_rrule(*args: Any, **kwargs: Any) -> Any:
        operands, rest = args[:n], args[n:]
        params = given(rest, kwargs)
        ys = f(*args, **kwargs)
        several_outputs = isinstance(ys, tuple)
        outputs = ys if several_outputs else (ys,)
        live = [differentiable(y) for y in outputs]
        diff = differentiated(operands) if any(live) else [False] * n
        tail = (NO,) * len(rest)

        def cotangent(i: int, parts: list[Any]) -> Any:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                partial = partials[i](*operands, ys, **params)  # type: ignore[misc]
                if isinstance(partial, NotImplementedTangent):
                    return partial
                row = partial if several_outputs else (partial,)
                total: Any = None
                for k, part in enumerate(parts):
                    if part is None or not live[k] or row[k] is None:
                        continue
                    if isinstance(part, NotImplementedTangent):
                        return part
                    if isinstance(row[k], NotImplementedTangent):
                        return row[k]
                    term = _backward(row[k], part)
                    total = term if total is None else total + term
            return project_argument(operands[i], total)

        def rule_pullback(dy: Any) -> tuple[Any, ...]:
            if several_outputs:
                parts = read_cotangents(dy, ys, f)
            else:
                parts = read_cotangent(dy, ys, f)
                if not isinstance(parts, (AbstractZero, NotImplementedTangent)):
                    parts = [parts]
            if isinstance(parts, AbstractZero) or (isinstance(parts, list) and all(p is None for p in parts)):
                return (NO, *(ZERO_TANGENT if d else NO for d in diff), *tail)
            if isinstance(parts, NotImplementedTangent):
                return (NO, *(parts if d else NO for d in diff), *tail)
            if sum(diff) > 1:
                return (NO, *(Thunk(_Cotangent(cotangent, i, parts)) if diff[i] else NO for i in range(n)), *tail)
            return (NO, *(cotangent(i, parts) if diff[i] else NO for i in range(n)), *tail)

        rule_pullback.__name__ = rule_pullback.__qualname__ = f"{name}_pullback"
        return ys, rule_pullback

    def rule_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        operands, rest = args[:n], args[n:]
        params = given(rest, kwargs)
        ys = f(*args, **kwargs)
        several_outputs = isinstance(ys, tuple)
        outputs = ys if several_outputs else (ys,)
        diff = differentiated(operands)
        totals: list[Any] = [None] * len(outputs)
        missing: Any = None
        for i in range(n):
            dx = unthunk(tangents[1 + i])
            if not diff[i] or is_zero_tangent(dx):
                continue
            if isinstance(dx, NotImplementedTangent):
                missing = dx
                continue
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                partial = partials[i](*operands, ys, **params)  # type: ignore[misc]
                if isinstance(partial, NotImplementedTangent):
                    missing = partial
                    continue
                row = partial if several_outputs else (partial,)
                for k, p in enumerate(row):
                    if p is None:
                        continue
                    if isinstance(p, NotImplementedTangent):
                        totals[k] = p
                        continue
                    if isinstance(totals[k], NotImplementedTangent):
                        continue
                    term = _forward(p, dx)
                    totals[k] = term if totals[k] is None else totals[k] + term
        dys: list[Any] = []
        for k, y in enumerate(outputs):
            if not differentiable(y):
                dys.append(NO)
            elif missing is not None:
                dys.append(missing)
            elif totals[k] is None:
                dys.append(ZERO_TANGENT)
            elif isinstance(totals[k], NotImplementedTangent):
                dys.append(totals[k])
            else:
                dys.append(fit_tangent(totals[k], y))
        return ys, (Tangent(tuple, *dys) if several_outputs else dys[0])

    rule_rrule.__name__ = rule_rrule.__qualname__ = f"{name}_rrule"
    rule_frule.__name__ = rule_frule.__qualname__ = f"{name}_frule"
    rule_rrule.__doc__ = rule_frule.__doc__ = f"Elementwise rule of ``{_callable_name(f)}``."
    types = (NUMERIC,) * n + tuple(t for _, t in extra)
    for k in range(n, len(types) + 1):
        rrule.register(f, *types[:k])(rule_rrule)
        frule.register(f, *types[:k])(rule_frule)
    if not extra and (positional_out if positional_out is not None else isinstance(f, np.ufunc)):
        _register_positional_out(f, n, getattr(f, "nout", 1))


class _Cotangent:
    """Thunk body: one operand's cotangent."""

    __slots__ = ("fn", "i", "parts")

    def __init__(self, fn: Callable[[int, list[Any]], Any], i: int, parts: list[Any]) -> None:
        self.fn, self.i, self.parts = fn, i, parts

    def __call__(self) -> Any:
        return self.fn(self.i, self.parts)
