"""Machinery shared by the elementwise rules (private).

:func:`elementwise_rule` defines the frule and the rrule of an elementwise function from
one partial derivative per argument, the way :func:`chainrules_core.scalar_rule` does, and
adds what the NumPy ufuncs need:

* **integer and boolean arguments are not differentiated**: their cotangent is
  ``NoTangent()`` (``np.multiply(x, 2)``, ``np.ldexp(x, n)``), and an integer or boolean
  *output* (``np.add(i, j)``, ``dtype=int``) makes every cotangent ``NoTangent()``;
* each partial is computed **lazily and only for the arguments that need it** (inside the
  argument's thunk when there are several), so the exponent's cotangent of ``power``
  costs nothing unless it is used;
* partials may be the constants :data:`ZERO`, :data:`ONE` and :data:`MINUS_ONE`, which
  cost no multiplication; a :data:`ZERO` partial gives a dense zero cotangent of the
  input's shape and dtype (the convention of ``docs/rules/elementwise.md``);
* real partials are not conjugated (no copy), complex ones are (the holomorphic
  convention); cotangents are summed over broadcast axes (``unbroadcast``) and projected;
* the ufunc keywords: ``out=`` (by keyword or by position) and ``where=`` raise
  :class:`~chainrules_core.UnsupportedKeywordError`; ``dtype=``, ``casting=``,
  ``order=``, ``subok=`` and ``signature=`` are passed on to the function.

The rest of this module holds the small helpers the hand-written rules share (reading an
output cotangent, zero cotangents, fitting a pushforward to the output).
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules_core import (
    AbstractTangent,
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    Tangent,
    Thunk,
    UnsupportedKeywordError,
    ZeroTangent,
    backing,
    check_cotangent_shape,
    frule,
    rrule,
    unbroadcast,
    unthunk,
)
from chainrules_core.rules import _callable_name

NUMERIC = (numbers.Number, np.ndarray)
"""Argument types of the elementwise rules: Python and NumPy numbers, ndarrays."""

NO = NoTangent()
ZERO_TANGENT = ZeroTangent()


class _Constant:
    """A partial derivative that is the same constant everywhere (no array is built for it)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


ZERO = _Constant("ZERO")
"""The partial derivative is zero everywhere (floor, the second argument of copysign...)."""
ONE = _Constant("ONE")
"""The partial derivative is one everywhere (add, positive...)."""
MINUS_ONE = _Constant("MINUS_ONE")
"""The partial derivative is minus one everywhere (negative, the second argument of subtract)."""

Partial = Callable[..., Any] | _Constant


# ---- small helpers -----------------------------------------------------------------------------------
def differentiable(x: Any) -> bool:
    """Whether ``x`` is differentiated: floating and complex values are, integers and booleans not.

    The same test says whether an output carries a tangent (``np.add(1, 2)`` does not).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.elementwise._common import differentiable
    >>> differentiable(1.0), differentiable(2), differentiable(np.ones(2, np.float32)), differentiable(True)
    (True, False, True, False)
    """
    t = type(x)
    if t is float or t is complex:
        return True
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return dtype.kind in "fcO"
    return isinstance(x, numbers.Number) and not isinstance(x, numbers.Integral)


def _out_given(out: Any) -> bool:
    if out is None:
        return False
    if isinstance(out, tuple):
        return any(o is not None for o in out)
    return True


def check_ufunc_keywords(f: Any, kwargs: dict[str, Any]) -> None:
    """Raise :class:`UnsupportedKeywordError` for ``out=`` and for a ``where=`` that is not ``True``.

    ``out=`` writes into an array the rule does not own and ``where=`` leaves entries of
    the output unwritten; neither can be differentiated. The other ufunc keywords
    (``dtype``, ``casting``, ``order``, ``subok``, ``signature``) are passed on.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.elementwise._common import check_ufunc_keywords
    >>> check_ufunc_keywords(np.sin, {"dtype": np.float32, "where": True})
    >>> check_ufunc_keywords(np.sin, {"where": np.array([True, False])})
    Traceback (most recent call last):
    ...
    chainrules_core.definition_tools.UnsupportedKeywordError: numpy.sin: the keyword where= is not ...
    """
    if not kwargs:
        return
    if _out_given(kwargs.get("out")):
        raise UnsupportedKeywordError(f"{_callable_name(f)}: the keyword out= is not differentiable; "
                                      "call without it")
    where = kwargs.get("where", True)
    if not (isinstance(where, (bool, np.bool_)) and where):
        raise UnsupportedKeywordError(f"{_callable_name(f)}: the keyword where= is not differentiable "
                                      "(it leaves entries of the output unwritten); call without it")


