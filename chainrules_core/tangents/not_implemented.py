"""``not_implemented``: the honest answer for a derivative nobody has written yet.

A rule returns ``not_implemented("reason")`` in place of a cotangent it cannot compute,
never a silent zero. The tangent remembers the message and where it was created. In
arithmetic it wins ``+`` (a sum containing an unknown term is unknown) and loses ``*``
against the zeros (a zero times anything is zero).
"""

from __future__ import annotations

import sys
from typing import Any

from chainrules_core.tangents.base import AbstractTangent


class NotImplementedTangent(AbstractTangent):
    """A cotangent that has not been implemented; see :func:`not_implemented`.

    Attributes
    ----------
    info : str
        Why it is not implemented.
    location : str
        ``file:line (function)`` where :func:`not_implemented` was called.

    Examples
    --------
    >>> from chainrules_core import not_implemented, ZeroTangent
    >>> t = not_implemented("derivative with respect to the order")
    >>> t + 1.0 is t, ZeroTangent() * t
    (True, ZeroTangent())
    """

    __slots__ = ("info", "location")

    _storable = False  # `acc += not_implemented(...)` gives the tangent, not an array

    def __init__(self, info: str, location: str = "<unknown>") -> None:
        self.info = str(info)
        self.location = location

    def __repr__(self) -> str:
        return f"NotImplementedTangent({self.info!r}, at {self.location})"

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise TypeError(f"cannot use a not-implemented tangent as an array: {self.info} "
                        f"(created at {self.location})")

    def __getitem__(self, index: Any) -> NotImplementedTangent:
        return self

    def conj(self) -> NotImplementedTangent:
        return self

    @property
    def T(self) -> NotImplementedTangent:  # noqa: N802  (mirrors ndarray.T)
        return self

    @property
    def real(self) -> NotImplementedTangent:
        return self

    @property
    def imag(self) -> NotImplementedTangent:
        return self

    def _other_ufunc(self, ufunc: Any, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return self


def not_implemented(info: str) -> NotImplementedTangent:
    """Return a tangent that marks a derivative nobody has written yet.

    Parameters
    ----------
    info : str
        Why it is missing (shown in error messages and by the testers).

    Returns
    -------
    NotImplementedTangent
        Records ``info`` and the caller's file, line and function.

    Examples
    --------
    >>> from chainrules_core import not_implemented
    >>> t = not_implemented("d/dnu of the Bessel function")
    >>> t.info
    'd/dnu of the Bessel function'
    """
    frame = sys._getframe(1)
    code = frame.f_code
    location = f"{code.co_filename}:{frame.f_lineno} ({code.co_name})"
    return NotImplementedTangent(info, location)
