"""Eigenvalues of banded and tridiagonal Hermitian matrices: ``scipy.linalg.eigvals_banded`` and
``scipy.linalg.eigvalsh_tridiagonal``.

SciPy defines them as ``eig_banded(..., eigvals_only=True)`` and ``eigh_tridiagonal(...,
eigvals_only=True)``, and so do the rules: they are the eigenvalue-only rules of
:mod:`~chainrules.rulesets.linalg.eigh`.

The maths
---------
For ``A = V diag(w) V^H`` Hermitian, ``dw_i = Re(v_i^H dA v_i)`` and ``A_bar = V diag(w_bar) V^H``
(Magnus 1985, "On differentiating eigenvalues and eigenvectors"). The eigenvectors are
computed in the rule (``eigh`` of the matrix the band stands for, or ``eigh_tridiagonal``
with vectors), the primal's eigenvalues are returned. The cotangent lands on what SciPy
reads: LAPACK band storage for ``eigvals_banded`` (a strict off-diagonal entry stands for
two entries of the matrix: ``2 G_ij``; the unused corner gets ``0``), and
``(d_bar, e_bar) = (diag G, 2 superdiag G)`` for ``eigvalsh_tridiagonal``, with
``G = V diag(w_bar) V^H``.

Repeated eigenvalues. ``V diag(w_bar) V^H`` depends on the basis of an eigenspace only if
``w_bar`` differs inside the cluster of a repeated eigenvalue: a function of the eigenvalues
that is symmetric in each cluster (``sum f(w_i)``, the trace, the sum of the ``k`` largest
when the ``k``-th and ``(k+1)``-th differ) gets its exact gradient at exactly and nearly
repeated eigenvalues alike; a single eigenvalue of a repeated pair has no derivative there
(only one-sided ones), and the rules return the value for LAPACK's eigenvectors, following
:mod:`~chainrules.rulesets.linalg._spectral` (see ``eigh``'s module docstring, which also
covers ``select=``: the selection is locally constant; a ``select_range`` boundary on an
eigenvalue is a jump).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from chainrules.rulesets.linalg._samples import hermitian, hermitian_band
from chainrules.rulesets.linalg._utils import NO
from chainrules.rulesets.linalg.eigh import (
    eig_banded_frule,
    eig_banded_rrule,
    eigh_tridiagonal_frule,
    eigh_tridiagonal_rrule,
)
from chainrules_core import Sample, frule, read_cotangent, rrule, sample_inputs


@rrule.register(sla.eigvals_banded, np.ndarray)
def eigvals_banded_rrule(a_band: np.ndarray, lower: Any = False, overwrite_a_band: Any = False, select: Any = "a",
                         select_range: Any = None, check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.eigvals_banded``: ``A_bar = V diag(w_bar) V^H`` in band storage.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> a_band = np.array([[0.0, 1.0], [2.0, 2.0]])        # [[2, 1], [1, 2]]: eigenvalues 1, 3
    >>> w, pullback = rrule(scipy.linalg.eigvals_banded, a_band)
    >>> w
    array([1., 3.])
    >>> pullback(np.array([0.0, 1.0]))[1]                   # d w_max: v v^T with v = [1, 1] / sqrt(2)
    array([[0. , 1. ],
           [0.5, 0.5]])
    """
    y, pullback = eig_banded_rrule(a_band, lower, True, False, select, select_range, 0, check_finite)

    def eigvals_banded_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "scipy.linalg.eigvals_banded")
        return (NO, pullback(dy)[1], NO, NO, NO, NO, NO)

    return y, eigvals_banded_pullback


