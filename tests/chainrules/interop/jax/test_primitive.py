"""``chainrules.interop.jax.primitive``: JAX's transformations over functions whose derivatives are rules.

Gradients are compared with finite differences of the NumPy function and, where JAX has
its own derivative of the same function (``jnp.linalg.cholesky``, ``qr``, ``det``,
``jnp.sin``...), with it: an independent check in JAX's own conventions (complex
cotangents included).
"""

from __future__ import annotations

import gc
import inspect
from typing import Any

import numpy as np
import pytest
import scipy.linalg
import scipy.special

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from chainrules import NoTangent, Tangent, Thunk, not_implemented, rrule, unthunk  # noqa: E402
from chainrules.interop.jax import (  # noqa: E402
    HigherOrderDerivativeError,
    KeywordArgumentError,
    NoRuleError,
    NotImplementedDerivativeError,
    pending_pullbacks,
    primitive,
    set_pullback_limit,
)
from chainrules.interop.jax import numpy as jnr  # noqa: E402
from chainrules.interop.jax import scipy as jsp  # noqa: E402
from chainrules.interop.jax.pullbacks import STORE  # noqa: E402
from chainrules.structured import Diagonal  # noqa: E402
from chainrules.testing import central_fdm, grad  # noqa: E402

A = np.array([[0.3, 0.9], [-0.4, 0.2]])
SPD = np.array([[2.0, 0.5, 0.1], [0.5, 1.5, 0.2], [0.1, 0.2, 1.0]])
expm = primitive(scipy.linalg.expm)


@pytest.fixture(autouse=True)
def empty_store() -> Any:
    """Each test starts with no pending pullback (a test that raised may leave one behind, by design bounded)."""
    STORE.clear()
    yield


def close(a: Any, b: Any, rtol: float = 1e-9, atol: float = 1e-11) -> None:
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


def fd_jvp(f: Any, x: np.ndarray, dx: np.ndarray) -> np.ndarray:
    """The directional derivative of a NumPy function by central finite differences."""
    return np.asarray(central_fdm(5, 1)(lambda t: np.asarray(f(x + t * dx)), 0.0))


def loss_expm(a: Any) -> Any:
    return jnp.sum(jnp.sin(expm(a)))


def numpy_loss_expm(a: np.ndarray) -> float:
    return float(np.sum(np.sin(scipy.linalg.expm(a))))


GRAD_LOSS_EXPM = grad(central_fdm(5, 1), numpy_loss_expm, A)


# ---- reverse mode: grad, jit, vjp, value_and_grad ------------------------------------------------------------
def test_grad_jit_value_and_grad_and_vjp() -> None:
    own = GRAD_LOSS_EXPM
    close(jax.grad(loss_expm)(A), own, rtol=1e-8)
    close(jax.jit(jax.grad(loss_expm))(A), own, rtol=1e-8)
    value, gradient = jax.value_and_grad(loss_expm)(A)
    close(value, numpy_loss_expm(A))
    close(gradient, own, rtol=1e-8)
    _y, vjp = jax.vjp(expm, jnp.asarray(A))
    close(vjp(jnp.ones((2, 2)))[0], grad(central_fdm(5, 1), lambda a: np.sum(scipy.linalg.expm(a)), A), rtol=1e-8)
    assert pending_pullbacks() == 0


def test_called_without_tracers_it_is_the_function() -> None:
    out = expm(jnp.asarray(A))
    assert isinstance(out, jax.Array)
    close(out, scipy.linalg.expm(A))
    assert isinstance(expm(A), np.ndarray) and expm.fun is scipy.linalg.expm
    assert pending_pullbacks() == 0


