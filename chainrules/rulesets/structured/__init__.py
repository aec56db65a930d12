"""Rules for the structured matrices of :mod:`chainrules.structured` and for ``scipy.sparse`` arrays.

One module per family: building and leaving the structure (``constructors``), products
(``products``), ``+``/``-``/scaling (``arithmetic``), transposes (``transpose``), traces,
sums and diagonals (``reductions``), ``det``/``slogdet``/``inv``/``solve`` (``linalg``),
``scipy.linalg.solve_triangular`` (``triangular_solve``), ``np.diag``/``np.diagflat``/
``np.triu``/``np.tril`` on ndarrays (``diagonals``), and sparse products, transposes, sums and
elementwise products (``sparse``) and ``scipy.sparse.linalg.spsolve`` (``sparse_solve``).
"""
