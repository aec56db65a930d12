"""The ``numpy.linalg`` spellings of NumPy functions: ``matmul``, ``outer``, ``trace``, ``cross``, ``vecdot``
and ``tensordot``.

Each computes what its NumPy counterpart computes (``np.matmul``, ``np.outer``, ``np.trace``
on the last two axes, ``np.cross``, ``np.vecdot``, ``np.tensordot``), so its rules are those
of the counterpart, looked up in the registry at call time (the output cotangent is read
here first, so that a bad one gets an error naming the ``numpy.linalg`` function). Input the
``numpy.linalg`` function rejects (``outer`` of 2-d arrays, ``cross`` of 2-vectors) gets its
own error.
(``np.linalg.diagonal`` and ``np.linalg.matrix_transpose`` have their rules with the array
functions, in ``chainrules.rulesets.arrays``.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.linalg._utils import primal_error
from chainrules_core import Sample, frule, read_cotangent, rrule, sample_inputs


# ---- the numpy.linalg spellings --------------------------------------------------------------------------------------
def _alias(f: Callable[..., Any], counterpart: Callable[..., Any], types: tuple[Any, ...],
           keywords: Callable[[dict[str, Any]], dict[str, Any]],
           accepts: Callable[..., bool] | None = None) -> None:
    """Register rules for ``f`` that run the rules of ``counterpart``, which computes the same thing."""
    name = f.__name__

    def linalg_alias_rrule(*args: Any, **kwargs: Any) -> Any:
        if accepts is not None and not accepts(*args, **kwargs):
            return primal_error(f, *args, **kwargs)
        result = rrule(counterpart, *args, **keywords(kwargs))
        if result is None:
            return None
        y, counterpart_pullback = result

        def linalg_alias_pullback(dy: Any) -> tuple[Any, ...]:
            return counterpart_pullback(read_cotangent(dy, y, f"numpy.linalg.{name}"))

        linalg_alias_pullback.__name__ = linalg_alias_pullback.__qualname__ = f"{name}_pullback"
        return y, linalg_alias_pullback

    def linalg_alias_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        if accepts is not None and not accepts(*args, **kwargs):
            return primal_error(f, *args, **kwargs)
        return frule(tangents, counterpart, *args, **keywords(kwargs))

    linalg_alias_rrule.__name__ = linalg_alias_rrule.__qualname__ = f"linalg_{name}_rrule"
    linalg_alias_frule.__name__ = linalg_alias_frule.__qualname__ = f"linalg_{name}_frule"
    rrule.register(f, *types)(linalg_alias_rrule)
    frule.register(f, *types)(linalg_alias_frule)


def _same(kwargs: dict[str, Any]) -> dict[str, Any]:
    return kwargs


def _last_two_axes(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {**kwargs, "axis1": -2, "axis2": -1}


def _three_vectors(x1: np.ndarray, x2: np.ndarray, axis: int = -1) -> bool:
    try:
        return x1.shape[axis] == 3 and x2.shape[axis] == 3
    except IndexError:
        return False


_ARRAYS = (np.ndarray, np.ndarray)
_alias(np.linalg.matmul, np.matmul, _ARRAYS, _same)
_alias(np.linalg.outer, np.outer, _ARRAYS, _same, lambda x1, x2: x1.ndim == 1 and x2.ndim == 1)
_alias(np.linalg.trace, np.trace, (np.ndarray,), _last_two_axes, lambda x, **kw: x.ndim >= 2)
_alias(np.linalg.cross, np.cross, _ARRAYS, _same, lambda x1, x2, axis=-1: _three_vectors(x1, x2, axis))
_alias(np.linalg.vecdot, np.vecdot, _ARRAYS, _same)
_alias(np.linalg.tensordot, np.tensordot, _ARRAYS, _same)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.linalg.matmul)
def _matmul_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((2, 3, 4)), rng.standard_normal((4, 2)), label="stack times matrix"),
        Sample(rng.standard_normal(3), rng.standard_normal((2, 3, 4)), label="vector times stack"),
        Sample(rng.standard_normal((2, 3)).astype(np.float32), rng.standard_normal((3, 2)).astype(np.float32),
               label="float32"),
        Sample(rng.standard_normal((2, 3)) + 1j, rng.standard_normal(3), label="complex"),
    ]


@sample_inputs(np.linalg.outer)
def _outer_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal(3), rng.standard_normal(4), label="real"),
        Sample(rng.standard_normal(3) + 1j, rng.standard_normal(2).astype(np.float32), label="complex, float32"),
    ]


@sample_inputs(np.linalg.trace)
def _trace_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((2, 3, 4)), label="stack"),
        Sample(rng.standard_normal((3, 4)), fkwargs={"offset": 1}, label="offset=1"),
        Sample(rng.standard_normal((3, 3)) + 1j, fkwargs={"offset": -1, "dtype": np.complex128},
               label="complex, offset=-1"),
    ]


@sample_inputs(np.linalg.cross)
def _cross_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((2, 3)), rng.standard_normal(3), label="broadcast"),
        Sample(rng.standard_normal((3, 2)), rng.standard_normal((3, 2)), fkwargs={"axis": 0}, label="axis=0"),
        Sample(rng.standard_normal(3) + 1j, rng.standard_normal(3), label="complex"),
    ]


@sample_inputs(np.linalg.vecdot)
def _vecdot_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((2, 3)), rng.standard_normal(3), label="broadcast"),
        Sample(rng.standard_normal((3, 2)), rng.standard_normal((3, 2)), fkwargs={"axis": 0}, label="axis=0"),
        Sample(rng.standard_normal(3) + 1j, rng.standard_normal(3) - 2j, label="complex (x1 conjugated)"),
    ]


@sample_inputs(np.linalg.tensordot)
def _tensordot_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 4, 2)), label="two axes (default)"),
        Sample(rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), fkwargs={"axes": 1}, label="axes=1"),
        Sample(rng.standard_normal((2, 3)) + 1j, rng.standard_normal((2, 3)), fkwargs={"axes": ([0, 1], [0, 1])},
               label="complex, explicit axes"),
    ]
