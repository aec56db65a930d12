"""Tangents and cotangents of the ``scipy.sparse`` functions that are linear in their arrays (private).

``kron``, ``hstack``, ``diags``, ``tril``, ``find``... move, copy or multiply stored entries
without combining them non-linearly (``kron`` is bilinear). Their frule applies the
function itself to the tangents (:func:`tangent_arguments` fills in zeros and puts each
tangent on its input's pattern) and projects the result onto the output's pattern; their
pullbacks read the output cotangent on the output's stored pattern
(:func:`output_entries`: coordinates and values, ``O(nnz)``) and build each input's
cotangent from the entries it contributed (:func:`cotangent_at`), never as a dense matrix
of a sparse input's shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from chainrules.rulesets.structured_matrices._tangents import read_output, tangent_of
from chainrules.structured.sparse import is_sparse
from chainrules_core import (
    NotImplementedTangent,
    ProjectTo,
    Tangent,
    ZeroTangent,
    backing,
    differentiable,
    passes_through,
)


def _zero_like(x: Any) -> Any:
    if is_sparse(x):
        return x * 0  # the same pattern, no dense temporary
    dtype = np.result_type(np.asarray(x).dtype, np.float16) if differentiable(x) else np.asarray(x).dtype
    return np.zeros(np.shape(x), dtype=dtype)


def tangent_arguments(dx: Any, x: Any) -> Any:
    """The tangent ``dx`` of the input ``x`` as an argument of the function itself.

    Zeros (``ZeroTangent()``, ``NoTangent()``, ``None``) become zeros of ``x``'s pattern and
    shape; a tangent of a sparse ``x`` is projected onto ``x``'s pattern; a list or tuple
    ``x`` (of blocks) gets a list of its elements' tangents (``None`` blocks stay ``None``).
    A ``NotImplementedTangent`` is returned as it is.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules_core import Tangent, ZeroTangent
    >>> from chainrules.rulesets.structured_matrices._sparse_linear import tangent_arguments
    >>> A = sp.eye_array(2, format="csr")
    >>> [t.toarray() for t in tangent_arguments(Tangent(list, ZeroTangent(), np.ones((2, 2))), [A, A])]
    [array([[0., 0.],
           [0., 0.]]), array([[1., 0.],
           [0., 1.]])]
    """
    if x is None:
        return None
    dx = tangent_of(dx)
    if isinstance(dx, NotImplementedTangent):
        return dx
    if isinstance(x, (list, tuple)):
        parts = [None] * len(x) if dx is None else list(backing(dx) if isinstance(dx, Tangent) else dx)
        if len(parts) != len(x):
            raise ValueError(f"a tangent of {len(parts)} elements for a {type(x).__name__} of {len(x)}")
        return [tangent_arguments(d, e) for d, e in zip(parts, x)]
    if dx is None or not differentiable(x):
        return _zero_like(x)
    if is_sparse(x):
        return ProjectTo(x)(dx)
    return np.asarray(dx)


def has_not_implemented(value: Any) -> bool:
    """Whether a (nested list of) tangents holds a ``NotImplementedTangent``."""
    if isinstance(value, NotImplementedTangent):
        return True
    return isinstance(value, list) and any(has_not_implemented(v) for v in value)


def linear_frule(f: Callable[..., Any], y: Any, args: tuple[Any, ...], tangents: tuple[Any, ...],
                 linear: tuple[int, ...], kwargs: dict[str, Any]) -> tuple[Any, Any]:
    """``(y, dy)`` of a function linear in the arguments at positions ``linear``: ``f`` applied to
    their tangents (the other arguments unchanged), projected onto ``y``'s pattern."""
    if all(tangent_of(tangents[1 + i]) is None for i in linear):
        return y, ZeroTangent()
    call = list(args)
    for i in linear:
        call[i] = tangent_arguments(tangents[1 + i], args[i])
        if has_not_implemented(call[i]):
            return y, NotImplementedTangent(f"{getattr(f, '__name__', f)} frule: a tangent is not implemented")
    return y, ProjectTo(y)(f(*call, **kwargs))


def output_entries(dy: Any, y: Any, f: str, project_y: Any) -> Any:
    """The output cotangent read on ``y``'s stored pattern, as ``(coords, values)`` of its stored
    entries (duplicates summed), or a zero / not-implemented tangent to pass on."""
    dY = read_output(dy, y, f, project_y)
    if passes_through(dY):
        return dY
    coo = sp.coo_array(dY)
    coo.sum_duplicates()
    return coo.coords, coo.data


def cotangent_at(x: Any, project_x: Any, values: np.ndarray, coords: tuple[np.ndarray, ...]) -> Any:
    """The cotangent of ``x`` holding ``values`` at ``coords`` (repeated coordinates summed), in ``x``'s
    space: on its stored pattern for a sparse ``x``, an array of its shape otherwise."""
    shape = np.shape(x) if not is_sparse(x) else x.shape
    if is_sparse(x):
        return project_x(sp.coo_array((values, coords), shape=shape))
    full_shape = shape if len(coords) == len(shape) else (1,) * (len(coords) - len(shape)) + tuple(shape)
    dense = np.zeros(full_shape, dtype=np.result_type(values.dtype, np.float16))
    np.add.at(dense, coords, values)
    return project_x(dense.reshape(shape))