def no_keywords(f: Any, kwargs: dict[str, Any]) -> None:
    """Keyword check of functions that take none the rule must refuse (``math``, ``operator``)."""


def read_cotangent(dy: Any, shape: tuple[int, ...], name: str) -> Any:
    """Unthunk an output cotangent and check its shape and kind.

    Zeros and not-implemented tangents are returned as they are (the caller passes them
    on); a structural ``Tangent`` or an array of the wrong shape raises an error naming
    the function and both shapes.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import Thunk
    >>> from chainrules.rulesets.elementwise._common import read_cotangent
    >>> read_cotangent(Thunk(lambda: np.ones(2)), (2,), "sin")
    array([1., 1.])
    >>> read_cotangent(np.ones(3), (2,), "sin")
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: sin pullback: output cotangent has shape (3,), expected shape (2,)
    """
    dy = unthunk(dy)
    if isinstance(dy, AbstractTangent):
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            return dy
        raise ProjectionError(f"{name} pullback: output cotangent is a {type(dy).__name__}; expected an "
                              f"array of shape {shape} or a number")
    check_cotangent_shape(dy, shape, f"{name} pullback: output cotangent")
    return dy


def real_part(dy: Any) -> Any:
    """The real part of a cotangent (no copy for real ones): the cotangent of a real output."""
    if isinstance(dy, (complex, np.complexfloating)) or (isinstance(dy, np.ndarray) and dy.dtype.kind == "c"):
        return dy.real
    return dy


def is_complex(x: Any) -> bool:
    """Whether a value is complex (a Python, NumPy or array complex)."""
    if isinstance(x, complex):
        return True
    dtype = getattr(x, "dtype", None)
    return dtype is not None and dtype.kind == "c"


def conj_if_complex(p: Any) -> Any:
    """``conj(p)`` for complex ``p``; real ``p`` is returned as it is (``np.conj`` would copy)."""
    return np.conj(p) if is_complex(p) else p


