"""The boundary modes of ``scipy.ndimage``: how an array is extended past its edges, and the adjoint.

Every filter of ``scipy.ndimage`` reads a line of ``n`` samples through an extension of that
line, ``before`` samples to the left and ``after`` to the right, built by ``NI_ExtendLine``
(``scipy/ndimage/src/ni_support.c``). Written as an index map from an extended position ``j``
(``-before <= j < n + after``) to the sample it copies:

==============  ==========================  ================================================
mode            picture (``abcd``)           source of position ``j``
==============  ==========================  ================================================
``nearest``     ``aaaa|abcd|dddd``          ``clip(j, 0, n - 1)``
``wrap``        ``abcd|abcd|abcd``          ``j mod n``
``reflect``     ``dcba|abcd|dcba``          ``m = j mod 2n``; ``m`` if ``m < n`` else ``2n - 1 - m``
``mirror``      ``dcb|abcd|cba``            ``m = j mod (2n - 2)``; ``m`` if ``m < n`` else ``2n - 2 - m``
                                            (``n = 1``: ``0``, NumPy's ``nearest``)
``constant``    ``kkkk|abcd|kkkk``          none: the value ``cval``
==============  ==========================  ================================================

For the filters, ``grid-mirror`` is ``reflect``, ``grid-wrap`` is ``wrap`` and
``grid-constant`` is ``constant`` (``_extend_mode_to_code(mode, is_filter=True)``); the
interpolation functions treat the ``grid-*`` modes differently (see ``_splines``).

The extension is linear in the line and in ``cval``: ``x_ext = E x + cval * p``, where ``E``
copies samples and ``p`` marks the padding of the ``constant`` mode. Its adjoint, used by
every pullback, is :func:`fold`: the cotangent of each extended position is added onto the
sample it copies (``E^T``), and the cotangents of the padding add up to the cotangent of
``cval`` (``p^T``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core import UnsupportedKeywordError

__all__ = ["FILTER_MODES", "check_output", "extend", "filter_mode", "fold", "source_indices"]

FILTER_MODES = {"reflect": "reflect", "grid-mirror": "reflect", "mirror": "mirror", "nearest": "nearest",
                "wrap": "wrap", "grid-wrap": "wrap", "constant": "constant", "grid-constant": "constant"}
"""Each mode a filter accepts, and the extension it stands for."""


def filter_mode(mode: str) -> str:
    """The extension a filter's ``mode`` stands for (``grid-mirror`` is ``reflect``, ...).

    Examples
    --------
    >>> filter_mode("grid-wrap"), filter_mode("mirror")
    ('wrap', 'mirror')
    """
    try:
        return FILTER_MODES[mode]
    except (KeyError, TypeError):
        raise RuntimeError(f"boundary mode {mode!r} not supported") from None


def source_indices(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """The sample each position of the extended line copies, ``-1`` for ``constant`` padding.

    Parameters
    ----------
    n : int
        Length of the line (at least 1).
    before, after : int
        How many extended positions precede and follow the line.
    mode : str
        A filter mode (see :data:`FILTER_MODES`).

    Returns
    -------
    ndarray of int
        Length ``before + n + after``; entry ``before + j`` is the source of position ``j``.

    Examples
    --------
    >>> source_indices(3, 4, 4, "reflect")
    array([2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0])
    >>> source_indices(3, 4, 4, "mirror")
    array([0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2])
    >>> source_indices(3, 2, 2, "constant")
    array([-1, -1,  0,  1,  2, -1, -1])
    """
    j = np.arange(-before, n + after)
    mode = filter_mode(mode)
    if mode == "nearest" or (mode == "mirror" and n == 1):
        return np.clip(j, 0, n - 1)
    if mode == "wrap":
        return j % n
    if mode == "reflect":
        m = j % (2 * n)
        return np.where(m < n, m, 2 * n - 1 - m)
    if mode == "mirror":
        period = 2 * n - 2
        m = j % period
        return np.where(m < n, m, period - m)
    return np.where((j >= 0) & (j < n), j, -1)


def extend(x: np.ndarray, axis: int, before: int, after: int, mode: str, cval: Any = 0.0) -> np.ndarray:
    """``x`` extended along ``axis`` as ``scipy.ndimage`` extends it (a new array).

    Examples
    --------
    >>> extend(np.array([1.0, 2.0, 3.0]), 0, 2, 1, "wrap")
    array([2., 3., 1., 2., 3., 1.])
    >>> extend(np.array([1.0, 2.0]), 0, 1, 1, "constant", 5.0)
    array([5., 1., 2., 5.])
    """
    n = x.shape[axis]
    if filter_mode(mode) == "constant":
        widths = [(0, 0)] * x.ndim
        widths[axis] = (before, after)
        dtype = np.result_type(x, cval) if np.iscomplexobj(cval) else x.dtype
        return np.pad(x.astype(dtype, copy=False), widths, mode="constant", constant_values=cval)
    return np.take(x, source_indices(n, before, after, mode), axis=axis)


def fold(u: np.ndarray, axis: int, before: int, n: int, mode: str) -> tuple[np.ndarray, Any]:
    """The adjoint of :func:`extend`: ``u`` (a cotangent of the extended array) onto the line and ``cval``.

    Returns
    -------
    (ndarray, number or None)
        The cotangent of ``x`` (a new array) and, for the ``constant`` mode, the cotangent of
        ``cval`` (the sum of the padding's cotangents); ``None`` for the other modes.

    Examples
    --------
    >>> fold(np.arange(6.0), 0, 2, 3, "wrap")          # positions -2..3 copy 1, 2, 0, 1, 2, 0
    (array([7., 3., 5.]), None)
    >>> fold(np.arange(4.0), 0, 1, 2, "constant")
    (array([1., 2.]), np.float64(3.0))
    """
    length = u.shape[axis]
    after = length - before - n
    moved = np.moveaxis(u, axis, 0)
    out = moved[before:before + n].copy()
    if filter_mode(mode) == "constant":
        pad = moved[:before].sum() + moved[before + n:].sum()
        return np.moveaxis(out, 0, axis), pad
    index = source_indices(n, before, after, mode)
    positions = np.concatenate((np.arange(before), np.arange(before + n, length)))
    if positions.size:
        if positions.size <= 2 * n:  # a few slices: one add each
            for p in positions:
                out[index[p]] += moved[p]
        else:
            np.add.at(out, index[positions], moved[positions])
    return np.moveaxis(out, 0, axis), None


def check_output(f: Any, output: Any) -> None:
    """Refuse an ``output`` array: ``scipy.ndimage`` would write the result into it in place.

    ``output`` given as ``None`` or as a dtype is fine (the result is a new array of that dtype).

    Examples
    --------
    >>> import scipy.ndimage
    >>> check_output(scipy.ndimage.sobel, np.float32)
    >>> check_output(scipy.ndimage.sobel, np.zeros(3))
    Traceback (most recent call last):
    ...
    chainrules_core.scalar_rules.UnsupportedKeywordError: scipy.ndimage.sobel: output= an array ...
    """
    if output is None or isinstance(output, (str, np.dtype)) or (isinstance(output, type)
                                                                  and issubclass(output, np.generic)):
        return
    name = getattr(f, "__name__", "f")
    raise UnsupportedKeywordError(f"scipy.ndimage.{name}: output= an array is written in place, which is not "
                                  "differentiable; pass output=None or a dtype and use the returned array")
