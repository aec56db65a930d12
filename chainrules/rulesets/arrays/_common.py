"""Helpers shared by the array-manipulation rules (private).

Most functions of this package are *linear* in their array arguments: they move, copy,
drop or sum entries and never combine them non-linearly. Their frule applies the same
function to the tangents (with the other arguments unchanged), and their pullback applies
its adjoint. The conventions every rule of the package follows are implemented here once:

* Integer and boolean inputs are not differentiated: their cotangent is ``NoTangent()``
  (:func:`project_input`). Python ``int`` s are integers too.
* An argument that is a list or a tuple (``np.concatenate([a, b])``, ``np.array([[1.0,
  2.0], [x, y]])``) gets a structural cotangent of its own type: ``Tangent(list, da, db)``
  for a list, ``Tangent(tuple, ...)`` for a tuple, each element projected onto its own
  space (an ndarray for an array, a float for a Python float, ``NoTangent()`` for an
  integer, a nested ``Tangent`` for a nested list) (:class:`SequenceProjector`). An
  ndarray passed where NumPy iterates over a sequence (``np.stack(x)``) gets an ndarray.
* The output cotangent is read by :func:`read_cotangent`: thunks are unthunked, zeros and
  not-implemented tangents are returned unchanged for the pullback to pass on, and an
  array of the wrong shape raises an error naming the function and both shapes.
* Tangents reaching an frule are made dense by :func:`dense_tangent` (``None`` for a
  zero), and the output tangent is put into the output's space by :func:`output_tangent`
  (its dtype, its shape; ``NoTangent()`` for an integer output).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules_core import (
    AbstractZero,
    InplaceableThunk,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    Projector,
    ProjectTo,
    Tangent,
    ZeroTangent,
    backing,
    check_cotangent_shape,
    reject_keywords,
    unthunk,
)

NUMBER_OR_ARRAY = (numbers.Number, np.ndarray)
"""Types of an array argument: ndarrays and Python/NumPy numbers."""

SEQUENCE = (list, tuple)
"""Types of a sequence-of-arrays argument (``np.concatenate([a, b])``)."""

ARRAY_LIKE = (numbers.Number, np.ndarray, list, tuple)
"""Types of an argument NumPy converts with ``np.asarray``."""

NO = NoTangent()
ZERO = ZeroTangent()


def is_sequence(x: Any) -> bool:
    """Whether ``x`` is a list or a plain tuple (not a namedtuple)."""
    return isinstance(x, SEQUENCE) and not hasattr(x, "_fields")


def differentiable(x: Any) -> bool:
    """Whether ``x`` has a tangent space: a floating or complex number or array, or a
    list/tuple holding one.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._common import differentiable
    >>> differentiable(np.ones(2)), differentiable(np.arange(2)), differentiable(3), differentiable([1, 2.0])
    (True, False, False, True)
    """
    if isinstance(x, (bool, int, np.bool_)):
        return False
    if is_sequence(x):
        return any(differentiable(e) for e in x)
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return bool(np.dtype(dtype).kind in "fc")
    return isinstance(x, (float, complex))


def tangent_dtype(x: Any) -> np.dtype:
    """The dtype of a tangent of the (differentiable) ``x``: NumPy's dtype for ``np.asarray(x)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._common import tangent_dtype
    >>> tangent_dtype(np.ones(2, np.float32)), tangent_dtype([1.0, 2j])
    (dtype('float32'), dtype('complex128'))
    """
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return np.dtype(dtype)
    return np.asarray(x).dtype


def _no_tangent(dx: Any) -> NoTangent:
    return NO


class SequenceProjector(Projector):
    """Projector of a list or tuple converted to an array: a ``Tangent`` of the same type.

    It accepts the cotangent as an ndarray (rows are the elements, as in ``np.array(seq)``),
    a ``Tangent``, a list or a tuple, and projects every element onto its own space.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._common import project_input
    >>> project_input([1.0, 2, np.ones(2)])([np.float64(3.0), 4.0, np.ones(2)])
    Tangent(list, 3.0, NoTangent(), array([1., 1.]))
    >>> project_input([[1.0, 2.0]])(np.array([[5.0, 6.0]]))
    Tangent(list, Tangent(list, 5.0, 6.0))
    """

    __slots__ = ("elements", "primal_type")

    def __init__(self, primal_type: type, elements: list[Callable[[Any], Any]]) -> None:
        self.primal_type = primal_type
        self.elements = elements

    def project(self, dx: Any) -> Any:
        if isinstance(dx, Tangent):
            parts: Any = backing(dx)
        elif isinstance(dx, (list, tuple, np.ndarray)):
            parts = dx
        else:
            raise self.fail(f"a {self.primal_type.__name__} primal got a cotangent of type {type(dx).__name__}")
        if len(parts) != len(self.elements):
            raise self.fail(f"cotangent has {len(parts)} elements, expected {len(self.elements)}")
        return Tangent(self.primal_type, *(p(d) for p, d in zip(self.elements, parts)))

    def describe(self) -> str:
        return f"{self.primal_type.__name__} of {len(self.elements)} elements"


def project_input(x: Any) -> Callable[[Any], Any]:
    """``ProjectTo(x)``, except that integer and boolean inputs get ``NoTangent()`` and a
    list or tuple gets a :class:`SequenceProjector` (elements projected recursively).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._common import project_input
    >>> project_input(np.arange(3))(np.ones(3)), project_input(np.ones(2, np.float32))(np.ones(2))
    (NoTangent(), array([1., 1.], dtype=float32))
    """
    if is_sequence(x):
        elements = [project_input(e) for e in x]
        if all(p is _no_tangent for p in elements):
            return _no_tangent
        return SequenceProjector(type(x), elements)
    if isinstance(x, (numbers.Number, np.ndarray, np.generic)) and not differentiable(x):
        return _no_tangent
    return ProjectTo(x)


def read_cotangent(dy: Any, y: Any, where: str) -> Any:
    """The output cotangent of a pullback, ready to use.

    Returns a zero or a ``NotImplementedTangent`` unchanged (the pullback passes it on),
    else an ndarray of the output's shape (a thunk is unthunked). A cotangent of another
    shape raises :class:`~chainrules_core.ProjectionError` naming ``where`` and both shapes.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Thunk
    >>> from chainrules.rulesets.arrays._common import read_cotangent
    >>> read_cotangent(Thunk(lambda: 2.0), np.float64(1.0), "f pullback: output cotangent")
    array(2.)
    >>> read_cotangent(np.ones(3), np.ones(2), "f pullback: output cotangent")
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: f pullback: output cotangent has shape (3,), expected shape (2,)
    """
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return dy
    if isinstance(dy, Tangent) or (isinstance(dy, (list, tuple)) and not isinstance(y, (list, tuple))):
        raise ProjectionError(f"{where} is a {type(dy).__name__}, expected an array of shape {np.shape(y)}")
    check_cotangent_shape(dy, np.shape(y), where)
    arr = np.asarray(dy)
    if arr.dtype == object:
        raise ProjectionError(f"{where} is an array of objects, expected numbers")
    return arr.reshape(np.shape(y))


def passes_through(dy: Any) -> bool:
    """Whether a read cotangent is a zero or a not-implemented tangent (not an array)."""
    return isinstance(dy, (AbstractZero, NotImplementedTangent))


def read_cotangents(dy: Any, ys: Sequence[Any], where: str) -> Any:
    """The cotangent of a list or tuple output (``np.split``, ``np.broadcast_arrays``).

    Accepts a ``Tangent``, a list or a tuple of per-output cotangents. Returns a zero or
    a ``NotImplementedTangent`` unchanged (for the whole output, or the first one found
    in a part), else a list holding an ndarray or ``None`` (a zero part) per output.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Tangent, ZeroTangent
    >>> from chainrules.rulesets.arrays._common import read_cotangents
    >>> read_cotangents(Tangent(list, ZeroTangent(), 2.0), [np.ones(2), np.ones(())], "f pullback")
    [None, array(2.)]
    """
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return dy
    if isinstance(dy, Tangent):
        parts = backing(dy)
    elif isinstance(dy, (list, tuple)):
        parts = dy
    else:
        raise ProjectionError(f"{where}: the output is a {type(ys).__name__} of {len(ys)} arrays, but its "
                              f"cotangent is a {type(dy).__name__}; pass a Tangent, list or tuple")
    if len(parts) != len(ys):
        raise ProjectionError(f"{where}: the cotangent has {len(parts)} parts, expected {len(ys)}")
    out: list[Any] = []
    for k, (part, yk) in enumerate(zip(parts, ys)):
        value = read_cotangent(part, yk, f"{where}: cotangent of output {k}")
        if isinstance(value, NotImplementedTangent):
            return value
        out.append(None if isinstance(value, AbstractZero) else value)
    return out


def zero_result(dy: Any) -> Any:
    """The cotangent of a differentiable input when the output cotangent ``dy`` passes through."""
    return dy if isinstance(dy, NotImplementedTangent) else ZERO


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
    >>> from chainrules.rulesets.arrays._common import dense_tangent
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
        for v in values:
            if isinstance(v, NotImplementedTangent):
                return v
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


def any_not_implemented(*tangents: Any) -> NotImplementedTangent | None:
    """The first ``NotImplementedTangent`` among dense tangents, or ``None``."""
    for t in tangents:
        if isinstance(t, NotImplementedTangent):
            return t
    return None


def output_tangent(value: Any, y: Any) -> Any:
    """An frule's output tangent in the output's tangent space (dtype and shape of ``y``).

    ``None`` (every input tangent zero) gives ``ZeroTangent()``; an integer or boolean
    output gives ``NoTangent()``; a complex tangent of a real output keeps its real part
    (the output is a real function of complex inputs only through a cast).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._common import output_tangent
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
    """
    if isinstance(values, NotImplementedTangent):
        return values
    if values is None:
        return ZERO if any(differentiable(yk) for yk in ys) else NO
    return Tangent(type(ys), *(output_tangent(v, yk) for v, yk in zip(values, ys)))


def cotangent_of_sequence(seq: Any, pieces: Sequence[Any], project: Callable[[Any], Any]) -> Any:
    """The cotangent of a sequence argument from one cotangent per element.

    For a list or tuple ``seq`` the pieces are projected by ``project`` (a
    :class:`SequenceProjector`) into a ``Tangent`` of its type; for an ndarray ``seq``
    (NumPy iterates over its first axis) the pieces are stacked back into an array.
    """
    if isinstance(seq, np.ndarray):
        return project(np.stack([np.asarray(p) for p in pieces]) if len(pieces) else np.zeros(seq.shape))
    return project(list(pieces))


def as_real_weights(dy: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Split a cotangent into the real arrays ``np.bincount`` accepts as weights."""
    flat = dy.ravel()
    if flat.dtype.kind == "c":
        return flat.real, flat.imag
    return flat, None


