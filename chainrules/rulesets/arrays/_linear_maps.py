"""Tangents and cotangents of functions linear in their arrays (private helpers of the array rules).

Most functions of this package are *linear* in their array arguments: they move, copy,
drop or sum entries and never combine them non-linearly. Their frule applies the same
function to the tangents (with the other arguments unchanged), and their pullback applies
its adjoint. The conventions every rule of the package follows are implemented here once,
on top of the core's cotangent policy:

* The output cotangent is read by :func:`chainrules_core.read_cotangent` (or
  :func:`~chainrules_core.read_cotangents` for a tuple or list output): thunks are
  unthunked, zeros and not-implemented tangents pass through (:func:`zero_result`), and
  anything that is not a cotangent of the output raises an error naming the function.
* Input cotangents are projected by :func:`chainrules_core.cotangent_projector`: integer
  and boolean inputs get ``NoTangent()``, a list or tuple argument (``np.concatenate([a,
  b])``, ``np.array([[1.0, 2.0], [x, y]])``) a ``Tangent`` of its own type with every
  element in its own space. An ndarray passed where NumPy iterates over a sequence
  (``np.stack(x)``) gets an ndarray (:func:`cotangent_of_sequence`).
* Tangents reaching an frule are made dense by :func:`dense_tangent` (``None`` for a
  zero), and the output tangent is put into the output's space by :func:`output_tangent`
  (its dtype, its shape; ``NoTangent()`` for an integer output).
* Adjoints of reshapes, transposes and slices are views of the output cotangent; they are
  made read-only (:func:`own`) so that nothing writes through them into an array somebody
  else holds.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules.rulesets.arrays._signatures import is_sequence
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    Tangent,
    ZeroTangent,
    backing,
    cotangent_projector,
    differentiable,
    passes_through,
    read_cotangent,
    unthunk,
)
from chainrules_core.tangents.thunks import AbstractThunk

NO = NoTangent()
ZERO = ZeroTangent()


def tangent_dtype(x: Any) -> np.dtype:
    """The dtype of a tangent of the (differentiable) ``x``: NumPy's dtype for ``np.asarray(x)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._linear_maps import tangent_dtype
    >>> tangent_dtype(np.ones(2, np.float32)), tangent_dtype([1.0, 2j])
    (dtype('float32'), dtype('complex128'))
    """
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return np.dtype(dtype)
    return np.asarray(x).dtype


def zero_result(dy: Any) -> Any:
    """The cotangent of a differentiable input when the output cotangent ``dy`` passes through.

    Examples
    --------
    >>> from chainrules_core import ZeroTangent, not_implemented
    >>> from chainrules.rulesets.arrays._linear_maps import zero_result
    >>> zero_result(ZeroTangent()), zero_result(not_implemented("why")).info
    (ZeroTangent(), 'why')
    """
    return dy if isinstance(dy, NotImplementedTangent) else ZERO


def any_not_implemented(*tangents: Any) -> NotImplementedTangent | None:
    """The first ``NotImplementedTangent`` among dense tangents (or read cotangent parts), or ``None``."""
    for t in tangents:
        if isinstance(t, NotImplementedTangent):
            return t
    return None


def dense_tangent(dx: Any, x: Any, dtype: Any = None) -> Any:
    """The tangent ``dx`` of the input ``x`` as an ndarray (or nested list), for an frule.

    Returns ``None`` for a zero tangent (``ZeroTangent()``, ``NoTangent()``) unless
    ``dtype`` is given, in which case zeros of ``x``'s shape and that dtype are returned.
    For a list or tuple ``x`` the result is a list of the elements' dense tangents (zeros
    filled in where some, but not all, are zero). A ``NotImplementedTangent`` is returned
    as it is.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Tangent, ZeroTangent
    >>> from chainrules.rulesets.arrays._linear_maps import dense_tangent
    >>> dense_tangent(Tangent(list, ZeroTangent(), np.ones(2)), [np.ones(2), np.ones(2)])
    [array([0., 0.]), array([1., 1.])]
    >>> dense_tangent(ZeroTangent(), np.ones(2)) is None
    True
    """
    dx = unthunk(dx)
    if isinstance(dx, NotImplementedTangent):
        return dx
    if is_sequence(x):
        if isinstance(dx, AbstractZero):
            parts: Sequence[Any] = [ZERO] * len(x)
        elif isinstance(dx, Tangent):
            parts = backing(dx)
        else:
            parts = dx
        if len(parts) != len(x):
            raise ValueError(f"a tangent of {len(parts)} elements for a {type(x).__name__} of {len(x)}")
        fill = dtype if dtype is not None else _fill_dtype(x)
        values = [dense_tangent(p, e, None) for p, e in zip(parts, x)]
        missing = any_not_implemented(*values)
        if missing is not None:
            return missing
        if dtype is None and all(v is None for v in values):
            return None
        return [dense_tangent(ZERO, e, fill) if v is None else v for v, e in zip(values, x)]
    if isinstance(dx, AbstractZero):
        return None if dtype is None else np.zeros(np.shape(x), dtype=dtype)
    if isinstance(dx, Tangent):
        raise TypeError(f"a structural Tangent({dx.primal_type.__name__}) for an array input")
    return np.asarray(dx)


def _fill_dtype(x: Any) -> np.dtype:
    """The dtype of the zeros that fill in the zero parts of a sequence's tangent."""
    kinds = [tangent_dtype(e) for e in _leaves(x) if differentiable(e)]
    return np.result_type(*kinds) if kinds else np.dtype(np.float64)


