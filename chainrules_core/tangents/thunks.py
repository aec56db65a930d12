"""Delayed tangents: ``Thunk``, ``InplaceableThunk`` and ``unthunk``.

A pullback that returns several cotangents wraps each one that may go unused in a thunk,
so the work is done only if somebody asks for it.

Thunks do not cache their value, on purpose. The value of a thunk is often used as the
destination of in-place accumulation (:func:`chainrules_core.add_`): a cached array could
be modified by one consumer and then handed, modified, to the next. Without a cache every
``unthunk`` returns a fresh value that its caller owns. The cost is that unthunking twice
computes twice: call :func:`unthunk` once and keep the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules_core.tangents.base import AbstractTangent


class AbstractThunk(AbstractTangent):
    """Base class of the delayed tangents.

    Examples
    --------
    >>> from chainrules_core import Thunk, AbstractThunk
    >>> isinstance(Thunk(lambda: 1.0), AbstractThunk)
    True
    """

    __slots__ = ()

    def unthunk(self) -> Any:
        """Compute and return the value."""
        raise NotImplementedError

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        value = np.asarray(unthunk(self))
        return value if dtype is None else value.astype(dtype, copy=False)

    def __getitem__(self, index: Any) -> Any:
        return unthunk(self)[index]

    def conj(self) -> Any:
        """Return the complex conjugate of the value (unthunks)."""
        return np.conj(unthunk(self))

    def conjugate(self) -> Any:
        """Return the complex conjugate of the value (unthunks)."""
        return np.conj(unthunk(self))

    @property
    def real(self) -> Any:
        return np.real(unthunk(self))

    @property
    def imag(self) -> Any:
        return np.imag(unthunk(self))

    @property
    def T(self) -> Any:  # noqa: N802  (mirrors ndarray.T)
        return np.transpose(unthunk(self))

    def _other_ufunc(self, ufunc: Any, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # Any ufunc, or ufunc method (np.sum is np.add.reduce), applied to a thunk applies to its value.
        return getattr(ufunc, method)(*(unthunk(x) for x in inputs), **kwargs)


class Thunk(AbstractThunk):
    """A tangent whose value is computed by calling ``fn()`` when it is needed.

    Parameters
    ----------
    fn : callable
        Takes no arguments and returns the tangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Thunk, unthunk
    >>> t = Thunk(lambda: np.arange(3.0))
    >>> unthunk(t)
    array([0., 1., 2.])
    >>> 2.0 * t
    array([0., 2., 4.])
    """

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[], Any]) -> None:
        if not callable(fn):
            raise TypeError(f"Thunk needs a callable of no arguments, got {type(fn).__name__}")
        self.fn = fn

    def unthunk(self) -> Any:
        value = self.fn()
        while isinstance(value, AbstractThunk):
            value = value.unthunk()
        return value

    def __repr__(self) -> str:
        name = getattr(self.fn, "__qualname__", type(self.fn).__name__)
        return f"Thunk({name})"


def thunk(fn: Callable[[], Any]) -> Thunk:
    """Wrap a function of no arguments as a :class:`Thunk`; usable as a decorator.

    Parameters
    ----------
    fn : callable
        Takes no arguments and returns the tangent.

    Returns
    -------
    Thunk

    Examples
    --------
    >>> from chainrules_core import thunk, unthunk
    >>> @thunk
    ... def dx():
    ...     return 2.0 * 3.0
    >>> unthunk(dx)
    6.0
    """
    return Thunk(fn)


class InplaceableThunk(AbstractThunk):
    """A thunk that can also add its value into an existing accumulator in place.

    Parameters
    ----------
    add_fn : callable
        ``add_fn(acc)`` adds the value into ``acc`` (a writable array of the tangent's
        shape and dtype), in place, and returns ``acc``.
    val : Thunk or callable
        Computes the value out of place; a plain callable is wrapped in a :class:`Thunk`.

    Notes
    -----
    :func:`chainrules_core.add_` uses ``add_fn`` when the accumulator can be written to,
    which lets, for example, the pullback of ``x[i]`` add one entry instead of building a
    dense array of zeros. ``add_fn(acc)`` must leave ``acc`` equal to ``acc + unthunk(val)``;
    the testers in ``chainrules.testing`` check that.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import InplaceableThunk, add_, unthunk
    >>> def add_at_1(acc):
    ...     acc[1] += 5.0
    ...     return acc
    >>> def dense():
    ...     out = np.zeros(3)
    ...     out[1] = 5.0
    ...     return out
    >>> t = InplaceableThunk(add_at_1, dense)
    >>> unthunk(t)
    array([0., 5., 0.])
    >>> add_(np.ones(3), t)
    array([1., 6., 1.])
    """

    __slots__ = ("add_fn", "val")

    def __init__(self, add_fn: Callable[[Any], Any], val: Thunk | Callable[[], Any]) -> None:
        if not callable(add_fn):
            raise TypeError("InplaceableThunk needs a callable add_fn(acc)")
        self.add_fn = add_fn
        self.val = val if isinstance(val, AbstractThunk) else Thunk(val)

    def unthunk(self) -> Any:
        return self.val.unthunk()

    def __repr__(self) -> str:
        return f"InplaceableThunk({getattr(self.add_fn, '__qualname__', 'add_fn')}, {self.val!r})"


def unthunk(x: Any) -> Any:
    """Return the value of a thunk, and anything else unchanged.

    Parameters
    ----------
    x : Any
        A tangent of any kind.

    Returns
    -------
    Any
        ``x.unthunk()`` for a :class:`Thunk` or :class:`InplaceableThunk`, else ``x``.

    Examples
    --------
    >>> from chainrules_core import unthunk, Thunk, ZeroTangent
    >>> unthunk(Thunk(lambda: 4.0)), unthunk(ZeroTangent())
    (4.0, ZeroTangent())
    """
    if type(x) is Thunk:  # the common thunk: its function called here, a method call less than x.unthunk()
        value = x.fn()
        return value.unthunk() if isinstance(value, AbstractThunk) else value
    if isinstance(x, AbstractThunk):
        return x.unthunk()
    return x