def tangent_dtype(x: Any) -> np.dtype:
    """The dtype of a tangent of ``x``: its own for floating and complex values, else float64."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return np.dtype(np.complex128 if isinstance(x, complex) else np.float64)
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def zero_cotangent(x: Any) -> Any:
    """A dense zero in the tangent space of ``x`` (its shape and dtype), or ``NoTangent()``.

    The cotangent of an input whose partial derivative is zero everywhere (``floor``),
    following the convention of ``docs/rules/elementwise.md``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.elementwise._common import zero_cotangent
    >>> zero_cotangent(np.ones(2, np.float32)), zero_cotangent(1.5), zero_cotangent(3)
    (array([0., 0.], dtype=float32), 0.0, NoTangent())
    """
    if not differentiable(x):
        return NO
    return ProjectTo(x)(np.zeros(np.shape(x), tangent_dtype(x)))


def fit_tangent(dy: Any, y: Any) -> Any:
    """Fit a pushforward to the output: its shape (broadcast, copied) and its tangent dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.elementwise._common import fit_tangent
    >>> fit_tangent(np.float64(2.0), np.ones(2, np.float32))
    array([2., 2.], dtype=float32)
    """
    if type(dy) is np.ndarray and type(y) is np.ndarray and dy.dtype == y.dtype and dy.shape == y.shape:
        return dy
    shape = np.shape(y)
    if np.shape(dy) != shape:
        dy = np.broadcast_to(dy, shape).copy()
    elif isinstance(dy, np.generic) and isinstance(y, np.generic) and dy.dtype == y.dtype:
        return dy  # a NumPy scalar tangent of a NumPy scalar of the same dtype
    return ProjectTo(y)(dy)


def zero_tangent_of(y: Any) -> Any:
    """A dense zero tangent of the output ``y`` (the pushforward of a zero-derivative function)."""
    if not differentiable(y):
        return NO
    return ProjectTo(y)(np.zeros(np.shape(y), tangent_dtype(y)))


def is_zero_tangent(dx: Any) -> bool:
    """Whether a tangent stands for zero: a zero tangent or ``None``."""
    return dx is None or isinstance(dx, AbstractZero)


def raise_positional_out(f: Any) -> Callable[..., Any]:
    """An rrule/frule body for a ufunc called with ``out`` by position (``np.sin(x, out)``)."""

    def positional_out_rule(*args: Any, **kwargs: Any) -> Any:
        raise UnsupportedKeywordError(f"{_callable_name(f)}: an output array given by position (out) is "
                                      "not differentiable; call without it")

    positional_out_rule.__name__ = f"{getattr(f, '__name__', 'f')}_positional_out_rule"
    return positional_out_rule


def register_positional_out(f: Any, nin: int, nout: int = 1) -> None:
    """Make ``f(*inputs, out1, ...)`` (outputs by position) raise instead of finding no rule."""
    types = (NUMERIC,) * nin + ((np.ndarray, tuple),) + (object,) * (nout - 1)
    body = raise_positional_out(f)
    rrule.register(f, *types)(body)

    def positional_out_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        return body(*args, **kwargs)

    positional_out_frule.__name__ = body.__name__
    frule.register(f, *types)(positional_out_frule)


# ---- elementwise_rule --------------------------------------------------------------------------------
_UNSET: Any = object()


class _SharedWork:
    """``shared(*args, y)``, computed on first use and kept (one per rule call)."""

    __slots__ = ("fn", "value")

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn, self.value = fn, _UNSET

    def get(self, args_and_y: tuple[Any, ...]) -> Any:
        if self.value is _UNSET:
            self.value = self.fn(*args_and_y)
        return self.value


class _WithShared:
    """A partial called as ``partial(*args, y, shared)``, with the shared work filled in."""

    __slots__ = ("partial", "work")

    def __init__(self, partial: Callable[..., Any], work: _SharedWork) -> None:
        self.partial, self.work = partial, work

    def __call__(self, *args_and_y: Any) -> Any:
        return self.partial(*args_and_y, self.work.get(args_and_y))


def bind_shared(partials: Sequence[Partial], shared: Callable[..., Any]) -> tuple[Partial, ...]:
    """The partials of one rule call, sharing one evaluation of ``shared``."""
    work = _SharedWork(shared)
    return tuple(p if isinstance(p, _Constant) else _WithShared(p, work) for p in partials)


class _ArgumentCotangent:
    """Thunk body: the cotangent of one argument of an elementwise pullback."""

    __slots__ = ("args", "dy", "i", "partial", "y")

    def __init__(self, partial: Partial, args: tuple[Any, ...], y: Any, dy: Any, i: int) -> None:
        self.partial, self.args, self.y, self.dy, self.i = partial, args, y, dy, i

    def __call__(self) -> Any:
        return argument_cotangent(self.partial, self.args, self.y, self.dy, self.i)


def weighted(partial: Partial, args: tuple[Any, ...], y: Any, dy: Any) -> Any:
    """``conj(partial) * dy`` (not yet summed over broadcast axes); ``None`` for a ZERO partial."""
    if partial is ZERO:
        return None
    if partial is ONE:
        return dy
    if partial is MINUS_ONE:
        return -dy
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # One expression: NumPy then multiplies into the partial's temporary (no new array).
        return conj_if_complex(partial(*args, y)) * dy  # type: ignore[operator]


def project_argument(x: Any, g: Any) -> Any:
    """Sum ``g`` over the axes broadcasting added to ``x`` and project it onto ``x``'s tangent space."""
    if g is None:
        return zero_cotangent(x)
    if type(g) is np.ndarray and type(x) is np.ndarray and g.dtype == x.dtype and g.shape == x.shape \
            and x.dtype.kind in "fc":
        return g  # already in the tangent space: the common case, without building a projector
    shape = np.shape(x)
    if np.shape(g) != shape:
        g = unbroadcast(g, shape)
    return ProjectTo(x)(g)


def argument_cotangent(partial: Partial, args: tuple[Any, ...], y: Any, dy: Any, i: int) -> Any:
    """``ProjectTo(args[i])(unbroadcast(conj(partial) * dy))``, with the constant partials free."""
    return project_argument(args[i], weighted(partial, args, y, dy))