def _leaves(x: Any) -> list[Any]:
    if is_sequence(x):
        return [leaf for e in x for leaf in _leaves(e)]
    return [x]


def tangent_array(dx: Any, x: Any) -> Any:
    """The tangent ``dx`` of the array-like input ``x`` as one ndarray of ``x``'s shape.

    ``None`` for a zero, a ``NotImplementedTangent`` as it is. A list input gets its
    elements' tangents assembled with ``np.asarray`` (zeros filled in).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Tangent, ZeroTangent
    >>> from chainrules.rulesets.arrays._linear_maps import tangent_array
    >>> tangent_array(Tangent(list, 1.0, ZeroTangent()), [2.0, 3.0])
    array([1., 0.])
    """
    value = dense_tangent(dx, x)
    if value is None or isinstance(value, NotImplementedTangent) or not is_sequence(x):
        return value
    return np.asarray(value, dtype=tangent_dtype(x))


def output_tangent(value: Any, y: Any) -> Any:
    """An frule's output tangent in the output's tangent space (dtype and shape of ``y``).

    ``None`` (every input tangent zero) gives ``ZeroTangent()``; an integer or boolean
    output gives ``NoTangent()``; a complex tangent of a real output keeps its real part
    (the output is a real function of complex inputs only through a cast).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._linear_maps import output_tangent
    >>> output_tangent(np.ones(2), np.zeros(2, np.float32))
    array([1., 1.], dtype=float32)
    >>> output_tangent(None, np.zeros(2)), output_tangent(np.ones(2), np.arange(2))
    (ZeroTangent(), NoTangent())
    """
    if isinstance(value, NotImplementedTangent):
        return value
    if not differentiable(y):
        return NO
    if value is None:
        return ZERO
    want = tangent_dtype(y)
    value = np.asarray(value)
    if want.kind == "f" and value.dtype.kind == "c":
        value = value.real
    value = value.astype(want, copy=False).reshape(np.shape(y))
    if isinstance(y, np.ndarray):
        return value
    return value[()]


def sequence_output_tangent(values: Any, ys: Sequence[Any]) -> Any:
    """The frule output tangent of a list or tuple output: a ``Tangent`` of its type.

    ``values`` is ``None`` (every tangent zero) or one value (or ``None``) per output.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._linear_maps import sequence_output_tangent
    >>> sequence_output_tangent([np.ones(1), None], (np.zeros(1), np.zeros(2)))
    Tangent(tuple, array([1.]), ZeroTangent())
    """
    if isinstance(values, NotImplementedTangent):
        return values
    if values is None:
        return ZERO if any(differentiable(yk) for yk in ys) else NO
    return Tangent(type(ys), *(output_tangent(v, yk) for v, yk in zip(values, ys)))


