"""``scalar_rule``: the frule and the rrule of an elementwise function from its partial derivatives.

This is how the library defines every elementwise rule (the NumPy ufuncs, ``math``,
``operator``, ``scipy.special``), and how a user defines one::

    scalar_rule(np.sin, np.cos)                                  # a partial that is a function
    scalar_rule(np.exp, lambda x, y: y)                          # ... that reuses the output y
    scalar_rule(np.hypot, lambda a, b, y: a / y, lambda a, b, y: b / y)
    scalar_rule(np.add, ONE, ONE)                                # constant partials cost nothing
    scalar_rule(sincos, (np.cos,), (lambda x: -np.sin(x),))      # several outputs: one row each

Each partial is the derivative of the output with respect to one argument. It is called
with the primal arguments, and also with the primal output (the tuple of outputs for a
function with several) when it takes one more parameter than ``f`` has arguments. It may
also be one of the constants :data:`ZERO`, :data:`ONE`, :data:`MINUS_ONE`, a Python number,
or a ``not_implemented("reason")`` tangent for a derivative nobody has written yet, or
``NoTangent()`` for an argument that is an index, never differentiated whatever its type
(an integer order that SciPy takes as a float and truncates: ``yn(2.0, x)``). A
callable partial may also *return* ``not_implemented("reason")`` for arguments at which it
cannot deliver the accuracy it promises (a series that does not converge in its iteration
budget, a numerical derivative whose error estimate is too large): the cotangent of that
argument, or the output tangent, is then that ``NotImplementedTangent``, never a loose number.

What the rules do
-----------------
* **Broadcasting**: each cotangent is summed over the axes broadcasting added
  (``unbroadcast``) and projected onto its argument (``ProjectTo``): float32 stays float32.
* **Integer and boolean arguments are not differentiated**: their cotangent is
  ``NoTangent()``; an integer or boolean *output* (``np.add(1, 2)``) gives ``NoTangent()``
  everywhere.
* **Lazy partials**: each partial is computed only for the arguments that need it, inside
  the argument's thunk when there are several, so an unused cotangent costs nothing.
* **Complex numbers**, the holomorphic convention: a pushforward multiplies the tangent by
  the partial, a pullback multiplies the cotangent by its conjugate (real partials are not
  conjugated, so no copy is made). This is the adjoint in the real inner product
  ``Re(sum(conj(a) * b))``, the convention of ChainRules.jl and PyTorch.
* **Keywords**: ``out=`` (by keyword, or by position for a ufunc) and ``where=`` raise
  :class:`UnsupportedKeywordError`; other keywords (``dtype=``...) are passed to ``f``.
* **Cotangents** are read with :func:`~chainrules_core.read_cotangent` (one policy for
  every rule of the library).
"""

from __future__ import annotations

import functools
import inspect
import numbers
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules_core import floating_point
from chainrules_core.broadcasting import unbroadcast
from chainrules_core.cotangents import differentiable, read_cotangent, read_cotangents
from chainrules_core.projection import ProjectTo
from chainrules_core.rules import _callable_name, frule, rrule
from chainrules_core.tangents.base import AbstractTangent
from chainrules_core.tangents.not_implemented import NotImplementedTangent
from chainrules_core.tangents.structural import Tangent
from chainrules_core.tangents.thunks import Thunk, unthunk
from chainrules_core.tangents.zeros import AbstractZero, NoTangent, ZeroTangent

__all__ = ["MINUS_ONE", "NUMERIC", "ONE", "ZERO", "UnsupportedKeywordError", "check_ufunc_keywords",
           "reject_keywords", "scalar_rule"]

NUMERIC = (numbers.Number, np.ndarray)
"""The default argument types of :func:`scalar_rule`: Python/NumPy numbers and ndarrays."""

NO = NoTangent()
ZERO_TANGENT = ZeroTangent()


class UnsupportedKeywordError(TypeError):
    """A rule was asked to differentiate a call with a keyword it cannot honour (``out=``...)."""