def pushforward(partials: Sequence[Partial], args: tuple[Any, ...], y: Any, tangents: Sequence[Any],
                y_partial: Any = None) -> Any:
    """``sum_i partial_i * dx_i`` fitted to the output ``y``; zeros cost nothing.

    The partials are called as ``partial(*args, y_partial)`` (default ``y``; a multi-output
    rule passes the tuple of all outputs).
    """
    if y_partial is None:
        y_partial = y
    total: Any = None
    constant_zero = False
    for i, partial in enumerate(partials):
        dx = unthunk(tangents[i])
        if is_zero_tangent(dx) or not differentiable(args[i]):
            continue
        if isinstance(dx, NotImplementedTangent):
            return dx
        if partial is ZERO:
            constant_zero = True
            continue
        if partial is ONE:
            term = dx
        elif partial is MINUS_ONE:
            term = -dx
        else:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                term = partial(*args, y_partial) * dx  # type: ignore[operator]
        total = term if total is None else total + term
    if total is None:
        return zero_tangent_of(y) if constant_zero else ZERO_TANGENT
    return fit_tangent(total, y)


def elementwise_rule(f: Any, *partials: Partial, name: str | None = None,
                     keywords: Callable[[Any, dict[str, Any]], None] = check_ufunc_keywords,
                     types: tuple[Any, ...] | None = None, positional_out: bool | None = None,
                     shared: Callable[..., Any] | None = None) -> None:
    """Register the frule and the rrule of an elementwise function from its partial derivatives.

    Parameters
    ----------
    f : callable
        The function (a ufunc, or a function elementwise on arrays or numbers).
    *partials : callable or constant
        One per argument: ``partial(*args, y)`` returns the partial derivative of the
        output with respect to that argument (``y`` is the primal output, for rules that
        reuse it), broadcastable against the output; or one of :data:`ZERO`,
        :data:`ONE`, :data:`MINUS_ONE`.
    name : str, optional
        Used in pullback names and messages (default ``f.__name__``).
    keywords : callable
        ``keywords(f, kwargs)`` raises for keywords the rule cannot honour (default: the
        ufunc keywords ``out=`` and ``where=``).
    types : tuple, optional
        Argument types (default :data:`NUMERIC` for each).
    positional_out : bool, optional
        Also make ``f(*args, out)`` raise :class:`UnsupportedKeywordError` (default: for ufuncs).
    shared : callable, optional
        Work the partials share: ``shared(*args, y)`` is computed at most once per rrule
        or frule call, when the first partial needs it, and the partials are then called
        as ``partial(*args, y, s)`` (``maximum``: the share of each argument).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.rulesets.elementwise._common import elementwise_rule, ONE
    >>> def shift(x, c):
    ...     return x + c
    >>> elementwise_rule(shift, ONE, ONE)
    >>> y, pullback = rrule(shift, np.ones((2, 3)), 1)
    >>> pullback(np.ones((2, 3)))[2]     # an integer argument is not differentiated
    NoTangent()
    """
    n = len(partials)
    name = str(name or getattr(f, "__name__", "f"))
    where = f"{name} pullback: output cotangent"
    all_partials = partials

    def elementwise_rrule(*args: Any, **kwargs: Any) -> Any:
        keywords(f, kwargs)
        y = f(*args, **kwargs)
        y_shape = np.shape(y)
        diff = [differentiable(a) for a in args] if differentiable(y) else [False] * n
        several = sum(diff) > 1
        partials = bind_shared(all_partials, shared) if shared is not None else all_partials

        def elementwise_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractTangent):
                if isinstance(dy, AbstractZero):
                    return (NO, *(ZERO_TANGENT if d else NO for d in diff))
                if isinstance(dy, NotImplementedTangent):
                    return (NO, *(dy if d else NO for d in diff))
                dy = read_cotangent(dy, y_shape, name)
            elif type(dy) is np.ndarray and dy.shape != y_shape:
                check_cotangent_shape(dy, y_shape, where)
            if several:
                return (NO, *(Thunk(_ArgumentCotangent(partials[i], args, y, dy, i)) if diff[i] else NO
                              for i in range(n)))
            return (NO, *(argument_cotangent(partials[i], args, y, dy, i) if diff[i] else NO
                          for i in range(n)))

        elementwise_pullback.__name__ = elementwise_pullback.__qualname__ = f"{name}_pullback"
        return y, elementwise_pullback

    def elementwise_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        keywords(f, kwargs)
        y = f(*args, **kwargs)
        if not differentiable(y):
            return y, NO
        partials = bind_shared(all_partials, shared) if shared is not None else all_partials
        return y, pushforward(partials, args, y, tangents[1:])

    _register(f, name, elementwise_rrule, elementwise_frule, types if types is not None else (NUMERIC,) * n,
              positional_out, getattr(f, "nout", 1))


