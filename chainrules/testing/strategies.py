"""``hypothesis`` strategies for primals, tangents and well-conditioned matrices.

Rule tests can become property tests::

    from hypothesis import given
    from chainrules.testing import strategies as st, test_rrule

    @given(st.arrays(shape=st.shapes(max_dims=2)))
    def test_tanh(x):
        test_rrule(np.tanh, x)

Values are finite and moderate (``|x| <= 10`` by default), so finite differences are
meaningful. This module needs ``hypothesis`` (the ``test`` extra).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as hs
from hypothesis.extra import numpy as hnp

from chainrules.testing.testers import PrimalAndTangent

FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
COMPLEX_DTYPES = (np.dtype(np.complex64), np.dtype(np.complex128))


def shapes(*, min_dims: int = 0, max_dims: int = 3, min_side: int = 1, max_side: int = 4) -> Any:
    """Array shapes, small enough for finite differences.

    Examples
    --------
    >>> from chainrules.testing import strategies as st
    >>> st.shapes(max_dims=2).example().__class__
    <class 'tuple'>
    """
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def dtypes(*, complex_: bool = False) -> Any:
    """float32 and float64 (and complex64/complex128 with ``complex_=True``).

    Examples
    --------
    >>> from chainrules.testing import strategies as st
    >>> st.dtypes().example().kind
    'f'
    """
    choices = FLOAT_DTYPES + (COMPLEX_DTYPES if complex_ else ())
    return hs.sampled_from(choices)


def _elements(dtype: np.dtype, bound: float, min_magnitude: float) -> Any:
    real = hs.floats(-bound, bound, allow_nan=False, allow_infinity=False, width=32)
    if min_magnitude > 0:
        real = real.filter(lambda v: abs(v) >= min_magnitude)
    if dtype.kind == "c":
        return hs.builds(complex, real, real)
    return real


def arrays(dtype: Any = np.float64, shape: Any = None, *, bound: float = 10.0,
           min_magnitude: float = 0.0) -> Any:
    """Finite arrays of the given dtype (or dtype strategy) and shape (or shape strategy).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import strategies as st
    >>> x = st.arrays(np.float32, (2, 3)).example()
    >>> x.shape, x.dtype
    ((2, 3), dtype('float32'))
    """
    shape = shapes() if shape is None else shape

    @hs.composite
    def draw_array(draw: Any) -> np.ndarray:
        dt = np.dtype(draw(dtype) if isinstance(dtype, hs.SearchStrategy) else dtype)
        sh = draw(shape) if isinstance(shape, hs.SearchStrategy) else shape
        return draw(hnp.arrays(dt, sh, elements=_elements(dt, bound, min_magnitude)))

    return draw_array()


def broadcastable_shapes(num_shapes: int = 2, *, max_dims: int = 3, max_side: int = 3) -> Any:
    """Tuples of ``num_shapes`` shapes that broadcast together (some with length-one axes).

    Examples
    --------
    >>> from chainrules.testing import strategies as st
    >>> len(st.broadcastable_shapes(3).example())
    3
    """
    return hnp.mutually_broadcastable_shapes(num_shapes=num_shapes, max_dims=max_dims, max_side=max_side).map(
        lambda bs: bs.input_shapes)


def primal_and_tangent(primals: Any, *, bound: float = 1.0) -> Any:
    """Pair each drawn primal array with a drawn tangent of the same shape and dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import strategies as st
    >>> pt = st.primal_and_tangent(st.arrays(np.float64, (2,))).example()
    >>> pt.primal.shape == pt.tangent.shape
    True
    """
    @hs.composite
    def pair(draw: Any) -> PrimalAndTangent:
        x = draw(primals)
        arr = np.asarray(x)
        dx = draw(hnp.arrays(arr.dtype, arr.shape, elements=_elements(arr.dtype, bound, 0.0)))
        return PrimalAndTangent(x, dx if isinstance(x, np.ndarray) else dx[()])

    return pair()


def _orthogonal(draw: Any, n: int, dtype: np.dtype) -> np.ndarray:
    real = draw(hnp.arrays(np.float64, (n, n), elements=hs.floats(-1, 1, width=32)))
    if dtype.kind == "c":
        real = real + 1j * draw(hnp.arrays(np.float64, (n, n), elements=hs.floats(-1, 1, width=32)))
    return np.linalg.qr(real + 3 * np.eye(n))[0]


def well_conditioned_matrices(n: int = 3, dtype: Any = np.float64, *, max_condition: float = 10.0) -> Any:
    """Square matrices ``U diag(s) V^H`` with singular values in ``[1, max_condition]``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import strategies as st
    >>> A = st.well_conditioned_matrices(3).example()
    >>> bool(np.linalg.cond(A) <= 10.0 + 1e-6)
    True
    """
    @hs.composite
    def matrix(draw: Any) -> np.ndarray:
        dt = np.dtype(draw(dtype) if isinstance(dtype, hs.SearchStrategy) else dtype)
        u, v = _orthogonal(draw, n, dt), _orthogonal(draw, n, dt)
        s = np.asarray(draw(hs.lists(hs.floats(1.0, max_condition), min_size=n, max_size=n)))
        return ((u * s) @ v.conj().T).astype(dt)

    return matrix()


def spd_matrices(n: int = 3, dtype: Any = np.float64, *, max_condition: float = 10.0) -> Any:
    """Symmetric (Hermitian) positive-definite matrices with eigenvalues in ``[1, max_condition]``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import strategies as st
    >>> A = st.spd_matrices(3).example()
    >>> bool(np.all(np.linalg.eigvalsh(A) > 0))
    True
    """
    @hs.composite
    def matrix(draw: Any) -> np.ndarray:
        dt = np.dtype(draw(dtype) if isinstance(dtype, hs.SearchStrategy) else dtype)
        q = _orthogonal(draw, n, dt)
        s = np.asarray(draw(hs.lists(hs.floats(1.0, max_condition), min_size=n, max_size=n)))
        a = (q * s) @ q.conj().T
        return ((a + a.conj().T) / 2).astype(dt)

    return matrix()