def reject_keywords(f: Any, kwargs: dict[str, Any], names: tuple[str, ...] = ("out", "where")) -> None:
    """Raise :class:`UnsupportedKeywordError` if ``kwargs`` uses any of ``names`` (not ``None``).

    Rules call this for keywords whose meaning they cannot differentiate, such as a ufunc's
    ``out=`` (writes into an existing array) or ``where=`` (leaves entries unwritten).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import reject_keywords
    >>> reject_keywords(np.sin, {"dtype": None})
    >>> reject_keywords(np.sin, {"out": np.zeros(2)})
    Traceback (most recent call last):
    ...
    chainrules_core.scalar_rules.UnsupportedKeywordError: numpy.sin: the keyword out= is not ...
    """
    for name in names:
        if kwargs.get(name) is not None:
            raise UnsupportedKeywordError(f"{_callable_name(f)}: the keyword {name}= is not "
                                          "differentiable; call without it")


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
    >>> from chainrules_core.scalar_rules import check_ufunc_keywords
    >>> check_ufunc_keywords(np.sin, {"dtype": np.float32, "where": True})
    >>> check_ufunc_keywords(np.sin, {"where": np.array([True, False])})
    Traceback (most recent call last):
    ...
    chainrules_core.scalar_rules.UnsupportedKeywordError: numpy.sin: the keyword where= is not ...
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


# ---- constant partials -------------------------------------------------------------------------------
class _Constant:
    """A partial derivative that is the same constant everywhere (no array is built for it)."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: Any) -> None:
        self.name, self.value = name, value

    def __repr__(self) -> str:
        return self.name


ZERO = _Constant("ZERO", 0)
"""The partial derivative is zero everywhere (floor, the second argument of copysign...)."""
ONE = _Constant("ONE", 1)
"""The partial derivative is one everywhere (add, positive...)."""
MINUS_ONE = _Constant("MINUS_ONE", -1)
"""The partial derivative is minus one everywhere (negative, the second argument of subtract)."""

Partial = Callable[..., Any] | _Constant | NotImplementedTangent | NoTangent


class _Scaled:
    """A constant partial given as a Python number: ``partial(*args, y) == value``."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self, *args_and_y: Any) -> Any:
        return self.value


class _WithoutOutput:
    """A partial that takes the arguments only, called as ``partial(*args, y)``."""

    __slots__ = ("partial",)

    def __init__(self, partial: Callable[..., Any]) -> None:
        self.partial = partial

    def __call__(self, *args_and_y: Any) -> Any:
        return self.partial(*args_and_y[:-1])


def _positional_arity(p: Any) -> int | None:
    """How many positional arguments ``p`` takes, or None when it takes any number."""
    if isinstance(p, np.ufunc):
        return int(p.nin)
    try:
        params = inspect.signature(p).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(q.kind is q.VAR_POSITIONAL for q in params):
        return None
    return sum(1 for q in params if q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD))


def _normalise_partial(p: Any, n: int, where: str, shared: bool = False) -> Any:
    """Turn a user's partial into the internal form: a constant, or ``partial(*args, y)``."""
    if isinstance(p, (_Constant, NotImplementedTangent, NoTangent)):
        return p
    if isinstance(p, numbers.Number) and not isinstance(p, bool):
        if p == 0:
            return ZERO
        if p == 1:
            return ONE
        if p == -1:
            return MINUS_ONE
        return _Scaled(p)
    if not callable(p):
        raise TypeError(f"{where}: a partial must be a callable, a number, ZERO/ONE/MINUS_ONE or "
                        f"not_implemented(...), got {type(p).__name__}")
    arity = _positional_arity(p)
    if shared:
        if arity not in (None, n + 2):
            raise TypeError(f"{where}: with shared=, a partial takes the {n} argument(s), the output and the "
                            f"shared value ({n + 2} parameters); {getattr(p, '__name__', p)} takes {arity}")
        return p
    if arity is None:
        raise TypeError(f"{where}: a partial must name its parameters (no *args): the {n} argument(s) of the "
                        "function, then optionally its output")
    if arity == n + 1:
        return p
    if arity == n:
        return _WithoutOutput(p)
    raise TypeError(f"{where}: a partial of a function of {n} argument(s) takes {n} parameters (the arguments) "
                    f"or {n + 1} (the arguments, then the output); {getattr(p, '__name__', p)} takes {arity}")


# ---- shared work of the partials ---------------------------------------------------------------------
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


def _bind_shared(partials: Sequence[Any], shared: Callable[..., Any]) -> tuple[Any, ...]:
    """The partials of one rule call, sharing one evaluation of ``shared``."""
    work = _SharedWork(shared)
    return tuple(p if isinstance(p, (_Constant, NotImplementedTangent, NoTangent)) else _WithShared(p, work)
                 for p in partials)


