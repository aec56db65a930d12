"""AutogradConfig called on values an enclosing autograd trace is differentiating (derivatives of derivatives).

A higher-order rule that needs second derivatives of the function it was given (the
Hessian-vector products of ``minimize``'s rule) differentiates, through the config, a
gradient the config itself computes: ``rrule_via_ad`` / ``frule_via_ad`` of a function that
calls ``rrule_via_ad``. Checked against finite differences of the gradient.
"""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np

from chainrules.interop.autograd import AutogradConfig
from chainrules.testing import central_fdm
from chainrules_core import NoTangent, ZeroTangent, frule_via_ad, rrule_via_ad

CONFIG = AutogradConfig()


def f(x, t):
    return anp.sum(anp.sin(x) * t) + anp.sum(x ** 4) * t[0]


def gradient(x, t):
    _, pullback = rrule_via_ad(CONFIG, f, x, t)
    return pullback(1.0)[1]


def fd_hessian_column(x, t, v, wrt):
    fdm = central_fdm(5, 1)
    if wrt == 0:
        return fdm(lambda h: gradient(x + h * v, t))
    return fdm(lambda h: gradient(x, t + h * v))


X, T = np.array([0.3, -0.5, 0.8]), np.array([1.5, 2.0, -0.7])
V = np.array([1.0, -2.0, 0.5])


def test_forward_over_reverse():
    _, hv = frule_via_ad(CONFIG, (NoTangent(), V, ZeroTangent()), gradient, X, T)
    np.testing.assert_allclose(hv, fd_hessian_column(X, T, V, 0), rtol=1e-8)
    _, mv = frule_via_ad(CONFIG, (NoTangent(), ZeroTangent(), V), gradient, X, T)
    np.testing.assert_allclose(mv, fd_hessian_column(X, T, V, 1), rtol=1e-8)


def test_reverse_over_reverse():
    _, pullback = rrule_via_ad(CONFIG, gradient, X, T)
    _, hv, mtv = pullback(V)
    np.testing.assert_allclose(hv, fd_hessian_column(X, T, V, 0), rtol=1e-8)  # the Hessian is symmetric
    mixed = np.stack([fd_hessian_column(X, T, e, 1) for e in np.eye(3)], axis=-1)  # d grad_x / dt
    np.testing.assert_allclose(mtv, mixed.T @ V, rtol=1e-8)
