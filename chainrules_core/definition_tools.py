"""Tools that define rules: ``scalar_rule``, ``non_differentiable``, ``opt_out``, ``not_implemented``.

Complex numbers: the holomorphic convention
-------------------------------------------
For a function with complex inputs, a pushforward multiplies the tangent by the
derivative, ``dy = f'(z) * dz``, and a pullback multiplies the cotangent by its
*conjugate*, ``dz = conj(f'(z)) * dy``. That is the adjoint with respect to the real inner
product ``<a, b> = Re(sum(conj(a) * b))`` used by every rule and tester of this library,
and it is the convention of ChainRules.jl and of PyTorch ("the conjugate Wirtinger
derivative"): the cotangent of a real loss ``L`` with respect to ``z`` is
``dL/dRe(z) + 1j * dL/dIm(z)``. ``scalar_rule`` applies it; it is exact for holomorphic
functions. Non-holomorphic functions (``abs``, ``angle``, ``real``, ``conj``) need rules
written by hand.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules_core.arithmetic import conj
from chainrules_core.broadcasting import unbroadcast
from chainrules_core.projection import check_cotangent_shape, cotangent_projector
from chainrules_core.rules import RuleSignature, Varargs, _callable_name, _RuleRegistry, frule, rrule
from chainrules_core.tangents.not_implemented import NotImplementedTangent, not_implemented
from chainrules_core.tangents.structural import Tangent
from chainrules_core.tangents.thunks import Thunk, unthunk
from chainrules_core.tangents.zeros import AbstractZero, NoTangent, ZeroTangent

__all__ = ["NUMERIC", "UnsupportedKeywordError", "non_differentiable", "not_implemented", "opt_out",
           "reject_keywords", "scalar_rule"]

NUMERIC = (numbers.Number, np.ndarray)
"""The default argument types of :func:`scalar_rule`: Python/NumPy numbers and ndarrays."""

_REJECTED = ("out", "where")


class UnsupportedKeywordError(TypeError):
    """A rule was asked to differentiate a call with a keyword it cannot honour (``out=``...)."""


def reject_keywords(f: Any, kwargs: dict[str, Any], names: tuple[str, ...] = _REJECTED) -> None:
    """Raise :class:`UnsupportedKeywordError` if ``kwargs`` uses any of ``names`` (not ``None``).

    Rules call this for keywords whose meaning they cannot differentiate, such as a ufunc's
    ``out=`` (writes into an existing array) or ``where=`` (leaves entries unwritten).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core.definition_tools import reject_keywords
    >>> reject_keywords(np.sin, {"dtype": None})
    >>> reject_keywords(np.sin, {"out": np.zeros(2)})
    Traceback (most recent call last):
    ...
    chainrules_core.definition_tools.UnsupportedKeywordError: numpy.sin: the keyword out= is not ...
    """
    for name in names:
        if kwargs.get(name) is not None:
            raise UnsupportedKeywordError(f"{_callable_name(f)}: the keyword {name}= is not "
                                          "differentiable; call without it")


def _partials_arity(partials: Callable[..., Any]) -> tuple[int, bool]:
    params = inspect.signature(partials).parameters.values()
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                  and p.name != "out"]
    uses_out = any(p.name == "out" for p in params)
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        raise TypeError("scalar_rule: the partials function must name each argument (no *args)")
    return len(positional), uses_out


def _as_rows(ps: Any, n: int) -> tuple[tuple[Any, ...], ...]:
    """Normalise partials to rows: one row of n partials per output."""
    if n == 1:
        if isinstance(ps, tuple) and ps and isinstance(ps[0], tuple):
            return tuple(tuple(row) for row in ps)
        return ((ps[0],),) if isinstance(ps, tuple) and len(ps) == 1 else ((ps,),)
    if not isinstance(ps, tuple):
        raise TypeError(f"scalar_rule: partials of a function of {n} arguments must be a tuple")
    if ps and isinstance(ps[0], tuple):
        return tuple(tuple(row) for row in ps)
    return (tuple(ps),)


def _pushforward_one(row: tuple[Any, ...], dxs: tuple[Any, ...], shape: tuple[int, ...]) -> Any:
    dy: Any = ZeroTangent()
    for p, dx in zip(row, dxs):
        dx = unthunk(dx)
        if isinstance(dx, AbstractZero):
            continue
        if isinstance(dx, NotImplementedTangent):
            return dx
        term = p * dx
        dy = term if isinstance(dy, AbstractZero) else dy + term
    if not isinstance(dy, AbstractZero) and np.shape(dy) != shape:
        dy = np.broadcast_to(dy, shape).copy()
    return dy


def scalar_rule(f: Callable[..., Any], partials: Callable[..., Any], *types: Any) -> None:
    """Define the frule and the rrule of an elementwise function from its partial derivatives.

    Parameters
    ----------
    f : callable
        The function, elementwise on NumPy arrays (a ufunc or a composition of ufuncs).
    partials : callable
        Takes the same positional arguments as ``f`` (and, optionally, the keyword ``out``:
        the primal output, to reuse it) and returns the partial derivatives: one value for
        one argument, a tuple for several arguments, a tuple of tuples for several outputs
        (one row per output).
    *types : type or tuple of types
        Types of the arguments (default: Python/NumPy numbers and ndarrays,
        :data:`NUMERIC`, for each).

    Notes
    -----
    Both rules work on scalars and elementwise on ndarrays with NumPy broadcasting: each
    cotangent is summed back to its input's shape and projected with ``cotangent_projector``
    (``ProjectTo``, with ``NoTangent()`` for integer and boolean arguments). For
    complex inputs the pullback multiplies by the conjugated partials (the holomorphic
    convention, see the module docstring). With several arguments the pullback returns
    thunks, so unused cotangents cost nothing. The keywords ``out=`` and ``where=`` raise
    :class:`UnsupportedKeywordError`; other keywords are passed to ``f``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import rrule, frule, scalar_rule
    >>> def my_sinh(x):
    ...     return np.sinh(x)
    >>> scalar_rule(my_sinh, lambda x: np.cosh(x))
    >>> y, pb = rrule(my_sinh, 0.5)
    >>> bool(np.isclose(pb(1.0)[1], np.cosh(0.5)))
    True
    >>> def my_exp(x):
    ...     return np.exp(x)
    >>> scalar_rule(my_exp, lambda x, out: out)
    >>> frule((None, 2.0), my_exp, 0.0)
    (np.float64(1.0), np.float64(2.0))
    """
    n, uses_out = _partials_arity(partials)
    if not types:
        types = (NUMERIC,) * n
    elif len(types) != n:
        raise TypeError(f"scalar_rule({_callable_name(f)}): {len(types)} types for {n} arguments")
    name = getattr(f, "__name__", "f")

    def partial_rows(args: tuple[Any, ...], y: Any) -> tuple[tuple[Any, ...], ...]:
        ps = partials(*args, out=y) if uses_out else partials(*args)
        return _as_rows(ps, n)

    def scalar_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        reject_keywords(f, kwargs)
        y = f(*args, **kwargs)
        rows = partial_rows(args, y)
        dxs = tuple(tangents[1:])
        if len(rows) == 1:
            return y, _pushforward_one(rows[0], dxs, np.shape(y))
        return y, Tangent(tuple, *(_pushforward_one(row, dxs, np.shape(yk)) for row, yk in zip(rows, y)))

    def scalar_rrule(*args: Any, **kwargs: Any) -> Any:
        reject_keywords(f, kwargs)
        y = f(*args, **kwargs)
        projectors = [cotangent_projector(a) for a in args]
        shapes = [np.shape(a) for a in args]
        multi = isinstance(y, tuple)

        def scalar_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return (NoTangent(), *(p(dy) for p in projectors))
            rows = partial_rows(args, y)
            dys = tuple(dy) if multi else (dy,)
            if len(dys) != len(rows):
                raise ValueError(f"{name} pullback: got a cotangent with {len(dys)} parts for "
                                 f"{len(rows)} outputs")
            for k, (dyk, yk) in enumerate(zip(dys, y if multi else (y,))):
                check_cotangent_shape(dyk, np.shape(yk), f"{name} pullback: cotangent of output {k + 1}"
                                      if multi else f"{name} pullback: output cotangent")

            def cotangent(i: int) -> Any:
                total: Any = ZeroTangent()
                for row, dyk in zip(rows, dys):
                    dyk = unthunk(dyk)
                    if isinstance(dyk, AbstractZero):
                        continue
                    term = conj(row[i]) * dyk
                    total = term if isinstance(total, AbstractZero) else total + term
                return projectors[i](unbroadcast(total, shapes[i]))

            if n == 1:
                return NoTangent(), cotangent(0)
            return (NoTangent(), *(Thunk(_Cotangent(cotangent, i)) for i in range(n)))

        scalar_pullback.__name__ = scalar_pullback.__qualname__ = f"{name}_pullback"
        return y, scalar_pullback

    scalar_frule.__name__ = scalar_frule.__qualname__ = f"{name}_frule"
    scalar_rrule.__name__ = scalar_rrule.__qualname__ = f"{name}_rrule"
    frule.register(f, *types)(scalar_frule)
    rrule.register(f, *types)(scalar_rrule)
    SCALAR_PARTIALS[f] = partials


class _Cotangent:
    """The i-th cotangent of a scalar-rule pullback, as a thunk body."""

    __slots__ = ("fn", "i")

    def __init__(self, fn: Callable[[int], Any], i: int) -> None:
        self.fn, self.i = fn, i

    def __call__(self) -> Any:
        return self.fn(self.i)


SCALAR_PARTIALS: dict[Any, Callable[..., Any]] = {}
"""The partials given to :func:`scalar_rule`, by function (for broadcasting fast paths)."""


def non_differentiable(f: Callable[..., Any], *types: Any) -> None:
    """Declare ``f`` non-differentiable: its frule gives ``NoTangent()``, its pullback too.

    Parameters
    ----------
    f : callable
    *types : type, tuple of types or Varargs
        Argument types the declaration covers (default: any arguments).

    Examples
    --------
    >>> from chainrules_core import rrule, frule, non_differentiable
    >>> def concat(a, b):
    ...     return a + b
    >>> non_differentiable(concat, str, str)
    >>> y, pb = rrule(concat, "ab", "cd")
    >>> y, pb(None)
    ('abcd', (NoTangent(), NoTangent(), NoTangent()))
    >>> frule((None, None, None), concat, "ab", "cd")
    ('abcd', NoTangent())
    """
    name = getattr(f, "__name__", "f")

    def non_differentiable_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        return f(*args, **kwargs), NoTangent()

    def non_differentiable_rrule(*args: Any, **kwargs: Any) -> Any:
        y = f(*args, **kwargs)
        result = (NoTangent(),) * (len(args) + 1)

        def non_differentiable_pullback(dy: Any) -> tuple[Any, ...]:
            return result

        non_differentiable_pullback.__name__ = f"{name}_pullback"
        return y, non_differentiable_pullback

    if not types:
        types = (Varargs(object),)
    frule.register(f, *types)(non_differentiable_frule)
    rrule.register(f, *types)(non_differentiable_rrule)


def opt_out(registry: _RuleRegistry, f: Callable[..., Any], *types: Any,
            config: type | None = None) -> RuleSignature:
    """Make ``registry(f, ...)`` answer ``None`` for these argument types.

    Use it where a more general rule would match but the AD should differentiate through
    ``f`` instead (for example because ``f`` is cheap to differentiate for that type, or
    the general rule would lose structure). ``registry.find`` reports ``OPTED_OUT``.

    Parameters
    ----------
    registry : rrule or frule
    f : callable
    *types : type, tuple of types or Varargs
        Exactly the positional argument types to opt out (a trailing ``Varargs`` covers
        more arguments).
    config : type, optional
        Opt out only for configs with this trait.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import rrule, opt_out, OPTED_OUT
    >>> def total(x):
    ...     return np.sum(x)
    >>> @rrule.register(total, object)
    ... def total_rrule(x):
    ...     def total_pullback(dy):
    ...         return None, dy
    ...     return total(x), total_pullback
    >>> _ = opt_out(rrule, total, list)
    >>> rrule(total, [1.0, 2.0]) is None, rrule.find(total, list) is OPTED_OUT
    (True, True)
    """
    return registry.opt_out(f, *types, config=config)
