"""Rules for the structured matrices of :mod:`chainrules.structured` and for ``scipy.sparse`` arrays.

(The types themselves, and their projectors, are in :mod:`chainrules.structured`; this
package holds only rules.) One module per family: building and leaving the structure
(``constructors``), matrix products (``matmul``), ``+``/``-``/scaling (``arithmetic``),
transposes (``transpose``), traces, sums and diagonals (``reductions``),
``det``/``slogdet``/``inv``/``solve`` (``determinants_and_solves``),
``scipy.linalg.solve_triangular`` (``triangular_solve``), ``np.diag``/``np.diagflat``/
``np.triu``/``np.tril`` on ndarrays (``diagonals``), and for ``scipy.sparse``: products,
transposes, sums and elementwise products (``sparse``), ``kron``/``kronsum``
(``sparse_kron``), the block constructors (``sparse_blocks``), diagonals and triangles
(``sparse_diagonals``), ``find`` and the axis functions (``sparse_rearrange``), the
functions declared non-differentiable (``sparse_non_differentiable``), and
``scipy.sparse.linalg``: ``spsolve``/``spsolve_triangular``/``inv`` (``sparse_solve``),
``norm`` (``sparse_norm``), ``expm``/``expm_multiply``/``matrix_power`` (``sparse_expm``),
the iterative solvers (``sparse_iterative``) and ``svds`` (``sparse_spectra``).
How a pullback reads its output cotangent and builds its input tangents is in ``_tangents``
(and, for the linear sparse constructors, ``_sparse_linear``).
"""