def test_vmap_of_a_broadcasting_rule_takes_the_batch_at_once_and_others_run_sequentially() -> None:
    calls: list[tuple[int, ...]] = []
    sin = primitive(np.sin)
    real = rrule.find(np.sin, np.ndarray)
    assert real is not None
    x = jnp.asarray(np.linspace(0.1, 0.9, 6).reshape(3, 2))
    close(jax.vmap(jax.grad(lambda r: jnp.sum(sin(r))))(x), np.cos(np.asarray(x)))
    close(jax.jit(jax.vmap(jax.grad(lambda r: jnp.sum(sin(r) * r))))(x),
          np.sin(np.asarray(x)) + np.asarray(x) * np.cos(np.asarray(x)))
    # a ufunc whose arguments have different ranks: aligned on the right, per batch element
    v = jnp.asarray([0.5, 1.5])
    grads = jax.vmap(jax.grad(lambda nu, t: jnp.sum(jsp.special.jv(nu, t)), argnums=1), in_axes=(0, None))(
        v, jnp.asarray([1.0, 2.0, 3.0]))
    close(grads, [scipy.special.jvp(n, np.array([1.0, 2.0, 3.0])) for n in (0.5, 1.5)], rtol=1e-8)
    # a matrix function: sequential
    batch = jnp.stack([jnp.asarray(A), 2 * jnp.asarray(A)])
    own = np.stack([GRAD_LOSS_EXPM, grad(central_fdm(5, 1), numpy_loss_expm, 2 * A)])
    close(jax.jit(jax.vmap(jax.grad(loss_expm)))(batch), own, rtol=1e-8)
    close(jax.vmap(jax.vmap(jax.grad(lambda t: jnp.sum(jnr.sin(t) ** 2))))(jnp.ones((2, 3, 2))),
          np.full((2, 3, 2), np.sin(2.0)))
    assert pending_pullbacks() == 0
    del calls


def test_jacrev_pulls_back_a_batch_of_cotangents() -> None:
    x = jnp.asarray(SPD)
    # NumPy's cholesky reads the lower triangle, JAX's both (symmetrized): compare the symmetric parts
    ours = np.asarray(jax.jacrev(jnr.linalg.cholesky)(x))
    close((ours + ours.swapaxes(-1, -2)) / 2, jax.jacrev(jnp.linalg.cholesky)(x), atol=1e-10)
    close(jax.jit(jax.jacrev(jnr.exp))(jnp.asarray([0.1, 0.2])), np.diag(np.exp([0.1, 0.2])))
    assert pending_pullbacks() == 0


# ---- forward mode -----------------------------------------------------------------------------------------------
def test_forward_mode_jvp_jacfwd_linearize_under_jit_and_vmap() -> None:
    fexpm = primitive(scipy.linalg.expm, mode="forward")
    a, da = jnp.asarray(A), jnp.asarray(SPD[:2, :2])
    y, dy = jax.jvp(fexpm, (a,), (da,))
    dy_fd = fd_jvp(scipy.linalg.expm, A, SPD[:2, :2])
    close(y, scipy.linalg.expm(A))
    close(dy, dy_fd, rtol=1e-8)
    close(jax.jit(lambda a, da: jax.jvp(fexpm, (a,), (da,))[1])(a, da), dy_fd, rtol=1e-8)
    jac_fd = np.stack([fd_jvp(scipy.linalg.expm, A, np.eye(4)[k].reshape(2, 2)) for k in range(4)], -1)
    close(jax.jit(jax.jacfwd(fexpm))(a), jac_fd.reshape(2, 2, 2, 2), rtol=1e-8)
    _, f_lin = jax.linearize(fexpm, a)
    close(f_lin(da), dy_fd, rtol=1e-8)
    fsin = primitive(np.sin, mode="forward")
    x = jnp.asarray([[0.1, 0.2], [0.3, 0.4]])
    close(jax.vmap(lambda r: jax.jvp(fsin, (r,), (jnp.ones(2),))[1])(x), np.cos(np.asarray(x)))
    close(jax.jacfwd(fsin)(x[0]), np.diag(np.cos([0.1, 0.2])))


def test_reverse_and_forward_primitives_say_which_mode_they_have() -> None:
    with pytest.raises(TypeError, match="custom_vjp"):
        jax.jvp(expm, (jnp.asarray(A),), (jnp.asarray(A),))
    fsin = primitive(np.sin, mode="forward")
    with pytest.raises(ValueError, match="transpose"):
        jax.grad(lambda x: jnp.sum(fsin(x)))(jnp.ones(2))
    with pytest.raises(ValueError, match="mode"):
        primitive(np.sin, mode="both")