def _register(f: Any, name: str, rrule_impl: Callable[..., Any], frule_impl: Callable[..., Any],
              types: tuple[Any, ...], positional_out: bool | None, nout: int) -> None:
    """Name the two implementations after ``f`` and register them (and the positional-``out`` error)."""
    rrule_impl.__name__ = rrule_impl.__qualname__ = f"{name}_rrule"
    frule_impl.__name__ = frule_impl.__qualname__ = f"{name}_frule"
    rrule_impl.__doc__ = frule_impl.__doc__ = f"Elementwise rule of ``{_callable_name(f)}``."
    rrule.register(f, *types)(rrule_impl)
    frule.register(f, *types)(frule_impl)
    if positional_out if positional_out is not None else isinstance(f, np.ufunc):
        register_positional_out(f, len(types), nout)


# ---- multi_output_rule -------------------------------------------------------------------------------
def output_parts(dy: Any, nout: int, shapes: Sequence[tuple[int, ...]], name: str) -> list[Any] | None:
    """Split the cotangent of a tuple output into its parts (``None`` if it is a zero).

    Accepts a ``Tangent`` of a tuple, a plain tuple or list, thunks anywhere; each part is
    unthunked and its shape checked.
    """
    dy = unthunk(dy)
    if isinstance(dy, AbstractZero):
        return None
    if isinstance(dy, Tangent):
        parts = backing(dy)
        if isinstance(parts, dict):
            raise ProjectionError(f"{name} pullback: the cotangent of a tuple output has named fields")
    elif isinstance(dy, (tuple, list)):
        parts = tuple(dy)
    else:
        raise ProjectionError(f"{name} pullback: the output is a tuple of {nout} arrays; got a cotangent "
                              f"of type {type(dy).__name__}")
    if len(parts) != nout:
        raise ProjectionError(f"{name} pullback: the output has {nout} parts, the cotangent {len(parts)}")
    out = []
    for k, (part, shape) in enumerate(zip(parts, shapes)):
        part = unthunk(part)
        if not isinstance(part, (AbstractZero, NotImplementedTangent)):
            check_cotangent_shape(part, shape, f"{name} pullback: cotangent of output {k + 1}")
        out.append(part)
    return out


