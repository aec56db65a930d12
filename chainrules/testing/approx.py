"""``check_approx``: compare nested tangents of every kind, failing with a breadcrumb."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from chainrules.testing.tree import _node_for
from chainrules_core import AbstractZero, NotImplementedTangent, Tangent, backing, unthunk

# (rtol, atol) by the lowest floating precision involved; the finite differences run at
# float64, so the tolerance only has to cover the rule's own rounding.
_TOLERANCES = {
    np.dtype(np.float16): (3e-2, 1e-2),
    np.dtype(np.float32): (1e-4, 1e-6),
    np.dtype(np.float64): (1e-7, 1e-9),
    np.dtype(np.longdouble): (1e-7, 1e-9),
}


def _precisions(x: Any, out: list[np.dtype]) -> None:
    x = unthunk(x)
    if isinstance(x, (np.ndarray, np.generic)):
        if x.dtype.kind in "fc":
            out.append(np.dtype(np.finfo(x.dtype).dtype))
    elif isinstance(x, (float, complex)):
        out.append(np.dtype(np.float64))
    elif isinstance(x, Tangent):
        stored = backing(x)
        for v in (stored.values() if isinstance(stored, dict) else stored):
            _precisions(v, out)
    elif isinstance(x, (tuple, list)):
        for v in x:
            _precisions(v, out)
    elif isinstance(x, Mapping):
        for v in x.values():
            _precisions(v, out)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            _precisions(getattr(x, f.name), out)
    elif (not isinstance(x, type) and isinstance(getattr(x, "dtype", None), np.dtype)
          and x.dtype.kind in "fc"):
        out.append(np.dtype(np.finfo(x.dtype).dtype))


def default_tolerances(*values: Any) -> tuple[float, float]:
    """``(rtol, atol)`` for the lowest floating precision found in ``values``.

    float64: (1e-7, 1e-9); float32 and complex64: (1e-4, 1e-6); float16: (3e-2, 1e-2).
    The finite differences run at float64, so these only cover the rule's own rounding:
    about ``1e3`` ULPs of the precision, enough for a well-conditioned rule, tight enough
    for a rule off by 0.1% to fail at float32.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import default_tolerances
    >>> default_tolerances(np.ones(2, np.float32), 1.0)
    (0.0001, 1e-06)
    """
    found: list[np.dtype] = []
    for v in values:
        _precisions(v, found)
    if not found:
        return _TOLERANCES[np.dtype(np.float64)]
    lowest = min(found, key=lambda d: np.finfo(d).precision)
    return _TOLERANCES.get(lowest, _TOLERANCES[np.dtype(np.float64)])


def _dense(x: Any) -> np.ndarray | None:
    """A numeric array for a number, array, structured matrix or sparse array; else None."""
    if isinstance(x, (int, float, complex, np.number, np.bool_, np.ndarray)):
        return np.asarray(x)
    if hasattr(x, "toarray") and hasattr(x, "nnz"):
        return np.asarray(x.toarray())
    if hasattr(x, "__array__") and not isinstance(x, (Tangent, AbstractZero, type)):  # a class (np.float64) is a label
        return np.asarray(x)
    if callable(getattr(x, "todense", None)) and hasattr(x, "matvec"):  # a SciPy LinearOperator that can be densified
        return np.asarray(x.todense())                                  # (L-BFGS-B's inverse Hessian product)
    return None


def _children(x: Any) -> tuple[str, Any] | None:
    """The parts of a container as ("seq", list) or ("map", dict); None for a leaf."""
    if isinstance(x, Tangent):
        stored = backing(x)
        return ("map", stored) if isinstance(stored, dict) else ("seq", list(stored))
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return "map", dict(zip(x._fields, x))
    if isinstance(x, (tuple, list)):
        return "seq", list(x)
    if isinstance(x, Mapping):
        return "map", dict(x)
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return "map", {f.name: getattr(x, f.name) for f in dataclasses.fields(x)}
    return None


def _is_mapping(x: Any) -> bool:
    """A dict (or its Tangent): its parts are named ``[key]`` in breadcrumbs, not ``.field``."""
    if isinstance(x, Tangent):
        return issubclass(x.primal_type, Mapping)
    return isinstance(x, Mapping)


def _fields_of_object(x: Any, other: Any) -> tuple[str, Any] | None:
    """A plain object compared with a ``Tangent`` of its class: its fields, as a map."""
    if isinstance(other, Tangent) and isinstance(x, other.primal_type) and _dense(x) is None:
        try:
            return "map", backing(x)
        except TypeError:
            return None
    return None


def _type_label(x: Any) -> str | None:
    """The type name a breadcrumb starts with: namedtuples, dataclasses and their Tangents."""
    P = x.primal_type if isinstance(x, Tangent) else type(x)
    if P in (tuple, list, dict) or (not isinstance(x, Tangent) and _children(x) is None):
        return None
    return P.__name__


def _fail(name: str, message: str) -> AssertionError:
    return AssertionError(f"{name}: {message}")


def check_approx(actual: Any, expected: Any, *, rtol: float | None = None, atol: float | None = None,
                 name: str | None = None) -> None:
    """Assert that two tangents (of any kind, nested) are approximately equal.

    Thunks are unthunked; ``ZeroTangent()``/``NoTangent()`` compare as zero arrays;
    ``Tangent`` s compare field by field with their natural counterparts (a ``Tangent(tuple,
    ...)`` with a tuple, a ``Tangent(Foo, ...)`` with a ``Foo``, missing fields read as
    zero); structured matrices and sparse arrays compare as dense arrays. Numbers and
    arrays must have the same shape (or both hold one element) and pass when
    ``||a - e|| <= atol + rtol * max(||a||, ||e||)`` (2-norms); NaNs and infinities must
    sit at the same places (and infinities have the same sign).

    Parameters
    ----------
    actual, expected : Any
    rtol, atol : float, optional
        Default from the lowest floating precision involved (:func:`default_tolerances`).
    name : str, optional
        What is compared, the root of the breadcrumb in messages (for example
        ``"test_rrule(f): cotangent of argument 1 ('x')"``). The breadcrumb then names the
        type of a structured value and the path to the mismatch: ``Foo.A[1]``.

    Raises
    ------
    AssertionError
        Naming the breadcrumb (e.g. ``Foo.A[1]``), the sizes and the mismatch.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Tangent, ZeroTangent
    >>> from chainrules.testing import check_approx
    >>> check_approx(Tangent(tuple, 1.0, ZeroTangent()), (1.0, np.zeros(2)))
    >>> check_approx((1.0, np.ones(2)), (1.0, np.zeros(2)), name="dx")
    Traceback (most recent call last):
    ...
    AssertionError: dx[1]: arrays differ: ||actual - expected|| = 1.41 > tolerance ...
    >>> from collections import namedtuple
    >>> Foo = namedtuple("Foo", "A b")
    >>> check_approx(Tangent(Foo, A=(1.0, 2.0)), Foo(A=(1.0, 2.5), b=0.0))
    Traceback (most recent call last):
    ...
    AssertionError: Foo.A[1]: arrays differ: ... (actual 2, expected 2.5); shape ()
    """
    if rtol is None or atol is None:
        d_rtol, d_atol = default_tolerances(actual, expected)
        rtol = d_rtol if rtol is None else rtol
        atol = d_atol if atol is None else atol
    actual, expected = unthunk(actual), unthunk(expected)
    root = _type_label(actual) or _type_label(expected)
    if root is not None:
        name = root if name is None else f"{name}: {root}"
    _check(actual, expected, rtol, atol, "value" if name is None else name)


def _check(a: Any, e: Any, rtol: float, atol: float, name: str) -> None:
    if isinstance(a, NotImplementedTangent) or isinstance(e, NotImplementedTangent):
        which = a if isinstance(a, NotImplementedTangent) else e
        raise _fail(name, f"not implemented: {which.info} (created at {which.location})")
    a_zero, e_zero = isinstance(a, AbstractZero), isinstance(e, AbstractZero)
    if a_zero and e_zero:
        return
    if a_zero or e_zero:
        _zero_check(e if a_zero else a, rtol, atol, name, actual_is_zero=a_zero)
        return
    a_parts = _children(a) or _fields_of_object(a, e)
    e_parts = _children(e) or _fields_of_object(e, a)
    if a_parts is not None or e_parts is not None:
        if a_parts is None or e_parts is None:
            raise _fail(name, f"a {type(a).__name__} cannot be compared with a {type(e).__name__}")
        if isinstance(a, Tangent) and isinstance(e, Tangent) and a.primal_type is not e.primal_type:
            raise _fail(name, f"Tangent({a.primal_type.__name__}) vs Tangent({e.primal_type.__name__})")
        (a_kind, a_items), (e_kind, e_items) = a_parts, e_parts
        if a_kind != e_kind:
            raise _fail(name, f"{type(a).__name__} vs {type(e).__name__}: different structure")
        if a_kind == "seq":
            if len(a_items) != len(e_items):
                raise _fail(name, f"lengths differ: {len(a_items)} vs {len(e_items)}")
            for i, (x, y) in enumerate(zip(a_items, e_items)):
                _check(unthunk(x), unthunk(y), rtol, atol, f"{name}[{i}]")
            return
        keyed = _is_mapping(a) or _is_mapping(e)
        for key in list(a_items) + [k for k in e_items if k not in a_items]:
            attribute = not keyed and isinstance(key, str) and key.isidentifier()
            label = f"{name}.{key}" if attribute else f"{name}[{key!r}]"
            x = a_items.get(key, _ZERO)
            y = e_items.get(key, _ZERO)
            _check(unthunk(x), unthunk(y), rtol, atol, label)
        return
    da, de = _dense(a), _dense(e)
    if da is None or de is None:
        if a is e or (da is None and de is None and _plain_equal(a, e)):
            return
        node = _node_for(type(a)) if type(a) is type(e) else None
        if node is not None:  # a registered type (a frozen distribution): compare its free parameters
            for i, (x, y) in enumerate(zip(node.flatten(a)[0], node.flatten(e)[0], strict=True)):
                _check(unthunk(x), unthunk(y), rtol, atol, f"{name}<{i}>")
            return
        raise _fail(name, f"cannot compare a {type(a).__name__} with a {type(e).__name__}")
    _check_arrays(da, de, rtol, atol, name)


def _plain_equal(a: Any, e: Any) -> bool:
    """``a == e`` for non-numeric leaves (strings, None, functions), never raising."""
    try:
        return bool(a == e)
    except Exception:
        return False


class _Zero(AbstractZero):
    """A missing field in one of two compared containers (reads as zero)."""


_ZERO = _Zero()


def _zero_check(x: Any, rtol: float, atol: float, name: str, *, actual_is_zero: bool) -> None:
    if isinstance(x, AbstractZero):
        return
    parts = _children(x)
    if parts is not None:
        kind, items = parts
        keyed = _is_mapping(x)
        for key, value in (items.items() if kind == "map" else enumerate(items)):
            attribute = kind == "map" and not keyed and isinstance(key, str) and key.isidentifier()
            label = f"{name}.{key}" if attribute else f"{name}[{key!r}]"
            _zero_check(unthunk(value), rtol, atol, label, actual_is_zero=actual_is_zero)
        return
    dense = _dense(x)
    if dense is None:
        if isinstance(x, (str, bytes, type(None))) or callable(x):
            return  # a non-differentiable part of a primal (a label, a function) has no tangent to compare
        raise _fail(name, f"cannot compare a zero tangent with a {type(x).__name__}")
    zeros = np.zeros_like(dense)
    if actual_is_zero:
        _check_arrays(zeros, dense, rtol, atol, name, note=" (actual is a zero tangent)")
    else:
        _check_arrays(dense, zeros, rtol, atol, name, note=" (expected is a zero tangent)")


def _check_arrays(a: np.ndarray, e: np.ndarray, rtol: float, atol: float, name: str, note: str = "") -> None:
    if a.shape != e.shape:
        if a.size == e.size == 1:
            a, e = a.reshape(()), e.reshape(())
        else:
            raise _fail(name, f"shapes differ: actual {a.shape}, expected {e.shape}{note}")
    if a.dtype == object or e.dtype == object:  # element by element (tangents inside object arrays)
        for idx in np.ndindex(a.shape):
            _check(unthunk(a[idx]), unthunk(e[idx]), rtol, atol, f"{name}[{', '.join(map(str, idx))}]")
        return
    a_nan, e_nan = np.isnan(a), np.isnan(e)
    if not np.array_equal(a_nan, e_nan):
        raise _fail(name, f"NaNs differ: actual has {int(a_nan.sum())}, expected {int(e_nan.sum())}"
                          f"{_first_difference(a_nan, e_nan)}{note}")
    a_inf, e_inf = np.isinf(a), np.isinf(e)
    if not (np.array_equal(a_inf, e_inf) and np.array_equal(a[a_inf], e[e_inf])):
        raise _fail(name, f"infinities differ: actual has {int(a_inf.sum())}, expected {int(e_inf.sum())}"
                          f"{_first_difference(a_inf, e_inf) or ' (of other signs)'}{note}")
    mask = ~(a_nan | a_inf)
    af = np.where(mask, a, 0).astype(np.complex128 if (a.dtype.kind == "c" or e.dtype.kind == "c") else np.float64)
    ef = np.where(mask, e, 0).astype(af.dtype)
    diff = af - ef
    err = float(np.linalg.norm(diff.ravel()))
    scale = max(float(np.linalg.norm(af.ravel())), float(np.linalg.norm(ef.ravel())))
    tol = atol + rtol * scale
    if not err <= tol:
        idx = tuple(int(i) for i in np.unravel_index(int(np.argmax(np.abs(diff))), diff.shape)) if diff.ndim else ()
        raise _fail(name, f"arrays differ: ||actual - expected|| = {err:.3g} > tolerance {tol:.3g}; "
                          f"largest difference {abs(diff[idx]):.3g} at index {idx} "
                          f"(actual {af[idx]:.6g}, expected {ef[idx]:.6g}); shape {a.shape}{note}")


def _first_difference(a: np.ndarray, e: np.ndarray) -> str:
    where = np.argwhere(a != e)
    if not where.size:
        return ""
    return f", first at index {tuple(int(i) for i in where[0])}"
