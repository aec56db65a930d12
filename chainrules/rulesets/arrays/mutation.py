"""In-place array operations: a clear error instead of a rule that pretends to be functional.

``x.sort()``, ``x.partition(kth)``, ``x.fill(v)``, ``x.put(...)``, ``x.resize(...)``,
``x.setfield(...)``, ``x[i] = v`` (``ndarray.__setitem__``), and the NumPy functions that
write into their first argument: ``np.put``, ``np.place``, ``np.putmask``, ``np.copyto``,
``np.fill_diagonal``, ``np.put_along_axis``. They return ``None`` and change an array a
caller holds; a pullback cannot send a cotangent back to the value the array had
*before* the call (it no longer exists), and pretending the call was functional would
give wrong derivatives. So their rules raise :class:`InPlaceOperationError`, naming the
operation and its functional replacement (``np.sort(x)``, ``np.partition(x, kth)``,
``np.full_like(x, v)``, ``np.where(mask, v, x)``, ...), which have rules.

An AD system that asks for a rule (``rrule.find``) sees one; calling it raises. Coverage
reports list these functions as "in-place (error)".

Examples
--------
>>> import numpy as np
>>> from chainrules import rrule
>>> x = np.array([2.0, 1.0])
>>> rrule(x.sort)
Traceback (most recent call last):
...
chainrules.rulesets.arrays.mutation.InPlaceOperationError: ndarray.sort sorts its array in place; use np.sort(...
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from chainrules_core import Sample, Varargs, frule, rrule, sample_inputs


class InPlaceOperationError(TypeError):
    """A rule was asked for an operation that writes into an array instead of returning one."""


IN_PLACE: dict[Any, tuple[str, str]] = {
    np.ndarray.sort: ("ndarray.sort", "sorts its array in place; use np.sort(x, axis) (it has rules)"),
    np.ndarray.partition: ("ndarray.partition",
                           "partitions its array in place; use np.partition(x, kth, axis) (it has rules)"),
    np.ndarray.fill: ("ndarray.fill", "fills its array in place; use np.full_like(x, value) (it has rules)"),
    np.ndarray.put: ("ndarray.put", "writes into its array in place; build the result with np.where or "
                                    "np.concatenate, or index into a new array"),
    np.ndarray.resize: ("ndarray.resize", "resizes its array in place; use np.resize(x, shape) (it has rules)"),
    np.ndarray.setfield: ("ndarray.setfield", "writes into its array in place"),
    np.ndarray.__setitem__: ("x[index] = value", "writes into the array in place; build the result functionally, "
                                                 "e.g. np.where(mask, value, x) or np.concatenate of pieces"),
    np.put: ("np.put", "writes into its first argument in place; use np.where or indexing into a new array"),
    np.place: ("np.place", "writes into its first argument in place; use np.where(mask, values, x)"),
    np.putmask: ("np.putmask", "writes into its first argument in place; use np.where(mask, values, x)"),
    np.copyto: ("np.copyto", "writes into its first argument in place; use np.where(where, src, dst)"),
    np.fill_diagonal: ("np.fill_diagonal", "writes into its first argument in place"),
    np.put_along_axis: ("np.put_along_axis", "writes into its first argument in place"),
}
"""Each in-place operation, by the callable rules are looked up on: its name and the advice given."""


def _register_in_place(f: Any, name: str, advice: str) -> None:
    message = f"{name} {advice}: a derivative rule cannot differentiate a write into an existing array"

    def in_place_rrule(*args: Any, **kwargs: Any) -> Any:
        raise InPlaceOperationError(message)

    def in_place_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        raise InPlaceOperationError(message)

    in_place_rrule.__doc__ = in_place_frule.__doc__ = message
    in_place_rrule.__qualname__ = f"{name}_rrule"
    in_place_frule.__qualname__ = f"{name}_frule"
    rrule.register(f, Varargs(object))(in_place_rrule)
    frule.register(f, Varargs(object))(in_place_frule)


for _f, (_name, _advice) in IN_PLACE.items():
    _register_in_place(_f, _name, _advice)


@sample_inputs(*IN_PLACE)
def _in_place_samples() -> Iterator[Sample]:
    """No sample: the rule of an in-place operation raises, there is no derivative to check.

    The generator is declared so that the checker sees these functions as handled (an error
    by design, not a missing rule); ``tests/chainrules/rulesets/arrays/test_non_differentiable.py``
    checks that each raises :class:`InPlaceOperationError` naming its functional replacement.
    """
    return iter(())
