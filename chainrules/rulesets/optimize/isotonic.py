"""Isotonic regression: ``scipy.optimize.isotonic_regression``.

The maths
---------
``isotonic_regression(y, weights=w)`` minimises ``sum_i w_i (x_i - y_i)^2`` over monotone ``x``.
The solution is constant on blocks ``B`` (``res.blocks``), where it is the weighted mean
``x_B = sum_{j in B} w_j y_j / W_B`` (``W_B = sum_{j in B} w_j``; the pool-adjacent-violators
algorithm, Barlow et al. 1972, "Statistical Inference under Order Restrictions", ch. 1). While
the blocks do not change, ``x`` is linear in ``y``: ``dx_i = sum_{j in B(i)} w_j dy_j / W_B``, and
the pullback spreads the block's summed cotangent back in proportion to the weights,
``y_bar_j = (w_j / W_B) sum_{i in B(j)} x_bar_i``. That is the projection onto the monotone cone
differentiated on the face the solution lies in.

The blocks are locally fixed when the solution is *strictly* on its face: adjacent blocks have
different values (else a small change of ``y`` may split them apart or merge them), and every
order constraint inside a block has a nonzero multiplier, ``lam_k = sum_{j <= k in B} w_j (y_j -
x_B)`` (``> 0`` for an increasing fit: else the block could split at ``k``). Where either is zero
(below ``1e-10`` of the data's scale) the fit is only one-sidedly differentiable:
:class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`. ``weights`` and ``increasing``
are keyword-only (constants); the output's ``weights`` (block weights) has a zero derivative and
``blocks`` none.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.optimize

from chainrules.rulesets.optimize._implicit import ImplicitDerivativeError, read_result_cotangent
from chainrules.rulesets.optimize.roots import result_tangent
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    frule,
    rrule,
    sample_inputs,
    unthunk,
)

__all__: list[str] = []

NO = NoTangent()
ZERO = ZeroTangent()
_NAME = "scipy.optimize.isotonic_regression"
_TIE = 1e-10


def _blocks(y: Any, res: Any, kwargs: dict[str, Any]) -> tuple[np.ndarray, list[slice]]:
    """The weights and the blocks, checked to be locally fixed."""
    values = np.asarray(y, dtype=np.float64).ravel()
    weights = kwargs.get("weights")
    w = np.ones_like(values) if weights is None else np.broadcast_to(np.asarray(weights, dtype=np.float64),
                                                                     values.shape)
    sign = 1.0 if kwargs.get("increasing", True) else -1.0
    edges = np.asarray(res.blocks)
    blocks = [slice(int(a), int(b)) for a, b in itertools.pairwise(edges)]
    scale = _TIE * max(1.0, float(np.max(np.abs(values), initial=0.0)))
    x = np.asarray(res.x, dtype=np.float64)
    for left, right in itertools.pairwise(blocks):
        if abs(x[right.start] - x[left.start]) <= scale:
            raise ImplicitDerivativeError(
                f"{_NAME}: the adjacent blocks ending at {left.stop - 1} and starting at {right.start} have the same "
                "value (a tie): the fit is only one-sidedly differentiable there")
    for block in blocks:
        lam = np.cumsum(w[block] * (values[block] - x[block.start]))[:-1] * sign
        if lam.size and np.min(lam) <= scale * float(np.sum(w[block])):
            k = block.start + int(np.argmin(lam))
            raise ImplicitDerivativeError(
                f"{_NAME}: the block {block.start}..{block.stop - 1} is pooled with a zero multiplier after index {k} "
                "(it could split there): the fit is only one-sidedly differentiable")
    return w, blocks


def _average(v: np.ndarray, w: np.ndarray, blocks: list[slice]) -> np.ndarray:
    """``sum_{j in B} w_j v_j / W_B`` on each block."""
    out = np.empty_like(v)
    for block in blocks:
        out[block] = np.sum(w[block] * v[block]) / np.sum(w[block])
    return out


def _spread(v: np.ndarray, w: np.ndarray, blocks: list[slice]) -> np.ndarray:
    """``(w_j / W_B) sum_{i in B} v_i``: the transpose of :func:`_average`."""
    out = np.empty_like(v)
    for block in blocks:
        out[block] = w[block] * np.sum(v[block]) / np.sum(w[block])
    return out


@rrule.register(scipy.optimize.isotonic_regression, object)
def isotonic_regression_rrule(y: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.isotonic_regression``: block sums spread back by the weights.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, Tangent
    >>> res, pullback = rrule(scipy.optimize.isotonic_regression, np.array([1.0, 3.0, 2.0, 4.0]))
    >>> res.x                                             # 3 and 2 pooled at their mean
    array([1. , 2.5, 2.5, 4. ])
    >>> pullback(Tangent(type(res), {"x": np.array([0.0, 1.0, 0.0, 0.0])}))[1]
    array([0. , 0.5, 0.5, 0. ])
    """
    res = scipy.optimize.isotonic_regression(y, **kwargs)
    project = ProjectTo(y)

    def isotonic_regression_pullback(dy: Any) -> tuple[Any, Any]:
        bars = read_result_cotangent(dy, res, ("x", "weights"), scipy.optimize.isotonic_regression)
        if isinstance(bars, NotImplementedTangent):
            return NO, bars
        if isinstance(bars, AbstractZero) or bars["x"] is None:
            return NO, ZERO
        w, blocks = _blocks(y, res, kwargs)
        xbar = np.asarray(unthunk(bars["x"]), dtype=np.float64).ravel()
        return NO, project(_spread(xbar, w, blocks).reshape(np.shape(y)))

    return res, isotonic_regression_pullback


@frule.register(scipy.optimize.isotonic_regression, object)
def isotonic_regression_frule(tangents: Any, y: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.isotonic_regression``: ``dx = `` the block means of ``dy``."""
    res = scipy.optimize.isotonic_regression(y, **kwargs)
    dy = unthunk(tangents[1]) if len(tangents) > 1 else ZERO
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return res, dy if isinstance(dy, NotImplementedTangent) else ZERO
    w, blocks = _blocks(y, res, kwargs)
    dx = _average(np.broadcast_to(np.asarray(dy, dtype=np.float64), np.shape(y)).ravel(), w, blocks)
    return res, result_tangent(res, {"x": dx, "weights": np.zeros_like(np.asarray(res.weights, dtype=np.float64))})


@sample_inputs(scipy.optimize.isotonic_regression)
def _isotonic_samples(rng: np.random.Generator) -> Iterator[Sample]:
    y = np.array([1.0, 3.0, 2.0, 4.0, 3.5, 5.0, 4.2, 4.0])
    yield Sample(y, label="pooled pairs and a triple")
    yield Sample(y, fkwargs={"weights": np.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 1.0, 2.0]), "increasing": False},
                 label="weighted, decreasing")
    yield Sample(y.astype(np.float32), label="float32")