# ---- tangent helpers ---------------------------------------------------------------------------------
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
    """The dtype of a tangent of ``x``: its own for floating and complex values, else float64.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core.scalar_rules import tangent_dtype
    >>> tangent_dtype(np.ones(2, np.float32)), tangent_dtype(1j), tangent_dtype(3)
    (dtype('float32'), dtype('complex128'), dtype('float64'))
    """
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return np.dtype(np.complex128 if isinstance(x, complex) else np.float64)
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def zero_cotangent(x: Any) -> Any:
    """A dense zero in the tangent space of ``x`` (its shape and dtype), or ``NoTangent()``.

    The cotangent of an input whose partial derivative is zero everywhere (``floor``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core.scalar_rules import zero_cotangent
    >>> zero_cotangent(np.ones(2, np.float32)), zero_cotangent(1.5), zero_cotangent(3)
    (array([0., 0.], dtype=float32), 0.0, NoTangent())
    """
    if not differentiable(x):
        return NO
    return ProjectTo(x)(np.zeros(np.shape(x), tangent_dtype(x)))


def zero_tangent_of(y: Any) -> Any:
    """A dense zero tangent of the output ``y`` (the pushforward of a zero-derivative function)."""
    if not differentiable(y):
        return NO
    return ProjectTo(y)(np.zeros(np.shape(y), tangent_dtype(y)))


