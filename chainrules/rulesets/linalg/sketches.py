"""Random sketches: ``scipy.linalg.clarkson_woodruff_transform(input_matrix, sketch_size, rng, seed=)``.

The Clarkson-Woodruff transform is ``S A`` for a random sparse ``S`` (``sketch_size x n``, one
entry ``+-1`` per column; Clarkson & Woodruff 2013, "Low rank approximation and regression
in input sparsity time"). For a fixed ``S`` it is linear in ``A``: ``dY = S dA`` and
``A_bar = S^T Y_bar``.

What is differentiated: the drawn sketch
----------------------------------------
``S`` is drawn from the random state, and the rules differentiate the output for the ``S``
that was drawn (the pathwise derivative, as for the samplers of
:mod:`~chainrules.rulesets.arrays.random`). They rebuild that ``S`` by calling SciPy's
function again, on a sparse identity, with the same random state:

* an integer or a ``SeedSequence`` (as ``rng=``, as ``seed=``, or positionally, which SciPy
  reads as the legacy ``seed``): the same arguments, passed the same way (SciPy draws the
  same sketch every time);
* a ``Generator``, ``RandomState`` or ``BitGenerator``: a copy taken *before* the primal
  call (the call advances the caller's generator as it always does, and the copy replays
  the draw);
* neither (``rng=None``, ``seed=None``): SciPy 1.17 draws from NumPy's global legacy state
  (``np.random.seed``); the rule snapshots it before the call and replays the draw from
  the snapshot, and checks that the replay consumed the global state exactly as the call
  did. If it did not (another thread drew in between, or a SciPy that draws from fresh OS
  entropy), the drawn sketch cannot be recovered and the derivatives are
  ``not_implemented``, never a derivative of another sketch.

``sketch_size`` and the random state get ``NoTangent()``. The output is float64 (or
complex128), whatever the input's precision; cotangents have the input's dtype. Leading
batch axes of ``input_matrix`` share one ``S``, as in SciPy.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg
import scipy.sparse

from chainrules.rulesets.linalg._utils import NO, tangent_value
from chainrules_core import (
    NotImplementedTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["drawn_sketch"]

_LOST = ("clarkson_woodruff_transform: the sketch was drawn from NumPy's global random state, which changed in a way "
         "the rule could not replay (another draw in between, or a SciPy drawing from fresh entropy); pass rng= "
         "(an integer or a Generator) to differentiate the transform")


def _same_state(a: Any, b: Any) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def drawn_sketch(input_matrix: np.ndarray, sketch_size: Any, *args: Any, **kwargs: Any
                 ) -> tuple[np.ndarray, Callable[[], Any]]:
    """The transform's output and a function giving the drawn sparse ``S`` (or a not-implemented tangent).

    ``args`` and ``kwargs`` are the random-state arguments as the caller passed them (SciPy
    reads a positional one as the legacy ``seed``, a keyword ``rng=`` as a ``Generator`` seed).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.sketches import drawn_sketch
    >>> a = np.arange(6.0).reshape(3, 2)
    >>> y, sketch = drawn_sketch(a, 2, rng=0)
    >>> bool(np.array_equal(sketch() @ a, y))
    True
    """
    given = [x for x in (*args, *kwargs.values()) if x is not None]
    if not given:
        state = np.random.get_state()
        y = scipy.linalg.clarkson_woodruff_transform(input_matrix, sketch_size, *args, **kwargs)
        after = np.random.get_state()

        def global_sketch() -> Any:
            replay = np.random.RandomState()
            replay.set_state(state)
            s = scipy.linalg.clarkson_woodruff_transform(_identity(input_matrix), sketch_size, seed=replay)
            return s if _same_state(replay.get_state(), after) else not_implemented(_LOST)

        return y, global_sketch
    source = copy.deepcopy((args, kwargs))       # before the call, which advances a generator
    y = scipy.linalg.clarkson_woodruff_transform(input_matrix, sketch_size, *args, **kwargs)

    def seeded_sketch() -> Any:
        replay_args, replay_kwargs = copy.deepcopy(source)
        return scipy.linalg.clarkson_woodruff_transform(_identity(input_matrix), sketch_size, *replay_args,
                                                        **replay_kwargs)

    return y, seeded_sketch


def _identity(input_matrix: np.ndarray) -> Any:
    return scipy.sparse.eye(np.shape(input_matrix)[-2], format="csr")


def _apply(s: Any, x: np.ndarray, transpose: bool = False) -> np.ndarray:
    """``S x`` (``S^T x``) over the second-to-last axis of a stack ``x``."""
    op = s.T if transpose else s
    moved = np.moveaxis(x, -2, 0)
    flat = moved.reshape(moved.shape[0], -1)
    out = np.asarray(op @ flat)
    return np.moveaxis(out.reshape((out.shape[0],) + moved.shape[1:]), 0, -2)


@rrule.register(scipy.linalg.clarkson_woodruff_transform, np.ndarray)
def clarkson_woodruff_transform_rrule(input_matrix: np.ndarray, sketch_size: Any, *args: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.linalg.clarkson_woodruff_transform``: ``A_bar = S^T Y_bar`` for the drawn ``S``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> a = np.arange(6.0).reshape(3, 2)
    >>> y, pullback = rrule(scipy.linalg.clarkson_woodruff_transform, a, 2, rng=0)
    >>> s = scipy.linalg.clarkson_woodruff_transform(np.eye(3), 2, rng=0)      # the same sketch
    >>> bool(np.array_equal(pullback(np.ones((2, 2)))[1], s.T @ np.ones((2, 2))))
    True
    """
    y, sketch = drawn_sketch(input_matrix, sketch_size, *args, **kwargs)
    project_a = cotangent_projector(input_matrix)
    rest = (NO,) * (1 + len(args))

    def clarkson_woodruff_transform_pullback(dy: Any) -> tuple[Any, ...]:
        g = read_cotangent(dy, y, "scipy.linalg.clarkson_woodruff_transform")
        if passes_through(g):
            return (NO, project_a(g), *rest)
        s = sketch()
        if isinstance(s, NotImplementedTangent):
            return (NO, s, *rest)
        return (NO, project_a(_apply(s, g, transpose=True)), *rest)

    return y, clarkson_woodruff_transform_pullback


@frule.register(scipy.linalg.clarkson_woodruff_transform, np.ndarray)
def clarkson_woodruff_transform_frule(tangents: Any, input_matrix: np.ndarray, sketch_size: Any, *args: Any,
                                      **kwargs: Any) -> Any:
    """Forward rule of ``scipy.linalg.clarkson_woodruff_transform``: ``dY = S dA`` for the drawn ``S``."""
    y, sketch = drawn_sketch(input_matrix, sketch_size, *args, **kwargs)
    da = tangent_value(tangents[1])
    if da is None or isinstance(da, NotImplementedTangent):
        return y, ZeroTangent() if da is None else da
    s = sketch()
    if isinstance(s, NotImplementedTangent):
        return y, s
    return y, ProjectTo(y)(_apply(s, da))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.clarkson_woodruff_transform)
def _sketch_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((6, 3))
    return [
        Sample(a, 3, fkwargs={"rng": 0}, label="rng=0 by keyword"),
        Sample(a, 4, 1, label="rng=1 by position"),
        Sample(a.astype(np.float32), 3, fkwargs={"rng": 2}, label="float32"),
        Sample(a + 1j * rng.standard_normal((6, 3)), 2, fkwargs={"rng": 3}, label="complex"),
        Sample(rng.standard_normal((2, 6, 3)), 3, fkwargs={"rng": 4}, label="stack (one sketch)"),
    ]
