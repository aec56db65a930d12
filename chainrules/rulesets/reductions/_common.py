"""Helpers shared by the reduction and scan rules (private).

A reduction over ``axes`` maps an array of shape ``shape`` to an array whose reduced axes
are dropped (or kept with length one, ``keepdims=True``). Its pullback needs the output
cotangent back in the input's shape: :func:`keepdims_shape` gives the shape with the
reduced axes kept as length one, and :func:`broadcast_view` broadcasts a cotangent there
without copying it (a read-only view with zero strides, as ``np.broadcast_to`` gives).

Conventions every rule of this package follows, implemented here once:

* integer and boolean inputs are not differentiated: their cotangent is ``NoTangent()``
  (:func:`project_input`);
* the output cotangent is read by :func:`read_cotangent`: thunks are unthunked, zeros and
  not-implemented tangents are returned as they are (the pullback passes them on), a
  wrong shape raises an error naming the function and both shapes;
* a cotangent is cast to the input's tangent dtype *before* it is broadcast
  (:func:`to_tangent_dtype`), so a ``dtype=`` keyword never makes the pullback allocate a
  full-size array just to change precision, and float32 inputs keep float32 cotangents;
* NumPy's "no value" default (``np._NoValue``) marks keywords the caller did not pass;
  :func:`given` drops them before the primal call.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    UnsupportedKeywordError,
    ZeroTangent,
    check_cotangent_shape,
    frule,
    rrule,
    unthunk,
)
from chainrules_core.rules import _callable_name

NUMBER_OR_ARRAY = (numbers.Number, np.ndarray)
"""Types of the array argument: ndarrays and Python/NumPy numbers."""

NOVALUE: Any = np._NoValue
"""NumPy's default for keywords that were not passed (``keepdims=<no value>``)."""


def given(**kwargs: Any) -> dict[str, Any]:
    """The keyword arguments whose value is not NumPy's "no value" default.

    Examples
    --------
    >>> from chainrules.rulesets.reductions._common import NOVALUE, given
    >>> given(keepdims=True, initial=NOVALUE)
    {'keepdims': True}
    """
    return {k: v for k, v in kwargs.items() if v is not NOVALUE}


def reject_out(f: Any, out: Any) -> None:
    """Raise :class:`UnsupportedKeywordError` when ``out=`` is given (a rule cannot write into it).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._common import reject_out
    >>> reject_out(np.sum, None)
    >>> reject_out(np.sum, np.zeros(()))
    Traceback (most recent call last):
    ...
    chainrules_core.scalar_rules.UnsupportedKeywordError: numpy.sum: the keyword out= is not ...
    """
    if out is not None:
        raise UnsupportedKeywordError(f"{_callable_name(f)}: the keyword out= is not differentiable; "
                                      "call without it")


def differentiable(x: Any) -> bool:
    """Whether ``x`` has a tangent space: a floating or complex number or array.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._common import differentiable
    >>> differentiable(np.ones(2)), differentiable(np.arange(2)), differentiable(3), differentiable(2.0)
    (True, False, False, True)
    """
    if isinstance(x, (bool, int, np.bool_)):
        return False
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return bool(np.dtype(dtype).kind in "fc")
    return isinstance(x, (float, complex))


def _no_tangent(dx: Any) -> NoTangent:
    return NoTangent()


def project_input(x: Any) -> Callable[[Any], Any]:
    """``ProjectTo(x)``, except integer and boolean inputs, which get ``NoTangent()``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._common import project_input
    >>> project_input(np.arange(3))(np.ones(3)), project_input(np.ones(2, np.float32))(np.ones(2))
    (NoTangent(), array([1., 1.], dtype=float32))
    """
    if isinstance(x, (numbers.Number, np.ndarray, np.generic)) and not differentiable(x):
        return _no_tangent
    return ProjectTo(x)


def tangent_dtype(x: Any) -> np.dtype:
    """The dtype of a tangent of the (floating or complex) ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._common import tangent_dtype
    >>> tangent_dtype(np.ones(2, np.float32)), tangent_dtype(1.0), tangent_dtype(1j)
    (dtype('float32'), dtype('float64'), dtype('complex128'))
    """
    return np.asarray(x).dtype


def to_tangent_dtype(dy: Any, x: Any) -> np.ndarray:
    """``dy`` as an array of ``x``'s tangent dtype: the real part for a real ``x``, then cast.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._common import to_tangent_dtype
    >>> to_tangent_dtype(np.array([1 + 2j]), np.ones(3, np.float32))
    array([1.], dtype=float32)
    """
    dy = np.asarray(dy)
    want = tangent_dtype(x)
    if want.kind == "f" and dy.dtype.kind == "c":
        dy = dy.real
    return dy.astype(want, copy=False)


