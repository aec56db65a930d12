"""Linear algebra: numpy.linalg and scipy.linalg (dense, solves, factorizations, matrix functions).

The modules register their rules when imported; ``import chainrules`` declares them for
loading on first use (see :mod:`chainrules.rulesets`). ``degeneracy_tolerance`` (from
:mod:`._spectral`) sets the tolerance under which eigenvalues and singular values count as
degenerate.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "degeneracy_tolerance":
        from chainrules.rulesets.linalg._spectral import degeneracy_tolerance

        return degeneracy_tolerance
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