# ---- complex numbers, dtypes, integers --------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sin", "exp", "det"])
def test_complex_gradients_follow_jaxs_convention(name: str) -> None:
    z = jnp.asarray(np.array([[0.3 + 0.4j, -0.2 + 0.1j], [0.5 - 0.3j, 0.8 + 0.2j]]))
    own = {"sin": jnp.sin, "exp": jnp.exp, "det": jnp.linalg.det}[name]
    bridged = {"sin": jnr.sin, "exp": jnr.exp, "det": jnr.linalg.det}[name]

    def loss(f: Any) -> Any:
        return lambda w: jnp.sum(jnp.abs(f(w)) ** 2 + jnp.real(f(w)) * 0.3)

    close(jax.grad(loss(bridged))(z), jax.grad(loss(own))(z))
    # a holomorphic function's VJP with a complex cotangent (JAX: no conjugation of the cotangent)
    ct = jnp.ones_like(bridged(z)) * (0.7 - 0.2j)
    close(jax.vjp(bridged, z)[1](ct)[0], jax.vjp(own, z)[1](ct)[0])
    # forward mode: tangents are never conjugated
    dz = jnp.full_like(z, 0.1 + 0.5j)
    close(jax.jvp(primitive(getattr(np, name) if name != "det" else np.linalg.det, mode="forward"), (z,), (dz,))[1],
          jax.jvp(own, (z,), (dz,))[1])


def test_float32_without_x64_and_float64_with_it() -> None:
    jax.config.update("jax_enable_x64", False)
    try:
        x = jnp.asarray([0.1, 0.2])
        assert x.dtype == jnp.float32
        assert jnr.exp(x).dtype == jnp.float32
        g = jax.grad(lambda t: jnp.sum(jnr.exp(t)))(x)
        assert g.dtype == jnp.float32
        close(g, np.exp([0.1, 0.2]), rtol=1e-6)
        g = jax.jit(jax.grad(lambda a: jnp.sum(expm(a))))(jnp.asarray(A, dtype=jnp.float32))
        assert g.dtype == jnp.float32
    finally:
        jax.config.update("jax_enable_x64", True)
    assert jax.grad(lambda t: jnp.sum(jnr.exp(t)))(jnp.asarray([0.1])).dtype == jnp.float64


def test_integer_and_boolean_inputs_get_no_gradient() -> None:
    power = primitive(np.power)
    n = jnp.asarray([2, 3])
    x = jnp.asarray([1.5, 2.0])
    _y, vjp = jax.vjp(power, x, n)
    dx, dn = vjp(jnp.ones(2))
    close(dx, [3.0, 12.0])
    assert dn.dtype == jax.dtypes.float0
    close(jax.jit(jax.grad(lambda t: jnp.sum(power(t, n))))(x), [3.0, 12.0])
    where = primitive(np.where)
    g = jax.grad(lambda a: jnp.sum(where(jnp.asarray([True, False]), a, 0.0)))(x)
    close(g, [1.0, 0.0])


# ---- containers and keywords ------------------------------------------------------------------------------------
def test_traced_values_inside_lists_tuples_and_dicts_and_keywords_bound_to_positions() -> None:
    a, b = jnp.asarray([1.0, 2.0]), jnp.asarray([3.0])
    g = jax.grad(lambda u, v: jnp.sum(jnr.concatenate([u, 2.0 * v]) ** 2), argnums=(0, 1))(a, b)
    close(g[0], [2.0, 4.0])
    close(g[1], [24.0])
    g = jax.jit(jax.grad(lambda u: jnp.sum(jnr.stack(arrays=[u, u * 3.0], axis=1) ** 2)))(a)
    close(g, 20.0 * np.asarray(a))

    def integrate(f: Any, lo: float, hi: float, args: tuple[Any, ...] = ()) -> float:
        xs = np.linspace(lo, hi, 5)
        return float(np.trapezoid(f(xs, *args), xs))

    @rrule.register(integrate, object, float, float, tuple)
    def integrate_rrule(f: Any, lo: float, hi: float, args: tuple[Any, ...]) -> Any:
        xs = np.linspace(lo, hi, 5)

        def integrate_pullback(dy: Any) -> Any:
            dt = unthunk(dy) * np.trapezoid(xs ** 2, xs)  # d/dt of t x^2, integrated
            return NoTangent(), NoTangent(), NoTangent(), NoTangent(), Tangent(tuple, dt)

        return integrate(f, lo, hi, args), integrate_pullback

    quad_like = primitive(integrate)
    g = jax.grad(lambda t: quad_like(lambda x, s: s * x ** 2, 0.0, 1.0, args=(t,)))(2.0)
    close(g, np.trapezoid(np.linspace(0, 1, 5) ** 2, np.linspace(0, 1, 5)))

    def scale(x: Any, *, factor: float = 1.0) -> Any:
        return factor * x

    with pytest.raises(KeywordArgumentError, match=r"'factor'.*only by keyword"):
        jax.grad(lambda f: jnp.sum(primitive(scale)(jnp.ones(2), factor=f)))(2.0)