def read_cotangent(dy: Any, y: Any, where: str) -> Any:
    """The output cotangent of a pullback, ready to use.

    Returns a zero or a ``NotImplementedTangent`` unchanged (the pullback passes it on),
    else an ndarray of the output's shape (a thunk is unthunked). A cotangent of another
    shape raises :class:`~chainrules_core.ProjectionError` naming ``where`` and both shapes.
    An integer or boolean output (``dtype=int``) has no tangent space: its cotangent reads
    as ``ZeroTangent()``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Thunk, ZeroTangent
    >>> from chainrules.rulesets.reductions._common import read_cotangent
    >>> read_cotangent(Thunk(lambda: 2.0), np.float64(1.0), "f pullback: output cotangent")
    array(2.)
    >>> read_cotangent(ZeroTangent(), np.ones(2), "f pullback: output cotangent")
    ZeroTangent()
    >>> read_cotangent(np.ones(3), np.ones(2), "f pullback: output cotangent")
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: f pullback: output cotangent has shape (3,), expected shape (2,)
    """
    shape = np.shape(y)
    kind = type(dy)
    if kind is np.ndarray and dy.shape == shape and differentiable(y):  # the common cases first
        return dy
    if (kind is float or kind is np.float64) and not shape and differentiable(y):
        return np.asarray(dy)
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return dy
    check_cotangent_shape(dy, shape, where)
    if not differentiable(y):
        return ZeroTangent()
    return np.asarray(dy).reshape(shape)


def passes_through(dy: Any) -> bool:
    """Whether a read cotangent is a zero or a not-implemented tangent (not an array)."""
    return isinstance(dy, (AbstractZero, NotImplementedTangent))


def reduced_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """The reduced axes as sorted non-negative ints (``None``: all of them).

    Examples
    --------
    >>> from chainrules.rulesets.reductions._common import reduced_axes
    >>> reduced_axes(None, 3), reduced_axes(-1, 3), reduced_axes((2, 0), 3)
    ((0, 1, 2), (2,), (0, 2))
    """
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int and -ndim <= axis < ndim:
        return (axis % ndim,)
    return tuple(sorted(normalize_axis_tuple(axis, ndim)))


def keepdims_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with the reduced ``axes`` set to length one.

    Examples
    --------
    >>> from chainrules.rulesets.reductions._common import keepdims_shape
    >>> keepdims_shape((2, 3, 4), (0, 2))
    (1, 3, 1)
    """
    if len(axes) == len(shape):
        return (1,) * len(shape)
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def broadcast_view(small: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A read-only view of ``small`` (of ``shape`` with some axes of length one) broadcast to ``shape``.

    What ``np.broadcast_to`` returns, built directly (zero strides on the broadcast axes)
    for a C-contiguous ``small`` of the same number of dimensions; other arrays go through
    ``np.broadcast_to``. The memory used is that of ``small``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._common import broadcast_view
    >>> out = broadcast_view(np.array([[1.0, 2.0]]), (3, 2))
    >>> out, out.flags.writeable, out.strides
    (array([[1., 2.],
           [1., 2.],
           [1., 2.]]), False, (0, 8))
    """
    if small.ndim != len(shape) or not small.flags.c_contiguous:
        return np.broadcast_to(small, shape)
    strides = tuple(0 if m == 1 else stride for m, stride in zip(small.shape, small.strides))
    view = np.ndarray(shape, small.dtype, small, 0, strides)
    view.flags.writeable = False
    return view


def zero_cotangents(dy: Any, n: int) -> tuple[Any, ...]:
    """``n`` copies of a zero or not-implemented output cotangent, for the differentiable inputs."""
    if isinstance(dy, NotImplementedTangent):
        return (dy,) * n
    return (ZeroTangent(),) * n


def tangent_value(dx: Any) -> Any:
    """The value of an input tangent, or ``None`` for a zero (``ZeroTangent()``, ``NoTangent()``).

    Examples
    --------
    >>> from chainrules_core import Thunk, ZeroTangent
    >>> from chainrules.rulesets.reductions._common import tangent_value
    >>> tangent_value(Thunk(lambda: 2.0)), tangent_value(ZeroTangent())
    (2.0, None)
    """
    dx = unthunk(dx)
    return None if isinstance(dx, AbstractZero) else dx


def output_tangent(value: Any, y: Any) -> Any:
    """An frule's output tangent in the output's tangent space (dtype and shape of ``y``).

    ``None`` (all input tangents zero) gives ``ZeroTangent()``; a non-differentiable output
    (integer or boolean) gives ``NoTangent()``.
    """
    if not differentiable(y):
        return NoTangent()
    if value is None:
        return ZeroTangent()
    if isinstance(value, NotImplementedTangent):
        return value
    value = to_tangent_dtype(value, y)
    if isinstance(y, np.ndarray):
        return np.asarray(value).reshape(y.shape)
    return value.reshape(())[()] if isinstance(value, np.ndarray) else value


