"""Helpers shared by the factorization rules (private): cholesky, qr, lu, ldl, hessenberg, schur, polar.

* **triangular solves and products** on stacks: :func:`solve_triangular` and
  :func:`multiply_triangular` call BLAS ``?trsm``/``?trmm`` on each matrix, choosing the
  memory layout so that no operand is copied (a C-ordered matrix is the Fortran-ordered
  transpose); a zero on the diagonal of the triangular factor raises ``LinAlgError``;
* **output cotangents**: :func:`typed_cotangent_parts` and :func:`typed_cotangent` read them with
  the core's :func:`~chainrules_core.read_cotangents` / :func:`~chainrules_core.read_cotangent`
  and give each part its output's dtype (the real part for a real output; ``None`` for a zero);
* **output tangents**: :func:`tuple_tangent` builds the ``Tangent`` of a tuple, list or
  namedtuple output (input tangents are read with ``_utils.tangent_value``);
* the masks of triangular factors (:func:`phi`, :func:`copyltu`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.linalg import blas

from chainrules.rulesets.linalg._utils import cotangent_parts as read_parts
from chainrules.rulesets.linalg._utils import mH
from chainrules_core import AbstractZero, NotImplementedTangent, ProjectTo, Tangent, ZeroTangent, read_cotangent

_BLAS_CACHE: dict[tuple[str, str], Any] = {}


def _blas(name: str, dtype: np.dtype) -> Any:
    key = (name, np.dtype(dtype).char)
    func = _BLAS_CACHE.get(key)
    if func is None:
        func = _BLAS_CACHE[key] = blas.get_blas_funcs(name, dtype=np.dtype(dtype))
    return func


_TRANS = {"N": 0, "T": 1, "C": 2}


def _common(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    dtype = np.result_type(a.dtype, b.dtype)
    return a.astype(dtype, copy=False), b.astype(dtype, copy=False)


def _blas_triangular(name: str, a: np.ndarray, b: np.ndarray, lower: bool, trans: str, side: str,
                     unit: bool) -> np.ndarray:
    """One ``?trsm``/``?trmm`` call on 2-d operands of one LAPACK dtype, without copying either."""
    func = _blas(name, a.dtype)
    code = _TRANS[trans] if a.dtype.kind == "c" else min(_TRANS[trans], 1)
    if not a.flags.f_contiguous and a.flags.c_contiguous:
        # op(a) x = b  <=>  x^T op(a)^T = b^T, and a^T is a Fortran-ordered view of a C-ordered a
        out = func(1.0, a.T, b.T, side=int(side == "L"), lower=int(not lower), trans_a=code, diag=int(unit))
        return out.T
    out = func(1.0, a, b, side=int(side == "R"), lower=int(lower), trans_a=code, diag=int(unit))
    return out


def _stacked(name: str, a: np.ndarray, b: np.ndarray, lower: bool, trans: str, side: str,
             unit: bool) -> np.ndarray:
    a, b = _common(a, b)
    if a.ndim == 2 and b.ndim == 2:
        if b.size == 0 or a.size == 0:
            return np.zeros(b.shape, dtype=b.dtype)
        return _blas_triangular(name, a, b, lower, trans, side, unit)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    out = np.empty(batch + b.shape[-2:], dtype=b.dtype)
    if out.size == 0:
        return out
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    for index in itertools.product(*(range(k) for k in batch)):
        out[index] = _blas_triangular(name, a[index], b[index], lower, trans, side, unit)
    return out


def check_triangular_nonsingular(a: np.ndarray, where: str) -> None:
    """Raise ``LinAlgError`` naming ``where`` if a triangular factor has a zero on its diagonal."""
    if a.size and not np.all(np.diagonal(a, axis1=-2, axis2=-1)):
        raise np.linalg.LinAlgError(f"{where}: the triangular factor is singular (a zero on its diagonal); "
                                    "the factorization has no derivative there")


def solve_triangular(a: np.ndarray, b: np.ndarray, *, lower: bool, trans: str = "N", side: str = "L",
                     unit: bool = False, where: str = "triangular solve", check: bool = True) -> np.ndarray:
    """``op(a)^{-1} b`` (``side='L'``) or ``b op(a)^{-1}`` (``side='R'``) for stacks, by BLAS ``?trsm``.

    ``op`` is the identity (``'N'``), the transpose (``'T'``) or the conjugate transpose
    (``'C'``); ``a`` is lower or upper triangular (only that triangle is read); ``unit``
    takes its diagonal as ones. Raises ``LinAlgError`` naming ``where`` for a singular
    ``a`` (``check=False`` skips the test, for factors known to be nonsingular).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._factorizations import solve_triangular
    >>> L = np.array([[2.0, 0.0], [1.0, 4.0]])
    >>> solve_triangular(L, np.array([[2.0], [9.0]]), lower=True)
    array([[1.],
           [2.]])
    >>> solve_triangular(L, np.array([[2.0, 8.0]]), lower=True, side="R")
    array([[0., 2.]])
    """
    if check and not unit:
        check_triangular_nonsingular(a, where)
    return _stacked("trsm", a, b, lower, trans, side, unit)


def multiply_triangular(a: np.ndarray, b: np.ndarray, *, lower: bool, trans: str = "N", side: str = "L",
                        unit: bool = False) -> np.ndarray:
    """``op(a) @ b`` (``side='L'``) or ``b @ op(a)`` (``side='R'``) for a triangular ``a``, by BLAS ``?trmm``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._factorizations import multiply_triangular
    >>> U = np.array([[1.0, 2.0], [9.0, 3.0]])   # only the upper triangle is read
    >>> multiply_triangular(U, np.eye(2), lower=False, trans="T")
    array([[1., 0.],
           [2., 3.]])
    """
    return _stacked("trmm", a, b, lower, trans, side, unit)


@functools.lru_cache(maxsize=64)
def _strict_lower_mask(n: int) -> np.ndarray:
    mask = np.tri(n, n, -1, dtype=bool)
    mask.flags.writeable = False
    return mask


def strict_lower(x: np.ndarray) -> np.ndarray:
    """``tril(x, -1)`` for stacks (a new array; the mask is cached per order).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._factorizations import strict_lower
    >>> strict_lower(np.ones((2, 2)))
    array([[0., 0.],
           [1., 0.]])
    """
    m, n = x.shape[-2:]
    mask = _strict_lower_mask(n) if m == n else np.tri(m, n, -1, dtype=bool)
    return np.where(mask, x, np.zeros((), dtype=x.dtype))


def phi(x: np.ndarray) -> np.ndarray:
    """``tril(x, -1) + diag(x) / 2`` for stacks: the lower triangle with the diagonal halved.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._factorizations import phi
    >>> phi(np.array([[2.0, 5.0], [3.0, 4.0]]))
    array([[1., 0.],
           [3., 2.]])
    """
    out = strict_lower(x)
    idx = np.arange(x.shape[-1])
    out[..., idx, idx] = x[..., idx, idx] / 2
    return out


def copyltu(m: np.ndarray) -> np.ndarray:
    """``tril(m, -1) + tril(m, -1)^H + Re(diag(m))``: the Hermitian matrix with ``m``'s strict lower triangle.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._factorizations import copyltu
    >>> copyltu(np.array([[1.0, 7.0], [2.0, 3.0]]))
    array([[1., 2.],
           [2., 3.]])
    """
    low = strict_lower(m)
    out = low + mH(low)
    idx = np.arange(m.shape[-1])
    out[..., idx, idx] = m[..., idx, idx].real
    return out


def real_if(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``x`` in ``dtype``: its real part when ``dtype`` is real (the tangent space of a real output)."""
    if np.dtype(dtype).kind != "c" and np.iscomplexobj(x):
        x = x.real
    return np.asarray(x, dtype=dtype)


