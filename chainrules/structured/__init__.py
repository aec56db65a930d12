"""Structured matrices that keep their structure, and ``ProjectTo`` for them and for ``scipy.sparse``.

NumPy has no diagonal, triangular, symmetric or banded matrix types; this package provides
light ones that store only their free parameters and behave like the dense matrices they
stand for (see :mod:`chainrules.structured.base`):

===================  ==================================  ===================================
type                 stores                              cotangent (``ProjectTo``)
===================  ==================================  ===================================
``Diagonal``         ``d`` (``n``)                       the diagonal of ``dX``
``UpperTriangular``  one triangle of a wrapped array     the upper triangle of ``dX``
``LowerTriangular``  one triangle of a wrapped array     the lower triangle of ``dX``
``Symmetric``        one triangle of a wrapped array     ``(dX + dX.T) / 2``
``Hermitian``        one triangle of a wrapped array     ``(dX + dX.conj().T) / 2``
``Bidiagonal``       ``dv``, ``ev`` (``2n - 1``)         the two diagonals of ``dX``
``Tridiagonal``      ``dl``, ``d``, ``du`` (``3n - 2``)  the three diagonals of ``dX``
``SymTridiagonal``   ``dv``, ``ev`` (``2n - 1``)         diagonal; mean of the off-diagonals
===================  ==================================  ===================================

``scipy.sparse`` arrays and matrices (every format) get cotangents on their stored pattern
(:mod:`chainrules.structured.sparse`). The rules that use these types are in
:mod:`chainrules.rulesets.structured_matrices`; the guide is ``docs/structured.md``.

Examples
--------
>>> import numpy as np
>>> from chainrules import ProjectTo
>>> from chainrules.structured import Diagonal, Symmetric
>>> ProjectTo(Diagonal(np.ones(2)))(np.array([[1.0, 2.0], [3.0, 4.0]]))
Diagonal(array([1., 4.]))
>>> np.asarray(ProjectTo(Symmetric(np.eye(2)))(np.array([[1.0, 2.0], [0.0, 4.0]])))
array([[1., 1.],
       [1., 4.]])
"""

from chainrules.structured import sparse
from chainrules.structured.base import StructuredMatrix
from chainrules.structured.bidiagonal import Bidiagonal
from chainrules.structured.diagonal import Diagonal
from chainrules.structured.hermitian import Hermitian
from chainrules.structured.lower_triangular import LowerTriangular
from chainrules.structured.projection import StructuredProjector
from chainrules.structured.symmetric import Symmetric
from chainrules.structured.symtridiagonal import SymTridiagonal
from chainrules.structured.tridiagonal import Tridiagonal
from chainrules.structured.upper_triangular import UpperTriangular

STRUCTURED_TYPES = (Diagonal, UpperTriangular, LowerTriangular, Symmetric, Hermitian, Bidiagonal, Tridiagonal,
                    SymTridiagonal)
"""Every structured matrix type of this package."""

__all__ = [
    "STRUCTURED_TYPES",
    "Bidiagonal",
    "Diagonal",
    "Hermitian",
    "LowerTriangular",
    "StructuredMatrix",
    "StructuredProjector",
    "SymTridiagonal",
    "Symmetric",
    "Tridiagonal",
    "UpperTriangular",
    "sparse",
]