def fit_tangent(dy: Any, y: Any) -> Any:
    """Fit a pushforward to the output: its shape (broadcast, copied) and its tangent dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core.scalar_rules import fit_tangent
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


def is_zero_tangent(dx: Any) -> bool:
    """Whether a tangent stands for zero: a zero tangent or ``None``."""
    return dx is None or isinstance(dx, AbstractZero)


def project_argument(x: Any, g: Any) -> Any:
    """Sum ``g`` over the axes broadcasting added to ``x`` and project it onto ``x``'s tangent space.

    ``g`` is ``None`` for a zero partial: the cotangent is then a dense zero of ``x``'s
    shape and dtype.
    """
    if g is None:
        return zero_cotangent(x)
    if type(g) is np.ndarray and type(x) is np.ndarray and g.dtype == x.dtype and g.shape == x.shape \
            and x.dtype.kind in "fc":
        return g  # already in the tangent space: the common case, without building a projector
    shape = np.shape(x)
    if np.shape(g) != shape:
        g = unbroadcast(g, shape)
    return ProjectTo(x)(g)


def _weighted(partial: Any, args: tuple[Any, ...], y: Any, dy: Any) -> Any:
    """``conj(partial) * dy`` (not yet summed over broadcast axes); ``None`` for a ZERO partial."""
    if partial is ZERO:
        return None
    if partial is ONE:
        return dy
    if partial is MINUS_ONE:
        return -dy
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        value = partial(*args, y)
        if isinstance(value, NotImplementedTangent):  # not available at these arguments
            return value
        # One expression: NumPy then multiplies into the partial's temporary (no new array).
        return conj_if_complex(value) * dy


def _argument_cotangent(partial: Any, args: tuple[Any, ...], y: Any, dy: Any, i: int) -> Any:
    """``ProjectTo(args[i])(unbroadcast(conj(partial) * dy))``, with the constant partials free."""
    if isinstance(partial, NotImplementedTangent):
        return partial
    g = _weighted(partial, args, y, dy)
    if isinstance(g, NotImplementedTangent):
        return g
    return project_argument(args[i], g)


class _ArgumentCotangent:
    """Thunk body: the cotangent of one argument of a scalar-rule pullback."""

    __slots__ = ("args", "dy", "i", "partial", "y")

    def __init__(self, partial: Any, args: tuple[Any, ...], y: Any, dy: Any, i: int) -> None:
        self.partial, self.args, self.y, self.dy, self.i = partial, args, y, dy, i

    def __call__(self) -> Any:
        return _argument_cotangent(self.partial, self.args, self.y, self.dy, self.i)


def _pushforward(partials: Sequence[Any], args: tuple[Any, ...], y: Any, tangents: Sequence[Any],
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
        if is_zero_tangent(dx) or not differentiable(args[i]) or isinstance(partial, NoTangent):
            continue
        if isinstance(dx, NotImplementedTangent):
            return dx
        if isinstance(partial, NotImplementedTangent):
            return partial
        if partial is ZERO:
            constant_zero = True
            continue
        if partial is ONE:
            term = dx
        elif partial is MINUS_ONE:
            term = -dx
        else:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                value = partial(*args, y_partial)
                if isinstance(value, NotImplementedTangent):  # not available at these arguments
                    return value
                term = value * dx
        total = term if total is None else total + term
    if total is None:
        return zero_tangent_of(y) if constant_zero else ZERO_TANGENT
    return fit_tangent(total, y)


# ---- positional out ----------------------------------------------------------------------------------
def _raise_positional_out(f: Any) -> Callable[..., Any]:
    """An rrule/frule body for a ufunc called with ``out`` by position (``np.sin(x, out)``)."""

    def positional_out_rule(*args: Any, **kwargs: Any) -> Any:
        raise UnsupportedKeywordError(f"{_callable_name(f)}: an output array given by position (out) is "
                                      "not differentiable; call without it")

    positional_out_rule.__name__ = f"{getattr(f, '__name__', 'f')}_positional_out_rule"
    return positional_out_rule


def _register_positional_out(f: Any, nin: int, nout: int = 1) -> None:
    """Make ``f(*inputs, out1, ...)`` (outputs by position) raise instead of finding no rule."""
    types = (NUMERIC,) * nin + ((np.ndarray, tuple),) + (object,) * (nout - 1)
    body = _raise_positional_out(f)
    rrule.register(f, *types)(body)

    def positional_out_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        return body(*args, **kwargs)

    positional_out_frule.__name__ = body.__name__
    frule.register(f, *types)(positional_out_frule)


# ---- the rules ---------------------------------------------------------------------------------------
def _named(function: Callable[..., Any], name: str, inner: str | None = None,
           inner_name: str | None = None) -> Callable[..., Any]:
    """``function`` renamed ``name``; with ``inner``, the functions it defines named ``inner`` are
    renamed ``inner_name`` (their code objects are renamed once, here, so a rule call does not
    pay for naming each pullback it makes)."""
    if inner is not None:
        code = function.__code__
        renamed: dict[str, Any] = {"co_name": inner_name}
        if sys.version_info >= (3, 11):  # (before 3.11, a function's __qualname__ is not on its code object)
            renamed["co_qualname"] = inner_name
        consts = tuple(c.replace(**renamed) if isinstance(c, types.CodeType) and c.co_name == inner else c
                       for c in code.co_consts)
        function = types.FunctionType(code.replace(co_consts=consts), function.__globals__, name,
                                      function.__defaults__, function.__closure__)
    function.__name__ = function.__qualname__ = name
    return function


def _single_output_pullback(f: Any, all_partials: tuple[Any, ...], name: str,
                            shared: Callable[..., Any] | None) -> Callable[..., Any]:
    """``pullback_of(args, y)``: the pullback of the rule at arguments ``args`` with output ``y``."""
    n = len(all_partials)

    def pullback_of(args: tuple[Any, ...], y: Any) -> Callable[[Any], tuple[Any, ...]]:
        diff = ([differentiable(a) and not isinstance(p, NoTangent) for a, p in zip(args, all_partials)]
                if differentiable(y) else [False] * n)
        several = sum(diff) > 1
        partials = _bind_shared(all_partials, shared) if shared is not None else all_partials

        def scalar_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, f)
            if isinstance(dy, AbstractTangent):
                if isinstance(dy, AbstractZero):
                    return (NO, *(ZERO_TANGENT if d else NO for d in diff))
                return (NO, *(dy if d else NO for d in diff))  # not implemented: pass it on
            if several:
                return (NO, *(Thunk(_ArgumentCotangent(partials[i], args, y, dy, i)) if diff[i] else NO
                              for i in range(n)))
            return (NO, *(_argument_cotangent(partials[i], args, y, dy, i) if diff[i] else NO
                          for i in range(n)))

        return scalar_pullback

    return _named(pullback_of, f"{name}_pullback_of", "scalar_pullback", f"{name}_pullback")


def _single_output_rules(f: Any, partials: tuple[Any, ...], name: str, keywords: Callable[..., None],
                         shared: Callable[..., Any] | None) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The general rrule and frule of a function with one output: the specification of the fast paths."""
    all_partials = partials
    pullback_of = _single_output_pullback(f, partials, name, shared)

    def scalar_rrule(*args: Any, **kwargs: Any) -> Any:
        keywords(f, kwargs)
        y = f(*args, **kwargs)
        return y, pullback_of(args, y)

    def pullback_given_output(y: Any, *args: Any) -> Callable[[Any], tuple[Any, ...]]:
        return pullback_of(args, y)

    scalar_rrule.pullback_given_output = pullback_given_output  # type: ignore[attr-defined]

    def scalar_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        keywords(f, kwargs)
        y = f(*args, **kwargs)
        if not differentiable(y):
            return y, NO
        partials = _bind_shared(all_partials, shared) if shared is not None else all_partials
        return y, _pushforward(partials, args, y, tangents[1:])

    return scalar_rrule, scalar_frule