def cotangent_of_sequence(seq: Any, pieces: Sequence[Any], project: Callable[[Any], Any]) -> Any:
    """The cotangent of a sequence argument from one cotangent per element.

    For a list or tuple ``seq`` the pieces are projected by ``project`` (its
    :func:`~chainrules_core.cotangent_projector`) into a ``Tangent`` of its type; for an
    ndarray ``seq`` (NumPy iterates over its first axis) the pieces are stacked back into
    an array.
    """
    if isinstance(seq, np.ndarray):
        return project(np.stack([np.asarray(p) for p in pieces]) if len(pieces) else np.zeros(seq.shape))
    return project(list(pieces))


def cast_like(dx: np.ndarray, x: Any) -> np.ndarray:
    """``dx`` in the tangent dtype of ``x`` (the real part for a real ``x``) without a copy when possible.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._linear_maps import cast_like
    >>> cast_like(np.array([1 + 2j]), np.zeros(1, np.float32))
    array([1.], dtype=float32)
    """
    want = tangent_dtype(x)
    dx = np.asarray(dx)
    if want.kind == "f" and dx.dtype.kind == "c":
        dx = dx.real
    return dx.astype(want, copy=False)


def own(result: Any, *sources: Any) -> Any:
    """``result``, made a read-only view when it shares memory with one of ``sources``.

    Adjoints of reshapes, transposes and slices are views of the output cotangent (no
    copy). A view of a cotangent somebody else holds must not be written to: ``add_``
    never writes into a read-only array, and an in-place ``+=`` by mistake raises
    instead of changing the caller's cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._linear_maps import own
    >>> dy = np.ones(4)
    >>> own(dy.reshape(2, 2), dy).flags.writeable, own(dy.copy(), dy).flags.writeable
    (False, True)
    """
    if isinstance(result, np.ndarray) and result.flags.writeable:
        for s in sources:
            if isinstance(s, np.ndarray) and np.may_share_memory(result, s):
                view = result.view()
                view.flags.writeable = False
                return view
    return result


def read_nested_cotangent(dy: Any, y: Any, name: str, what: str = "output cotangent") -> Any:
    """Read the cotangent of a nested tuple or list output (``x.tolist()``, ``(hist, [edges, ...])``).

    The core's :func:`~chainrules_core.read_cotangent` reads every leaf that is an array or
    a number, with its policy; this function only walks the nesting: a list or tuple part
    of the output takes a ``Tangent``, a tuple or a list with one part per element (or a
    zero, or a not-implemented tangent, for the whole part). A leaf of another type (an
    object in a tuple: ``operator.getitem(t, 0)``) has a structural cotangent of its own,
    returned unthunked and unchecked.

    Parameters
    ----------
    dy : Any
        What the pullback received.
    y : Any
        The primal output.
    name : str
        The function, for error messages.
    what : str
        What ``dy`` is, for error messages.

    Returns
    -------
    Any
        A zero or not-implemented tangent for the whole output unchanged, else the read
        leaf, or a list (nested like ``y``) of read parts (zeros as ``ZeroTangent()``).

    Raises
    ------
    ProjectionError
        Naming ``name``, for a part that is not a cotangent of its output.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Tangent, ZeroTangent
    >>> from chainrules.rulesets.arrays._linear_maps import read_nested_cotangent
    >>> read_nested_cotangent(Tangent(tuple, 1.0, [ZeroTangent(), np.ones(2)]), (0.0, [np.ones(1), np.ones(2)]), "f")
    [1.0, [ZeroTangent(), array([1., 1.])]]
    >>> read_nested_cotangent((1.0, None), (0.0, [np.ones(1)]), "f")
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: f pullback: cotangent of output 1 is a NoneType, expected a Tangent, ...
    """
    if not is_sequence(y):
        if isinstance(y, (numbers.Number, np.ndarray, np.generic)):
            return read_cotangent(dy, y, name, what)
        return unthunk(dy)
    if isinstance(dy, AbstractThunk):
        dy = dy.unthunk()
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return dy
    parts = backing(dy) if isinstance(dy, Tangent) else dy
    if not isinstance(parts, (tuple, list)):
        raise ProjectionError(f"{name} pullback: {what} is a {type(dy).__name__}, expected a Tangent, tuple or list "
                              f"of {len(y)} parts (the output is a {type(y).__name__})")
    if len(parts) != len(y):
        raise ProjectionError(f"{name} pullback: {what} has {len(parts)} parts, expected {len(y)}")
    return [read_nested_cotangent(p, yk, name, _part_name(what, k)) for k, (p, yk) in enumerate(zip(parts, y))]


