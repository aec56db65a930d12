"""``chainrules.interop.torch``: PyTorch's autograd, ``torch.func`` and ``torch.compile`` over rules.

Gradients are compared with ``torch.autograd.gradcheck`` (finite differences, float64),
and, where PyTorch has its own derivative of the same function (``torch.sin``,
``torch.linalg.det``, ``torch.linalg.qr``), with it: an independent check in PyTorch's own
conventions (complex cotangents included).
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np
import pytest
import scipy.linalg
import scipy.special

torch = pytest.importorskip("torch")

from chainrules import NoTangent, Tangent, Thunk, not_implemented, rrule, unthunk  # noqa: E402
from chainrules.interop.torch import (  # noqa: E402
    DeviceWarning,
    HigherOrderDerivativeError,
    KeywordArgumentError,
    NoRuleError,
    NotImplementedDerivativeError,
    primitive,
    to_numpy,
)
from chainrules.interop.torch import numpy as tnp  # noqa: E402
from chainrules.interop.torch import scipy as tsp  # noqa: E402
from chainrules.structured import Diagonal  # noqa: E402
from chainrules.testing import grad  # noqa: E402

F64 = torch.float64
A = torch.tensor([[0.3, 0.9], [-0.4, 0.2]], dtype=F64)
SPD = torch.tensor([[2.0, 0.5, 0.1], [0.5, 1.5, 0.2], [0.1, 0.2, 1.0]], dtype=F64)
expm = primitive(scipy.linalg.expm)


def leaf(x: Any) -> torch.Tensor:
    return x.detach().clone().requires_grad_(True)


def close(a: Any, b: Any, rtol: float = 1e-9, atol: float = 1e-11) -> None:
    np.testing.assert_allclose(np.asarray(a.detach() if isinstance(a, torch.Tensor) else a),
                               np.asarray(b.detach() if isinstance(b, torch.Tensor) else b), rtol=rtol, atol=atol)


# ---- autograd.Function: backward, gradcheck, forward AD -------------------------------------------------------
@pytest.mark.parametrize("name", ["expm", "cholesky", "eigvalsh", "solve_triangular", "jv", "concatenate", "qr"])
def test_gradcheck_passes_in_float64(name: str) -> None:
    b = torch.tensor([1.0, -2.0, 0.5], dtype=F64)
    cases = {
        "expm": (lambda a: expm(a), (leaf(A),)),
        "cholesky": (tnp.linalg.cholesky, (leaf(SPD),)),
        "eigvalsh": (tnp.linalg.eigvalsh, (leaf(SPD),)),
        "solve_triangular": (lambda m, v: tsp.linalg.solve_triangular(m, v, lower=True), (leaf(SPD.tril()), leaf(b))),
        "jv": (lambda x: tsp.special.jv(1.5, x), (leaf(torch.tensor([0.5, 2.0, 7.0], dtype=F64)),)),
        "concatenate": (lambda u, v: tnp.concatenate([u, 2.0 * v]), (leaf(b), leaf(b[:2]))),
        "qr": (lambda m: tnp.linalg.qr(m)[1], (leaf(SPD),)),
    }
    f, inputs = cases[name]
    assert torch.autograd.gradcheck(f, inputs, check_forward_ad=True, check_batched_grad=False)


def test_backward_matches_pytorchs_own_derivative_and_outputs_keep_dtype_and_memory() -> None:
    x = leaf(SPD)
    tnp.linalg.det(x).backward()
    y = leaf(SPD)
    torch.linalg.det(y).backward()
    close(x.grad, y.grad)
    x32 = leaf(torch.tensor([0.1, 0.2]))
    out = tnp.exp(x32)
    assert out.dtype == torch.float32 and out.requires_grad
    out.sum().backward()
    assert x32.grad.dtype == torch.float32
    close(x32.grad, np.exp([0.1, 0.2]), rtol=1e-6)
    xb = leaf(torch.tensor([0.1, 0.2], dtype=torch.bfloat16))  # NumPy has no bfloat16: the rule runs in float32
    out = tnp.exp(xb)
    out.sum().backward()
    assert out.dtype == xb.grad.dtype == torch.bfloat16
    plain = tnp.exp(torch.tensor([0.1, 0.2], dtype=F64))  # nothing to differentiate: the function itself
    assert plain.grad_fn is None and plain.dtype == F64
    t = torch.ones(3)
    assert np.shares_memory(to_numpy(t), t.numpy())  # CPU tensors reach the rule without a copy


@pytest.mark.parametrize("name", ["sin", "exp", "det"])
def test_complex_gradients_follow_pytorchs_convention(name: str) -> None:
    z0 = torch.tensor([[0.3 + 0.4j, -0.2 + 0.1j], [0.5 - 0.3j, 0.8 + 0.2j]], dtype=torch.complex128)
    own = {"sin": torch.sin, "exp": torch.exp, "det": torch.linalg.det}[name]
    bridged = {"sin": tnp.sin, "exp": tnp.exp, "det": tnp.linalg.det}[name]
    grads = []
    for f in (bridged, own):
        z = leaf(z0)
        (f(z).abs() ** 2 + 0.3 * f(z).real).sum().backward()
        grads.append(z.grad)
    close(grads[0], grads[1])
    assert torch.autograd.gradcheck(bridged, (leaf(z0),), check_forward_ad=True)


def test_torch_func_grad_vjp_jvp_vmap_jacrev_jacfwd() -> None:
    det = tnp.linalg.det
    close(torch.func.grad(det)(SPD), torch.func.grad(torch.linalg.det)(SPD))
    _, vjp = torch.func.vjp(expm, A)
    (g,) = vjp(torch.ones(2, 2, dtype=F64))
    close(g, torch.func.vjp(torch.linalg.matrix_exp, A)[1](torch.ones(2, 2, dtype=F64))[0])
    close(torch.func.jvp(det, (SPD,), (torch.eye(3, dtype=F64),))[1],
          torch.func.jvp(torch.linalg.det, (SPD,), (torch.eye(3, dtype=F64),))[1])
    batch = torch.stack([SPD, 2 * SPD])
    close(torch.func.vmap(torch.func.grad(det))(batch), torch.func.vmap(torch.func.grad(torch.linalg.det))(batch))
    x = torch.tensor([0.1, 0.2, 0.3], dtype=F64)
    close(torch.func.jacrev(tnp.sin)(x), torch.diag(torch.cos(x)))
    close(torch.func.jacfwd(tnp.sin)(x), torch.diag(torch.cos(x)))
    close(torch.autograd.functional.jacobian(tnp.linalg.cholesky, SPD),
          torch.autograd.functional.jacobian(lambda m: torch.linalg.cholesky(m.tril() + m.tril(-1).mT), SPD))


def test_integer_and_boolean_tensors_get_no_gradient() -> None:
    x = leaf(torch.tensor([1.5, 2.0], dtype=F64))
    n = torch.tensor([2, 3])
    tnp.power(x, n).sum().backward()
    close(x.grad, [3.0, 12.0])
    y = leaf(torch.tensor([1.5, 2.0], dtype=F64))
    tnp.where(torch.tensor([True, False]), y, 0.0).sum().backward()
    close(y.grad, [1.0, 0.0])


# ---- containers, keywords, tangent kinds ----------------------------------------------------------------------
def test_tensors_inside_containers_and_keywords_bound_to_positions() -> None:
    a = leaf(torch.tensor([1.0, 2.0], dtype=F64))
    (tnp.stack(arrays=[a, a * 3.0], axis=1) ** 2).sum().backward()
    close(a.grad, 20.0 * a.detach())

    def scale(x: Any, *, factor: Any = 1.0) -> Any:
        return factor * x

    with pytest.raises(KeywordArgumentError, match=r"'factor'.*only by keyword"):
        primitive(scale)(torch.ones(2), factor=leaf(torch.tensor(2.0)))

    def weighted_sum(x: np.ndarray, weights: dict[str, Any]) -> Any:
        return np.sum(x) * weights["w"]

    @rrule.register(weighted_sum, np.ndarray, dict)
    def weighted_sum_rrule(x: np.ndarray, weights: dict[str, Any]) -> Any:
        def weighted_sum_pullback(dy: Any) -> Any:
            dy = unthunk(dy)
            return (NoTangent(), Thunk(lambda: np.full_like(x, dy * weights["w"])),
                    Tangent(dict, {"w": dy * np.sum(x)}))
        return weighted_sum(x, weights), weighted_sum_pullback

    x, w = leaf(torch.tensor([1.0, 2.0], dtype=F64)), leaf(torch.tensor(3.0, dtype=F64))
    primitive(weighted_sum)(x, {"w": w, "label": "kept"}).backward()
    close(x.grad, [3.0, 3.0])
    close(w.grad, 3.0)


def test_structured_cotangents_are_made_dense() -> None:
    def diagonal_of(m: np.ndarray) -> np.ndarray:
        return np.diag(m).copy()

    @rrule.register(diagonal_of, np.ndarray)
    def diagonal_of_rrule(m: np.ndarray) -> Any:
        def diagonal_of_pullback(dy: Any) -> Any:
            return NoTangent(), Diagonal(np.asarray(unthunk(dy)))
        return diagonal_of(m), diagonal_of_pullback

    m = leaf(SPD)
    (primitive(diagonal_of)(m) * torch.tensor([1.0, 2.0, 3.0], dtype=F64)).sum().backward()
    close(m.grad, np.diag([1.0, 2.0, 3.0]))


# ---- errors ---------------------------------------------------------------------------------------------------
def test_not_implemented_and_no_rule_errors_name_the_function_and_argument() -> None:
    def bessel(nu: Any, x: Any) -> Any:
        return scipy.special.jv(nu, x)

    @rrule.register(bessel, float, float)
    def bessel_rrule(nu: Any, x: Any) -> Any:
        def bessel_pullback(dy: Any) -> Any:
            dx = unthunk(dy) * (scipy.special.jv(nu - 1, x) - scipy.special.jv(nu + 1, x)) / 2
            return NoTangent(), not_implemented("d/dnu of J_nu"), dx
        return bessel(nu, x), bessel_pullback

    f = primitive(bessel)
    x = leaf(torch.tensor(2.0, dtype=F64))
    f(1.5, x).backward()
    close(x.grad, scipy.special.jvp(1.5, 2.0))
    nu = leaf(torch.tensor(1.5, dtype=F64))
    with pytest.raises(NotImplementedDerivativeError, match=r"bessel with respect to argument 0 \('nu'\).*d/dnu"):
        f(nu, 2.0).backward()

    def mystery(x: Any) -> Any:
        return x * 2

    with pytest.raises(NoRuleError, match=r"no chainrules rrule for .*mystery"):
        primitive(mystery)(leaf(torch.ones(2)))


def test_second_derivatives_raise_a_clear_error_never_a_wrong_number() -> None:
    t = leaf(torch.tensor(0.3, dtype=F64))
    (g,) = torch.autograd.grad(expm(t * A).sum(), t, create_graph=True)
    with pytest.raises(HigherOrderDerivativeError, match=r"gradient of scipy\.linalg\.expm"):
        g.backward()
    det = tnp.linalg.det
    for second in (lambda: torch.autograd.gradgradcheck(det, (leaf(SPD),)),
                   lambda: torch.autograd.functional.hessian(det, SPD),
                   lambda: torch.func.grad(torch.func.grad(lambda s: expm(s * A).sum()))(t.detach()),
                   lambda: torch.func.jacfwd(torch.func.grad(det))(SPD),
                   lambda: torch.func.jacfwd(torch.func.jacfwd(tnp.sin))(torch.ones(2, dtype=F64))):
        with pytest.raises(HigherOrderDerivativeError, match=r"numpy\.linalg\.det|scipy\.linalg\.expm|numpy\.sin"):
            second()


def test_the_device_warning_is_shown_once() -> None:
    from chainrules.interop.torch import conversion

    conversion._warned = False
    with pytest.warns(DeviceWarning, match="copied to the CPU"):
        conversion._warn_device(torch.device("cuda"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        conversion._warn_device(torch.device("cuda"))  # silent the second time


# ---- higher-order rules, namespaces ---------------------------------------------------------------------------
def test_a_higher_order_rule_differentiates_a_torch_callable() -> None:
    x = leaf(torch.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=F64))

    def f(m: Any) -> Any:
        return tnp.apply_along_axis(lambda r: torch.sin(r) * r[0], 1, m).sum()

    f(x).backward()
    y = leaf(x)
    (torch.sin(y) * y[:, :1]).sum().backward()
    close(x.grad, y.grad)
    with torch.no_grad():
        close(f(x), (torch.sin(x) * x[:, :1]).sum())


def test_namespaces_keep_the_functions_docstring_and_signature() -> None:
    assert tsp.special.jv.__doc__ == scipy.special.jv.__doc__
    assert inspect.signature(tsp.linalg.expm) == inspect.signature(scipy.linalg.expm)
    assert "eigvalsh" in dir(tnp.linalg)
    with pytest.raises(AttributeError, match="no chainrules rule"):
        tsp.special.geterr  # noqa: B018


# ---- torch.library.custom_op and torch.compile ----------------------------------------------------------------
def test_custom_ops_compile_without_a_graph_break_and_match_eager() -> None:
    from chainrules.interop.torch.library import STORE, custom_op

    cholesky = custom_op(np.linalg.cholesky, name="test_cholesky")
    eigh = custom_op(np.linalg.eigh, name="test_eigh")

    def loss(m: Any) -> Any:
        return cholesky(m).sum() + (eigh(m).eigenvalues ** 2).sum()

    x, y = leaf(SPD), leaf(SPD)
    loss(x).backward()
    torch.compile(loss, fullgraph=True, backend="aot_eager")(y).backward()  # fullgraph: a graph break raises
    close(x.grad, y.grad)
    eager = leaf(SPD)
    (torch.linalg.cholesky(eager).sum() + (torch.linalg.eigvalsh(eager) ** 2).sum()).backward()
    sym = (x.grad + x.grad.mT) / 2  # NumPy reads the lower triangle, PyTorch symmetrizes
    close(torch.tril(sym) + torch.tril(sym, -1).mT, (eager.grad + eager.grad.mT) / 2, atol=1e-10)
    assert len(STORE) == 0
    assert torch.autograd.gradcheck(cholesky, (leaf(SPD),))
    result = torch.library.opcheck(cholesky.ops[1], ([SPD],), test_utils=("test_schema", "test_faketensor"))
    assert set(result.values()) == {"SUCCESS"}
    # SciPy's factor is Fortran-ordered; the op's output is contiguous, as its fake output (inductor checks strides)
    assert custom_op(scipy.linalg.cholesky, name="test_scipy_cholesky", lower=True)(SPD).is_contiguous()


def test_the_rule_computes_the_output_once() -> None:
    calls = {"f": 0, "rrule": 0, "pullback": 0}

    def cube(x: np.ndarray) -> np.ndarray:
        calls["f"] += 1
        return x ** 3

    @rrule.register(cube, np.ndarray)
    def cube_rrule(x: np.ndarray) -> Any:
        calls["rrule"] += 1
        y = x ** 3

        def cube_pullback(dy: Any) -> Any:
            calls["pullback"] += 1
            return NoTangent(), 3 * x ** 2 * unthunk(dy)

        return y, cube_pullback

    x = leaf(torch.tensor([1.0, 2.0], dtype=F64))
    primitive(cube)(x).sum().backward()
    close(x.grad, [3.0, 12.0])
    assert calls == {"f": 0, "rrule": 1, "pullback": 1}
    with torch.no_grad():
        primitive(cube)(x)
    assert calls == {"f": 1, "rrule": 1, "pullback": 1}


# ---- bound methods: the object is a constant (chainrules.interop._lookup) --------------------------------------
def test_bound_methods_pass_gradcheck_reverse_and_forward() -> None:
    import scipy.stats as st

    x = torch.tensor([0.3, -1.2, 2.1], dtype=F64)
    cov = torch.tensor([[2.0, 0.3], [0.3, 1.0]], dtype=F64)
    points = torch.tensor([[0.3, -1.2], [1.0, 0.4]], dtype=F64)
    cases = [  # (the call of the bound method, the point)
        (lambda v: primitive(st.norm.logpdf)(x, v, 2.0), torch.tensor(0.5, dtype=F64)),
        (lambda v: primitive(st.norm.logpdf)(x, scale=v), torch.tensor(2.0, dtype=F64)),
        (lambda v: primitive(st.multivariate_normal.logpdf)(points, v, cov), torch.tensor([0.1, -0.2], dtype=F64)),
        (lambda v: primitive(st.norm(0.5, 2.0).cdf)(v), x),
        (lambda v: primitive(np.array([[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]]).dot)(v),
         torch.tensor([1.0, -2.0, 0.5], dtype=F64)),
    ]
    for fn, at in cases:
        assert torch.autograd.gradcheck(fn, (leaf(at),), check_forward_ad=True)


def test_a_bound_method_is_the_primitive_of_its_class_s_function_with_the_object_first():
    # the core's rules of a bound method return the object's cotangent after the function's own
    import scipy.stats as st

    x = np.array([0.5, 1.5, 4.0])
    fd = grad(None, lambda a: st.gamma.logpdf(x, a, 0, 1.5).sum(), 2.5)
    logpdf = primitive(st.gamma.logpdf)
    assert logpdf.fun == st.gamma.logpdf
    a = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)
    logpdf(torch.tensor(x), a, 0.0, 1.5).sum().backward()
    np.testing.assert_allclose(float(a.grad), fd, rtol=1e-6)