# ---- fast paths --------------------------------------------------------------------------------------
# The rrules of one- and two-argument functions without shared work take a fast path for
# real floating values: arguments that are Python floats, np.float64 or floating ndarrays
# (an integer argument is not differentiated), a real floating output, and an output
# cotangent that is a float, a np.float64 or a floating ndarray of the output's shape. They
# decide by exact types, ignore floating-point errors through the context variable
# ``floating_point`` keeps (the equivalent of np.errstate) and project without building a
# projector. Everything else (complex or integer outputs, keywords, lists, subclasses,
# zero, thunk, structural or wrong cotangents, a partial that gives a complex or
# not-implemented value) goes to the general rules above, which stay the specification:
# tests/chainrules_core/test_fast_paths.py runs both on the same inputs and compares.

_ndarray = np.ndarray
_float64 = np.float64
_F64 = np.dtype(np.float64)
_new = object.__new__  # a Thunk made as Thunk(fn) makes it, without the call of its __init__
_partial = functools.partial
_fp_state = floating_point._extobj_contextvar
if _fp_state is not None:
    _fp_get, _fp_set, _fp_reset = _fp_state.get, _fp_state.set, _fp_state.reset
_quiet_states_get = floating_point._quiet_states.get
_quiet_state = floating_point._quiet_state


def _fast_cotangent(call: Any, a: Any, b: Any, y: Any, dy: Any, x: Any) -> Any:
    """The cotangent of the argument ``x`` (``a`` or ``b``) of a function of two arguments:
    ``project_argument(x, conj(p) * dy)`` with the partial ``p = call(a, b, y)``, as
    ``_argument_cotangent`` computes it. A product that is already an ndarray of ``x``'s
    shape and dtype is returned as it is (no projection call)."""
    if _fp_state is None:  # pragma: no cover  (NumPy 1.x)
        token = floating_point.quiet()
    else:
        current = _fp_get()
        token = _fp_set(_quiet_states_get(current) or _quiet_state(current))
    try:
        value = call(a, b, y)
        t = type(value)
        if (t is _ndarray and ((d := value.dtype) is _F64 or d.kind == "f")) or t is _float64 or t is float:
            g = value * dy
        elif isinstance(value, NotImplementedTangent):
            return value
        else:
            g = conj_if_complex(value) * dy
    finally:
        if _fp_state is None:  # pragma: no cover
            floating_point.restore(token)
        else:
            _fp_reset(token)
    if type(g) is _ndarray and type(x) is _ndarray and g.dtype is x.dtype and g.shape == x.shape:
        return g
    return _project_fast(x, g)


def _project_fast(x: Any, g: Any) -> Any:
    """``project_argument(x, g)``, the common cases decided by type."""
    tx = type(x)
    if tx is _ndarray:
        if type(g) is _ndarray:
            shape = x.shape
            if g.shape != shape:
                g = unbroadcast(g, shape)
                if type(g) is not _ndarray or g.shape != shape:
                    return project_argument(x, g)
            dtype = g.dtype
            if dtype is x.dtype or dtype == x.dtype:
                return g  # (x is a real floating array here)
    elif tx is float or tx is _float64:
        tg = type(g)
        if tg is _float64:
            return float(g)
        if tg is float:
            return g
    return project_argument(x, g)


def _fast_unary_rrule(f: Any, partial: Any, name: str, keywords: Callable[..., None],
                      pullback_of: Callable[..., Any]) -> Callable[..., Any]:
    """The rrule of a function of one argument, fast for a real floating argument and output.

    The pullback computes the cotangent in its own body, as :func:`_fast_cotangent` does for
    two arguments (a constant partial, or NumPy 1.x, goes to the general
    ``_argument_cotangent``). Its result needs no projection when it is an ndarray of the
    argument's shape and dtype (the usual case: ``float64`` everywhere; one dtype identity
    and one shape comparison against what the rrule saw); anything else goes through
    ``_project_fast``.
    """
    constant = isinstance(partial, _Constant)
    inline = _fp_state is not None and not constant

    def scalar_rrule(x, **kwargs):  # (not annotated: the hot path)
        if kwargs:
            keywords(f, kwargs)
            y = f(x, **kwargs)
        else:
            y = f(x)
        return y, pullback_at(y, x)

    def pullback_at(y, x):
        t = type(y)
        if t is _ndarray:
            shape = y.shape if (d := y.dtype) is _F64 or d.kind == "f" else None
        else:
            shape = () if t is _float64 or t is float else None
        t = type(x)
        if t is _ndarray:
            xdtype = x.dtype
            if shape is None or (xdtype is not _F64 and xdtype.kind != "f"):
                return pullback_of((x,), y)
            xshape = x.shape
        elif shape is None or not (t is float or t is _float64):
            return pullback_of((x,), y)
        else:
            xdtype = xshape = None

        def fast_pullback(dy):
            t = type(dy)
            if not ((dy.shape == shape and ((d := dy.dtype) is _F64 or d.kind == "f")) if t is _ndarray else (
                    (t is float or t is _float64) and shape == ())):
                return pullback_of((x,), y)(dy)
            if not inline:  # a constant partial, or NumPy 1.x (no error-state context variable)
                return NO, _argument_cotangent(partial, (x,), y, dy, 0)
            current = _fp_get()
            token = _fp_set(_quiet_states_get(current) or _quiet_state(current))
            try:
                value = partial(x, y)
                t = type(value)
                if (t is _ndarray and ((d := value.dtype) is _F64 or d.kind == "f")) or t is _float64 or t is float:
                    g = value * dy
                elif isinstance(value, NotImplementedTangent):
                    return NO, value
                else:
                    g = conj_if_complex(value) * dy
            finally:
                _fp_reset(token)
            if type(g) is _ndarray and g.dtype is xdtype and g.shape == xshape:
                return NO, g  # already in the argument's space
            return NO, _project_fast(x, g)

        return fast_pullback

    pullback_at = _named(pullback_at, f"{name}_pullback_given_output", "fast_pullback", f"{name}_pullback")
    rule = _named(scalar_rrule, f"{name}_rrule")
    rule.pullback_given_output = pullback_at  # type: ignore[attr-defined]
    return rule


