"""``rand_tangent``: a random tangent of a primal, in the primal's tangent space."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from chainrules.testing.tree import _node_for, tree_flatten
from chainrules_core import NoTangent, ProjectTo, Tangent

_DEFAULT_RNG = np.random.default_rng(20261122)


def _rng(rng: Any) -> np.random.Generator:
    if rng is None:
        return _DEFAULT_RNG
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)


def _normal(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


@functools.singledispatch
def _rand(x: Any, rng: np.random.Generator) -> Any:
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        fields = {f.name: rand_tangent(getattr(x, f.name), rng) for f in dataclasses.fields(x)}
        return _structural(type(x), fields)
    if _node_for(type(x)) is not None:  # a registered structured type: random free parameters
        leaves, treedef = tree_flatten(x)
        return treedef.unflatten_tangent([_rand(leaf, rng) for leaf in leaves])
    return NoTangent()


def _structural(P: type, fields: dict[str, Any] | tuple[Any, ...]) -> Any:
    values = fields.values() if isinstance(fields, dict) else fields
    if all(isinstance(v, NoTangent) for v in values):
        return NoTangent()
    if isinstance(fields, dict):
        return Tangent(P, **fields) if not issubclass(P, dict) else Tangent(P, fields)
    return Tangent(P, *fields)


@_rand.register(float)
def _rand_float(x: float, rng: np.random.Generator) -> float:
    return float(rng.standard_normal())


@_rand.register(complex)
def _rand_complex(x: complex, rng: np.random.Generator) -> complex:
    return complex(rng.standard_normal(), rng.standard_normal())


@_rand.register(np.generic)
def _rand_numpy_scalar(x: np.generic, rng: np.random.Generator) -> Any:
    if x.dtype.kind not in "fc":
        return NoTangent()
    return _normal(rng, (), x.dtype)[()]


@_rand.register(np.ndarray)
def _rand_array(x: np.ndarray, rng: np.random.Generator) -> Any:
    if x.dtype.kind not in "fc":
        return NoTangent()
    return _normal(rng, x.shape, x.dtype)


@_rand.register(tuple)
@_rand.register(list)
def _rand_sequence(x: Any, rng: np.random.Generator) -> Any:
    if hasattr(x, "_fields"):
        return _structural(type(x), {n: rand_tangent(v, rng) for n, v in zip(x._fields, x)})
    return _structural(type(x), tuple(rand_tangent(v, rng) for v in x))


@_rand.register(dict)
def _rand_dict(x: dict, rng: np.random.Generator) -> Any:
    return _structural(type(x), {k: rand_tangent(v, rng) for k, v in x.items()})


for _t in (bool, int, str, bytes, type(None)):
    _rand.register(_t, lambda x, rng: NoTangent())


def rand_tangent(x: Any, rng: Any = None) -> Any:
    """Return a random tangent of ``x``, in the space ``ProjectTo(x)`` describes.

    Floats give standard-normal values of the same dtype; complex values get random real
    and imaginary parts; integers, booleans, strings and ``None`` give ``NoTangent()``;
    tuples, lists, dicts, namedtuples and dataclasses give a ``Tangent`` (``NoTangent()``
    when no part is differentiable); structured matrices and sparse arrays get random
    values of their free parameters only.

    Parameters
    ----------
    x : Any
        The primal.
    rng : numpy.random.Generator, int or None
        Source of randomness (``None``: the testers' own seeded generator).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import rand_tangent
    >>> rand_tangent(np.zeros(3, dtype=np.float32)).dtype
    dtype('float32')
    >>> rand_tangent(3)
    NoTangent()
    >>> type(rand_tangent((1.0, "label"))).__name__
    'Tangent'
    """
    value = _rand(x, _rng(rng))
    return ProjectTo(x)(value) if not isinstance(value, NoTangent) else value


rand_tangent.register = _rand.register  # type: ignore[attr-defined]
