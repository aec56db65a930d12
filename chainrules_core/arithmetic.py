"""Arithmetic between tangent kinds, in one precedence order.

The order, highest first, is::

    NotImplementedTangent > NoTangent > ZeroTangent > thunks > Tangent > anything else

and it is applied the same way by every operator:

* ``+``: a ``NotImplementedTangent`` wins (a sum with an unknown term is unknown); a zero is
  the identity (``NoTangent`` wins over ``ZeroTangent`` when both are zero); thunks are
  unthunked; two ``Tangent`` s add field by field; ``primal + Tangent`` rebuilds the primal.
* ``*``, ``@``: the zeros win, even over ``NotImplementedTangent`` (zero times anything is
  zero); then ``NotImplementedTangent``; thunks are unthunked; a ``Tangent`` scales field by
  field.
* ``-x``, ``conj(x)``: zeros and not-implemented tangents are unchanged; a ``Tangent``
  maps over its fields.

Every tangent class forwards its operators here (see
:class:`chainrules_core.tangents.base.AbstractTangent`), and NumPy's arithmetic ufuncs are
routed here too, so ``ndarray + ZeroTangent()`` is the ndarray, never an object array.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core.tangents.not_implemented import NotImplementedTangent
from chainrules_core.tangents.structural import Tangent
from chainrules_core.tangents.thunks import AbstractThunk
from chainrules_core.tangents.zeros import AbstractZero, NoTangent


def _stronger_zero(a: AbstractZero, b: AbstractZero) -> AbstractZero:
    return a if isinstance(a, NoTangent) else b


def add(a: Any, b: Any) -> Any:
    """Return ``a + b`` for tangents of any kind, following the precedence order.

    Examples
    --------
    >>> from chainrules_core import ZeroTangent, NoTangent, not_implemented, Thunk
    >>> from chainrules_core.arithmetic import add
    >>> add(ZeroTangent(), 2.0), add(NoTangent(), ZeroTangent())
    (2.0, NoTangent())
    >>> add(Thunk(lambda: 1.0), 2.0)
    3.0
    """
    if isinstance(a, NotImplementedTangent):
        return a
    if isinstance(b, NotImplementedTangent):
        return b
    if isinstance(a, AbstractZero):
        return _stronger_zero(a, b) if isinstance(b, AbstractZero) else b
    if isinstance(b, AbstractZero):
        return a
    if isinstance(a, AbstractThunk) or isinstance(b, AbstractThunk):
        return add(a.unthunk() if isinstance(a, AbstractThunk) else a,
                   b.unthunk() if isinstance(b, AbstractThunk) else b)
    if isinstance(a, Tangent):
        return a._add_tangent(b) if isinstance(b, Tangent) else a._add_to_primal(b)
    if isinstance(b, Tangent):
        return b._add_to_primal(a)
    return a + b


def neg(a: Any) -> Any:
    """Return ``-a`` for a tangent of any kind.

    Examples
    --------
    >>> from chainrules_core import Tangent
    >>> from chainrules_core.arithmetic import neg
    >>> neg(Tangent(tuple, 1.0, 2.0))
    Tangent(tuple, -1.0, -2.0)
    """
    if isinstance(a, (AbstractZero, NotImplementedTangent)):
        return a
    if isinstance(a, AbstractThunk):
        return neg(a.unthunk())
    if isinstance(a, Tangent):
        return a.map(neg)
    return -a


def conj(a: Any) -> Any:
    """Return the complex conjugate of a tangent of any kind.

    Examples
    --------
    >>> from chainrules_core import ZeroTangent
    >>> from chainrules_core.arithmetic import conj
    >>> conj(1 + 2j), conj(ZeroTangent())
    ((1-2j), ZeroTangent())
    """
    if isinstance(a, (AbstractZero, NotImplementedTangent)):
        return a
    if isinstance(a, AbstractThunk):
        return conj(a.unthunk())
    if isinstance(a, Tangent):
        return a.map(conj)
    if isinstance(a, complex):
        return a.conjugate()
    if isinstance(a, (int, float)):
        return a
    return np.conj(a)


def _multiplicative(a: Any, b: Any) -> tuple[bool, Any]:
    """Shared head of ``*``, ``@`` and ``/``: zeros win, then not-implemented tangents."""
    if isinstance(a, AbstractZero):
        return True, (_stronger_zero(a, b) if isinstance(b, AbstractZero) else a)
    if isinstance(b, AbstractZero):
        return True, b
    if isinstance(a, NotImplementedTangent):
        return True, a
    if isinstance(b, NotImplementedTangent):
        return True, b
    return False, None


def mul(a: Any, b: Any) -> Any:
    """Return ``a * b`` for tangents of any kind (one side may be a plain number).

    Examples
    --------
    >>> from chainrules_core import ZeroTangent, not_implemented, Tangent
    >>> from chainrules_core.arithmetic import mul
    >>> mul(ZeroTangent(), not_implemented("x"))
    ZeroTangent()
    >>> mul(2.0, Tangent(tuple, 1.0, 3.0))
    Tangent(tuple, 2.0, 6.0)
    """
    done, value = _multiplicative(a, b)
    if done:
        return value
    if isinstance(a, AbstractThunk) or isinstance(b, AbstractThunk):
        return mul(a.unthunk() if isinstance(a, AbstractThunk) else a,
                   b.unthunk() if isinstance(b, AbstractThunk) else b)
    if isinstance(a, Tangent):
        if isinstance(b, Tangent):
            raise TypeError("cannot multiply two structural Tangents")
        return a.map(lambda v: mul(v, b))
    if isinstance(b, Tangent):
        return b.map(lambda v: mul(a, v))
    return a * b


def truediv(a: Any, b: Any) -> Any:
    """Return ``a / b`` where ``a`` is a tangent of any kind and ``b`` a number or array.

    Examples
    --------
    >>> from chainrules_core import ZeroTangent
    >>> from chainrules_core.arithmetic import truediv
    >>> truediv(ZeroTangent(), 2.0)
    ZeroTangent()
    """
    if isinstance(b, (AbstractZero, Tangent, NotImplementedTangent)) and not isinstance(a, AbstractZero):
        if isinstance(b, NotImplementedTangent):
            return b
        raise TypeError(f"cannot divide by a {type(b).__name__}")
    if isinstance(a, (AbstractZero, NotImplementedTangent)):
        return a
    if isinstance(a, AbstractThunk) or isinstance(b, AbstractThunk):
        return truediv(a.unthunk() if isinstance(a, AbstractThunk) else a,
                       b.unthunk() if isinstance(b, AbstractThunk) else b)
    if isinstance(a, Tangent):
        return a.map(lambda v: truediv(v, b))
    return a / b


def matmul(a: Any, b: Any) -> Any:
    """Return ``a @ b`` for tangents of any kind.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Thunk, ZeroTangent
    >>> from chainrules_core.arithmetic import matmul
    >>> matmul(Thunk(lambda: np.eye(2)), np.ones(2))
    array([1., 1.])
    >>> matmul(np.eye(2), ZeroTangent())
    ZeroTangent()
    """
    done, value = _multiplicative(a, b)
    if done:
        return value
    if isinstance(a, AbstractThunk) or isinstance(b, AbstractThunk):
        return matmul(a.unthunk() if isinstance(a, AbstractThunk) else a,
                      b.unthunk() if isinstance(b, AbstractThunk) else b)
    if isinstance(a, Tangent) or isinstance(b, Tangent):
        raise TypeError("matrix multiplication is not defined for structural Tangents")
    return a @ b