def _fast_binary_rrule(f: Any, partials: tuple[Any, Any], name: str, keywords: Callable[..., None],
                       pullback_of: Callable[..., Any]) -> Callable[..., Any]:
    """The rrule of a function of two arguments, fast for real floating (or integer) arguments and a
    real floating output. A constant partial (``ONE``...) is computed by the general helper."""
    p0, p1 = partials
    c0, c1 = not isinstance(p0, _Constant), not isinstance(p1, _Constant)

    def scalar_rrule(a, b, **kwargs):  # (not annotated: the hot path)
        if kwargs:
            keywords(f, kwargs)
            y = f(a, b, **kwargs)
        else:
            y = f(a, b)
        return y, pullback_at(y, a, b)

    def pullback_at(y, a, b):
        t = type(y)
        if t is _ndarray:
            shape = y.shape if (d := y.dtype) is _F64 or d.kind == "f" else None
        else:
            shape = () if t is _float64 or t is float else None
        # each argument: 1, a real floating value; 0, an integer or boolean one (not differentiated);
        # -1, anything else (the general path)
        t = type(a)
        ka = ((1 if (d := a.dtype) is _F64 or (k := d.kind) == "f" else 0 if k in "iub" else -1) if t is _ndarray else
              1 if t is float or t is _float64 else 0 if t is int or t is bool else -1)
        t = type(b)
        kb = ((1 if (d := b.dtype) is _F64 or (k := d.kind) == "f" else 0 if k in "iub" else -1) if t is _ndarray else
              1 if t is float or t is _float64 else 0 if t is int or t is bool else -1)
        if shape is None or ka < 0 or kb < 0 or ka + kb == 0:
            return pullback_of((a, b), y)

        def fast_pullback(dy):
            t = type(dy)
            if not ((dy.shape == shape and ((d := dy.dtype) is _F64 or d.kind == "f")) if t is _ndarray else (
                    (t is float or t is _float64) and shape == ())):
                return pullback_of((a, b), y)(dy)
            if ka and kb:
                t0 = _new(Thunk)
                t0.fn = _partial(_fast_cotangent, p0, a, b, y, dy, a) if c0 else _ArgumentCotangent(
                    p0, (a, b), y, dy, 0)
                t1 = _new(Thunk)
                t1.fn = _partial(_fast_cotangent, p1, a, b, y, dy, b) if c1 else _ArgumentCotangent(
                    p1, (a, b), y, dy, 1)
                return NO, t0, t1
            if ka:
                return NO, (_fast_cotangent(p0, a, b, y, dy, a) if c0 else
                            _argument_cotangent(p0, (a, b), y, dy, 0)), NO
            return NO, NO, (_fast_cotangent(p1, a, b, y, dy, b) if c1 else
                            _argument_cotangent(p1, (a, b), y, dy, 1))

        return fast_pullback

    pullback_at = _named(pullback_at, f"{name}_pullback_given_output", "fast_pullback", f"{name}_pullback")
    rule = _named(scalar_rrule, f"{name}_rrule")
    rule.pullback_given_output = pullback_at  # type: ignore[attr-defined]
    return rule