def multi_output_rule(f: Any, rows: Sequence[Sequence[Partial]], *, name: str | None = None,
                      keywords: Callable[[Any, dict[str, Any]], None] = check_ufunc_keywords,
                      types: tuple[Any, ...] | None = None, positional_out: bool | None = None) -> None:
    """Register the rules of an elementwise function with several outputs (``modf``, ``divmod``).

    ``rows[k][i]`` is the partial of output ``k`` with respect to argument ``i``, called as
    ``partial(*args, ys)`` with ``ys`` the tuple of outputs, or a constant. Integer
    outputs (the exponent of ``frexp``) have tangent ``NoTangent()`` and their cotangents
    are ignored. The tangent of the output is a ``Tangent`` of a tuple.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule
    >>> from chainrules.rulesets.elementwise._common import multi_output_rule, ONE, MINUS_ONE
    >>> def sum_and_difference(a, b):
    ...     return a + b, a - b
    >>> multi_output_rule(sum_and_difference, [(ONE, ONE), (ONE, MINUS_ONE)])
    >>> frule((None, 1.0, 2.0), sum_and_difference, 3.0, 4.0)
    ((7.0, -1.0), Tangent(tuple, 3.0, -1.0))
    """
    nout = len(rows)
    n = len(rows[0])
    name = str(name or getattr(f, "__name__", "f"))

    def multi_output_rrule(*args: Any, **kwargs: Any) -> Any:
        keywords(f, kwargs)
        ys = f(*args, **kwargs)
        shapes = [np.shape(yk) for yk in ys]
        live = [differentiable(yk) for yk in ys]
        diff = [differentiable(a) for a in args] if any(live) else [False] * n
        several = sum(diff) > 1

        def cotangent(i: int, parts: list[Any]) -> Any:
            total: Any = None
            for k in range(nout):
                part = parts[k]
                if not live[k] or isinstance(part, AbstractZero):
                    continue
                if isinstance(part, NotImplementedTangent):
                    return part
                g = weighted(rows[k][i], args, ys, part)
                if g is not None:
                    total = g if total is None else total + g
            return project_argument(args[i], total)

        def multi_output_pullback(dy: Any) -> tuple[Any, ...]:
            parts = output_parts(dy, nout, shapes, name)
            if parts is None:
                return (NO, *(ZERO_TANGENT if d else NO for d in diff))
            if several:
                return (NO, *(Thunk(functools.partial(cotangent, i, parts)) if diff[i] else NO for i in range(n)))
            return (NO, *(cotangent(i, parts) if diff[i] else NO for i in range(n)))

        multi_output_pullback.__name__ = multi_output_pullback.__qualname__ = f"{name}_pullback"
        return ys, multi_output_pullback

    def multi_output_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        keywords(f, kwargs)
        ys = f(*args, **kwargs)
        dys = [pushforward(rows[k], args, yk, tangents[1:], ys) if differentiable(yk) else NO
               for k, yk in enumerate(ys)]
        return ys, Tangent(tuple, *dys)

    _register(f, name, multi_output_rrule, multi_output_frule, types if types is not None else (NUMERIC,) * n,
              positional_out, nout)


