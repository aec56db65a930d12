"""A few singular values of a sparse matrix: ``scipy.sparse.linalg.svds``.

The maths
---------
For a simple nonzero singular value ``sigma_i`` with singular vectors ``u_i``, ``v_i``,
``d sigma_i = Re(u_i^H dA v_i)`` (Magnus 1985, *Econometric Theory* 1(2), Thm 2; Giles
2008). The pullback is ``dA = sum_i c_i u_i v_i^H`` at the stored entries of ``A``
(``O(nnz k)``), for the cotangents ``c_i`` of the values.

Only the values are differentiated: the derivative of a few singular vectors needs a solve
on the complement of the computed ones, and is not implemented yet (a nonzero cotangent
for them gives ``not_implemented``; the frule's vector tangents are ``not_implemented``).
Call with ``return_singular_vectors=False`` for the values alone. The vectors the rule
uses are computed by the same call with vectors when the primal call asked for values
only (at the same ``tol``).

``eigsh`` has no rule: it reads ``A`` through products only, so off the Hermitian matrices
(where finite differences and non-Hermitian tangents go) its result is not the spectrum
of ``A`` and a rule could not be checked.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg

from chainrules.rulesets.structured_matrices._samples import sparse
from chainrules.rulesets.structured_matrices._tangents import NO, conj, tangent_of
from chainrules.structured.sparse import SPARSE_TYPES
from chainrules_core import (
    ProjectTo,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
)

_VECTORS = "scipy.sparse.linalg.svds: the derivative of the singular vectors is not implemented yet"


def _matched(values: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """For each of ``values``, the index of the nearest of ``reference`` (the order can differ between calls)."""
    return np.argmin(np.abs(np.asarray(values)[:, None] - np.asarray(reference)[None, :]), axis=1)


def _svds_triples(A: Any, k: Any, kwargs: dict[str, Any]) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray]:
    options = dict(kwargs)
    want_vectors = options.pop("return_singular_vectors", True)
    y = scipy.sparse.linalg.svds(A, k, return_singular_vectors=want_vectors, **options)
    U, s, Vh = y if want_vectors is True else scipy.sparse.linalg.svds(A, k, return_singular_vectors=True, **options)
    order = _matched(y[1] if want_vectors is True else y, s)
    return y, np.asarray(U)[:, order], np.asarray(s)[order], np.asarray(Vh)[order]


@rrule.register(scipy.sparse.linalg.svds, SPARSE_TYPES)
def svds_rrule(A: Any, k: Any = 6, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.sparse.linalg.svds``: ``dA = sum_i c_i u_i v_i^H`` on ``A``'s pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import rrule
    >>> A = sp.csr_array(np.diag([1.0, -2.0, 3.0]))
    >>> s, pullback = rrule(scipy.sparse.linalg.svds, A, 1, return_singular_vectors=False, rng=0)
    >>> np.round(s, 12), np.round(pullback(np.array([1.0]))[1].toarray(), 12)
    (array([3.]), array([[0., 0., 0.],
           [0., 0., 0.],
           [0., 0., 1.]]))
    """
    y, U, _, Vh = _svds_triples(A, k, kwargs)
    with_vectors = kwargs.get("return_singular_vectors", True) is True
    project_A: Any = cotangent_projector(A)

    def svds_pullback(dy: Any) -> tuple[Any, Any, Any]:
        if with_vectors:
            parts = read_cotangents(dy, y, "scipy.sparse.linalg.svds")
            if passes_through(parts):
                return NO, project_A(parts), NO
            dU, ds, dVh = parts
            for dvec in (dU, dVh):
                if dvec is not None and not passes_through(dvec) and np.any(np.asarray(dvec) != 0):
                    return NO, not_implemented(_VECTORS), NO
        else:
            ds = read_cotangent(dy, y, "scipy.sparse.linalg.svds")
            if passes_through(ds):
                return NO, project_A(ds), NO
        if ds is None or passes_through(ds):
            return NO, project_A(ZeroTangent() if ds is None else ds), NO
        c = np.real(np.asarray(ds))
        return NO, project_A.gather_product(U * c, Vh), NO

    return y, svds_pullback


@frule.register(scipy.sparse.linalg.svds, SPARSE_TYPES)
def svds_frule(tangents: Any, A: Any, k: Any = 6, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.sparse.linalg.svds``: ``d sigma_i = Re(u_i^H dA v_i)``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import frule, NoTangent
    >>> A = sp.csr_array(np.diag([1.0, -2.0, 3.0]))
    >>> _, ds = frule((NoTangent(), A, NoTangent()), scipy.sparse.linalg.svds, A, 1, return_singular_vectors=False,
    ...               rng=0)
    >>> np.round(ds, 12)
    array([3.])
    """
    y, U, s, Vh = _svds_triples(A, k, kwargs)
    dA = tangent_of(tangents[1])
    if dA is None:
        return y, ZeroTangent()
    dA = ProjectTo(A)(dA)
    ds = np.real(np.einsum("ij,ij->j", conj(U), np.asarray(dA @ conj(Vh).T))).astype(s.dtype)
    if kwargs.get("return_singular_vectors", True) is True:
        return y, Tangent(tuple, not_implemented(_VECTORS), ds, not_implemented(_VECTORS))
    return y, ds


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.sparse.linalg.svds)
def _svds_samples(rng: np.random.Generator) -> list[Sample]:
    values = {"return_singular_vectors": False, "rng": 0, "tol": 0}
    return [
        Sample(sparse(rng, "csr", (6, 4), shift=1.0) + sp_diag_rect(6, 4), 2, fkwargs=values,
               label="the 2 largest"),
        Sample(sparse(rng, "csc", (4, 5), np.complex128) + sp_diag_rect(4, 5), fkwargs={**values, "k": 1},
               label="complex, the largest"),
    ]


def sp_diag_rect(m: int, n: int) -> Any:
    """Distinct singular values (a diagonal added to the random part)."""
    return sp.diags_array(np.arange(1.0, min(m, n) + 1.0) * 1.5, shape=(m, n))