def _multi_output_rules(f: Any, rows: tuple[tuple[Any, ...], ...], name: str, keywords: Callable[..., None],
                        ) -> tuple[Callable[..., Any], Callable[..., Any]]:
    nout = len(rows)
    n = len(rows[0])

    def scalar_rrule(*args: Any, **kwargs: Any) -> Any:
        keywords(f, kwargs)
        ys = f(*args, **kwargs)
        live = [differentiable(yk) for yk in ys]
        diff = ([differentiable(a) and not all(isinstance(row[i], NoTangent) for row in rows)
                 for i, a in enumerate(args)] if any(live) else [False] * n)
        several = sum(diff) > 1

        def cotangent(i: int, parts: list[Any]) -> Any:
            total: Any = None
            for k in range(nout):
                part = parts[k]
                if not live[k] or part is None:
                    continue
                if isinstance(part, NotImplementedTangent):
                    return part
                partial = rows[k][i]
                if isinstance(partial, NotImplementedTangent):
                    return partial
                g = _weighted(partial, args, ys, part)
                if isinstance(g, NotImplementedTangent):
                    return g
                if g is not None:
                    total = g if total is None else total + g
            return project_argument(args[i], total)

        def scalar_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, ys, f)
            if isinstance(parts, AbstractZero):
                return (NO, *(ZERO_TANGENT if d else NO for d in diff))
            if isinstance(parts, NotImplementedTangent):
                return (NO, *(parts if d else NO for d in diff))
            if all(p is None for p in parts):
                return (NO, *(ZERO_TANGENT if d else NO for d in diff))
            if several:
                return (NO, *(Thunk(functools.partial(cotangent, i, parts)) if diff[i] else NO for i in range(n)))
            return (NO, *(cotangent(i, parts) if diff[i] else NO for i in range(n)))

        scalar_pullback.__name__ = scalar_pullback.__qualname__ = f"{name}_pullback"
        return ys, scalar_pullback

    def scalar_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        keywords(f, kwargs)
        ys = f(*args, **kwargs)
        dys = [_pushforward(rows[k], args, yk, tangents[1:], ys) if differentiable(yk) else NO
               for k, yk in enumerate(ys)]
        return ys, Tangent(tuple, *dys)

    return scalar_rrule, scalar_frule


def _function_arity(f: Any) -> int | None:
    """The number of positional arguments ``f`` takes, when that is fixed (a ufunc, a plain function)."""
    if isinstance(f, np.ufunc):
        return int(f.nin)
    if not inspect.isfunction(f):
        return None
    params = inspect.signature(f).parameters.values()
    if any(q.kind is q.VAR_POSITIONAL for q in params):
        return None
    required = [q for q in params if q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD)
                and q.default is q.empty]
    return len(required)