def _part_name(what: str, k: int) -> str:
    """``"cotangent of output 1"`` (as the core names the parts), then ``"cotangent of output 1[0]"`` deeper."""
    return f"cotangent of output {k}" if what == "output cotangent" else f"{what}[{k}]"


def input_cotangent(f: Any, live: bool, y: Any, adjoint: Callable[[np.ndarray], Any]) -> Callable[[Any], Any]:
    """The cotangent of an input of a function linear in it, as a function of the output cotangent ``dy``.

    The protocol every such pullback follows: ``NoTangent()`` when the input is not ``live``
    (it has no tangent space); else ``dy`` is read (:func:`~chainrules_core.read_cotangent`,
    errors naming ``f``'s pullback), a zero or a ``NotImplementedTangent`` passes through
    (:func:`zero_result`), and ``dy`` as an ndarray of ``y``'s shape goes to ``adjoint``,
    whose result (already in the input's space) is the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ZeroTangent
    >>> from chainrules.rulesets.arrays._linear_maps import input_cotangent
    >>> cotangent = input_cotangent("f", True, np.zeros(2), lambda dy: 2 * dy)
    >>> cotangent(np.ones(2)), cotangent(ZeroTangent())
    (array([2., 2.]), ZeroTangent())
    >>> input_cotangent("f", False, np.zeros(2), lambda dy: 2 * dy)(np.ones(2))
    NoTangent()
    """

    def cotangent(dy: Any) -> Any:
        dy = read_cotangent(dy, y, f)
        if not live:
            return NO
        if passes_through(dy):
            return zero_result(dy)
        return adjoint(np.asarray(dy))

    return cotangent


def unary_cotangent(f: Any, x: Any, y: Any, adjoint: Callable[[np.ndarray], Any]) -> Callable[[Any], Any]:
    """The cotangent of ``x`` for a function ``y = L(x)`` linear in ``x``, as a function of ``dy``.

    ``adjoint`` maps an ndarray cotangent of ``y`` to an array of ``x``'s shape (it may be
    a view of its argument: the result is then made read-only, see :func:`own`). The
    returned function reads ``dy``, passes zeros through and projects onto ``x``'s space
    (``NoTangent()`` for an integer ``x``) (:func:`input_cotangent`).
    """
    project_x = cotangent_projector(x)

    def adjoint_in_x_space(dy: np.ndarray) -> Any:
        return project_x(own(adjoint(cast_like(dy, x)), dy))

    return input_cotangent(f, differentiable(x), y, adjoint_in_x_space)


def unary_pushforward(dx: Any, x: Any, y: Any, forward: Callable[[np.ndarray], Any]) -> Any:
    """The frule output tangent of ``y = L(x)``, linear in ``x``: ``L(dx)`` in ``y``'s space."""
    if not differentiable(y):
        return NO
    value = tangent_array(dx, x) if differentiable(x) else None
    if value is None or isinstance(value, NotImplementedTangent):
        return output_tangent(value, y)
    return output_tangent(own(forward(value), value), y)