# ---- tangent kinds from the rules ------------------------------------------------------------------------------
def test_thunks_zeros_structured_cotangents_and_tuple_outputs() -> None:
    def diagonal_of(m: np.ndarray) -> np.ndarray:
        return np.diag(m).copy()

    @rrule.register(diagonal_of, np.ndarray)
    def diagonal_of_rrule(m: np.ndarray) -> Any:
        def diagonal_of_pullback(dy: Any) -> Any:
            return NoTangent(), Thunk(lambda: Diagonal(np.asarray(unthunk(dy))))  # a structured cotangent, thunked

        return diagonal_of(m), diagonal_of_pullback

    w = jnp.asarray([1.0, 2.0, 3.0])
    g = jax.grad(lambda m: jnp.sum(primitive(diagonal_of)(m) * w))(jnp.asarray(SPD))
    close(g, np.diag(np.asarray(w)))  # made dense for JAX
    # a tuple output of which only one part is used: the other part's cotangent is zero
    x = jnp.asarray(SPD)
    own = jax.grad(lambda a: jnp.sum(jnp.linalg.qr(a)[1] ** 2))(x)
    close(jax.grad(lambda a: jnp.sum(jnr.linalg.qr(a)[1] ** 2))(x), own, atol=1e-10)
    w2 = jax.grad(lambda a: jnp.sum(jnr.linalg.eigh(a).eigenvalues ** 2))(x)
    close(w2, grad(central_fdm(5, 1), lambda a: np.sum(np.linalg.eigh(a)[0] ** 2), SPD), rtol=1e-7, atol=1e-8)


def test_a_not_implemented_derivative_is_an_error_naming_the_function_and_argument() -> None:
    def bessel(nu: Any, x: Any) -> Any:
        return scipy.special.jv(nu, x)

    @rrule.register(bessel, float, float)
    def bessel_rrule(nu: Any, x: Any) -> Any:
        def bessel_pullback(dy: Any) -> Any:
            dx = unthunk(dy) * (scipy.special.jv(nu - 1, x) - scipy.special.jv(nu + 1, x)) / 2
            return NoTangent(), not_implemented("d/dnu of J_nu"), dx
        return bessel(nu, x), bessel_pullback

    f = primitive(bessel)
    close(jax.grad(f, argnums=1)(1.5, 2.0), scipy.special.jvp(1.5, 2.0))
    with pytest.raises(NotImplementedDerivativeError, match=r"bessel with respect to argument 0 \('nu'\).*d/dnu"):
        jax.grad(f, argnums=0)(1.5, 2.0)
    # under jit the rule runs in a host callback: JAX reraises its error as a JaxRuntimeError carrying the message
    with pytest.raises(jax.errors.JaxRuntimeError, match=r"NotImplementedDerivativeError: the derivative of .*bessel"):
        jax.jit(jax.grad(f, argnums=0))(1.5, 2.0)


def test_no_rule_is_a_no_rule_error() -> None:
    def mystery(x: Any) -> Any:
        return np.asarray(x) * 2

    with pytest.raises(NoRuleError, match=r"no chainrules rrule for .*mystery"):
        jax.grad(lambda t: jnp.sum(primitive(mystery)(t)))(jnp.ones(2))


# ---- second derivatives --------------------------------------------------------------------------------------
def test_second_derivatives_raise_a_clear_error_never_a_wrong_number() -> None:
    for f in (lambda: jax.grad(jax.grad(lambda t: jnp.sum(expm(t * jnp.asarray(A)))))(0.3),
              lambda: jax.jit(jax.hessian(lambda x: jnp.sum(jnr.sin(x))))(jnp.ones(2)),
              lambda: jax.hessian(lambda x: jnp.sum(jnr.linalg.det(x)))(jnp.asarray(SPD)),
              lambda: jax.jacfwd(jax.jacfwd(primitive(np.sin, mode="forward")))(jnp.ones(2))):
        with pytest.raises(HigherOrderDerivativeError, match=r"numpy\.sin|scipy\.linalg\.expm|numpy\.linalg\.det"):
            f()


