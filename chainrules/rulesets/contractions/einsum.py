"""``np.einsum`` with any subscripts: explicit (``'ij,jk->ik'``) and implicit (``'ij,jk'``)
output, ellipsis broadcasting (``'...ij,...jk->...ik'``), repeated indices within an operand
(diagonals, ``'ii->i'``, ``'iij->j'``), indices summed out, single-operand traces and
transposes, and the interleaved form ``np.einsum(a, [0, 1], b, [1, 2], [0, 2])``.

The maths
---------
``einsum`` is multilinear: the output is linear in each operand with the others fixed.
The cotangent of operand ``k`` is therefore another einsum, of the output cotangent with
the *conjugates* of the other operands, whose output subscripts are operand ``k``'s own
(for ``'ij,jk->ik'``: ``da = einsum('ik,jk->ij', dy, conj(b))``). Three cases need more
than that one einsum:

* an index of operand ``k`` that appears nowhere else (summed out in the forward pass,
  ``'ij->i'``) cannot be an output index of the cotangent einsum; the cotangent is
  constant along it, so it is broadcast back (``np.broadcast_to``, no copy);
* an index repeated within operand ``k`` (a diagonal, ``'ii->i'``) cannot be repeated in an
  einsum output either; the einsum gives the values on the diagonal, and they are written
  into a zero array through a strided view of its diagonal (a scatter, off-diagonal
  entries get zero);
* an axis of length one that einsum broadcast against a longer axis of another operand is
  summed in the cotangent einsum (the index is left out of its output) and the unit axis is
  put back.

The forward rule is ``sum_k einsum(subscripts, a_1, ..., da_k, ..., a_n)``.

Keywords: ``optimize=`` is passed through to the primal and to every einsum of the rules
(an explicit contraction path from ``np.einsum_path`` describes the primal's operands
only, so the derivatives use ``'greedy'`` instead; the derivatives' paths depend on the shapes
only and are cached); ``dtype=``, ``order=`` and
``casting=`` go to the primal (cotangents are projected onto each operand); ``out=``
raises :class:`~chainrules_core.UnsupportedKeywordError`.
"""

from __future__ import annotations

import functools
import string
from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.lib.stride_tricks import as_strided

from chainrules.rulesets.contractions._multilinear import lazy_cotangent, sum_tangents
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NUMERIC,
    NoTangent,
    ProjectTo,
    Sample,
    Thunk,
    Varargs,
    cotangent_projector,
    frule,
    non_differentiable,
    passes_through,
    read_cotangent,
    reject_keywords,
    rrule,
    sample_inputs,
)
from chainrules_core.scalar_rules import conj_if_complex

# NumPy's labels: the interleaved form maps 0..25 to 'A'..'Z' and 26..51 to 'a'..'z'.
_LABELS = string.ascii_uppercase + string.ascii_lowercase


class EinsumSpec(NamedTuple):
    """Subscripts with every ellipsis replaced by letters and the output made explicit."""

    inputs: tuple[str, ...]
    output: str
    sizes: dict[str, int]
    """The size of every index after broadcasting (1 only if it is 1 in every operand)."""

    def subscripts(self) -> str:
        return ",".join(self.inputs) + "->" + self.output


def parse_subscripts(subscripts: str, shapes: Sequence[tuple[int, ...]]) -> EinsumSpec:
    """Make einsum subscripts explicit for operands of the given shapes.

    Each ``...`` becomes letters the subscripts do not use (right-aligned, as NumPy
    broadcasts ellipsis dimensions); an implicit output becomes the ellipsis letters
    followed by the indices that appear exactly once, in NumPy's (ASCII) order.

    Examples
    --------
    >>> parse_subscripts("ij,jk", [(2, 3), (3, 4)]).subscripts()
    'ij,jk->ik'
    >>> parse_subscripts("...ij,j->...i", [(5, 2, 3), (3,)]).subscripts()
    'Aij,j->Ai'
    >>> parse_subscripts("ba,c", [(2, 3), (4,)]).output
    'abc'
    """
    text = subscripts.replace(" ", "")
    lhs, arrow, rhs = text.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"np.einsum: {len(terms)} operand subscripts for {len(shapes)} operands")
    unused = [c for c in _LABELS if c not in text]
    ellipsis_ndims = [len(shape) - len(term.replace("...", "")) if "..." in term else 0
                      for term, shape in zip(terms, shapes)]
    n_ellipsis = max(ellipsis_ndims, default=0)
    ellipsis = "".join(unused[:n_ellipsis])
    inputs = tuple(term.replace("...", ellipsis[n_ellipsis - e:]) for term, e in zip(terms, ellipsis_ndims))
    if arrow:
        output = rhs.replace("...", ellipsis)
    else:
        counts = Counter("".join(terms).replace("...", ""))
        output = ellipsis + "".join(sorted(c for c, n in counts.items() if n == 1))
    sizes: dict[str, int] = {}
    for term, shape in zip(inputs, shapes):
        for c, n in zip(term, shape):
            sizes[c] = max(sizes.get(c, 1), n)
    return EinsumSpec(inputs, output, sizes)


