"""A census of rules through the JAX and PyTorch bridges, against finite differences of the primal.

For each function (elementwise, reductions, linear-algebra factorizations and matrix
functions, special functions, structured matrices and contractions), at one of its
declared samples (``chainrules_core.samples_of``; the linear-algebra functions, which
declare none yet, at inputs of this file), the bridge's primitive is differentiated by the
framework itself and compared with finite differences of the NumPy function:

* JAX, reverse: ``test_rrule(primitive(f), ..., config=JaxConfig(), rrule_f=rrule_via_ad)``
  (``jax.vjp`` of the ``custom_vjp`` primitive);
* JAX, forward: ``test_frule(primitive(f, mode="forward"), ..., frule_f=frule_via_ad)``
  (``jax.jvp`` of the ``custom_jvp`` primitive);
* PyTorch, reverse and forward: the same with ``TorchConfig`` (``torch.func.vjp`` and
  ``torch.func.jvp`` of the ``autograd.Function``: its ``backward`` and ``jvp``).

Arguments a sample holds fixed (``PrimalAndTangent(x, NoTangent())``) and integers are
bound into the function, so only the differentiated arguments reach the framework.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.linalg
import scipy.special

from chainrules import NoTangent, frule_via_ad, rrule_via_ad
from chainrules.rulesets._samples import spd, well_conditioned
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import Sample, samples_of

jax = pytest.importorskip("jax")
torch = pytest.importorskip("torch")

from chainrules.interop.jax import JaxConfig  # noqa: E402
from chainrules.interop.jax import primitive as jax_primitive  # noqa: E402
from chainrules.interop.torch import TorchConfig  # noqa: E402
from chainrules.interop.torch import primitive as torch_primitive  # noqa: E402

_RNG = np.random.default_rng(15)


def _linalg_inputs() -> dict[Any, Sample]:
    """Inputs of the linear-algebra functions (their rulesets declare no samples yet)."""
    a = well_conditioned(3, _RNG)
    s = spd(3, _RNG)
    lower = np.tril(well_conditioned(3, _RNG)) + 2 * np.eye(3)
    b = _RNG.standard_normal(3)
    return {
        np.linalg.cholesky: Sample(s),
        np.linalg.qr: Sample(well_conditioned(4, _RNG, m=3)),
        np.linalg.eigh: Sample(s, gauge_invariant=lambda out: (out[0], np.abs(out[1]))),
        np.linalg.eigvalsh: Sample(s),
        np.linalg.svd: Sample(well_conditioned(3, _RNG, m=2), fkwargs={"full_matrices": False},
                              gauge_invariant=lambda out: (np.abs(out[0]), out[1], np.abs(out[2]))),
        np.linalg.det: Sample(a),
        np.linalg.slogdet: Sample(a),
        np.linalg.inv: Sample(a),
        np.linalg.solve: Sample(a, b),
        np.linalg.pinv: Sample(well_conditioned(3, _RNG, m=2)),
        scipy.linalg.cholesky: Sample(s, fkwargs={"lower": True}),
        scipy.linalg.expm: Sample(0.5 * a),
        scipy.linalg.sqrtm: Sample(s),
        scipy.linalg.logm: Sample(s),
        scipy.linalg.solve_triangular: Sample(lower, b, fkwargs={"lower": True}),
        scipy.linalg.inv: Sample(a),
        scipy.linalg.det: Sample(a),
        np.diag: Sample(_RNG.standard_normal(3)),
        np.tril: Sample(a),
        np.triu: Sample(a, 1),
        np.trace: Sample(a),
    }


LINALG = _linalg_inputs()

CENSUS: dict[str, list[Any]] = {
    "elementwise": [np.sin, np.exp, np.log1p, np.tanh, np.arctan2, np.hypot, np.power, np.sqrt, np.cbrt,
                    np.logaddexp, np.expm1, np.arcsinh, np.multiply, np.divide, np.maximum],
    "reductions": [np.sum, np.prod, np.mean, np.var, np.std, np.cumsum, np.max, scipy.special.logsumexp],
    "special": [scipy.special.jv, scipy.special.kv, scipy.special.iv, scipy.special.yv, scipy.special.gamma,
                scipy.special.gammaln, scipy.special.digamma, scipy.special.erf, scipy.special.erfinv,
                scipy.special.betainc, scipy.special.gammainc, scipy.special.expit, scipy.special.ellipk,
                scipy.special.spherical_jn],
    "linalg": [np.linalg.cholesky, np.linalg.qr, np.linalg.eigh, np.linalg.eigvalsh, np.linalg.svd, np.linalg.det,
               np.linalg.slogdet, np.linalg.inv, np.linalg.solve, np.linalg.pinv, scipy.linalg.cholesky,
               scipy.linalg.expm, scipy.linalg.sqrtm, scipy.linalg.logm, scipy.linalg.solve_triangular,
               scipy.linalg.inv, scipy.linalg.det],
    "structured and contractions": [np.diag, np.tril, np.triu, np.trace, np.matmul, np.einsum, np.kron, np.outer],
}
FUNCTIONS = [(family, f) for family, fs in CENSUS.items() for f in fs]
_OPTIONS = ("rtol", "atol", "fdm", "gauge_invariant")


def _plain(a: Any) -> bool:
    """A number, a string or a float64/integer/boolean array (what every framework takes)."""
    a = a.primal if isinstance(a, PrimalAndTangent) else a
    if isinstance(a, np.ndarray):
        return a.dtype == np.float64 or a.dtype.kind in "bi"
    return isinstance(a, (bool, int, float, str, np.integer, np.float64))


def _sample(f: Any) -> Sample:
    """The first float64 sample of ``f`` whose arguments are plain numbers and arrays."""
    if f in LINALG:
        return LINALG[f]
    for s in samples_of(f):
        if all(_plain(a) for a in s.args) and "config" not in s.options:
            return s
    raise LookupError(f"no plain float64 sample of {f}")


def _fixed(a: Any) -> bool:
    if isinstance(a, PrimalAndTangent):
        return isinstance(a.tangent, NoTangent)
    return isinstance(a, (bool, int, str, np.integer)) or (isinstance(a, np.ndarray) and a.dtype.kind in "bi")


def _bind(bridged: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Callable[..., Any], list[Any]]:
    """``bridged`` as a function of the differentiated arguments only (the others bound)."""
    free = [k for k, a in enumerate(args) if not _fixed(a)]
    values = [getattr(a, "primal", a) for a in args]

    def census_call(*xs: Any, **kwargs: Any) -> Any:
        full = list(values)
        for k, x in zip(free, xs):
            full[k] = x
        return bridged(*full, **kwargs)

    return census_call, [args[k] for k in free]


def _check(bridge: str, mode: str, f: Any) -> None:
    sample = _sample(f)
    options = {k: v for k, v in sample.options.items() if k in _OPTIONS}
    if bridge == "jax":
        config: Any = JaxConfig()
        bridged = jax_primitive(f, mode=mode)
    else:
        config = TorchConfig()
        bridged = torch_primitive(f)
    g, args = _bind(bridged, sample.args)
    if mode == "reverse":
        test_rrule(g, *args, fkwargs=sample.fkwargs, config=config, rrule_f=rrule_via_ad, check_inplace_add=False,
                   check_frule_consistency=False, **options)
    else:
        test_frule(g, *args, fkwargs=sample.fkwargs, config=config, frule_f=frule_via_ad,
                   check_rrule_consistency=False, **options)


def test_the_census_covers_fifty_rules_across_the_families() -> None:
    assert len(FUNCTIONS) >= 50
    assert {family for family, _ in FUNCTIONS} == set(CENSUS)
    for _, f in FUNCTIONS:
        _sample(f)  # every function has an input


@pytest.fixture(scope="module")
def x64() -> Any:
    previous = jax.config.read("jax_enable_x64")
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", previous)


def _id(item: tuple[str, Any]) -> str:
    f = item[1]
    return f"{getattr(f, '__module__', '') or 'numpy'}.{f.__name__}".replace("numpy.linalg._linalg", "numpy.linalg")


@pytest.mark.parametrize("mode", ["reverse", "forward"])
@pytest.mark.parametrize("item", FUNCTIONS, ids=[_id(i) for i in FUNCTIONS])
def test_jax_bridge(item: tuple[str, Any], mode: str, x64: Any) -> None:
    _check("jax", mode, item[1])


@pytest.mark.parametrize("mode", ["reverse", "forward"])
@pytest.mark.parametrize("item", FUNCTIONS, ids=[_id(i) for i in FUNCTIONS])
def test_torch_bridge(item: tuple[str, Any], mode: str) -> None:
    _check("torch", mode, item[1])


@pytest.mark.parametrize("item", FUNCTIONS, ids=[_id(i) for i in FUNCTIONS])
def test_jax_bridge_under_jit_matches_eager(item: tuple[str, Any], x64: Any) -> None:
    """The same VJP under ``jax.jit`` (the rule in host callbacks, the output's shape from stand-ins) as eagerly
    (checked against finite differences above)."""
    sample = _sample(item[1])
    g, args = _bind(jax_primitive(item[1]), sample.args)
    xs = [jax.numpy.asarray(getattr(a, "primal", a)) for a in args]

    def vjp_all(*values: Any) -> Any:
        y, vjp = jax.vjp(lambda *v: g(*v, **sample.fkwargs), *values)
        cts = jax.tree_util.tree_map(lambda leaf: jax.numpy.full_like(leaf, 0.7), y)
        return y, vjp(cts)

    eager = vjp_all(*xs)
    jitted = jax.jit(vjp_all)(*xs)
    for a, b in zip(jax.tree_util.tree_leaves(eager), jax.tree_util.tree_leaves(jitted)):
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-12, atol=1e-12)
