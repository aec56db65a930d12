"""Reading the cotangents a pullback receives, and deciding what is differentiated.

Every pullback of the library starts the same way: it reads the output cotangent it was
given. :func:`read_cotangent` does that once, for every rule, with one policy:

**Accepted**

* an ndarray of the output's shape (floating, complex, integer or boolean values);
* a number (Python or NumPy) or a 0-d array when the output is a scalar or 0-d array;
* a list or tuple of numbers, converted with ``np.asarray`` (then as an ndarray);
* ``ZeroTangent()`` and ``NoTangent()``, returned unchanged (the pullback passes zeros on);
* a ``NotImplementedTangent``, returned unchanged (the pullback passes it on);
* any of these inside a ``Thunk`` or ``InplaceableThunk`` (unthunked first).

**Rejected** with a :class:`~chainrules_core.ProjectionError` that names the function,
says "output cotangent", and gives the expected shape and the received shape and type:

* an array of another shape (no broadcasting: a cotangent has the output's shape), and a
  number for an output that is not 0-d;
* ``None``, strings, object arrays, structural ``Tangent`` s for an array output, and any
  other value.

An output with no tangent space (integers, booleans: ``np.sum(x, dtype=int)``) takes any
accepted cotangent and reads it as ``ZeroTangent()``.

:func:`read_cotangents` reads the cotangent of a tuple or list of outputs (``np.linalg.eigh``,
``scipy.special.airy``) part by part, with the same policy for each part.

:func:`differentiable` says whether an argument is differentiated at all: floating and
complex values are, integers and booleans are not (they are indices, counts, orders and
flags, and get ``NoTangent()``), a list or tuple is if any element is.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from chainrules_core.projection import ProjectionError
from chainrules_core.tangents.base import AbstractTangent
from chainrules_core.tangents.not_implemented import NotImplementedTangent
from chainrules_core.tangents.structural import Tangent, backing
from chainrules_core.tangents.thunks import AbstractThunk
from chainrules_core.tangents.zeros import AbstractZero, ZeroTangent

__all__ = ["differentiable", "passes_through", "read_cotangent", "read_cotangents"]

_ZERO = ZeroTangent()
_NUMBER_KINDS = "fciub"
_DIFFERENTIABLE_KINDS = "fcO"  # dtype kinds differentiable() accepts for an ndarray


def differentiable(x: Any) -> bool:
    """Whether a rule differentiates the argument ``x``.

    Floating and complex numbers and arrays are differentiated; Python and NumPy integers
    and booleans (and integer or boolean arrays) are not: by the library's convention they
    are indices, counts, orders and flags, and their cotangent is ``NoTangent()``. A list
    or tuple is differentiated if any element is; an object array is (its elements decide).
    Anything else with a ``dtype`` (structured and sparse matrices) is decided by its dtype;
    other values (``None``, strings, callables) are not differentiated.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import differentiable
    >>> differentiable(1.0), differentiable(2), differentiable(True), differentiable(np.ones(2, np.float32))
    (True, False, False, True)
    >>> differentiable(np.arange(3)), differentiable([1, 2.0]), differentiable([1, 2]), differentiable(None)
    (False, True, False, False)
    """
    t = type(x)
    if t is np.ndarray:
        return x.dtype.kind in "fcO"
    if t is float or t is complex:
        return True
    if t is int or t is bool:
        return False
    if t is list or (t is tuple or (isinstance(x, tuple) and not hasattr(x, "_fields"))):
        return any(differentiable(e) for e in x)
    dtype = getattr(x, "dtype", None)
    if dtype is not None and not callable(dtype):
        try:
            return np.dtype(dtype).kind in "fcO"
        except TypeError:
            return False
    return isinstance(x, numbers.Number) and not isinstance(x, numbers.Integral)


def passes_through(dx: Any) -> bool:
    """Whether a read (co)tangent is a zero or a not-implemented tangent, which rules pass on unchanged.

    Examples
    --------
    >>> from chainrules_core import ZeroTangent, not_implemented, passes_through
    >>> passes_through(ZeroTangent()), passes_through(not_implemented("x")), passes_through(1.0)
    (True, True, False)
    """
    return isinstance(dx, (AbstractZero, NotImplementedTangent))


def _name(f: Any) -> str:
    if isinstance(f, str):
        return f
    from chainrules_core.rules import _callable_name

    return _callable_name(f)


def _reject(f: Any, shape: tuple[int, ...], dy: Any, why: str = "", what: str = "output cotangent",
            ) -> ProjectionError:
    expected = "a number or a 0-d array" if shape == () else f"an array of shape {shape}"
    head = f"{_name(f)} pullback: {what}"
    dy_shape = getattr(dy, "shape", None)
    if dy_shape is not None and not isinstance(dy, (AbstractTangent, np.generic)):
        dtype = getattr(dy, "dtype", None)
        kind = f"a {dtype} array" if isinstance(dy, np.ndarray) else f"a {type(dy).__name__}"
        if not isinstance(dy, np.ndarray) and tuple(dy_shape) == tuple(shape):
            return ProjectionError(f"{head} is a {type(dy).__name__}, expected {expected}{why}")
        return ProjectionError(f"{head} has shape {tuple(dy_shape)}, expected shape {shape} (got {kind}){why}")
    if isinstance(dy, (numbers.Number, np.generic)):
        return ProjectionError(f"{head} is a number ({type(dy).__name__}), expected {expected}{why}")
    return ProjectionError(f"{head} is a {type(dy).__name__}, expected {expected}{why}")


def read_cotangent(dy: Any, y: Any, f: Any, what: str = "output cotangent") -> Any:
    """Read the output cotangent ``dy`` of a rule whose primal output is ``y``.

    Parameters
    ----------
    dy : Any
        What the pullback received.
    y : Any
        The primal output (or anything with its shape and dtype: an array, a number, a
        ``np.ShapeDtypeStruct``-like object with ``shape`` and ``dtype``).
    f : callable or str
        The function the rule differentiates, or its name, for error messages.
    what : str
        What ``dy`` is, for error messages (default ``"output cotangent"``).

    Returns
    -------
    ndarray, number, ZeroTangent, NoTangent or NotImplementedTangent
        An ndarray of ``y``'s shape (a number for a scalar output), or a zero or
        not-implemented tangent to pass on. See the module docstring for the policy.

    Raises
    ------
    ProjectionError
        For anything the policy rejects; the message names ``f``, the expected shape and
        what was received.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Thunk, ZeroTangent, read_cotangent
    >>> read_cotangent(Thunk(lambda: np.ones(2)), np.zeros(2), np.sin)
    array([1., 1.])
    >>> read_cotangent([1.0, 2.0], np.zeros(2), np.sin)
    array([1., 2.])
    >>> read_cotangent(ZeroTangent(), np.zeros(2), np.sin)
    ZeroTangent()
    >>> read_cotangent(np.ones(3), np.zeros(2), np.sin)
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: numpy.sin pullback: output cotangent has shape (3,), expected ...
    >>> read_cotangent(None, 1.0, "mymodule.f")
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: mymodule.f pullback: output cotangent is a NoneType, ...
    """
    # The common cases first, decided on exact types alone: an ndarray cotangent of an
    # ndarray output, a float cotangent of a float output. They return what the general
    # reader below returns for them (tests/chainrules_core/test_fast_paths.py runs both).
    t = type(dy)
    if t is np.ndarray:
        if type(y) is np.ndarray and dy.shape == y.shape and dy.dtype.kind in _NUMBER_KINDS:
            return dy if y.dtype.kind in _DIFFERENTIABLE_KINDS else _ZERO
    elif t is float or t is np.float64:
        ty = type(y)
        if ty is np.float64 or ty is float:
            return dy
    return read_cotangent_general(dy, y, f, what)


def read_cotangent_general(dy: Any, y: Any, f: Any, what: str = "output cotangent") -> Any:
    """:func:`read_cotangent` without its fast paths: the specification they are tested against."""
    t = type(dy)
    if t is np.ndarray:
        kind = dy.dtype.kind
        shape = np.shape(y)
        if dy.shape == shape and kind in _NUMBER_KINDS:
            return dy if differentiable(y) else _ZERO
    elif t is float or t is np.float64 or t is complex or t is np.complex128:
        shape = np.shape(y)
        if shape == ():
            return dy if differentiable(y) else _ZERO
        raise _reject(f, shape, dy, what=what)
    if isinstance(dy, AbstractThunk):
        dy = dy.unthunk()
    if isinstance(dy, AbstractTangent):
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            return dy
        if isinstance(dy, AbstractThunk):
            return read_cotangent_general(dy.unthunk(), y, f, what)
        shape = np.shape(y)
        raise _reject(f, shape, dy, " (a structural Tangent is the cotangent of a tuple or object output)"
                      if isinstance(dy, Tangent) else "", what=what)
    shape = np.shape(y)
    if isinstance(dy, (list, tuple)):
        try:
            arr = np.asarray(dy)
        except ValueError:
            raise _reject(f, shape, dy, " that NumPy cannot read as an array", what=what) from None
        if arr.dtype.kind not in _NUMBER_KINDS:
            raise _reject(f, shape, dy, " whose elements are not numbers", what=what)
        dy = arr
    if isinstance(dy, np.ndarray):
        if dy.dtype.kind not in _NUMBER_KINDS:
            raise _reject(f, shape, dy, " (the values are not numbers)", what=what)
        if dy.shape != shape:
            raise _reject(f, shape, dy, what=what)
        return dy if differentiable(y) else _ZERO
    if isinstance(dy, (numbers.Number, np.generic)) and not isinstance(dy, (str, bytes)):
        if isinstance(dy, np.generic) and dy.dtype.kind not in _NUMBER_KINDS:
            raise _reject(f, shape, dy, what=what)
        if shape != ():
            raise _reject(f, shape, dy, what=what)
        return dy if differentiable(y) else _ZERO
    raise _reject(f, shape, dy, what=what)


def read_cotangents(dy: Any, ys: Sequence[Any], f: Any) -> Any:
    """Read the cotangent of a tuple or list of outputs, part by part.

    ``dy`` may be a ``Tangent`` of a tuple, list or namedtuple, a plain tuple or list
    with one entry per output, or a zero. Each part is read with :func:`read_cotangent`.

    Returns
    -------
    list or AbstractZero or NotImplementedTangent
        A zero or not-implemented tangent for the whole output is returned unchanged;
        otherwise a list with one entry per output: ``None`` where that part is a zero,
        a ``NotImplementedTangent`` where it is one, else its array or number (a list
        again, read the same way, for a part that is itself a tuple of outputs).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Tangent, ZeroTangent, read_cotangents
    >>> read_cotangents(Tangent(tuple, ZeroTangent(), 2.0), (np.ones(2), 1.0), "scipy.special.sici")
    [None, 2.0]
    >>> read_cotangents(1.0, (np.ones(2), 1.0), "scipy.special.sici")
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: scipy.special.sici pullback: output cotangent is a float, ...
    """
    if isinstance(dy, AbstractThunk):
        dy = dy.unthunk()
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return dy
    n = len(ys)
    if isinstance(dy, Tangent):
        stored = backing(dy)
        if isinstance(stored, dict):
            names = getattr(type(ys), "_fields", None)
            if names is None:
                raise ProjectionError(f"{_name(f)} pullback: output cotangent is a Tangent with named fields, "
                                      f"expected one of {n} unnamed parts (one per output)")
            parts: Sequence[Any] = [stored.get(name, _ZERO) for name in names]
        else:
            parts = stored
    elif isinstance(dy, (tuple, list)):
        parts = dy
    else:
        raise ProjectionError(f"{_name(f)} pullback: output cotangent is a {type(dy).__name__}, expected a "
                              f"Tangent, tuple or list of {n} parts (one per output)")
    if len(parts) != n:
        raise ProjectionError(f"{_name(f)} pullback: output cotangent has {len(parts)} parts, expected {n} "
                              "(one per output)")
    out: list[Any] = []
    for k, (part, yk) in enumerate(zip(parts, ys)):
        if isinstance(yk, (tuple, list)):  # a part that is itself a tuple of outputs: read it the same way
            value = read_cotangents(part, yk, f)
        else:
            value = read_cotangent(part, yk, f, f"cotangent of output {k}")
        out.append(None if isinstance(value, AbstractZero) else value)
    return out