def _interleaved_subscripts(args: Sequence[Any]) -> tuple[str, list[int]]:
    """Subscripts of the interleaved form ``(op0, sublist0, op1, sublist1, ..., [output])``.

    Returns the subscripts and the positions of the operands in ``args``.
    """

    def term(sublist: Any) -> str:
        return "".join("..." if s is Ellipsis else _LABELS[int(s)] for s in sublist)

    n_ops = len(args) // 2
    terms = [term(args[2 * i + 1]) for i in range(n_ops)]
    subscripts = ",".join(terms)
    if len(args) % 2:
        subscripts += "->" + term(args[-1])
    return subscripts, [2 * i for i in range(n_ops)]


def _derivative_optimize(optimize: Any) -> Any:
    """``optimize`` for the derivative einsums: an explicit path fits only the primal."""
    if isinstance(optimize, (list, tuple)):
        return "greedy"
    return optimize


@functools.lru_cache(maxsize=512)
def _contraction_path(subscripts: str, shapes: tuple[tuple[int, ...], ...], optimize: Any) -> Any:
    """NumPy's contraction path for these shapes, computed once (it depends on the shapes only)."""
    placeholders = [np.broadcast_to(0.0, shape) for shape in shapes]  # no memory behind them
    path, _ = np.einsum_path(subscripts, *placeholders, optimize=optimize)
    return path


def _einsum(subscripts: str, values: Sequence[Any], optimize: Any) -> Any:
    """``np.einsum`` with the contraction path of ``optimize`` looked up in a cache."""
    if optimize is False or len(values) < 3 or not isinstance(optimize, (bool, str)):
        return np.einsum(subscripts, *values, optimize=optimize)
    path = _contraction_path(subscripts, tuple(np.shape(v) for v in values), optimize)
    return np.einsum(subscripts, *values, optimize=path)


def _scatter_diagonal(values: np.ndarray, term: str, unique: str, shape: tuple[int, ...]) -> np.ndarray:
    """A zero array of ``shape`` whose generalised diagonal (``term`` -> ``unique``) holds ``values``."""
    out = np.zeros(shape, dtype=values.dtype)
    strides = tuple(sum(out.strides[p] for p, c in enumerate(term) if c == u) for u in unique)
    diagonal = as_strided(out, shape=values.shape, strides=strides, writeable=True)
    diagonal[...] = values
    return out


def einsum_cotangent(spec: EinsumSpec, operands: Sequence[Any], k: int, dy: np.ndarray,
                     optimize: Any = False) -> np.ndarray:
    """The cotangent of operand ``k`` (not projected): one einsum of ``dy`` with the conjugated others.

    Examples
    --------
    >>> a, b = np.arange(6.0).reshape(2, 3), np.ones((3, 2))
    >>> spec = parse_subscripts("ij,jk->ik", [a.shape, b.shape])
    >>> einsum_cotangent(spec, [a, b], 0, np.ones((2, 2)))          # dy @ b.T
    array([[2., 2., 2.],
           [2., 2., 2.]])
    >>> spec = parse_subscripts("ii->i", [(2, 2)])
    >>> einsum_cotangent(spec, [np.ones((2, 2))], 0, np.array([1.0, 2.0]))
    array([[1., 0.],
           [0., 2.]])
    """
    term = spec.inputs[k]
    shape = np.shape(operands[k])
    own_size = {c: n for c, n in zip(term, shape)}
    unique = "".join(dict.fromkeys(term))
    elsewhere = set(spec.output).union(*(spec.inputs[j] for j in range(len(operands)) if j != k))
    # indices the cotangent einsum can produce; an axis of length one that was broadcast is summed
    target = "".join(c for c in unique if c in elsewhere and not (own_size[c] == 1 and spec.sizes[c] != 1))
    terms = [spec.output] + [spec.inputs[j] for j in range(len(operands)) if j != k]
    values = [dy] + [conj_if_complex(np.asarray(operands[j])) for j in range(len(operands)) if j != k]
    result = _einsum(",".join(terms) + "->" + target, values, optimize)
    result_size = dict(zip(target, np.shape(result)))
    result = np.reshape(result, [result_size.get(c, 1) for c in unique])
    result = np.broadcast_to(result, [own_size[c] for c in unique])
    if len(unique) == len(term):
        return result
    return _scatter_diagonal(result, term, unique, shape)


