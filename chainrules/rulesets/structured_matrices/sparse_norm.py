"""``scipy.sparse.linalg.norm``: Frobenius, induced 1/inf/2 norms of a sparse matrix, and vector norms along an axis.

The maths
---------
Every supported norm is, near a point where it is differentiable, a function of the
stored values ``a`` whose gradient (for ``dy = 1``) is a weight ``w`` at each stored entry;
for a complex ``A`` the norm is real and ``dy_tangent = Re(sum conj(w) da)``, and the
cotangent is ``dA = dy w`` on ``A``'s pattern (``O(nnz)``, never dense). With
``phase(a) = a / |a|`` (``0`` at ``a = 0``):

* Frobenius (``ord=None`` or ``'fro'``, ``axis=None``): ``w = a / ||A||_F``;
* induced 1-norm (``ord=1``; ``-1`` for the smallest column sum): the largest (smallest)
  column sum of ``|a|``, ``w = phase(a)`` on the entries of that column, ``0`` elsewhere;
  ``inf`` / ``-inf``: the same with rows. At a tie the first column (row) is used, a
  subgradient;
* spectral norm (``ord=2``): ``w = u v^H`` at the stored entries, for the leading
  singular pair of ``A`` (``scipy.sparse.linalg.svds(A, k=1)``); differentiable where the
  largest singular value is simple (Magnus 1985, *Econometric Theory* 1(2), Thm 1);
* vector norms along ``axis`` (an integer): for each row (``axis=1``) or column (``axis=0``)
  ``y_g = (sum |a|^p)^(1/p)``, ``w = phase(a) |a|^(p-1) / y_g^(p-1)`` for ``p >= 1``
  (``ord=None`` is ``p = 2``); ``ord=inf``: ``phase(a)`` at the first entry of largest
  modulus of each row or column.

A norm of zero has the zero subgradient. Other orders (``-2``, ``'nuc'``, which SciPy
does not compute for sparse input, ``0``, negative ``p`` and ``-inf`` along an axis) get
no rule: :func:`~chainrules_core.not_implemented` names them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse.linalg

from chainrules.rulesets.structured_matrices._samples import sparse
from chainrules.rulesets.structured_matrices._tangents import NO, read_output, tangent_of
from chainrules.structured.sparse import SPARSE_TYPES
from chainrules_core import (
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    passes_through,
    rrule,
    sample_inputs,
)


def _phase(v: np.ndarray) -> np.ndarray:
    modulus = np.abs(v)
    return np.divide(v, modulus, out=np.zeros_like(v), where=modulus != 0)


def _first_extreme(groups: np.ndarray, key: np.ndarray, ngroups: int, largest: bool) -> np.ndarray:
    """A mask of, in each group, the first entry with the largest (smallest) ``key``."""
    order = np.lexsort((np.arange(len(key)), -key if largest else key, groups))
    first = np.ones(len(order), dtype=bool)
    first[1:] = groups[order][1:] != groups[order][:-1]
    mask = np.zeros(len(key), dtype=bool)
    mask[order[first]] = True
    return mask


def _weights(A: Any, ord: Any, axis: Any, y: Any, pattern: Any) -> Any:
    """``(w, groups)``: the gradient at each stored entry (for ``dy = 1`` of each output) and the output
    each entry belongs to (``None`` for a scalar norm); or a reason string when there is no rule."""
    v = pattern.gather(A)
    rows, cols = pattern.rows, pattern.cols
    if axis is None or (isinstance(axis, tuple) and len(axis) == 2):
        if axis is not None and tuple(int(a) % 2 for a in axis) != (0, 1):
            return "the transposed axes (1, 0): call it with axis=None"
        y = float(y)
        if ord in (None, "fro", "f"):
            return (v / y if y else np.zeros_like(v)), None
        if ord in (1, -1, np.inf, -np.inf):
            by_cols = ord in (1, -1)
            line = cols if by_cols else rows
            sums = np.bincount(line, np.abs(v), minlength=A.shape[1 if by_cols else 0])
            chosen = int(np.argmax(sums) if ord > 0 else np.argmin(sums))
            return np.where(line == chosen, _phase(v), 0), None
        if ord == 2:
            u, _, vh = scipy.sparse.linalg.svds(A, k=1, rng=0)
            return u[rows, 0] * vh[0, cols], None
        return f"the matrix norm ord={ord!r}"
    ax = int(axis[0] if isinstance(axis, tuple) else axis) % 2
    groups = cols if ax == 0 else rows
    y = np.asarray(y, dtype=np.float64)
    p = 2 if ord is None else ord
    if p == np.inf:
        return np.where(_first_extreme(groups, np.abs(v), len(y), largest=True), _phase(v), 0), groups
    if not (isinstance(p, (int, float, np.number)) and p >= 1):
        return f"the vector norm ord={ord!r} along an axis"
    scale = y[groups]
    w = _phase(v) * np.abs(v) ** (p - 1) / np.where(scale == 0, 1, scale) ** (p - 1)
    return np.where(scale == 0, 0, w), groups


@rrule.register(scipy.sparse.linalg.norm, SPARSE_TYPES)
def sparse_norm_rrule(x: Any, ord: Any = None, axis: Any = None) -> Any:
    """Reverse rule of ``scipy.sparse.linalg.norm``: ``dA = dy w`` on ``A``'s pattern (module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import rrule
    >>> A = sp.csr_array(np.array([[3.0, 0.0], [0.0, -4.0]]))
    >>> y, pullback = rrule(scipy.sparse.linalg.norm, A)
    >>> float(y), pullback(1.0)[1].toarray()
    (5.0, array([[ 0.6,  0. ],
           [ 0. , -0.8]]))
    """
    y = scipy.sparse.linalg.norm(x, ord, axis)
    project_x: Any = cotangent_projector(x)
    project_y = ProjectTo(y)
    found = _weights(x, ord, axis, y, project_x.pattern) if x.ndim == 2 else "a sparse array that is not 2-d"
    nargs = 3

    def norm_pullback(dy: Any) -> tuple[Any, ...]:
        d = read_output(dy, y, "scipy.sparse.linalg.norm", project_y)
        if passes_through(d):
            return NO, project_x(d), *(NO,) * (nargs - 1)
        if isinstance(found, str):
            return NO, not_implemented(f"scipy.sparse.linalg.norm: no rule for {found}"), *(NO,) * (nargs - 1)
        w, groups = found
        scale = np.asarray(d) if groups is None else np.asarray(d)[groups]
        return NO, project_x.from_values(scale * w), *(NO,) * (nargs - 1)

    return y, norm_pullback


@frule.register(scipy.sparse.linalg.norm, SPARSE_TYPES)
def sparse_norm_frule(tangents: Any, x: Any, ord: Any = None, axis: Any = None) -> Any:
    """Forward rule of ``scipy.sparse.linalg.norm``: ``Re(sum conj(w) dA)`` over each output's entries.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import frule, NoTangent
    >>> A = sp.csr_array(np.array([[3.0, 0.0], [0.0, -4.0]]))
    >>> float(frule((NoTangent(), A), scipy.sparse.linalg.norm, A)[1])
    5.0
    """
    y = scipy.sparse.linalg.norm(x, ord, axis)
    dx = tangent_of(tangents[1])
    if dx is None:
        return y, ZeroTangent()
    project_x: Any = ProjectTo(x)
    found = _weights(x, ord, axis, y, project_x.pattern) if x.ndim == 2 else "a sparse array that is not 2-d"
    if isinstance(found, str):
        return y, not_implemented(f"scipy.sparse.linalg.norm: no rule for {found}")
    w, groups = found
    terms = np.real(np.conj(w) * project_x.pattern.gather(project_x(dx)))
    if groups is None:
        return y, ProjectTo(y)(terms.sum())
    return y, ProjectTo(y)(np.bincount(groups, terms, minlength=np.size(y)))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.sparse.linalg.norm)
def _norm_samples(rng: np.random.Generator) -> list[Sample]:
    A = sparse(rng, "csr", (4, 3))
    return [
        Sample(A, label="Frobenius"),
        Sample(sparse(rng, "coo", (3, 3), np.complex128), "fro", label="complex Frobenius, by position"),
        Sample(sparse(rng, "csc", (3, 4)), 1, label="induced 1-norm"),
        Sample(sparse(rng, "lil", (3, 4)), fkwargs={"ord": np.inf}, label="induced inf-norm, by keyword"),
        Sample(sparse(rng, "csr", (4, 4), np.complex128, shift=2.0), -np.inf, label="complex, -inf"),
        Sample(sparse(rng, "csr", (4, 4), shift=2.0), -1, label="-1"),
        Sample(sparse(rng, "csr", (4, 3)), 2, label="spectral norm"),
        Sample(sparse(rng, "csr", (3, 3), np.float32, shift=1.0), label="float32 Frobenius", rtol=1e-3),
        Sample(sparse(rng, "csr", (4, 4), shift=1.0), None, 0, label="column 2-norms"),
        Sample(sparse(rng, "dok", (4, 4), np.complex128, shift=1.0), 3, 1, label="complex row 3-norms"),
        Sample(sparse(rng, "csc", (4, 4), shift=1.0), fkwargs={"ord": 1, "axis": -1}, label="row 1-norms"),
        Sample(sparse(rng, "csc", (4, 4), shift=1.0), np.inf, 0, label="column max-norms"),
    ]
