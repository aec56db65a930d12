"""scipy.signal: the pullback of chainrules against the primal, autograd, JAX and PyTorch.

Cases, one group each (``<case> pullback / primal``, the baseline the SciPy primal):

* ``fftconvolve`` of ``10**5`` samples with ``10**3`` (issue 14's case): chainrules' pullback
  (both cotangents), JAX's jitted ``vjp_fn`` of ``jax.scipy.signal.fftconvolve`` and its
  primal, PyTorch's ``conv1d`` (a direct convolution, flipped kernel, full padding: the
  comparable operation it has) backward and forward, autograd's ``scipy.signal.convolve``
  (direct) backward;
* ``lfilter`` (a 4th-order IIR filter, ``10**5`` samples): chainrules (``b``, ``a``, ``x``);
  no peer has a differentiable ``lfilter``;
* ``welch`` and ``stft`` (``10**5`` samples, ``nperseg=256``): chainrules and JAX
  (``jax.scipy.signal.welch``/``stft``).

Run::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
    python -m pytest benchmarks/test_signal.py --benchmark-only -q
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest
import scipy.signal

import chainrules  # noqa: F401  (registers the rules)
from chainrules import ZeroTangent, rrule, unthunk

HAVE_AUTOGRAD = importlib.util.find_spec("autograd") is not None
HAVE_JAX = importlib.util.find_spec("jax") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None

_rng = np.random.default_rng(14)
A, B = _rng.standard_normal(10 ** 5), _rng.standard_normal(10 ** 3)
DY = _rng.standard_normal(10 ** 5 + 10 ** 3 - 1)
X = _rng.standard_normal(10 ** 5)
FILTER = scipy.signal.butter(4, 0.2)
CONV = "fftconvolve 1e5 * 1e3 pullback / primal"


def _jax() -> Any:
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


# ---- fftconvolve ---------------------------------------------------------------------------------------
def test_fftconvolve_primal(benchmark: Any) -> None:
    benchmark.group = CONV
    benchmark.extra_info["baseline"] = True
    benchmark(scipy.signal.fftconvolve, A, B)


def test_fftconvolve_pullback_chainrules(benchmark: Any) -> None:
    benchmark.group = CONV
    _, pullback = rrule(scipy.signal.fftconvolve, A, B)
    benchmark(lambda: [unthunk(c) for c in pullback(DY)[1:3]])


def test_fftconvolve_pullback_jax(benchmark: Any) -> None:
    benchmark.group = CONV
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax()
    import jax.scipy.signal as jsig

    _, vjp_fn = jax.vjp(jsig.fftconvolve, jax.numpy.asarray(A), jax.numpy.asarray(B))
    backward = jax.jit(vjp_fn)
    dy = jax.numpy.asarray(DY)
    jax.block_until_ready(backward(dy))
    benchmark(lambda: jax.block_until_ready(backward(dy)))


def test_fftconvolve_primal_jax(benchmark: Any) -> None:
    benchmark.group = CONV
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax()
    import jax.scipy.signal as jsig

    f = jax.jit(jsig.fftconvolve)
    a, b = jax.numpy.asarray(A), jax.numpy.asarray(B)
    jax.block_until_ready(f(a, b))
    benchmark(lambda: jax.block_until_ready(f(a, b)))


def _torch_conv(a: Any, b: Any) -> Any:
    import torch

    return torch.nn.functional.conv1d(a[None, None], b.flip(0)[None, None], padding=b.shape[0] - 1)[0, 0]


def test_fftconvolve_pullback_torch_conv1d(benchmark: Any) -> None:
    benchmark.group = CONV
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    torch.set_num_threads(1)
    a, b = (torch.from_numpy(v.copy()).requires_grad_(True) for v in (A, B))
    y = _torch_conv(a, b)
    dy = torch.from_numpy(DY.copy())
    benchmark(lambda: torch.autograd.grad(y, (a, b), dy, retain_graph=True))


def test_fftconvolve_primal_torch_conv1d(benchmark: Any) -> None:
    benchmark.group = CONV
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    torch.set_num_threads(1)
    a, b = (torch.from_numpy(v.copy()) for v in (A, B))
    benchmark(lambda: _torch_conv(a, b))


def test_fftconvolve_pullback_autograd_convolve(benchmark: Any) -> None:
    benchmark.group = CONV
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    import autograd.scipy.signal as asig
    from autograd import make_vjp

    vjp, _ = make_vjp(lambda ab: asig.convolve(ab[0], ab[1]))((A, B))
    benchmark(vjp, DY)


# ---- lfilter -------------------------------------------------------------------------------------------
def test_lfilter_primal(benchmark: Any) -> None:
    benchmark.group = "lfilter order 4, 1e5 pullback / primal"
    benchmark.extra_info["baseline"] = True
    benchmark(scipy.signal.lfilter, *FILTER, X)


def test_lfilter_pullback_chainrules(benchmark: Any) -> None:
    benchmark.group = "lfilter order 4, 1e5 pullback / primal"
    _, pullback = rrule(scipy.signal.lfilter, *FILTER, X)
    dy = X[::-1].copy()
    benchmark(lambda: [unthunk(c) for c in pullback(dy)[1:4]])


# ---- welch and stft ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["welch", "stft"])
def test_spectral_primal(benchmark: Any, name: str) -> None:
    benchmark.group = f"{name} 1e5 nperseg=256 pullback / primal"
    benchmark.extra_info["baseline"] = True
    benchmark(getattr(scipy.signal, name), X, nperseg=256)


@pytest.mark.parametrize("name", ["welch", "stft"])
def test_spectral_pullback_chainrules(benchmark: Any, name: str) -> None:
    benchmark.group = f"{name} 1e5 nperseg=256 pullback / primal"
    out, pullback = rrule(getattr(scipy.signal, name), X, nperseg=256)
    dy = (ZeroTangent(),) * (len(out) - 1) + (np.ones_like(out[-1]),)
    benchmark(lambda: pullback(dy)[1])


@pytest.mark.parametrize("name", ["welch", "stft"])
def test_spectral_pullback_jax(benchmark: Any, name: str) -> None:
    benchmark.group = f"{name} 1e5 nperseg=256 pullback / primal"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax()
    import jax.scipy.signal as jsig

    f = getattr(jsig, name)
    _, vjp_fn = jax.vjp(lambda x: f(x, nperseg=256)[-1], jax.numpy.asarray(X))
    backward = jax.jit(vjp_fn)
    out = f(jax.numpy.asarray(X), nperseg=256)[-1]
    dy = jax.numpy.ones_like(out)
    jax.block_until_ready(backward(dy))
    benchmark(lambda: jax.block_until_ready(backward(dy)))
