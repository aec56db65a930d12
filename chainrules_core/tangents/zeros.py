"""The zero tangents: ``ZeroTangent()`` and ``NoTangent()``.

``ZeroTangent()`` is a tangent that happens to be zero: the output does not depend on
that input here. ``NoTangent()`` says the input has no tangent space at all (integers,
booleans, strings, indices, the function object of a plain function). Both behave as
zero in arithmetic; where they meet, ``NoTangent`` wins (it carries more information).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core.tangents.base import AbstractTangent


class AbstractZero(AbstractTangent):
    """Base class of the zero tangents; every instance acts as an additive zero.

    Indexing a zero, conjugating or transposing it, or summing it gives the same zero,
    so pullbacks can pass zeros through without special cases.

    Examples
    --------
    >>> from chainrules_core import ZeroTangent, NoTangent, AbstractZero
    >>> isinstance(NoTangent(), AbstractZero), bool(ZeroTangent())
    (True, False)
    >>> ZeroTangent()[3]
    ZeroTangent()
    """

    __slots__ = ()

    def __new__(cls) -> AbstractZero:
        # One instance per subclass, so `is` comparisons are valid.
        inst = cls.__dict__.get("_singleton")
        if inst is None:
            inst = super().__new__(cls)
            type.__setattr__(cls, "_singleton", inst)
        return inst

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __reduce__(self) -> Any:
        return (type(self), ())

    def __copy__(self) -> AbstractZero:
        return self

    def __deepcopy__(self, memo: Any) -> AbstractZero:
        return self

    def __getitem__(self, index: Any) -> AbstractZero:
        return self

    def __iter__(self) -> Any:
        # Without this, iteration would fall back on __getitem__ and never end.
        raise TypeError(f"{type(self).__name__}() is not iterable: a zero has no elements to unpack; "
                        "test for AbstractZero before unpacking a cotangent")

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # A zero seen as an array is the scalar 0 (it broadcasts against anything).
        return np.zeros((), dtype=dtype if dtype is not None else np.float64)

    def conj(self) -> AbstractZero:
        return self

    def conjugate(self) -> AbstractZero:
        return self

    def transpose(self, *axes: Any) -> AbstractZero:
        return self

    def reshape(self, *shape: Any, **kwargs: Any) -> AbstractZero:
        return self

    def sum(self, *args: Any, **kwargs: Any) -> AbstractZero:
        return self

    @property
    def T(self) -> AbstractZero:  # noqa: N802  (mirrors ndarray.T)
        return self

    @property
    def mT(self) -> AbstractZero:  # noqa: N802  (mirrors ndarray.mT)
        return self

    @property
    def real(self) -> AbstractZero:
        return self

    @property
    def imag(self) -> AbstractZero:
        return self

    def _other_ufunc(self, ufunc: Any, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # Linear ufuncs of a zero are that zero; anything else has no tangent meaning.
        if method == "__call__" and ufunc in (np.real, np.imag, np.conj) and len(inputs) == 1:
            return self
        return NotImplemented


class ZeroTangent(AbstractZero):
    """The tangent that is zero: the output does not change when this input does.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ZeroTangent
    >>> ZeroTangent() is ZeroTangent()
    True
    >>> np.array([1.0, 2.0]) + ZeroTangent()
    array([1., 2.])
    >>> 3.0 * ZeroTangent()
    ZeroTangent()
    """

    __slots__ = ()


class NoTangent(AbstractZero):
    """The tangent of a value that has no tangent space (integers, flags, the function).

    Pullbacks return it for integer, boolean and index arguments and for the function
    object of a plain function.

    Examples
    --------
    >>> from chainrules_core import NoTangent, ZeroTangent
    >>> NoTangent() + ZeroTangent()
    NoTangent()
    >>> NoTangent() + 2.0
    2.0
    """

    __slots__ = ()


def iszero(x: Any) -> bool:
    """Return whether ``x`` is one of the zero tangents (``ZeroTangent`` or ``NoTangent``).

    Examples
    --------
    >>> from chainrules_core import iszero, ZeroTangent
    >>> iszero(ZeroTangent()), iszero(0.0)
    (True, False)
    """
    return isinstance(x, AbstractZero)