def in_output_dtype(part: Any, y: Any) -> Any:
    """A part of an output cotangent (read by ``read_cotangent(s)``) in its output's dtype: the real part for a
    real output (the tangent space of a real output is real). ``None`` and not-implemented tangents pass."""
    if part is None or isinstance(part, NotImplementedTangent):
        return part
    if isinstance(part, list):  # the parts of a tuple-valued output (``_utils.cotangent_parts``)
        return [in_output_dtype(p, yk) for p, yk in zip(part, y)]
    return real_if(np.asarray(part), np.asarray(y).dtype)


def typed_cotangent_parts(dy: Any, outputs: Sequence[Any], f: Any) -> list[Any]:
    """The cotangent of each array of a tuple-valued output, read by :func:`chainrules_core.read_cotangents`.

    One entry per output (``_utils.cotangent_parts``): ``None`` for a zero part, a
    ``NotImplementedTangent`` passed on, else an ndarray in its output's dtype
    (:func:`in_output_dtype`).
    ``outputs`` is the primal output itself (a namedtuple's fields then read a ``Tangent``
    with named fields). Errors name ``f``.
    """
    return [in_output_dtype(p, y) for p, y in zip(read_parts(dy, outputs, f), outputs)]


def typed_cotangent(dy: Any, y: np.ndarray, f: Any) -> Any:
    """The cotangent of an array output (:func:`chainrules_core.read_cotangent`) in the output's dtype.

    ``None`` for a zero; a ``NotImplementedTangent`` is returned as it is (the pullback passes it on).
    """
    dy = read_cotangent(dy, y, f)
    if isinstance(dy, AbstractZero):
        return None
    return in_output_dtype(dy, y)


def tuple_tangent(y: Any, parts: Sequence[Any]) -> Any:
    """The tangent of a tuple, list or namedtuple output ``y`` with one tangent per element (``None``: zero)."""
    parts = [ZeroTangent() if p is None else p for p in parts]
    return ProjectTo(y)(Tangent(type(y), *parts))
