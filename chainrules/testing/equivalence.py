"""Checking that a fast path does what its general path does.

A fast path (a rule's shortcut for the common case: exact ndarray types, matching shapes
and dtypes) must behave exactly as the general path it shortcuts, which stays the
specification: the same values of the same types, dtypes and shapes, and the same errors
with the same messages. :func:`outcome` records what a call does, and
:func:`check_same_outcome` compares two such records; running both paths on the same
inputs, bad ones included, is then a loop.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules_core import NotImplementedTangent, Thunk, unthunk

__all__ = ["check_same_outcome", "outcome"]


def outcome(call: Callable[[], Any]) -> tuple[Any, ...]:
    """What ``call()`` does: ``("value", result)``, or ``("error", type, message)`` if it raises.

    Warnings are raised as errors, so a path that warns where the other does not differs.

    Parameters
    ----------
    call : callable
        Called with no arguments.

    Returns
    -------
    tuple
        ``("value", result)`` or ``("error", exception type, message)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import outcome
    >>> outcome(lambda: np.ones(2).sum())
    ('value', np.float64(2.0))
    >>> outcome(lambda: np.ones(2).reshape(3))
    ('error', <class 'ValueError'>, 'cannot reshape array of size 2 into shape (3,)')
    """
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return ("value", call())
        except Exception as error:  # (recording it is the point)
            return ("error", type(error), str(error))


def check_same_outcome(fast: tuple[Any, ...], general: tuple[Any, ...]) -> None:
    """Assert that two :func:`outcome` records are the same.

    Both values: the same types (a thunk where the other has one, compared by value), and
    for arrays the same dtype, shape and values (NaN equal to NaN), element by element
    through tuples and lists; not-implemented tangents compared by their reasons. Both
    errors: the same type and message.

    Parameters
    ----------
    fast, general : tuple
        Records made by :func:`outcome`.

    Raises
    ------
    AssertionError
        Where the two differ.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import check_same_outcome, outcome
    >>> x = np.array([1.0, np.nan])
    >>> check_same_outcome(outcome(lambda: x * 2), outcome(lambda: x + x))
    >>> check_same_outcome(outcome(lambda: x * 2), outcome(lambda: (x * 2).astype(np.float32)))
    Traceback (most recent call last):
    ...
    AssertionError: float64 float32: ...
    """
    assert fast[0] == general[0], (fast, general)
    if fast[0] == "error":
        assert fast[1:] == general[1:], (fast, general)
    else:
        _check_same(fast[1], general[1])


def _check_same(a: Any, b: Any) -> None:
    if isinstance(a, Thunk) or isinstance(b, Thunk):
        assert type(a) is type(b), (a, b)
        _check_same(unthunk(a), unthunk(b))
        return
    assert type(a) is type(b), (a, b)
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b), (a, b)
        for x, y in zip(a, b):
            _check_same(x, y)
    elif isinstance(a, (np.ndarray, np.generic)):
        assert a.dtype == b.dtype and a.shape == b.shape, f"{a.dtype} {b.dtype}: {a.shape} {b.shape}"
        np.testing.assert_array_equal(a, b)
    elif isinstance(a, NotImplementedTangent):
        assert repr(a) == repr(b), (a, b)
    elif isinstance(a, (float, complex, int)):
        assert a == b or (a != a and b != b), (a, b)
    else:
        assert a == b, (a, b)
