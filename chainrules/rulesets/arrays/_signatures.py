"""Argument types and parameter handling shared by the array rules' signatures (private).

The rules of this package are registered on the types NumPy accepts for an array argument
(:data:`ARRAY_LIKE`: numbers, ndarrays, lists and tuples) and match optional parameters
given by position or by keyword. Two things that matching needs are kept here:

* :data:`REQUIRED`, the default of a parameter NumPy requires but accepts by keyword
  (``np.take(x, indices=[0])``), with :func:`require` raising NumPy's ``TypeError`` when it
  was really left out;
* :func:`reject_out`, the error for ``out=`` (a rule cannot differentiate a write into an
  array the caller holds).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from chainrules_core import reject_keywords

NUMBER_OR_ARRAY = (numbers.Number, np.ndarray)
"""Types of an array argument: ndarrays and Python/NumPy numbers."""

SEQUENCE = (list, tuple)
"""Types of a sequence-of-arrays argument (``np.concatenate([a, b])``)."""

ARRAY_LIKE = (numbers.Number, np.ndarray, list, tuple)
"""Types of an argument NumPy converts with ``np.asarray``."""


def is_sequence(x: Any) -> bool:
    """Whether ``x`` is a list or a plain tuple (not a namedtuple).

    Examples
    --------
    >>> from chainrules.rulesets.arrays._signatures import is_sequence
    >>> is_sequence([1.0]), is_sequence((1.0,)), is_sequence(1.0)
    (True, True, False)
    """
    return isinstance(x, SEQUENCE) and not hasattr(x, "_fields")


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
    >>> from chainrules.rulesets.arrays._signatures import REQUIRED, require
    >>> require("expand_dims", axis=0)
    >>> require("expand_dims", axis=REQUIRED)
    Traceback (most recent call last):
    ...
    TypeError: expand_dims() missing required argument 'axis'
    """
    for key, value in params.items():
        if value is REQUIRED:
            raise TypeError(f"{name}() missing required argument '{key}'")


def reject_out(f: Any, out: Any) -> None:
    """Raise :class:`~chainrules_core.UnsupportedKeywordError` when ``out=`` is given.

    A rule cannot differentiate a write into an array the caller holds.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays._signatures import reject_out
    >>> reject_out(np.take, np.zeros(2))
    Traceback (most recent call last):
    ...
    chainrules_core.scalar_rules.UnsupportedKeywordError: numpy.take: the keyword out= is not ...
    """
    if out is not None:
        reject_keywords(f, {"out": out}, ("out",))