def _einsum_rule_parts(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[EinsumSpec, list[int], Any]:
    """Parse a call: the explicit spec, the positions of the operands in ``args``, ``optimize``."""
    if isinstance(args[0], str):
        subscripts, positions = args[0], list(range(1, len(args)))
    else:
        subscripts, positions = _interleaved_subscripts(args)
    shapes = [np.shape(args[i]) for i in positions]
    return parse_subscripts(subscripts, shapes), positions, kwargs.get("optimize", False)


@rrule.register(np.einsum, str, Varargs(NUMERIC))
@rrule.register(np.einsum, np.ndarray, Varargs(object))
def einsum_rrule(*args: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``np.einsum``: each operand's cotangent is one einsum (see the module docstring).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> a, b = np.arange(6.0).reshape(2, 3), np.ones((3, 2))
    >>> y, pullback = rrule(np.einsum, "ij,jk->ik", a, b)
    >>> unthunk(pullback(np.ones((2, 2)))[3])
    array([[3., 3.],
           [5., 5.],
           [7., 7.]])
    """
    reject_keywords(np.einsum, kwargs, ("out",))
    y = np.einsum(*args, **kwargs)
    spec, positions, optimize = _einsum_rule_parts(args, kwargs)
    operands = [args[i] for i in positions]
    projectors = [cotangent_projector(x) for x in operands]
    derivative_optimize = _derivative_optimize(optimize)

    def einsum_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.einsum)
        cotangents: list[Any] = [NoTangent()] * len(args)
        if passes_through(dy):
            zero = passed_on(dy)
            for k, i in enumerate(positions):
                cotangents[i] = projectors[k](zero)
            return (NoTangent(), *cotangents)
        dy = np.asarray(dy)

        def cotangent(k: int) -> Thunk:
            return lazy_cotangent(projectors[k], lambda: einsum_cotangent(spec, operands, k, dy, derivative_optimize))

        for k, i in enumerate(positions):
            cotangents[i] = cotangent(k)
        return (NoTangent(), *cotangents)

    return y, einsum_pullback


@frule.register(np.einsum, str, Varargs(NUMERIC))
@frule.register(np.einsum, np.ndarray, Varargs(object))
def einsum_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
    """Forward rule of ``np.einsum``: the sum over operands of the einsum with that operand's tangent.

    Examples
    --------
    >>> a, b = np.eye(2), np.ones((2, 2))
    >>> frule((NoTangent(), NoTangent(), a, np.zeros((2, 2))), np.einsum, "ij,jk->ik", a, b)[1]
    array([[1., 1.],
           [1., 1.]])
    """
    reject_keywords(np.einsum, kwargs, ("out",))
    y = np.einsum(*args, **kwargs)
    spec, positions, optimize = _einsum_rule_parts(args, kwargs)
    subscripts = spec.subscripts()
    operands = [args[i] for i in positions]
    derivative_optimize = _derivative_optimize(optimize)
    terms = []
    for k, i in enumerate(positions):
        dx = tangent_value(tangents[i + 1])
        if dx is None:
            continue
        replaced = operands[:k] + [dx] + operands[k + 1:]
        terms.append(_einsum(subscripts, replaced, derivative_optimize))
    return y, sum_tangents(terms, ProjectTo(y))


non_differentiable(np.einsum_path)  # a contraction plan (and its report), not a number


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.einsum)
def _einsum_samples(rng: np.random.Generator) -> list[Sample]:
    def r(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    a, b = r(2, 3), r(3, 4)
    return [Sample("ij,jk->ik", a, b, label="a matrix product"), Sample("ij,jk", a, b, label="implicit output"),
            Sample("ij->j", a, label="an index summed out (broadcast back)"),
            Sample("ii->i", r(3, 3), label="a diagonal (scattered into zeros)"),
            Sample("iji->j", r(2, 3, 2), label="a repeated index, not adjacent"),
            Sample("ijk,jl,lk->i", r(2, 3, 2), r(3, 2), r(2, 2), fkwargs={"optimize": "greedy"},
                   label="three operands, optimize="),
            Sample("...ij,...jk->...ik", r(2, 2, 3), b, label="ellipsis, broadcast batch"),
            Sample("i,i->i", r(1), r(3), label="a broadcast length-1 index"),
            Sample(",i->i", 2.5, r(3), label="a scalar operand"),
            Sample(a, [0, 1], b, [1, 2], [0, 2], label="the interleaved form"),
            Sample("ij,jk->ik", a.astype(np.float32), b.astype(np.float32), label="float32"),
            Sample("ij,jk->ik", a + 1j * r(2, 3), b, label="complex and real"),
            # a float32 output of float64 operands: its finite differences are good to about 1e-3
            Sample("ij,jk->ik", a, b, fkwargs={"dtype": np.float32, "casting": "same_kind"}, label="dtype=",
                   rtol=2e-3, atol=2e-3)]


@sample_inputs(np.einsum_path)
def _einsum_path_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample("ij,jk,kl->il", rng.standard_normal((2, 3)), rng.standard_normal((3, 2)),
                   rng.standard_normal((2, 4)), label="a contraction plan (non-differentiable)")]
