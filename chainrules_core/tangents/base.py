"""The base class shared by every tangent kind of the core.

Each operator defined here forwards to :mod:`chainrules_core.arithmetic`, which holds the
one precedence table for ``+``, ``-``, ``*``, ``/`` and ``@`` between tangent kinds.

NumPy interoperates through ``__array_ufunc__``: ``ndarray + ZeroTangent()`` and
``np.multiply(2.0, thunk)`` are routed to that table instead of building object arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# ufuncs that map onto tangent arithmetic; every other ufunc is left to the subclass.
_BINARY_UFUNCS: dict[Any, str] = {}


class AbstractTangent:
    """Base class of the tangent kinds defined by the core.

    Subclasses: :class:`~chainrules_core.AbstractZero` (``ZeroTangent``, ``NoTangent``),
    :class:`~chainrules_core.Tangent`, :class:`~chainrules_core.Thunk`,
    :class:`~chainrules_core.InplaceableThunk` and
    :class:`~chainrules_core.NotImplementedTangent`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ZeroTangent, AbstractTangent
    >>> isinstance(ZeroTangent(), AbstractTangent)
    True
    >>> np.ones(2) + ZeroTangent()
    array([1., 1.])
    """

    __slots__ = ()

    _storable = True
    """Whether ``np.asarray`` of the tangent is its value (not so for a not-implemented tangent)."""

    # Arithmetic (see chainrules_core.arithmetic for the precedence order).
    def __add__(self, other: Any) -> Any:
        return _arith.add(self, other)

    def __radd__(self, other: Any) -> Any:
        return _arith.add(other, self)

    def __sub__(self, other: Any) -> Any:
        return _arith.add(self, _arith.neg(other))

    def __rsub__(self, other: Any) -> Any:
        return _arith.add(other, _arith.neg(self))

    def __neg__(self) -> Any:
        return _arith.neg(self)

    def __pos__(self) -> Any:
        return self

    def __mul__(self, other: Any) -> Any:
        return _arith.mul(self, other)

    def __rmul__(self, other: Any) -> Any:
        return _arith.mul(other, self)

    def __truediv__(self, other: Any) -> Any:
        return _arith.truediv(self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _arith.truediv(other, self)

    def __matmul__(self, other: Any) -> Any:
        return _arith.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return _arith.matmul(other, self)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """Route NumPy's arithmetic ufuncs to the tangent precedence table.

        With ``out=`` (``acc += dx``, ``np.add(a, dx, out=acc)``) the sum is computed by the
        table and written into ``out``; a ``NotImplementedTangent`` result is returned as it
        is (it cannot be stored in an array, and it wins ``+``).
        """
        op = _UFUNC_OPS.get(ufunc) if method == "__call__" else None
        if op is None:
            return self._other_ufunc(ufunc, method, inputs, kwargs)
        out = kwargs.pop("out", None)
        if kwargs:
            return NotImplemented  # dtype=, where=, casting=...: not part of tangent arithmetic
        result = op(*inputs)
        if out is None:
            return result
        outs = out if isinstance(out, tuple) else (out,)
        target = outs[0]
        if len(outs) != 1 or not isinstance(target, np.ndarray):
            return NotImplemented
        if isinstance(result, AbstractTangent) and not result._storable:
            return result
        if result is not target:
            np.copyto(target, np.asarray(result), casting="same_kind")
        return target

    def _other_ufunc(self, ufunc: Any, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Handle a ufunc (or ufunc method) with no arithmetic meaning; thunks unthunk and retry."""
        return NotImplemented


from chainrules_core import arithmetic as _arith  # noqa: E402  (arithmetic needs the class above)

_UFUNC_OPS: dict[Any, Any] = {
    np.add: _arith.add,
    np.subtract: lambda a, b: _arith.add(a, _arith.neg(b)),
    np.multiply: _arith.mul,
    np.true_divide: _arith.truediv,
    np.matmul: _arith.matmul,
    np.negative: _arith.neg,
    np.positive: lambda a: a,
    np.conjugate: _arith.conj,
}
