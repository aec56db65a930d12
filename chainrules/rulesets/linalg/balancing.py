"""Balancing a matrix: ``scipy.linalg.matrix_balance(A, permute, scale, separate)``.

LAPACK's ``?gebal`` finds a permutation and a diagonal scaling by powers of 2, together
``T``, and returns ``B = T^{-1} A T`` (exactly: scaling by powers of 2 and permuting are
exact in floating point), with ``T`` (or, ``separate=True``, the scaling and the
permutation).

The maths
---------
``T`` is chosen from the magnitudes of ``A``'s rows and columns in steps of 2, and the
permutation from its zero pattern: it is piecewise constant in ``A``. Where it is locally
constant (almost everywhere), ``dB = T^{-1} dA T``, ``dT = 0``, and in reverse
``A_bar = T^{-H} B_bar T^H``; the cotangent of ``T`` (of the scaling) is not read, and the
permutation is an integer array (``NoTangent()`` in its place). Where a step of the scaling
or the zero pattern changes, ``B`` jumps and has no derivative; the rules give the one of
the piece ``A`` is on (the jump is never spread into a derivative). The frule's tangent of
``T`` (of the scaling) is a zero.

``permute`` and ``scale`` choose the transformation and get ``NoTangent()``; ``overwrite_a``
is ignored (the rules never overwrite their input). Stacks are handled as SciPy handles
them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._factorizations import tuple_tangent
from chainrules.rulesets.linalg._utils import NO, cotangent_parts, mH, not_implemented_in, tangent_value
from chainrules_core import NotImplementedTangent, Sample, ZeroTangent, cotangent_projector, frule, rrule, sample_inputs


class _Balance:
    """The primal output and the similarity ``T`` behind it."""

    def __init__(self, A: Any, permute: Any, scale: Any, separate: Any) -> None:
        self.y = scipy.linalg.matrix_balance(A, permute, scale, separate, False)
        self.t = scipy.linalg.matrix_balance(A, permute, scale, False, False)[1] if separate else self.y[1]
        self.t_inv = np.linalg.inv(self.t)  # exact: a scaled permutation by powers of 2

    def tangent(self, da: np.ndarray) -> np.ndarray:
        return self.t_inv @ da @ self.t

    def cotangent(self, b_bar: np.ndarray) -> np.ndarray:
        return mH(self.t_inv) @ b_bar @ mH(self.t)


@rrule.register(scipy.linalg.matrix_balance, np.ndarray)
def matrix_balance_rrule(A: np.ndarray, permute: Any = True, scale: Any = True, separate: Any = False,
                         overwrite_a: Any = False) -> Any:
    """Reverse rule of ``scipy.linalg.matrix_balance``: ``A_bar = T^{-H} B_bar T^H`` (``T`` locally constant).

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, ZeroTangent
    >>> a = np.array([[1.0, 64.0], [1.0, 1.0]])
    >>> (b, t), pullback = rrule(scipy.linalg.matrix_balance, a)
    >>> b, np.diag(t)
    (array([[1., 8.],
           [8., 1.]]), array([8., 1.]))
    >>> pullback((np.array([[0.0, 1.0], [0.0, 0.0]]), ZeroTangent()))[1]      # b_01 = a_01 / 8
    array([[0.   , 0.125],
           [0.   , 0.   ]])
    """
    state = _Balance(A, permute, scale, separate)
    project_a = cotangent_projector(A)

    def matrix_balance_pullback(dy: Any) -> tuple[Any, ...]:
        b_bar = cotangent_parts(dy, state.y, "scipy.linalg.matrix_balance")[0]   # T (the scaling): locally constant
        tail = (NO, NO, NO, NO)
        if b_bar is None or isinstance(b_bar, NotImplementedTangent):
            return (NO, project_a(ZeroTangent() if b_bar is None else b_bar), *tail)
        return (NO, project_a(state.cotangent(b_bar)), *tail)

    return state.y, matrix_balance_pullback


@frule.register(scipy.linalg.matrix_balance, np.ndarray)
def matrix_balance_frule(tangents: Any, A: np.ndarray, permute: Any = True, scale: Any = True, separate: Any = False,
                         overwrite_a: Any = False) -> Any:
    """Forward rule of ``scipy.linalg.matrix_balance``: ``dB = T^{-1} dA T``, a zero tangent for ``T``."""
    state = _Balance(A, permute, scale, separate)
    da = tangent_value(tangents[1])
    if da is None or not_implemented_in(da):
        return state.y, ZeroTangent() if da is None else da
    return state.y, tuple_tangent(state.y, [state.tangent(da), ZeroTangent()])


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.matrix_balance)
def _matrix_balance_samples(rng: np.random.Generator) -> list[Sample]:
    a = np.array([[1.0, 60.0, 0.3], [1.1, 0.9, 3.1], [0.012, 2.2, 5.0]])   # badly scaled: T = diag(8, 1, 1)
    return [
        Sample(a, label="badly scaled 3x3"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(a + 0.3j * rng.standard_normal((3, 3)), label="complex"),
        Sample(a, False, True, label="permute=False, scale by position"),
        Sample(a, fkwargs={"separate": True}, label="separate=True: (B, (scale, perm))"),
        Sample(a, True, False, False, False, label="scale=False (a permutation only)"),
    ]
