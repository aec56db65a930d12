"""Rules for the structured matrices of :mod:`chainrules.structured` and for ``scipy.sparse`` arrays.

(The types themselves, and their projectors, are in :mod:`chainrules.structured`; this
package holds only rules.) One module per family: building and leaving the structure
(``constructors``), matrix products (``matmul``), ``+``/``-``/scaling (``arithmetic``),
transposes (``transpose``), traces, sums and diagonals (``reductions``),
``det``/``slogdet``/``inv``/``solve`` (``determinants_and_solves``),
``scipy.linalg.solve_triangular`` (``triangular_solve``), ``np.diag``/``np.diagflat``/
``np.triu``/``np.tril`` on ndarrays (``diagonals``), and sparse products, transposes, sums and
elementwise products (``sparse``) and ``scipy.sparse.linalg.spsolve`` (``sparse_solve``).
How a pullback reads its output cotangent and builds its input tangents is in ``_tangents``.
"""
