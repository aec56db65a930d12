"""Chains of matrix products: ``np.linalg.matrix_power`` (negative powers too) and ``np.linalg.multi_dot``.

Both compute a product of matrices in an order NumPy chooses; the rules record the same
products, in the same order (so the result is NumPy's, bit for bit), on a small tape and
differentiate them by the product rule: ``d(L R) = dL R + L dR`` forwards, ``dL += dC R^H``
and ``dR += L^H dC`` backwards.

The maths:

* ``matrix_power(A, n)``: NumPy computes ``A^n`` by repeated squaring (``O(log n)`` products,
  after ``inv(A)`` for ``n < 0``). Differentiating those products costs ``O(log n)`` products
  each way instead of the ``n`` terms of ``sum_i A^i dA A^(n-1-i)``. Negative powers add
  ``inv``'s rule, ``dA = -Y^H dY Y^H``. ``n = 0`` gives the identity, whose derivative is zero.
* ``multi_dot(arrays)``: NumPy multiplies in the cheapest order (dynamic programming on the
  chain's shapes, Cormen et al., "Introduction to Algorithms", 15.2); the rule uses the same
  order and differentiates the products of that tree, so its pullback costs about twice the
  primal. A 1-d first (last) array is a row (column), as in NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets._samples import well_conditioned
from chainrules.rulesets.linalg._utils import NO, mH, not_implemented_in, primal_error, tangent_parts, tangent_value
from chainrules.rulesets.linalg.inverses import inv_pullback_of, inv_pushforward_of
from chainrules_core import (
    ProjectTo,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    reject_keywords,
    rrule,
    sample_inputs,
)


# ---- products recorded as a tape -------------------------------------------------------------------------------
class _Products:
    """Values and the matrix products between them: ``values[k] = values[i] @ values[j]`` for each step ``(i, j)``."""

    def __init__(self, leaves: list[np.ndarray]) -> None:
        self.values: list[np.ndarray] = list(leaves)
        self.steps: list[tuple[int, int]] = []

    def multiply(self, i: int, j: int) -> int:
        self.values.append(self.values[i] @ self.values[j])
        self.steps.append((i, j))
        return len(self.values) - 1

    def pullback(self, out: int, dy: np.ndarray) -> list[Any]:
        """Cotangents of every value from that of ``values[out]`` (``None`` where none reaches)."""
        grads: list[Any] = [None] * len(self.values)
        grads[out] = dy
        first_step = len(self.values) - len(self.steps)
        for k in range(len(self.values) - 1, first_step - 1, -1):
            g = grads[k]
            if g is None:
                continue
            i, j = self.steps[k - first_step]
            left, right = g @ mH(self.values[j]), mH(self.values[i]) @ g
            grads[i] = left if grads[i] is None else grads[i] + left
            grads[j] = right if grads[j] is None else grads[j] + right
        return grads

    def pushforward(self, out: int, tangents: list[Any]) -> Any:
        """The tangent of ``values[out]`` from those of the leaves (``None`` for zero tangents)."""
        d: list[Any] = list(tangents) + [None] * len(self.steps)
        first_step = len(self.values) - len(self.steps)
        for step, (i, j) in enumerate(self.steps):
            terms = []
            if d[i] is not None:
                terms.append(d[i] @ self.values[j])
            if d[j] is not None:
                terms.append(self.values[i] @ d[j])
            if terms:
                d[first_step + step] = terms[0] if len(terms) == 1 else terms[0] + terms[1]
        return d[out]


# ---- matrix_power ------------------------------------------------------------------------------------------------
def _power_products(a: np.ndarray, n: int) -> tuple[_Products, int, np.ndarray | None]:
    """``(tape, index of the result, inv(a) or None)``, with NumPy's sequence of products."""
    inverse = None
    if n < 0:
        inverse = np.linalg.inv(a)
        base, n = inverse, -n
    else:
        base = a
    tape = _Products([base])
    if n <= 1:
        return tape, 0, inverse
    if n == 2:
        return tape, tape.multiply(0, 0), inverse
    if n == 3:
        return tape, tape.multiply(tape.multiply(0, 0), 0), inverse
    z = result = None
    while n > 0:
        z = 0 if z is None else tape.multiply(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else tape.multiply(result, z)
    assert result is not None
    return tape, result, inverse


def _valid_power(a: np.ndarray, n: Any) -> bool:
    return (isinstance(n, (int, np.integer)) and not isinstance(n, bool) and a.ndim >= 2
            and a.shape[-1] == a.shape[-2])


@rrule.register(np.linalg.matrix_power, np.ndarray, (int, np.integer))
def matrix_power_rrule(a: np.ndarray, n: Any = None) -> Any:
    """Reverse rule of ``np.linalg.matrix_power(A, n)``: the product rule through NumPy's repeated squaring.

    ``n`` is declared with a default only so that the spelling ``matrix_power(a, n=3)`` finds the rule.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.matrix_power, np.array([[2.0, 0.0], [0.0, 3.0]]), 3)
    >>> pullback(np.eye(2))[1]                              # 3 A^2
    array([[12.,  0.],
           [ 0., 27.]])
    """
    if not _valid_power(a, n):
        return primal_error(np.linalg.matrix_power, a, n)
    n = int(n)  # type: ignore[arg-type]
    project_a = cotangent_projector(a)
    if n == 0:
        y = np.linalg.matrix_power(a, 0)

        def matrix_power_zero_pullback(dy: Any) -> tuple[Any, Any, Any]:
            read_cotangent(dy, y, "numpy.linalg.matrix_power")
            return NO, project_a(ZeroTangent()), NO

        return y, matrix_power_zero_pullback
    tape, out, inverse = _power_products(a, n)
    y = a if n == 1 else tape.values[out]

    def matrix_power_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dy = read_cotangent(dy, y, "numpy.linalg.matrix_power")
        if passes_through(dy):
            return NO, project_a(dy), NO
        dbase = tape.pullback(out, dy)[0]
        if inverse is not None:
            dbase = inv_pullback_of(inverse, dbase)
        elif dbase is dy:  # n == 1: never hand back the caller's cotangent itself
            dbase = dy.copy()
        return NO, project_a(dbase), NO

    return y, matrix_power_pullback


@frule.register(np.linalg.matrix_power, np.ndarray, (int, np.integer))
def matrix_power_frule(tangents: Any, a: np.ndarray, n: Any = None) -> Any:
    """Forward rule of ``np.linalg.matrix_power(A, n)``: ``d(L R) = dL R + L dR`` through the same products.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2), NoTangent()), np.linalg.matrix_power, np.diag([2.0, 3.0]), 3)[1]
    array([[12.,  0.],
           [ 0., 27.]])
    """
    if not _valid_power(a, n):
        return primal_error(np.linalg.matrix_power, a, n)
    n = int(n)  # type: ignore[arg-type]
    da = tangent_value(tangents[1])
    if n == 0:
        return np.linalg.matrix_power(a, 0), ZeroTangent()
    tape, out, inverse = _power_products(a, n)
    y = a if n == 1 else tape.values[out]
    if da is None or passes_through(da):
        return y, ZeroTangent() if da is None else da
    dbase = da if inverse is None else inv_pushforward_of(inverse, da)
    dy = tape.pushforward(out, [dbase])
    return y, ProjectTo(y)(dy.copy() if dy is da else dy)


# ---- multi_dot ----------------------------------------------------------------------------------------------------
def _chain_order(shapes: list[tuple[int, int]]) -> list[list[int]]:
    """The split points of the cheapest parenthesization of a chain of matrices (NumPy's algorithm)."""
    n = len(shapes)
    p = [s[0] for s in shapes] + [shapes[-1][1]]
    cost = [[0.0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = np.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < cost[i][j]:
                    cost[i][j] = q
                    split[i][j] = k
    return split


def _multi_dot_products(arrays: list[np.ndarray]) -> tuple[_Products, int]:
    """The tape of ``multi_dot`` on 2-d arrays, in NumPy's order (``_multi_dot_three`` for three)."""
    tape = _Products(arrays)
    if len(arrays) == 2:
        return tape, tape.multiply(0, 1)
    if len(arrays) == 3:
        (a0, a1b0), (b1c0, c1) = arrays[0].shape, arrays[2].shape
        if a0 * b1c0 * (a1b0 + c1) < a1b0 * c1 * (a0 + b1c0):
            return tape, tape.multiply(tape.multiply(0, 1), 2)
        return tape, tape.multiply(0, tape.multiply(1, 2))
    split = _chain_order([a.shape for a in arrays])

    def build(i: int, j: int) -> int:
        if i == j:
            return i
        return tape.multiply(build(i, split[i][j]), build(split[i][j] + 1, j))

    return tape, build(0, len(arrays) - 1)


def _multi_dot_inputs(arrays: Any) -> list[np.ndarray] | None:
    """The arrays as NumPy's ``multi_dot`` sees them (2-d; 1-d ends as a row and a column), or ``None``."""
    if len(arrays) < 2 or not all(isinstance(a, np.ndarray) for a in arrays):
        return None
    matrices = list(arrays)
    if matrices[0].ndim == 1:
        matrices[0] = matrices[0][None, :]
    if matrices[-1].ndim == 1:
        matrices[-1] = matrices[-1][:, None]
    if any(m.ndim != 2 for m in matrices) or any(
            matrices[k].shape[1] != matrices[k + 1].shape[0] for k in range(len(matrices) - 1)):
        return None
    return matrices


def _multi_dot(arrays: Any, kwargs: dict[str, Any]) -> tuple[_Products, int, list[np.ndarray], Any] | None:
    """``(tape, index of the product, 2-d arrays, y)`` of ``multi_dot``; NumPy's error for input it rejects."""
    reject_keywords(np.linalg.multi_dot, kwargs, ("out",))
    matrices = _multi_dot_inputs(arrays)
    if matrices is None:
        return primal_error(np.linalg.multi_dot, arrays)
    tape, out = _multi_dot_products(matrices)
    result = tape.values[out]
    first, last = arrays[0].ndim == 1, arrays[-1].ndim == 1
    y = result[0, 0] if first and last else (result.ravel() if first or last else result)
    return tape, out, matrices, y


@rrule.register(np.linalg.multi_dot, (list, tuple))
def multi_dot_rrule(arrays: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``np.linalg.multi_dot(arrays)``: the product rule through NumPy's multiplication order.

    The cotangent of ``arrays`` is a ``Tangent`` of the list (or tuple), one entry per array.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> arrays = [np.array([1.0, 2.0]), np.eye(2), np.array([3.0, 4.0])]
    >>> y, pullback = rrule(np.linalg.multi_dot, arrays)
    >>> y, pullback(1.0)[1]
    (np.float64(11.0), Tangent(list, array([3., 4.]), array([[3., 4.],
           [6., 8.]]), array([1., 2.])))
    """
    computed = _multi_dot(arrays, kwargs)
    if computed is None:
        return None
    tape, out, _, y = computed
    result_shape = tape.values[out].shape
    projectors = [cotangent_projector(a) for a in arrays]

    def multi_dot_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, "numpy.linalg.multi_dot")
        if passes_through(dy):
            return NO, dy
        grads = tape.pullback(out, np.reshape(dy, result_shape))
        parts = [p(ZeroTangent() if g is None else g.reshape(a.shape))
                 for p, g, a in zip(projectors, grads, arrays)]
        return NO, Tangent(type(arrays), *parts)

    return y, multi_dot_pullback


@frule.register(np.linalg.multi_dot, (list, tuple))
def multi_dot_frule(tangents: Any, arrays: Any, **kwargs: Any) -> Any:
    """Forward rule of ``np.linalg.multi_dot``: ``d(L R) = dL R + L dR`` through the same products.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent, Tangent, ZeroTangent
    >>> arrays = [np.array([1.0, 2.0]), np.eye(2), np.array([3.0, 4.0])]
    >>> frule((NoTangent(), Tangent(list, ZeroTangent(), np.eye(2), ZeroTangent())), np.linalg.multi_dot, arrays)[1]
    11.0
    """
    computed = _multi_dot(arrays, kwargs)
    if computed is None:
        return None
    tape, out, matrices, y = computed
    parts = tangent_parts(tangents[1], [f"arrays[{i}]" for i in range(len(arrays))],
                          "numpy.linalg.multi_dot frule: tangent of arrays")
    missing = not_implemented_in(*parts)
    if missing is not None:
        return y, missing
    leaves = [None if p is None else np.reshape(p, m.shape) for p, m in zip(parts, matrices)]
    dy = tape.pushforward(out, leaves)
    if dy is None:
        return y, ZeroTangent()
    return y, ProjectTo(y)(np.reshape(dy, np.shape(y)))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.linalg.matrix_power)
def _matrix_power_samples(rng: np.random.Generator) -> list[Sample]:
    a = well_conditioned(3, rng)
    return [
        *(Sample(a, n, label=f"n={n}") for n in (0, 1, 2, 3, 5, -1, -3)),
        Sample(a.astype(np.float32), 4, label="float32"),
        Sample(well_conditioned(3, rng, np.complex128), 3, label="complex"),
        Sample(np.stack([a, well_conditioned(3, rng)]), 6, label="stack"),
        Sample(a, fkwargs={"n": 5}, label="n by keyword"),
    ]


@sample_inputs(np.linalg.multi_dot)
def _multi_dot_samples(rng: np.random.Generator) -> list[Sample]:
    def arrays(*shapes: tuple[int, ...], dtype: Any = np.float64) -> list[np.ndarray]:
        return [rng.standard_normal(s).astype(dtype) for s in shapes]

    return [
        Sample(arrays((3, 4), (4, 2)), label="two matrices"),
        Sample(arrays((2, 3), (3, 4), (4, 5), (5, 2)), label="four matrices (the cheapest order)"),
        Sample(arrays((3,), (3, 4), (4,)), label="1-d ends"),
        Sample(tuple(arrays((2, 3), (3, 3), (3,))), label="a tuple"),
        Sample(arrays((2, 3), (3, 2), dtype=np.float32), label="float32"),
        Sample([rng.standard_normal((2, 3)) + 1j, rng.standard_normal((3, 2))], label="complex"),
    ]
