"""``TorchConfig``: ``rrule_via_ad``/``frule_via_ad`` by ``torch.func``, checked by chainrules' testers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from chainrules import HasForwardsMode, HasReverseMode, NoTangent, Tangent, frule_via_ad, rrule_via_ad  # noqa: E402
from chainrules.interop.torch import TORCH_CONFIG, TorchConfig  # noqa: E402
from chainrules.testing import test_frule, test_rrule  # noqa: E402

CONFIG = TorchConfig()
RNG = np.random.default_rng(16)


def numpy_io(f: Any) -> Any:
    """``f`` (written with torch operations) on NumPy values too: the testers' finite differences call it so."""

    def on_numpy_values(*args: Any) -> Any:
        if any(isinstance(a, torch.Tensor) for a in args):
            return f(*args)
        y = f(*[torch.from_numpy(np.asarray(a)) for a in args])
        return y.detach().numpy()

    return on_numpy_values


def test_traits() -> None:
    assert isinstance(CONFIG, HasReverseMode) and isinstance(CONFIG, HasForwardsMode)
    assert isinstance(TORCH_CONFIG, TorchConfig) and repr(CONFIG) == "TorchConfig()"


@pytest.mark.parametrize("f", [torch.tanh, lambda x: torch.sum(x ** 3), lambda x: torch.cumsum(x, 0) * x],
                         ids=["tanh", "sum-cube", "cumsum"])
def test_pytorchs_own_gradients_through_chainrules_testers(f: Any) -> None:
    f = numpy_io(f)
    x = RNG.standard_normal(4)
    test_rrule(f, x, config=CONFIG, rrule_f=rrule_via_ad, frule_f=frule_via_ad, check_inplace_add=False)
    test_frule(f, x, config=CONFIG, frule_f=frule_via_ad, rrule_f=rrule_via_ad)


def test_linear_algebra_float32_complex_and_containers() -> None:
    a = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
    test_rrule(numpy_io(torch.linalg.det), a, config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False)
    test_rrule(numpy_io(torch.sin), RNG.standard_normal(3).astype(np.float32), config=CONFIG, rrule_f=rrule_via_ad,
               check_inplace_add=False)
    z = RNG.standard_normal(3) + 1j * RNG.standard_normal(3)
    test_rrule(numpy_io(lambda w: torch.sum(torch.abs(torch.sin(w)) ** 2)), z, config=CONFIG, rrule_f=rrule_via_ad,
               check_inplace_add=False)
    test_rrule(numpy_io(torch.exp), z, config=CONFIG, rrule_f=rrule_via_ad, frule_f=frule_via_ad,
               check_inplace_add=False)
    _y, pullback = rrule_via_ad(CONFIG, lambda pair, n: pair[0] * pair[1] ** n, (2.0, np.array([1.0, 3.0])), 2)
    _, dpair, dn = pullback(np.ones(2))
    assert isinstance(dpair, Tangent) and dn == NoTangent()
    np.testing.assert_allclose(dpair[1], [4.0, 12.0])
    with pytest.raises(NotImplementedError, match="tangent of the function itself"):
        frule_via_ad(CONFIG, (1.0, 1.0), torch.sin, 0.5)


def test_the_testers_catch_a_wrong_pytorch_gradient() -> None:
    class WrongSin(torch.autograd.Function):
        @staticmethod
        def forward(x: Any) -> Any:
            return torch.sin(x)

        @staticmethod
        def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * torch.sin(ctx.saved_tensors[0])  # should be cos

    with pytest.raises(AssertionError):
        test_rrule(numpy_io(WrongSin.apply), np.array([0.3, 0.5]), config=CONFIG, rrule_f=rrule_via_ad,
                   check_inplace_add=False, check_frule_consistency=False)


def test_a_higher_order_rule_runs_the_configs_vjp_and_jvp_with_torch_callables() -> None:
    from chainrules.interop.torch import numpy as tnp

    x = torch.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=torch.float64)
    dx = torch.tensor([[1.0, -1.0], [0.5, 2.0]], dtype=torch.float64)

    def mapped(m: Any) -> Any:
        return tnp.apply_along_axis(lambda r: torch.sin(r) * r[0], 1, m)

    def own(m: Any) -> Any:
        return torch.sin(m) * m[:, :1]

    np.testing.assert_allclose(torch.func.jvp(mapped, (x,), (dx,))[1], torch.func.jvp(own, (x,), (dx,))[1])
    np.testing.assert_allclose(torch.func.vjp(mapped, x)[1](dx)[0], torch.func.vjp(own, x)[1](dx)[0])
