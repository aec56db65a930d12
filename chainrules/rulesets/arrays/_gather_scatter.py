"""Gathers and their adjoint scatters (private helpers of the array rules).

A gather ``y = x[idx]`` (``take``, ``take_along_axis``, ``compress``, ``diagonal``,
indexing) is linear in ``x``; its adjoint scatters the output cotangent back into the
entries that were read, **adding** the cotangents of an entry read several times
(``np.add.at`` semantics). The cotangent is an :class:`~chainrules_core.InplaceableThunk`:
``add_(acc, cotangent)`` adds into the entries read, in place, at the cost of the number
of entries read; ``unthunk`` builds the dense cotangent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.arrays._linear_maps import (
    cast_like,
    input_cotangent,
    output_tangent,
    tangent_array,
    tangent_dtype,
)
from chainrules.rulesets.arrays._signatures import is_sequence
from chainrules_core import InplaceableThunk, NotImplementedTangent, cotangent_projector, differentiable


def _real_weights(dy: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
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
    >>> from chainrules.rulesets.arrays._gather_scatter import scatter_add
    >>> scatter_add(np.array([0, 2, 0]), np.array([1.0, 2.0, 3.0]), 3, np.dtype(np.float64))
    array([4., 0., 2.])
    """
    real, imag = _real_weights(np.asarray(dy))
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

    Examples
    --------
    >>> from chainrules.rulesets.arrays._gather_scatter import index_grid
    >>> index_grid((2, 2))
    array([[0, 1],
           [2, 3]])
    """
    size = int(np.prod(shape, dtype=np.int64))
    return np.arange(start, start + size, dtype=np.intp).reshape(shape)


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
    >>> from chainrules.rulesets.arrays._gather_scatter import scatter_cotangent
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
    return cotangent_projector(x)(cotangent) if is_sequence(x) else cotangent


def gathered_cotangent(f: Any, x: Any, y: Any, scatter: Callable[[np.ndarray, Any], Any]) -> Callable[[Any], Any]:
    """The cotangent of ``x`` for a gather ``y = x[...]``, as a function of the output cotangent.

    The output cotangent is read (:func:`~chainrules_core.read_cotangent`, errors naming
    ``f``), cast to ``x``'s tangent dtype and wrapped by :func:`scatter_cotangent`
    (``scatter(acc, dy)`` adds it into the entries read). Integer ``x`` gets ``NoTangent()``.
    """

    def scatter_back(dy: np.ndarray) -> Any:
        return scatter_cotangent(x, cast_like(dy, x), scatter)

    return input_cotangent(f, differentiable(x), y, scatter_back)


def gathered_tangent(dx: Any, x: Any, y: Any, gather: Callable[[np.ndarray], Any]) -> Any:
    """The frule output of a gather ``y = x[...]``: the tangent gathered the same way."""
    if not differentiable(y) or not differentiable(x):
        return output_tangent(None, y)
    value = tangent_array(dx, x)
    if value is None or isinstance(value, NotImplementedTangent):
        return output_tangent(value, y)
    return output_tangent(gather(value), y)