def scalar_result(value: np.ndarray, like: Any) -> Any:
    """``value`` as a NumPy scalar when the primal ``like`` is not an ndarray."""
    return value if isinstance(like, np.ndarray) else np.asarray(value).reshape(())[()]


def project_array_argument(x: Any) -> Callable[[Any], Any]:
    """:func:`project_input` for an argument NumPy converts with ``np.asarray`` (weights, ``q``).

    A list or tuple of numbers gets its cotangent as a ``Tangent`` of the same structure
    (the array cotangent is turned into nested lists first); arrays and numbers are
    projected as usual.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._common import project_array_argument
    >>> project_array_argument([0.25, 0.5])(np.array([1.0, 2.0]))
    Tangent(list, 1.0, 2.0)
    """
    if isinstance(x, (list, tuple)):
        if not differentiable(np.asarray(x)):
            return _no_tangent
        project_x = ProjectTo(x)

        def project_sequence(dx: Any) -> Any:
            if isinstance(dx, (AbstractZero, NotImplementedTangent)):
                return dx
            return project_x(np.asarray(dx).tolist())

        return project_sequence
    return project_input(x)


def as_computed(a: Any, dtype: Any) -> np.ndarray:
    """The values a reduction with ``dtype=`` works on: the real part when a real ``dtype``
    is asked of complex input (NumPy casts, discarding the imaginary part), else ``a``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._common import as_computed
    >>> as_computed(np.array([1 + 2j]), np.float64)
    array([1.])
    """
    arr = np.asarray(a)
    if dtype is not None and arr.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        return arr.real
    return arr


def name_pullback(pullback: Callable[..., Any], label: str) -> Callable[..., Any]:
    """Name a generated pullback ``<label>_pullback`` (tracebacks and error messages read it)."""
    pullback.__name__ = f"{label}_pullback"
    pullback.__qualname__ = f"{label}_rrule.<locals>.{label}_pullback"
    return pullback


def register_rules(f: Any, label: str, rrule_impl: Callable[..., Any], frule_impl: Callable[..., Any],
                   types: tuple[Any, ...] = (NUMBER_OR_ARRAY,),
                   what: str = "") -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Name a generated rule pair ``<label>_rrule``/``<label>_frule``, document and register it for ``f``.

    Parameters
    ----------
    f : callable
        The function (or ``ndarray`` method) the rules differentiate.
    label : str
        Its short name (``"nansum"``, ``"ndarray_max"``).
    rrule_impl, frule_impl : callable
        The rules.
    types : tuple
        The types of the leading positional arguments (default: a number or an ndarray).
    what : str
        How ``f`` is spelled in the docstrings (default ``np.<label>``).

    Returns
    -------
    tuple
        ``(rrule_impl, frule_impl)``.
    """
    spelled = what or f"np.{label}"
    for rule, kind, direction in ((rrule_impl, "rrule", "Reverse"), (frule_impl, "frule", "Forward")):
        rule.__name__ = rule.__qualname__ = f"{label}_{kind}"
        rule.__doc__ = f"{direction} rule of ``{spelled}`` (see the module docstring)."
    rrule.register(f, *types)(rrule_impl)
    frule.register(f, *types)(frule_impl)
    return rrule_impl, frule_impl


def register_method(method: Any, f: Any, positional: tuple[str, ...], keywords: tuple[str, ...]) -> None:
    """Give the ``ndarray`` method ``method`` the rules of the function ``f``.

    ``x.sum(...)`` is ``np.sum(x, ...)`` for an ndarray, so the method's rules call the
    function's rules with ``x`` first. The method takes fewer arguments than the function:
    ``positional`` are the names it takes by position after ``self``, ``keywords`` the ones
    it takes only by keyword; anything else raises ``TypeError`` as the method does.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> y, pullback = rrule(x.sum, 1)        # rrule(np.ndarray.sum, x, 1)
    >>> pullback(np.array([1.0, 2.0]))[1]
    array([[1., 1.],
           [2., 2.]])
    """
    label = f"ndarray_{method.__name__}"
    allowed = frozenset(positional) | frozenset(keywords)

    def check(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if len(args) > len(positional):
            raise TypeError(f"ndarray.{method.__name__}() takes at most {len(positional)} positional arguments "
                            f"({len(args)} given)")
        for name in kwargs:
            if name not in allowed or name in positional[:len(args)]:
                raise TypeError(f"ndarray.{method.__name__}() got an unexpected or repeated keyword argument "
                                f"{name!r}")

    def method_rrule(a: Any, *args: Any, **kwargs: Any) -> Any:
        check(args, kwargs)
        return rrule(f, a, *args, **kwargs)

    def method_frule(tangents: tuple[Any, ...], a: Any, *args: Any, **kwargs: Any) -> Any:
        check(args, kwargs)
        return frule(tuple(tangents), f, a, *args, **kwargs)

    register_rules(method, label, method_rrule, method_frule, (np.ndarray,), f"x.{method.__name__}(...)")
