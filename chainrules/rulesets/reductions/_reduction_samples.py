"""Sample inputs shared by the reductions: the spellings of ``axis`` and the shapes every reduction takes (private).

A reduction ``f(a, axis, ...)`` is checked (see :func:`chainrules_core.sample_inputs`) with
every reduced axis (``None``, an int, a negative int, a tuple), ``axis`` by position and by
keyword, ``keepdims``, float32 and, where NumPy takes it, complex input, a 0-d array, a
Python number and empty arrays: an empty output and empty slices (whose outputs are
constants, 0 for a sum, 1 for a product, NaN for a mean).

Examples
--------
>>> import numpy as np
>>> from chainrules.rulesets.reductions._reduction_samples import axis_samples
>>> [s.describe() for s in axis_samples(np.ones((2, 3)))][:3]
['all axes', 'axis by position', 'negative axis by keyword']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core import Sample

__all__ = ["axis_samples", "sample_array"]


def sample_array(shape: tuple[int, ...], rng: np.random.Generator, *, distinct: bool = True) -> np.ndarray:
    """A float64 array of ``shape`` with entries in ``[-2, 2]``, pairwise apart when ``distinct``
    (no ties: the extrema and order statistics are differentiable there).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._reduction_samples import sample_array
    >>> x = sample_array((2, 3), np.random.default_rng(0))
    >>> x.shape, len(np.unique(x)) == x.size
    ((2, 3), True)
    """
    size = int(np.prod(shape))
    if distinct:
        values = np.linspace(-2.0, 2.0, size) + rng.uniform(-0.1, 0.1, size) / max(size, 1)
        return rng.permutation(values).reshape(shape)
    return rng.uniform(-2.0, 2.0, shape)


def axis_samples(x: np.ndarray, *, before_keepdims: tuple[Any, ...] | None = None, complex_inputs: bool = True,
                 empty: bool = True, scalars: bool = True, rng: np.random.Generator | None = None,
                 **options: Any) -> list[Sample]:
    """Samples of ``f(x, axis, ..., keepdims=...)`` for a reduction ``f`` over a 2-d or 3-d ``x``.

    Parameters
    ----------
    x : ndarray
        Floating, at least 2-d, inside ``f``'s domain.
    before_keepdims : tuple, optional
        The positional arguments between ``axis`` and ``keepdims`` (``(None, None)`` for
        ``sum(a, axis, dtype, out, keepdims)``): also a sample with ``keepdims`` by position.
    complex_inputs : bool
        Also a complex version of ``x`` (``f`` takes complex input).
    empty : bool
        Also empty inputs: empty slices (a reduced axis of length 0) and an empty output.
    scalars : bool
        Also a 0-d array and a Python number.
    rng : numpy.random.Generator, optional
        For the imaginary parts (default: seeded).
    **options
        Tester options for every sample.
    """
    rng = np.random.default_rng(0) if rng is None else rng
    last = (0, x.ndim - 1) if x.ndim > 2 else (-1, 0)
    out = [Sample(x, label="all axes", **options),
           Sample(x, 0, label="axis by position", **options),
           Sample(x, fkwargs={"axis": -1}, label="negative axis by keyword", **options),
           Sample(x, fkwargs={"axis": last, "keepdims": True}, label="axis tuple, keepdims", **options),
           Sample(x.astype(np.float32), 1, label="float32", **options)]
    if before_keepdims is not None:
        out.append(Sample(x, 1, *before_keepdims, True, label="keepdims by position", **options))
    if complex_inputs:
        z = x + 1j * rng.uniform(-1.0, 1.0, x.shape)
        out.append(Sample(z, 1, label="complex", **options))
    if scalars:
        out += [Sample(np.array(1.5), label="0-d array", **options), Sample(-0.7, label="Python float", **options)]
    if empty:
        out += [Sample(np.zeros((0, 3)), 0, label="empty slices (a reduced axis of length 0)", **options),
                Sample(np.zeros((2, 0)), 0, label="an empty output", **options)]
    return out
