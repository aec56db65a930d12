"""Tangents between chainrules and plain NumPy arrays, for the bridges whose rules run on the host.

The JAX and PyTorch bridges move arrays to NumPy, run a rule there, and move the results
back; what crosses is always a (tree of) dense NumPy arrays. This module turns a
chainrules (co)tangent into such arrays and back:

========================================  ============================================================
chainrules                                NumPy, for the framework
========================================  ============================================================
an ndarray or a number                    an ndarray (conjugated for a cotangent, when asked)
``ZeroTangent()``, ``NoTangent()``        zeros of the primal's shape and dtype (or ``None``, when
                                          the framework takes ``None`` for a zero)
``Thunk``, ``InplaceableThunk``           its value
``Tangent(tuple | list | namedtuple)``    a tuple, list or namedtuple of the same type, field by field
``Tangent(dict)``                         a dict, key by key
``Diagonal``, triangular, symmetric, ...  a dense ndarray
a ``scipy.sparse`` (co)tangent            a dense ndarray
``NotImplementedTangent``                 :class:`~chainrules.interop.errors.NotImplementedDerivativeError`
                                          naming the function and the argument: never a silent zero
========================================  ============================================================

Complex numbers: chainrules' cotangent of a complex ``z`` under a real loss ``L`` is
``dL/dRe(z) + 1j dL/dIm(z)`` (PyTorch's convention, no conjugation); JAX's (and
autograd's) cotangents are the complex conjugates of those, so the JAX bridge passes
``conj=True``. Forward-mode tangents are the same everywhere and are never conjugated.

Examples
--------
>>> import numpy as np
>>> from chainrules import Tangent, Thunk, ZeroTangent
>>> from chainrules.interop._host import from_host, to_host
>>> to_host(Tangent(tuple, Thunk(lambda: np.ones(2)), ZeroTangent()), (np.zeros(2), np.zeros(1)))
(array([1., 1.]), array([0.]))
>>> from_host((np.ones(2), np.zeros(1)), (np.zeros(2), np.zeros(1)))
Tangent(tuple, array([1., 1.]), ZeroTangent())
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.interop._arguments import argument_label, function_name
from chainrules.interop.errors import NotImplementedDerivativeError
from chainrules.structured import StructuredMatrix
from chainrules_core import AbstractZero, NotImplementedTangent, Tangent, ZeroTangent, backing, unthunk

__all__ = ["from_host", "not_implemented_error", "to_host", "zeros_of"]

_ZERO: Any = ZeroTangent()
Where = tuple[int, tuple[Any, ...]] | None
"""The argument a tangent belongs to, for error messages: ``(position, path)``."""


def not_implemented_error(t: NotImplementedTangent, f: Any, where: Where, mode: str = "",
                          bridge: str = "") -> NotImplementedDerivativeError:
    """The error for a derivative a rule marked ``not_implemented``, naming the function and the argument."""
    fname = function_name(f) if f is not None else "a function"
    wrt = f" with respect to {argument_label(f, *where)}" if where is not None and f is not None else ""
    by = f" ({bridge} needs it)" if bridge else ""
    return NotImplementedDerivativeError(
        f"the derivative of {fname}{wrt} is not implemented{mode}{by}: {t.info} ({t.location}). chainrules never "
        "turns a missing derivative into a zero; hold that argument fixed or provide a rule")


def zeros_of(primal: Any, dtype: Any = None) -> Any:
    """Zeros shaped like ``primal`` (an array, a number, or a tuple/list/dict of them), as NumPy values.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop._host import zeros_of
    >>> zeros_of((np.ones(2, np.float32), 1.0))
    (array([0., 0.], dtype=float32), array(0.))
    """
    if isinstance(primal, (tuple, list)):
        parts = [zeros_of(p) for p in primal]
        if hasattr(primal, "_fields"):
            return type(primal)(*parts)
        return tuple(parts) if isinstance(primal, tuple) else parts
    if isinstance(primal, dict):
        return {k: zeros_of(v) for k, v in primal.items()}
    shape = np.shape(primal)
    dt = np.result_type(primal) if dtype is None else dtype
    if isinstance(primal, StructuredMatrix):
        dt = np.dtype(primal.dtype)
    if dt.kind not in "fc":
        dt = np.dtype(np.float64)
    return np.zeros(shape, dt)


def _rebuild(primal: Any, parts: list[Any]) -> Any:
    if isinstance(primal, tuple):
        return type(primal)(*parts) if hasattr(primal, "_fields") else tuple(parts)
    return list(parts)


def _structural(x: Tangent, primal: Any, conj: bool, f: Any, where: Where, mode: str, bridge: str) -> Any:
    stored = backing(x)
    if isinstance(primal, dict):
        return {k: to_host(stored.get(k, _ZERO), v, conj, f, where, mode, bridge) for k, v in primal.items()}
    if not isinstance(primal, (tuple, list)):
        raise TypeError(f"{function_name(f) if f is not None else 'a rule'}: the structural tangent {x!r} cannot "
                        f"stand for a {type(primal).__name__}")
    fields = list(primal)
    if isinstance(stored, (tuple, list)):
        values = list(stored)
    else:  # a namedtuple's tangent stores its fields by name
        values = [stored.get(name, _ZERO) for name in primal._fields]  # type: ignore[union-attr]
    values += [_ZERO] * (len(fields) - len(values))
    return _rebuild(primal, [to_host(v, p, conj, f, where, mode, bridge) for v, p in zip(values, fields)])


def to_host(x: Any, primal: Any, conj: bool = False, f: Any = None, where: Where = None, mode: str = "",
            bridge: str = "") -> Any:
    """A chainrules (co)tangent of ``primal`` as dense NumPy values of ``primal``'s structure.

    Parameters
    ----------
    x : Any
        The (co)tangent: an array, a number, a zero, a thunk, a ``Tangent``, a structured
        or sparse matrix, or a ``NotImplementedTangent``.
    primal : Any
        The value it is the (co)tangent of: fixes the zeros' shape and dtype, and the
        container types.
    conj : bool
        Conjugate complex values (a cotangent going to JAX).
    f, where, mode, bridge
        Name the function, the argument, the mode and the framework in the error raised for
        a ``NotImplementedTangent``.

    Raises
    ------
    NotImplementedDerivativeError
        For a ``NotImplementedTangent`` anywhere in ``x``.
    """
    if type(x) is np.ndarray:
        return np.conj(x) if conj and x.dtype.kind == "c" else x
    x = unthunk(x)
    if isinstance(x, AbstractZero) or x is None:
        return zeros_of(primal)
    if isinstance(x, NotImplementedTangent):
        raise not_implemented_error(x, f, where, mode, bridge)
    if isinstance(x, Tangent):
        return _structural(x, primal, conj, f, where, mode, bridge)
    if isinstance(x, StructuredMatrix):
        x = x.to_dense()
    elif hasattr(x, "toarray") and hasattr(x, "nnz"):  # scipy.sparse
        x = x.toarray()
    elif isinstance(x, (tuple, list)) and isinstance(primal, (tuple, list)):
        return _rebuild(primal, [to_host(v, p, conj, f, where, mode, bridge) for v, p in zip(x, primal)])
    elif isinstance(x, dict) and isinstance(primal, dict):
        return {k: to_host(x.get(k, _ZERO), v, conj, f, where, mode, bridge) for k, v in primal.items()}
    x = np.asarray(x)
    return np.conj(x) if conj and x.dtype.kind == "c" else x


def from_host(g: Any, primal: Any, conj: bool = False, drop_zeros: bool = True) -> Any:
    """A framework's (co)tangent of ``primal``, as NumPy values, as a chainrules (co)tangent.

    Tuples, lists, namedtuples and dicts become structural ``Tangent``\\ s, and ``None``
    becomes ``ZeroTangent()``; with ``drop_zeros`` an all-zero *part* of a structure is
    ``ZeroTangent()`` too (a framework fills unused outputs with zeros), so a pullback skips
    the work for it. ``conj`` conjugates complex values (a cotangent coming from JAX).
    """
    if g is None:
        return _ZERO
    if isinstance(g, (tuple, list)) and not isinstance(primal, np.ndarray):
        prims = list(primal) if isinstance(primal, (tuple, list)) else [None] * len(g)
        parts = [_part(v, p, conj, drop_zeros) for v, p in zip(g, prims)]
        return Tangent(type(primal) if isinstance(primal, (tuple, list)) else type(g), *parts)
    if isinstance(g, dict):
        src = primal if isinstance(primal, dict) else {}
        return Tangent(type(primal) if isinstance(primal, dict) else dict,
                       {k: _part(v, src.get(k), conj, drop_zeros) for k, v in g.items()})
    if isinstance(g, np.ndarray):
        return np.conj(g) if conj and g.dtype.kind == "c" else g
    return g.conjugate() if conj and isinstance(g, (complex, np.complexfloating)) else g


def _part(g: Any, primal: Any, conj: bool, drop_zeros: bool) -> Any:
    if g is None:
        return _ZERO
    if drop_zeros and isinstance(g, (np.ndarray, np.number, float, complex)) and not np.any(g):
        return _ZERO
    return from_host(g, primal, conj, drop_zeros)


def stand_in(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """A value of ``shape`` and ``dtype`` inside most functions' domains, to learn an output's shape from.

    Under ``jax.jit`` or ``torch.compile`` a bridge must state the shape and dtype of a
    function's output before it has the input values; it calls the function once on
    stand-ins. Floating and complex square matrices (in the last two axes) are symmetric
    positive definite and diagonally dominant (``n I + 1/2``), so factorizations and
    solves succeed; other floating values are ``1/2`` (inside ``(-1, 1)`` and ``(0, 1)``,
    the domains of ``arcsin``, ``erfinv``, ``logit``...); integers are 0 (a valid index)
    and booleans ``False``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop._host import stand_in
    >>> stand_in((2, 2), np.float64)
    array([[2.5, 0.5],
           [0.5, 2.5]])
    >>> stand_in((3,), np.int32)
    array([0, 0, 0], dtype=int32)
    """
    dtype = np.dtype(dtype)
    if dtype.kind in "fc":
        x = np.full(shape, 0.5, dtype)
        if len(shape) >= 2 and shape[-1] == shape[-2] and shape[-1] > 0:
            n = shape[-1]
            idx = np.arange(n)
            x[..., idx, idx] += n
        return x
    return np.zeros(shape, dtype)