def scalar_rule(f: Callable[..., Any], *partials: Any, types: Sequence[Any] | None = None,
                name: str | None = None, keywords: Callable[[Any, dict[str, Any]], None] | None = None,
                shared: Callable[..., Any] | None = None, positional_out: bool | None = None) -> None:
    """Register the frule and the rrule of an elementwise function from its partial derivatives.

    Parameters
    ----------
    f : callable
        The function, elementwise on NumPy arrays and numbers (a ufunc, a ``scipy.special``
        function, or a composition of them).
    *partials : callable, number, constant or tuple
        One partial per argument of ``f``: the derivative of the output with respect to
        that argument. A callable is called with the primal arguments, followed by the
        primal output if it takes one more parameter than ``f`` has arguments; NumPy
        broadcasting applies. A number, or :data:`ZERO` / :data:`ONE` / :data:`MINUS_ONE`,
        is a constant partial; ``not_implemented("reason")`` marks a derivative nobody has
        written yet (a callable may also return it, for arguments it cannot handle);
        ``NoTangent()`` marks an index argument, whose cotangent is always ``NoTangent()``. For
        a function with several outputs, pass one tuple of partials per output (its rows);
        their callables receive the tuple of outputs.
    types : sequence of types, optional
        Types of the arguments (default :data:`NUMERIC` for each: Python/NumPy numbers and
        ndarrays).
    name : str, optional
        Used in the names of the rules and pullbacks (default ``f.__name__``).
    keywords : callable, optional
        ``keywords(f, kwargs)`` raises for keywords the rule cannot honour (default: ``out=``
        and ``where=``, see :func:`check_ufunc_keywords`); other keywords go to ``f``.
    shared : callable, optional
        Work the partials share: ``shared(*args, y)`` is computed at most once per call of
        a rule, when the first partial needs it, and the partials are called as
        ``partial(*args, y, s)``.
    positional_out : bool, optional
        Make ``f(*args, out)`` (an output array by position) raise
        :class:`UnsupportedKeywordError` (default: for ufuncs).

    Notes
    -----
    See the module docstring for broadcasting, integer arguments, thunks and complex
    numbers. With several differentiable arguments the pullback returns thunks.

    The rrule of a function with one output carries ``pullback_given_output(y, *args)``:
    the pullback of ``rrule(f, *args)`` (no keywords) when the output ``y = f(*args)`` is
    already known, e.g. computed by an AD framework that asks for the pullback afterwards
    (the autograd bridge does); the output is then not computed a second time.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import rrule, frule, scalar_rule, unthunk
    >>> from chainrules_core.scalar_rules import ONE
    >>> def my_sinh(x):
    ...     return np.sinh(x)
    >>> scalar_rule(my_sinh, np.cosh)
    >>> y, pullback = rrule(my_sinh, 0.5)
    >>> bool(np.isclose(pullback(1.0)[1], np.cosh(0.5)))
    True
    >>> def my_exp(x):
    ...     return np.exp(x)
    >>> scalar_rule(my_exp, lambda x, y: y)           # reuses the output
    >>> frule((None, 2.0), my_exp, 0.0)
    (np.float64(1.0), np.float64(2.0))
    >>> def shift(x, c):
    ...     return x + c
    >>> scalar_rule(shift, ONE, ONE)
    >>> y, pullback = rrule(shift, np.ones((2, 3)), 1)
    >>> pullback(np.ones((2, 3)))[2]                  # an integer argument is not differentiated
    NoTangent()
    >>> def sin_and_cos(x):
    ...     return np.sin(x), np.cos(x)
    >>> scalar_rule(sin_and_cos, (np.cos,), (lambda x: -np.sin(x),))
    >>> frule((None, 1.0), sin_and_cos, 0.0)[1]
    Tangent(tuple, np.float64(1.0), np.float64(-0.0))
    """
    where = f"scalar_rule({_callable_name(f)})"
    if not partials:
        raise TypeError(f"{where}: give one partial per argument")
    multi = all(isinstance(p, tuple) for p in partials)
    if multi:
        rows = tuple(tuple(row) for row in partials)
        n = len(rows[0])
        if any(len(row) != n for row in rows):
            raise TypeError(f"{where}: every output's row must have one partial per argument")
    elif any(isinstance(p, tuple) for p in partials):
        raise TypeError(f"{where}: give either one partial per argument, or one tuple of partials per output")
    else:
        n = len(partials)
    arity = _function_arity(f)
    if arity is not None and arity != n:
        raise TypeError(f"{where}: {n} partial(s) given for a function of {arity} argument(s)")
    if types is None:
        types = (NUMERIC,) * n
    elif len(types) != n:
        raise TypeError(f"{where}: {len(types)} types for {n} arguments")
    name = str(name or getattr(f, "__name__", "f"))
    check = keywords if keywords is not None else check_ufunc_keywords
    if multi:
        normal_rows = tuple(tuple(_normalise_partial(p, n, where) for p in row) for row in rows)
        if shared is not None:
            raise TypeError(f"{where}: shared= is for functions with one output")
        rrule_impl, frule_impl = _multi_output_rules(f, normal_rows, name, check)
        nout = len(rows)
    else:
        normal = tuple(_normalise_partial(p, n, where, shared is not None) for p in partials)
        rrule_impl, frule_impl = _single_output_rules(f, normal, name, check, shared)
        if shared is None and n in (1, 2) and not any(
                isinstance(p, (NoTangent, NotImplementedTangent)) for p in normal):
            pullback_of = _single_output_pullback(f, normal, name, None)
            general = rrule_impl
            rrule_impl = (_fast_unary_rrule(f, normal[0], name, check, pullback_of) if n == 1 else
                          _fast_binary_rrule(f, (normal[0], normal[1]), name, check, pullback_of))
            rrule_impl.general = general  # type: ignore[attr-defined]  # the specification (tests compare)
            general.__name__ = general.__qualname__ = f"{name}_general_rrule"
        nout = 1
    rrule_impl.__name__ = rrule_impl.__qualname__ = f"{name}_rrule"
    frule_impl.__name__ = frule_impl.__qualname__ = f"{name}_frule"
    rrule_impl.__doc__ = frule_impl.__doc__ = f"Elementwise rule of ``{_callable_name(f)}``."
    rrule.register(f, *types)(rrule_impl)
    frule.register(f, *types)(frule_impl)
    if positional_out if positional_out is not None else isinstance(f, np.ufunc):
        _register_positional_out(f, len(types), nout)