@frule.register(sla.eigvals_banded, np.ndarray)
def eigvals_banded_frule(tangents: Any, a_band: np.ndarray, lower: Any = False, overwrite_a_band: Any = False,
                         select: Any = "a", select_range: Any = None, check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.eigvals_banded``: ``dw_i = Re(v_i^H dA v_i)``, ``dA`` read from the band."""
    return eig_banded_frule((NO, tangents[1], NO, NO, NO, NO, NO, NO), a_band, lower, True, False, select,
                            select_range, 0, check_finite)


@rrule.register(sla.eigvalsh_tridiagonal, np.ndarray, np.ndarray)
def eigvalsh_tridiagonal_rrule(d: np.ndarray, e: np.ndarray, select: Any = "a", select_range: Any = None,
                               check_finite: Any = True, tol: Any = 0.0, lapack_driver: Any = "auto") -> Any:
    """Reverse rule of ``scipy.linalg.eigvalsh_tridiagonal``: ``d_bar = diag(G)``, ``e_bar = 2 superdiag(G)``.

    ``G = V diag(w_bar) V^H`` with the eigenvectors of the tridiagonal matrix.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> w, pullback = rrule(scipy.linalg.eigvalsh_tridiagonal, np.array([2.0, 2.0]), np.array([1.0]))
    >>> w
    array([1., 3.])
    >>> tuple(map(unthunk, pullback(np.array([1.0, 1.0]))[1:3]))   # the trace: d_bar = 1, e_bar = 0
    (array([1., 1.]), array([0.]))
    """
    y, pullback = eigh_tridiagonal_rrule(d, e, True, select, select_range, check_finite, tol, lapack_driver)

    def eigvalsh_tridiagonal_pullback(dy: Any) -> tuple[Any, ...]:
        cotangents = pullback(read_cotangent(dy, y, "scipy.linalg.eigvalsh_tridiagonal"))
        return (NO, cotangents[1], cotangents[2], NO, NO, NO, NO, NO)

    return y, eigvalsh_tridiagonal_pullback


@frule.register(sla.eigvalsh_tridiagonal, np.ndarray, np.ndarray)
def eigvalsh_tridiagonal_frule(tangents: Any, d: np.ndarray, e: np.ndarray, select: Any = "a",
                               select_range: Any = None, check_finite: Any = True, tol: Any = 0.0,
                               lapack_driver: Any = "auto") -> Any:
    """Forward rule of ``scipy.linalg.eigvalsh_tridiagonal``: ``dw_i = v_i^T dT v_i``, ``dT = tridiag(de, dd, de)``."""
    return eigh_tridiagonal_frule((NO, tangents[1], tangents[2], NO, NO, NO, NO, NO, NO), d, e, True, select,
                                  select_range, check_finite, tol, lapack_driver)


# ---- sample inputs ----------------------------------------------------------------------------------------
def _banded_hermitian(rng: np.random.Generator, dtype: Any = np.float64) -> np.ndarray:
    return np.triu(np.tril(hermitian(rng, dtype, 4), 1), -1)


def _tridiagonal(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    return np.array([1.0, 2.5, 4.0, 6.0]) + 0.1 * rng.standard_normal(4), 0.5 + 0.2 * rng.standard_normal(3)


@sample_inputs(sla.eigvals_banded)
def _eigvals_banded_samples(rng: np.random.Generator) -> list[Sample]:
    a = _banded_hermitian(rng)
    return [
        Sample(hermitian_band(a, 1, False), label="upper form"),
        Sample(hermitian_band(a, 1, True), True, label="lower form, lower by position"),
        Sample(hermitian_band(_banded_hermitian(rng, np.complex128), 1, False), label="complex Hermitian"),
        Sample(hermitian_band(a, 1, False), fkwargs={"select": "i", "select_range": (0, 1)}, label="select='i'"),
    ]


@sample_inputs(sla.eigvalsh_tridiagonal)
def _eigvalsh_tridiagonal_samples(rng: np.random.Generator) -> list[Sample]:
    d, e = _tridiagonal(rng)
    return [
        Sample(d, e, label="default driver"),
        Sample(d.astype(np.float32), e.astype(np.float32), label="float32"),
        Sample(d, e, "v", (0.0, 3.0), label="select='v' by position"),
        *(Sample(d, e, fkwargs={"lapack_driver": driver}, label=f"lapack_driver={driver!r}")
          for driver in ("stemr", "sterf", "stev", "stebz")),
    ]