# ---- unary_rule --------------------------------------------------------------------------------------
def unary_rule(f: Any, backward: Callable[..., Any], forward: Callable[..., Any], *, name: str | None = None,
               keywords: Callable[[Any, dict[str, Any]], None] = check_ufunc_keywords,
               extra: Sequence[tuple[str, Any]] = (), types: tuple[Any, ...] = (NUMERIC,),
               positional_out: bool | None = None) -> None:
    """Register hand-written rules of a function of one differentiable argument.

    For functions whose derivative is not a holomorphic partial (``abs``, ``angle``,
    ``conj``, ``real``, ``sign``...) or that take extra non-differentiable parameters
    (``np.round(a, decimals)``). The shared work is done here: keyword checks, integer
    inputs and outputs (``NoTangent()``), zero and not-implemented cotangents, the shape
    check, projection onto the input and fitting the tangent to the output.

    Parameters
    ----------
    f : callable
    backward : callable
        ``backward(x, y, dy, **params)``: the cotangent of ``x`` for a nonzero output
        cotangent ``dy`` (before projection; a real input keeps the real part).
    forward : callable
        ``forward(x, y, dx, **params)``: the tangent of the output for a nonzero ``dx``.
    extra : sequence of (name, type)
        Optional positional parameters after ``x`` (NumPy's names), never differentiated;
        ``params`` holds every one of them that was given, by position or keyword (other
        keywords, such as a ufunc's ``dtype=``, are checked by ``keywords`` and passed to
        ``f`` only).
    keywords, types, positional_out, name
        As for :func:`elementwise_rule`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.rulesets.elementwise._common import unary_rule
    >>> def mirror(x):
    ...     return -x
    >>> unary_rule(mirror, lambda x, y, dy: -dy, lambda x, y, dx: -dx)
    >>> rrule(mirror, np.float32(2.0))[1](1.0)
    (NoTangent(), np.float32(-1.0))
    """
    name = str(name or getattr(f, "__name__", "f"))
    names = tuple(n for n, _ in extra)
    n_rest = len(names)

    def given(rest: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """Check the keywords; return the extra parameters given, by position or keyword."""
        keywords(f, {**kwargs, **dict(zip(names, rest))} if rest else kwargs)
        params = {k: kwargs[k] for k in names if k in kwargs}
        params.update(zip(names, rest))
        return params

    def unary_rrule(x: Any, *rest: Any, **kwargs: Any) -> Any:
        params = given(rest, kwargs)
        y = f(x, *rest, **kwargs)
        shape = np.shape(y)
        live = differentiable(y) and differentiable(x)
        tail = (NO,) * len(rest)

        def unary_pullback(dy: Any) -> tuple[Any, ...]:
            if not live:
                return (NO, NO, *tail)
            dy = read_cotangent(dy, shape, name)
            if isinstance(dy, AbstractZero):
                return (NO, ZERO_TANGENT, *tail)
            if isinstance(dy, NotImplementedTangent):
                return (NO, dy, *tail)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                dx = backward(x, y, dy, **params)
            return (NO, project_argument(x, dx), *tail)

        unary_pullback.__name__ = unary_pullback.__qualname__ = f"{name}_pullback"
        return y, unary_pullback

    def unary_frule(tangents: Any, x: Any, *rest: Any, **kwargs: Any) -> Any:
        params = given(rest, kwargs)
        y = f(x, *rest, **kwargs)
        if not differentiable(y):
            return y, NO
        dx = unthunk(tangents[1])
        if is_zero_tangent(dx) or not differentiable(x):
            return y, ZERO_TANGENT
        if isinstance(dx, NotImplementedTangent):
            return y, dx
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            dy = forward(x, y, dx, **params)
        return y, fit_tangent(dy, y)

    unary_rrule.__name__ = unary_rrule.__qualname__ = f"{name}_rrule"
    unary_frule.__name__ = unary_frule.__qualname__ = f"{name}_frule"
    unary_rrule.__doc__ = unary_frule.__doc__ = f"Rule of ``{_callable_name(f)}``."
    all_types = tuple(types) + tuple(t for _, t in extra)
    for k in range(len(types), len(all_types) + 1):
        rrule.register(f, *all_types[:k])(unary_rrule)
        frule.register(f, *all_types[:k])(unary_frule)
    if n_rest == 0 and (positional_out if positional_out is not None else isinstance(f, np.ufunc)):
        register_positional_out(f, 1, getattr(f, "nout", 1))


def zero_backward(x: Any, y: Any, dy: Any, **params: Any) -> Any:
    """``backward`` of a function whose derivative is zero everywhere: a dense zero."""
    return zero_cotangent(x)


def zero_forward(x: Any, y: Any, dx: Any, **params: Any) -> Any:
    """``forward`` of a function whose derivative is zero everywhere: a dense zero."""
    return zero_tangent_of(y)


# ---- sequences of numbers (math.fsum, sum, min, max...) ----------------------------------------------
SEQUENCE = (list, tuple, np.ndarray)
"""Types of the iterable argument of ``sum``, ``min``, ``max``, ``math.fsum``, ``math.prod``..."""


def sequence_cotangent(xs: Any, values: Any) -> Any:
    """The cotangent of a list, tuple or array ``xs`` from one cotangent value per element.

    A list or tuple gets a ``Tangent`` of its type with each element projected (integer
    elements get ``NoTangent()``; ``NoTangent()`` if no element is differentiable); an
    array gets an array.

    Examples
    --------
    >>> from chainrules.rulesets.elementwise._common import sequence_cotangent
    >>> sequence_cotangent([1.0, 2], [0.5, 0.5])
    Tangent(list, 0.5, NoTangent())
    """
    if isinstance(xs, np.ndarray):
        return project_argument(xs, values) if differentiable(xs) else NO
    elements = [project_argument(x, v) if differentiable(x) else NO for x, v in zip(xs, values)]
    if all(e is NO for e in elements):
        return NO
    return Tangent(type(xs), *elements)


def sequence_tangents(dxs: Any, xs: Any) -> list[Any]:
    """The tangents of the elements of ``xs`` (``None`` for zero or absent ones)."""
    dxs = unthunk(dxs)
    n = len(xs)
    if is_zero_tangent(dxs):
        return [None] * n
    if isinstance(xs, np.ndarray) and not isinstance(dxs, Tangent):
        parts = list(np.broadcast_to(dxs, xs.shape))
    else:
        parts = list(backing(dxs)) if isinstance(dxs, Tangent) else list(dxs)
    out = []
    for x, dx in zip(xs, parts):
        dx = unthunk(dx)
        out.append(None if is_zero_tangent(dx) or not differentiable(x) else dx)
    return out