# ---- no pullback outlives its use -----------------------------------------------------------------------------
def test_pullbacks_are_freed_when_no_backward_pass_happens() -> None:
    STORE.clear()
    recomputed = STORE.recomputed
    # eager: JAX drops the residuals, the finalizer drops the pullback
    y, vjp = jax.vjp(expm, jnp.asarray(A))
    assert pending_pullbacks() == 1
    del vjp, y
    gc.collect()
    assert pending_pullbacks() == 0
    # eager gradients never recompute (no finalizer runs early)
    for _ in range(3):
        jax.grad(loss_expm)(A)
    assert STORE.recomputed == recomputed and pending_pullbacks() == 0
    # jit: a forward pass whose backward pass XLA removed; the store keeps at most its limit
    previous = set_pullback_limit(4)
    try:
        primal_only = jax.jit(lambda a: jax.vjp(expm, a)[0])
        for k in range(10):
            primal_only(jnp.asarray(A) * (1 + k))
        assert pending_pullbacks() <= 4
    finally:
        set_pullback_limit(previous)
        STORE.clear()


def test_a_missing_pullback_is_recomputed_never_wrong() -> None:
    _y, vjp = jax.vjp(expm, jnp.asarray(A))
    first = vjp(jnp.ones((2, 2)))[0]
    recomputed = STORE.recomputed
    second = vjp(jnp.ones((2, 2)))[0]  # the entry was used: the rule runs again
    assert STORE.recomputed == recomputed + 1
    close(first, second)
    with pytest.raises(ValueError, match="at least 1"):
        set_pullback_limit(0)


# ---- the namespaces --------------------------------------------------------------------------------------------
def test_namespaces_are_lazy_and_keep_the_functions_docstring_and_signature() -> None:
    import importlib

    special = importlib.import_module("chainrules.interop.jax.scipy.special")
    assert special is jsp.special
    assert "jv" in dir(jsp.special) and "expm" in dir(jsp.linalg) and "cholesky" in dir(jnr.linalg)
    assert "kve" not in vars(jsp.special) or callable(vars(jsp.special)["kve"])
    kve = jsp.special.kve
    assert "kve" in vars(jsp.special) and jsp.special.kve is kve  # wrapped once, then cached
    assert kve.__doc__ == scipy.special.kve.__doc__ and kve.__name__ == "kve"
    assert inspect.signature(jsp.linalg.expm) == inspect.signature(scipy.linalg.expm)
    with pytest.raises(AttributeError, match="no chainrules rule"):
        jsp.special.geterr  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute"):
        jsp.special.no_such_function  # noqa: B018
    from chainrules.interop.jax.forward import scipy as jsp_fwd

    _y, dy = jax.jvp(jsp_fwd.special.jv, (1.5, 2.0), (0.0, 1.0))
    close(dy, scipy.special.jvp(1.5, 2.0))


# ---- JAX's own gradient checker ---------------------------------------------------------------------------------
def test_jax_check_grads_on_reverse_and_forward_primitives() -> None:
    from jax.test_util import check_grads

    check_grads(lambda a: jnp.sin(expm(a)), (jnp.asarray(A),), order=1, modes=["rev"])
    check_grads(jnr.linalg.cholesky, (jnp.asarray(SPD),), order=1, modes=["rev"], atol=1e-6, rtol=1e-6)
    check_grads(primitive(scipy.linalg.expm, mode="forward"), (jnp.asarray(A),), order=1, modes=["fwd"])
    check_grads(lambda x: jsp.special.kv(1.5, x), (jnp.asarray([0.5, 2.0]),), order=1, modes=["rev"])


def test_the_rule_computes_the_output_once() -> None:
    calls = {"f": 0, "rrule": 0, "pullback": 0}

    def cube(x: np.ndarray) -> np.ndarray:
        calls["f"] += 1
        return x ** 3

    @rrule.register(cube, np.ndarray)
    def cube_rrule(x: np.ndarray) -> Any:
        calls["rrule"] += 1
        y = x ** 3  # the output, computed here once

        def cube_pullback(dy: Any) -> Any:
            calls["pullback"] += 1
            return NoTangent(), 3 * x ** 2 * unthunk(dy)

        return y, cube_pullback

    f = primitive(cube)
    x = jnp.asarray([1.0, 2.0])
    close(jax.grad(lambda v: jnp.sum(f(v)))(x), [3.0, 12.0])
    assert calls == {"f": 0, "rrule": 1, "pullback": 1}
    gradient = jax.jit(jax.grad(lambda v: jnp.sum(f(v))))
    close(gradient(x), [3.0, 12.0])  # tracing calls f once on stand-ins, for the output's shape
    close(gradient(x), [3.0, 12.0])
    assert calls == {"f": 1, "rrule": 3, "pullback": 3}