def scatter_add(index: np.ndarray, dy: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
    """``out[index[j]] += dy[j]`` for a flat ``out`` of ``size`` zeros, repeated indices summed.

    This is the adjoint of the gather ``dy = x.ravel()[index]``. It runs ``np.bincount``
    (exact summation of repeats, linear time); complex cotangents are summed in two real
    halves.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._common import scatter_add
    >>> scatter_add(np.array([0, 2, 0]), np.array([1.0, 2.0, 3.0]), 3, np.dtype(np.float64))
    array([4., 0., 2.])
    """
    real, imag = as_real_weights(np.asarray(dy))
    idx = np.asarray(index).ravel()
    out = np.bincount(idx, weights=real, minlength=size)
    if imag is not None:
        out = out + 1j * np.bincount(idx, weights=imag, minlength=size)
    if dtype.kind == "f" and out.dtype.kind == "c":
        out = out.real
    return out.astype(dtype, copy=False)


def index_grid(shape: tuple[int, ...], start: int = 0) -> np.ndarray:
    """``start, start + 1, ...`` in an array of ``shape``: the flat position of every entry.

    Applying a function that only moves, copies or drops entries to this array (instead of
    the data) tells where each output entry comes from.
    """
    size = int(np.prod(shape, dtype=np.int64))
    return np.arange(start, start + size, dtype=np.intp).reshape(shape)


def cast_like(dx: np.ndarray, x: Any) -> np.ndarray:
    """``dx`` in the tangent dtype of ``x`` (the real part for a real ``x``) without a copy when possible."""
    want = tangent_dtype(x)
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
    >>> from chainrules.rulesets.arrays._common import own
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


def tangent_array(dx: Any, x: Any) -> Any:
    """The tangent ``dx`` of the array-like input ``x`` as one ndarray of ``x``'s shape.

    ``None`` for a zero, a ``NotImplementedTangent`` as it is. A list input gets its
    elements' tangents assembled with ``np.asarray`` (zeros filled in).
    """
    value = dense_tangent(dx, x)
    if value is None or isinstance(value, NotImplementedTangent) or not is_sequence(x):
        return value
    return np.asarray(value, dtype=tangent_dtype(x))


def input_cotangent(name: str, live: bool, y: Any, adjoint: Callable[[np.ndarray], Any]) -> Callable[[Any], Any]:
    """The cotangent of an input of a function linear in it, as a function of the output cotangent ``dy``.

    The protocol every such pullback follows: ``NoTangent()`` when the input is not ``live``
    (it has no tangent space); else ``dy`` is read (:func:`read_cotangent`, errors naming
    ``name``'s pullback), a zero or a ``NotImplementedTangent`` passes through
    (:func:`zero_result`), and an ndarray ``dy`` of ``y``'s shape goes to ``adjoint``,
    whose result (already in the input's space) is the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ZeroTangent
    >>> from chainrules.rulesets.arrays._common import input_cotangent
    >>> cotangent = input_cotangent("f", True, np.zeros(2), lambda dy: 2 * dy)
    >>> cotangent(np.ones(2)), cotangent(ZeroTangent())
    (array([2., 2.]), ZeroTangent())
    >>> input_cotangent("f", False, np.zeros(2), lambda dy: 2 * dy)(np.ones(2))
    NoTangent()
    """
    where = f"{name} pullback: output cotangent"

    def cotangent(dy: Any) -> Any:
        if not live:
            return NO
        dy = read_cotangent(dy, y, where)
        if passes_through(dy):
            return zero_result(dy)
        return adjoint(dy)

    return cotangent


def unary_cotangent(name: str, x: Any, y: Any, adjoint: Callable[[np.ndarray], Any]) -> Callable[[Any], Any]:
    """The cotangent of ``x`` for a function ``y = L(x)`` linear in ``x``, as a function of ``dy``.

    ``adjoint`` maps an ndarray cotangent of ``y`` to an array of ``x``'s shape (it may be
    a view of its argument: the result is then made read-only, see :func:`own`). The
    returned function reads ``dy`` (:func:`read_cotangent`), passes zeros through and
    projects onto ``x``'s space (``NoTangent()`` for an integer ``x``) (:func:`input_cotangent`).
    """
    project_x = project_input(x)

    def adjoint_in_x_space(dy: np.ndarray) -> Any:
        return project_x(own(adjoint(cast_like(dy, x)), dy))

    return input_cotangent(name, project_x is not _no_tangent, y, adjoint_in_x_space)


def unary_pushforward(dx: Any, x: Any, y: Any, forward: Callable[[np.ndarray], Any]) -> Any:
    """The frule output tangent of ``y = L(x)``, linear in ``x``: ``L(dx)`` in ``y``'s space."""
    if not differentiable(y):
        return NO
    value = tangent_array(dx, x) if differentiable(x) else None
    if value is None or isinstance(value, NotImplementedTangent):
        return output_tangent(value, y)
    return output_tangent(own(forward(value), value), y)


def reject_out(f: Any, out: Any) -> None:
    """Raise :class:`~chainrules_core.UnsupportedKeywordError` when ``out=`` is given.

    A rule cannot differentiate a write into an array the caller holds.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._common import reject_out
    >>> reject_out(np.take, np.zeros(2))
    Traceback (most recent call last):
    ...
    chainrules_core.scalar_rules.UnsupportedKeywordError: numpy.take: the keyword out= is not ...
    """
    if out is not None:
        reject_keywords(f, {"out": out}, ("out",))


def scatter_cotangent(x: Any, dy: Any, scatter: Callable[[np.ndarray, Any], Any]) -> Any:
    """The cotangent of ``x`` for a gather ``y = x[...]``: an ``InplaceableThunk``.

    ``scatter(acc, dy)`` adds the output cotangent ``dy`` (already in ``x``'s tangent
    dtype) into the entries of ``acc`` (an array of ``x``'s shape) that were read, in
    place, accumulating repeated reads (``np.add.at``), and returns nothing. ``add_``
    calls it on an existing accumulator, at the cost of the entries read, with no dense
    temporary; ``unthunk`` builds the dense cotangent (zeros of ``x``'s shape and tangent
    dtype, then the same scatter). Either way the cotangent is in ``x``'s tangent space
    (for a list or tuple ``x``, ``unthunk`` gives its ``Tangent``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import add_, unthunk
    >>> from chainrules.rulesets.arrays._common import scatter_cotangent
    >>> def scatter(acc, dy):
    ...     np.add.at(acc, [0, 0], dy)
    >>> ct = scatter_cotangent(np.zeros(3), np.array([1.0, 2.0]), scatter)
    >>> unthunk(ct), add_(np.ones(3), ct)
    (array([3., 0., 0.]), array([4., 1., 1.]))
    """
    shape = np.shape(x)
    dtype = tangent_dtype(x)

    def scatter_into(acc: np.ndarray) -> np.ndarray:
        scatter(acc, dy)
        return acc

    def scatter_into_zeros() -> np.ndarray:
        out = np.zeros(shape, dtype=dtype)
        scatter(out, dy)
        return out

    cotangent = InplaceableThunk(scatter_into, scatter_into_zeros)
    return project_input(x)(cotangent) if is_sequence(x) else cotangent


class _Required:
    """Type of :data:`REQUIRED`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<required>"


REQUIRED: Any = _Required()
"""The default of a rule's parameter that NumPy requires but accepts by keyword.

Rules match on positional arguments; giving ``axis`` a default lets ``np.expand_dims(x,
axis=0)`` find the rule of ``np.expand_dims(x, 0)``. :func:`require` raises NumPy's
``TypeError`` when it was really left out.
"""


def require(name: str, **params: Any) -> None:
    """Raise ``TypeError`` (as Python does) when a required parameter was not given.

    Examples
    --------
    >>> from chainrules.rulesets.arrays._common import REQUIRED, require
    >>> require("expand_dims", axis=0)
    >>> require("expand_dims", axis=REQUIRED)
    Traceback (most recent call last):
    ...
    TypeError: expand_dims() missing required argument 'axis'
    """
    for key, value in params.items():
        if value is REQUIRED:
            raise TypeError(f"{name}() missing required argument '{key}'")


def gathered_cotangent(name: str, x: Any, y: Any, scatter: Callable[[np.ndarray, Any], Any]) -> Callable[[Any], Any]:
    """The cotangent of ``x`` for a gather ``y = x[...]``, as a function of the output cotangent.

    The output cotangent is read (:func:`read_cotangent`), cast to ``x``'s tangent dtype
    and wrapped by :func:`scatter_cotangent` (``scatter(acc, dy)`` adds it into the
    entries read). Integer ``x`` gets ``NoTangent()`` (:func:`input_cotangent`).
    """

    def scatter_back(dy: np.ndarray) -> Any:
        return scatter_cotangent(x, cast_like(dy, x), scatter)

    return input_cotangent(name, differentiable(x), y, scatter_back)


def gathered_tangent(dx: Any, x: Any, y: Any, gather: Callable[[np.ndarray], Any]) -> Any:
    """The frule output of a gather ``y = x[...]``: the tangent gathered the same way."""
    if not differentiable(y) or not differentiable(x):
        return output_tangent(None, y)
    value = tangent_array(dx, x)
    if value is None or isinstance(value, NotImplementedTangent):
        return output_tangent(value, y)
    return output_tangent(gather(value), y)
