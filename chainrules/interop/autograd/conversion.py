"""Tangent conversion between chainrules and autograd, both ways.

autograd represents the tangent of an array, a number, a tuple, a list or a dict by a value
of the same kind (an array of zeros for "zero"); chainrules has its own zeros
(``ZeroTangent()``, ``NoTangent()``), delayed tangents (``Thunk``, ``InplaceableThunk``),
structural ``Tangent``\\ s, structured matrices and ``NotImplementedTangent``. The rules:

========================================  ============================================================
chainrules                                autograd
========================================  ============================================================
an ndarray or a number                    the same (conjugated for complex cotangents, see below)
``ZeroTangent()``, ``NoTangent()``        zeros of the primal's vector space (``vspace(x).zeros()``)
``Thunk``, ``InplaceableThunk``           its value (``unthunk``)
``Tangent(tuple | list | namedtuple)``    a tuple, list or namedtuple of the same type, field by field
``Tangent(dict)``                         a dict, key by key
``Diagonal``, triangular, symmetric, ...  a dense ndarray when the primal is an ndarray; kept when the
                                          primal is itself structured (see ``structured.py``)
a ``scipy.sparse`` cotangent              a dense ndarray when the primal is an ndarray
``NotImplementedTangent``                 :class:`NotImplementedDerivativeError`, naming the function and
                                          the argument: never a silent zero
========================================  ============================================================

**Complex numbers.** chainrules follows the conjugate-Wirtinger convention (the cotangent of a
complex ``z`` under a real loss ``L`` is ``dL/dRe(z) + 1j dL/dIm(z)``, as in PyTorch);
autograd's cotangents are the complex conjugates of those (``grad(lambda z: abs(z) ** 2)(z)``
is ``2 * conj(z)``). Cotangents are therefore conjugated on the way in and out; forward-mode
tangents are the same in both and are never conjugated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from autograd.extend import vspace
from autograd.tracer import isbox

from chainrules.interop._arguments import argument_label, function_name
from chainrules.interop.errors import HigherOrderDerivativeError, NotImplementedDerivativeError
from chainrules.structured import StructuredMatrix
from chainrules_core import AbstractZero, NotImplementedTangent, Tangent, ZeroTangent, backing, unthunk

_ZERO: Any = ZeroTangent()

__all__ = [
    "cotangent_from_autograd",
    "cotangent_to_autograd",
    "tangent_from_autograd",
    "tangent_to_autograd",
    "zeros_like_primal",
]


Where = tuple[int, tuple[Any, ...]] | None
"""The argument a tangent belongs to, for error messages: ``(position, path)`` (see ``_arguments.Slot``)."""


def _not_implemented(t: NotImplementedTangent, f: Any, where: Where, mode: str) -> NotImplementedDerivativeError:
    fname = function_name(f) if f is not None else "a function"
    wrt = f" with respect to {argument_label(f, *where)}" if where is not None and f is not None else ""
    return NotImplementedDerivativeError(
        f"the derivative of {fname}{wrt} is not implemented{mode}: {t.info} ({t.location}). chainrules never "
        "turns a missing derivative into a zero; hold that argument fixed or provide a rule")


def zeros_like_primal(primal: Any) -> Any:
    """The zero autograd uses for a tangent of ``primal`` (``vspace(primal).zeros()``), field by field.

    Containers holding values autograd has no vector space for (integers, flags, strings) get
    ``None`` in those places.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop.autograd import zeros_like_primal
    >>> zeros_like_primal((np.ones(2), 3))
    (array([0., 0.]), None)
    """
    if type(primal) is np.ndarray:
        return np.zeros(primal.shape, primal.dtype)
    try:
        return vspace(primal).zeros()
    except (TypeError, AssertionError):
        pass
    if isinstance(primal, tuple):
        parts = [zeros_like_primal(p) for p in primal]
        return type(primal)(*parts) if hasattr(primal, "_fields") else type(primal)(parts)
    if isinstance(primal, list):
        return [zeros_like_primal(p) for p in primal]
    if isinstance(primal, dict):
        return {k: zeros_like_primal(v) for k, v in primal.items()}
    return None


def _conj(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return np.conj(x) if x.dtype.kind == "c" else x
    if isinstance(x, (complex, np.complexfloating)):
        return x.conjugate()
    if isinstance(x, StructuredMatrix):
        return x.conj() if np.dtype(x.dtype).kind == "c" else x
    return x


def _rebuild(primal: Any, parts: list[Any]) -> Any:
    if isinstance(primal, tuple):
        return type(primal)(*parts) if hasattr(primal, "_fields") else tuple(parts)
    return list(parts)


def _structural_to_autograd(x: Tangent, primal: Any, conj: bool, f: Any, where: Where, mode: str) -> Any:
    stored = backing(x)
    if isinstance(primal, dict) or (primal is None and isinstance(stored, dict)):
        src = primal if isinstance(primal, dict) else {}
        keys = list(src) if src else list(stored)
        return {k: _to_autograd(stored.get(k, _ZERO), src.get(k), conj, f, where, mode) for k in keys}
    if not isinstance(primal, (tuple, list)):
        raise TypeError(f"cannot give autograd the structural tangent {x!r} for a {type(primal).__name__}: "
                        "autograd differentiates arrays, numbers, tuples, lists and dicts")
    fields = list(primal)
    if isinstance(stored, (tuple, list)):
        values = list(stored)
    else:  # a namedtuple's tangent stores its fields by name
        values = [stored.get(name, _ZERO) for name in primal._fields]  # type: ignore[union-attr]
    values += [_ZERO] * (len(fields) - len(values))
    return _rebuild(primal, [_to_autograd(v, p, conj, f, where, mode) for v, p in zip(values, fields)])


def _to_autograd(x: Any, primal: Any, conj: bool, f: Any, where: Where, mode: str) -> Any:
    if type(x) is np.ndarray:  # the common case first
        return np.conj(x) if conj and x.dtype.kind == "c" else x
    x = unthunk(x)
    if isinstance(x, AbstractZero):
        return zeros_like_primal(primal)
    if isinstance(x, NotImplementedTangent):
        raise _not_implemented(x, f, where, mode)
    if isinstance(x, Tangent):
        return _structural_to_autograd(x, primal, conj, f, where, mode)
    if isinstance(x, StructuredMatrix):
        if isinstance(primal, StructuredMatrix):
            return _conj(x) if conj else x
        dense = x.to_dense()
        return _conj(dense) if conj else dense
    if hasattr(x, "toarray") and hasattr(x, "nnz") and not hasattr(primal, "nnz"):  # scipy.sparse
        dense = x.toarray()
        return _conj(dense) if conj else dense
    if isinstance(x, (tuple, list)) and isinstance(primal, (tuple, list)):
        return _rebuild(primal, [_to_autograd(v, p, conj, f, where, mode) for v, p in zip(x, primal)])
    if isinstance(x, dict) and isinstance(primal, dict):
        return {k: _to_autograd(x.get(k, _ZERO), v, conj, f, where, mode) for k, v in primal.items()}
    return _conj(x) if conj else x


def _from_autograd(g: Any, primal: Any, conj: bool, drop_zero_parts: bool) -> Any:
    if type(g) is np.ndarray:
        if drop_zero_parts and not g.any():
            return _ZERO
        return np.conj(g) if conj and g.dtype.kind == "c" else g
    if isbox(g):
        raise HigherOrderDerivativeError(
            "a (co)tangent autograd is tracing reached a chainrules rule, whose derivatives are NumPy code autograd "
            "cannot trace (the bridge's makers and primitives unbox such values before calling a rule)")
    if g is None:
        return _ZERO
    if isinstance(g, (tuple, list)) and not isinstance(primal, np.ndarray):
        prims = list(primal) if isinstance(primal, (tuple, list)) else [None] * len(g)
        parts = [_from_autograd(v, p, conj, True) for v, p in zip(g, prims)]
        P = type(primal) if isinstance(primal, (tuple, list)) else type(g)
        return Tangent(P, *parts)
    if isinstance(g, dict) and isinstance(primal, (tuple, list)):  # a tuple with constant parts (results.py)
        return Tangent(type(primal), *[_from_autograd(g[i], p, conj, True) if i in g else _ZERO
                                       for i, p in enumerate(primal)])
    if isinstance(g, dict):
        src = primal if isinstance(primal, dict) else {}
        return Tangent(type(primal) if isinstance(primal, dict) else dict,
                       {k: _from_autograd(v, src.get(k), conj, True) for k, v in g.items()})
    if drop_zero_parts and isinstance(g, (np.number, float, complex)) and not g:
        return _ZERO
    return _conj(g) if conj else g


def cotangent_to_autograd(ct: Any, primal: Any, f: Any = None, argnum: int | None = None,
                          path: tuple[Any, ...] = ()) -> Any:
    """A chainrules cotangent of ``primal`` as autograd's VJP must return it.

    Parameters
    ----------
    ct : Any
        The cotangent from a pullback (any kind: array, number, zero, thunk, ``Tangent``,
        structured matrix, ``NotImplementedTangent``).
    primal : Any
        The argument it is the cotangent of (fixes the zeros' shape and the container types).
    f, argnum, path : optional
        The function, the argument's position and, for a value inside a tuple, list or
        dict argument, the keys down to it: named by the error for a ``NotImplementedTangent``.

    Raises
    ------
    NotImplementedDerivativeError
        For a ``NotImplementedTangent`` (anywhere inside ``ct``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import ZeroTangent, Tangent, Thunk
    >>> from chainrules.interop.autograd import cotangent_to_autograd
    >>> cotangent_to_autograd(ZeroTangent(), np.ones(2))
    array([0., 0.])
    >>> cotangent_to_autograd(Tangent(tuple, Thunk(lambda: 2.0), ZeroTangent()), (1.0, np.ones(1)))
    (2.0, array([0.]))
    >>> cotangent_to_autograd(np.array([1 + 2j]), np.zeros(1, complex))   # conjugated
    array([1.-2.j])
    """
    return _to_autograd(ct, primal, True, f, None if argnum is None else (argnum, path), "")


def cotangent_from_autograd(g: Any, primal: Any) -> Any:
    """autograd's cotangent ``g`` of the value ``primal`` as a chainrules cotangent.

    Tuples, lists, namedtuples and dicts become structural ``Tangent``\\ s; an all-zero part
    of one becomes ``ZeroTangent()`` (autograd fills unused parts with zeros), so a pullback
    skips the work for it. Complex cotangents are conjugated.

    Raises
    ------
    HigherOrderDerivativeError
        When ``g`` is itself being traced by autograd (a second derivative).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop.autograd import cotangent_from_autograd
    >>> cotangent_from_autograd((np.ones(2), np.zeros(2)), (np.ones(2), np.ones(2)))
    Tangent(tuple, array([1., 1.]), ZeroTangent())
    >>> cotangent_from_autograd(np.array([1 - 2j]), np.zeros(1, complex))
    array([1.+2.j])
    """
    return _from_autograd(g, primal, True, False)


def tangent_to_autograd(t: Any, primal: Any, f: Any = None, argnum: int | None = None,
                        path: tuple[Any, ...] = ()) -> Any:
    """A chainrules (forward-mode) tangent of ``primal`` as autograd's JVP must return it (never conjugated).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import ZeroTangent
    >>> from chainrules.interop.autograd import tangent_to_autograd
    >>> tangent_to_autograd(ZeroTangent(), 1.0)
    array(0.)
    >>> tangent_to_autograd(np.array([1 + 2j]), np.zeros(1, complex))
    array([1.+2.j])
    """
    return _to_autograd(t, primal, False, f, None if argnum is None else (argnum, path), " (forward mode)")


def tangent_from_autograd(g: Any, primal: Any) -> Any:
    """autograd's (forward-mode) tangent ``g`` of ``primal`` as a chainrules tangent (never conjugated).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop.autograd import tangent_from_autograd
    >>> tangent_from_autograd({"a": np.ones(1)}, {"a": np.zeros(1)})
    Tangent(dict, {'a': array([1.])})
    """
    return _from_autograd(g, primal, False, False)