def test_inside_lax_scan_and_checkpoint() -> None:
    a = jnp.asarray(A) * 0.3

    def f(t: Any) -> Any:
        def body(c: Any, _: Any) -> Any:
            return expm(t * a) @ c, None

        return jnp.sum(jax.lax.scan(body, jnp.ones(2), None, length=3)[0])

    def f_numpy(t: float) -> float:
        return float(np.sum(np.linalg.matrix_power(scipy.linalg.expm(t * np.asarray(a)), 3) @ np.ones(2)))

    expected = central_fdm(5, 1)(f_numpy, 0.7)
    close(jax.grad(f)(0.7), expected, rtol=1e-8)
    close(jax.jit(jax.grad(f))(0.7), expected, rtol=1e-8)
    close(jax.grad(jax.checkpoint(f))(0.7), expected, rtol=1e-8)


# ---- bound methods: the object is a constant (chainrules.interop._lookup) --------------------------------------
_POINTS = np.array([[0.3, -1.2], [1.0, 0.4]])
_COV = np.array([[2.0, 0.3], [0.3, 1.0]])
_XS = np.array([0.3, -1.2, 2.1])
_BOUND = {  # method, how the traced value enters the call, the point
    "norm.logpdf(x, loc, scale)": ("norm.logpdf", lambda v: ((_XS, v, 2.0), {}), np.array(0.5)),
    "norm.logpdf(x, scale=)": ("norm.logpdf", lambda v: ((_XS,), {"scale": v}), np.array(2.0)),
    "multivariate_normal.logpdf": ("multivariate_normal.logpdf", lambda v: ((_POINTS, v, _COV), {}),
                                   np.array([0.1, -0.2])),
    "frozen norm.cdf": ("frozen", lambda v: ((v,), {}), _XS),
    "ndarray.dot": ("dot", lambda v: ((v,), {}), np.array([1.0, -2.0, 0.5])),
}


@pytest.mark.parametrize("case", list(_BOUND))
def test_bound_methods_reverse_and_forward(case: str) -> None:
    import scipy.stats as st

    name, call, at = _BOUND[case]
    method = {"norm.logpdf": st.norm.logpdf, "multivariate_normal.logpdf": st.multivariate_normal.logpdf,
              "frozen": st.norm(0.5, 2.0).cdf, "dot": np.array([[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]]).dot}[name]
    expected = grad(central_fdm(5, 1), lambda v: np.sum(method(*call(v)[0], **call(v)[1])), at)
    reverse, forward = primitive(method), primitive(method, mode="forward")
    close(jax.grad(lambda v: jnp.sum(reverse(*call(v)[0], **call(v)[1])))(jnp.asarray(at)), expected, 1e-8, 1e-10)
    direction = np.linspace(1.0, -0.5, at.size).reshape(at.shape)
    _, jvp = jax.jvp(lambda v: jnp.sum(forward(*call(v)[0], **call(v)[1])), (jnp.asarray(at),),
                     (jnp.asarray(direction),))
    close(jvp, np.sum(expected * direction), 1e-8, 1e-10)


def test_a_bound_method_is_the_primitive_of_its_class_s_function_with_the_object_first():
    # the core's rules of a bound method return the object's cotangent after the function's own
    import scipy.stats as st

    x = np.array([0.5, 1.5, 4.0])
    fd = grad(None, lambda a: st.gamma.logpdf(x, a, 0, 1.5).sum(), 2.5)
    reverse, forward = primitive(st.gamma.logpdf), primitive(st.gamma.logpdf, mode="forward")
    assert reverse.fun == st.gamma.logpdf
    gradient = jax.grad(lambda a: jnp.sum(reverse(x, a, 0.0, 1.5)))
    np.testing.assert_allclose(gradient(2.5), fd, rtol=1e-6)
    np.testing.assert_allclose(jax.jit(gradient)(2.5), fd, rtol=1e-6)
    _, dy = jax.jvp(lambda a: jnp.sum(forward(x, a, 0.0, 1.5)), (2.5,), (1.0,))
    np.testing.assert_allclose(dy, fd, rtol=1e-6)
